#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "png_gray.h"

// An interlaced PNG with transparency would need its grey+alpha rows kept across passes; it is
// left to the caller's other decoder (-2) rather than decoded wrongly.

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

int cardscan_png_read_gray(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                           uint32_t *out, int words_per_line) {
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
    // Leptonica's luminance weights (0.3, 0.5, 0.2), in encoded values as Leptonica does (no
    // gamma is set, so libpng does not linearise); alpha is composited below, as Leptonica blends
    // over white before converting.
    png_set_rgb_to_gray_fixed(png, 1, 30000, 50000);
    int passes = png_set_interlace_handling(png);
    if (passes > 1 && ((png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS))) {
        result = -2;
        png_error(png, "interlaced with transparency");
    }
    png_read_update_info(png, info);
    png_size_t rowbytes = png_get_rowbytes(png, info);
    int channels = png_get_channels(png, info);
    if ((channels != 1 && channels != 2) || rowbytes < (png_size_t)width * channels) png_error(png, "unexpected layout");
    row = malloc(rowbytes);
    if (!row) png_error(png, "memory");
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            uint32_t *line = out + (size_t)y * (size_t)words_per_line;
            if (passes > 1 && channels == 1) {
                // Interlaced: libpng combines each pass into the row, so hand it the row so far.
                for (uint32_t x = 0; x < width; x++) row[x] = (uint8_t)(line[x >> 2] >> (24 - 8 * (x & 3)));
            }
            png_read_row(png, row, NULL);
            for (uint32_t x = 0; x < width; x++) {
                uint32_t v = row[x * channels];
                if (channels == 2) {
                    uint32_t a = row[x * 2 + 1];
                    v = (v * a + 255 * (255 - a) + 127) / 255;
                }
                uint32_t shift = 24 - 8 * (x & 3);
                line[x >> 2] = (line[x >> 2] & ~(0xFFu << shift)) | (v << shift);
            }
        }
    }
    png_read_end(png, NULL);
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

int cardscan_png_read_rgb_reduced(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                  uint32_t reduction, uint32_t *out, int words_per_line) {
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
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height || reduction < 1) png_error(png, "size");
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        // Interlaced rows arrive in several passes: they cannot be dropped as they come.
        result = -2;
        png_error(png, "interlaced");
    }
    png_set_expand(png);          // palette -> RGB, grey < 8 bits -> 8 bits, tRNS -> alpha
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_read_update_info(png, info);
    png_size_t rowbytes = png_get_rowbytes(png, info);
    int channels = png_get_channels(png, info);
    if ((channels != 3 && channels != 4) || rowbytes < (png_size_t)width * channels) png_error(png, "unexpected layout");
    row = malloc(rowbytes);
    if (!row) png_error(png, "memory");
    uint32_t out_width = (width + reduction - 1) / reduction;
    for (uint32_t y = 0; y < height; y++) {
        png_read_row(png, row, NULL);
        if (y % reduction != 0) continue;
        uint32_t *line = out + (size_t)(y / reduction) * (size_t)words_per_line;
        for (uint32_t x = 0; x < out_width; x++) {
            png_bytep p = row + (size_t)x * reduction * channels;
            uint32_t r = p[0], g = p[1], b = p[2];
            if (channels == 4) {
                // Over white, as Leptonica blends before showing a transparent photo.
                uint32_t a = p[3];
                r = (r * a + 255 * (255 - a) + 127) / 255;
                g = (g * a + 255 * (255 - a) + 127) / 255;
                b = (b * a + 255 * (255 - a) + 127) / 255;
            }
            line[x] = (r << 24) | (g << 16) | (b << 8);
        }
    }
    png_read_end(png, NULL);
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
