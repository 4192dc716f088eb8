#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "png_gray.h"

// An interlaced PNG with transparency would need its grey+alpha rows kept across passes, and an
// interlaced PNG read smaller cannot drop rows as they come; both are left to the caller's other
// decoder (-2) rather than decoded wrongly.

typedef struct {
    const uint8_t *data;
    size_t size, offset;
} reader_t;

static void read_bytes(png_structp png, png_bytep out, png_size_t count) {
    reader_t *r = (reader_t *)png_get_io_ptr(png);
    if (r->offset + count > r->size) png_error(png, "truncated");
    memcpy(out, r->data + r->offset, count);
    r->offset += count;
}

static void quiet(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void fail(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

// A sample composited over white by its alpha, as Leptonica blends a transparent photo.
static inline uint32_t over_white(uint32_t v, uint32_t a) { return (v * a + 255 * (255 - a) + 127) / 255; }

// Reads the PNG row by row: to grey at full size (`reduction` 0), or to RGB keeping every
// `reduction`-th pixel of every `reduction`-th row.
static int read_png(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint32_t reduction,
                    uint32_t *out, int words_per_line) {
    int gray = reduction == 0;
    reader_t reader = {data, size, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, fail, quiet);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    png_bytep volatile row = NULL;
    volatile int result = -1;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return result;
    }
    png_set_read_fn(png, &reader, read_bytes);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) png_error(png, "size");
    png_set_expand(png);          // palette -> RGB, grey < 8 bits -> 8 bits, tRNS -> alpha
    png_set_strip_16(png);
    if (gray) {
        // Leptonica's luminance weights (0.3, 0.5, 0.2), in encoded values as Leptonica does (no
        // gamma is set, so libpng does not linearise); alpha is composited below, as Leptonica
        // blends over white before converting.
        png_set_rgb_to_gray_fixed(png, 1, 30000, 50000);
    } else {
        png_set_gray_to_rgb(png);
    }
    int passes = png_set_interlace_handling(png);
    int transparent = (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    if (passes > 1 && (!gray || transparent)) {
        result = -2;
        png_error(png, "interlaced");
    }
    png_read_update_info(png, info);
    png_size_t rowbytes = png_get_rowbytes(png, info);
    int channels = png_get_channels(png, info);
    int expected = gray ? (channels == 1 || channels == 2) : (channels == 3 || channels == 4);
    if (!expected || rowbytes < (png_size_t)width * channels) png_error(png, "unexpected layout");
    row = malloc(rowbytes);
    if (!row) png_error(png, "memory");
    uint32_t step = gray ? 1 : reduction;
    uint32_t out_width = (width + step - 1) / step;
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            uint32_t *line = out + (size_t)(y / step) * (size_t)words_per_line;
            if (passes > 1) {
                // Interlaced (grey, opaque): libpng combines each pass into the row, so hand it
                // the row so far.
                for (uint32_t x = 0; x < width; x++) row[x] = (uint8_t)(line[x >> 2] >> (24 - 8 * (x & 3)));
            }
            png_read_row(png, row, NULL);
            if (y % step != 0) continue;
            for (uint32_t x = 0; x < out_width; x++) {
                png_bytep p = row + (size_t)x * step * channels;
                if (gray) {
                    uint32_t v = channels == 2 ? over_white(p[0], p[1]) : p[0];
                    uint32_t shift = 24 - 8 * (x & 3);
                    line[x >> 2] = (line[x >> 2] & ~(0xFFu << shift)) | (v << shift);
                } else {
                    uint32_t r = p[0], g = p[1], b = p[2];
                    if (channels == 4) { r = over_white(r, p[3]); g = over_white(g, p[3]); b = over_white(b, p[3]); }
                    line[x] = (r << 24) | (g << 16) | (b << 8);
                }
            }
        }
    }
    png_read_end(png, NULL);
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

int cardscan_png_read_gray(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                           uint32_t *out, int words_per_line) {
    return read_png(data, size, width, height, 0, out, words_per_line);
}

int cardscan_png_read_rgb_reduced(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                  uint32_t reduction, uint32_t *out, int words_per_line) {
    if (reduction < 1) return -1;
    return read_png(data, size, width, height, reduction, out, words_per_line);
}
