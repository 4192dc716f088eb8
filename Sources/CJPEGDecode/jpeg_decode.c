#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "jpeg_decode.h"

// The error manager: libjpeg's standard one with its three outputs replaced. A fatal error and
// the first warning both end the decode through `jump`, with the message kept; trace messages
// and `output_message` print nothing.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
    int max_scans;
} error_manager;

static void on_error(j_common_ptr cinfo) {
    error_manager *e = (error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; // trace messages
    error_manager *e = (error_manager *)cinfo->err;
    cinfo->err->num_warnings++;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

static void silent(j_common_ptr cinfo) { (void)cinfo; }

// Called between scans of a multi-scan file: too many scans is a file built to make the decoder
// pass over the image again and again.
static void count_scans(j_common_ptr cinfo) {
    error_manager *e = (error_manager *)cinfo->err;
    if (cinfo->is_decompressor && e->max_scans > 0 && ((j_decompress_ptr)cinfo)->input_scan_number > e->max_scans) {
        snprintf(e->message, CARDSCAN_JPEG_MESSAGE_LENGTH, "more than %d scans", e->max_scans);
        longjmp(e->jump, 1);
    }
}

static void install(struct jpeg_decompress_struct *cinfo, error_manager *e, char *message, int max_scans) {
    cinfo->err = jpeg_std_error(&e->pub);
    e->pub.error_exit = on_error;
    e->pub.emit_message = on_message;
    e->pub.output_message = silent;
    e->message = message;
    e->max_scans = max_scans;
    message[0] = 0;
}

// Bytes libjpeg's coefficient controller keeps for a multi-scan file (jdcoefct.c: one JBLOCK per
// block of each component, rounded up to whole sampling units).
static size_t coefficient_bytes(struct jpeg_decompress_struct *cinfo) {
    size_t total = 0;
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        jpeg_component_info *c = &cinfo->comp_info[ci];
        size_t w = ((size_t)c->width_in_blocks + c->h_samp_factor - 1) / c->h_samp_factor * c->h_samp_factor;
        size_t h = ((size_t)c->height_in_blocks + c->v_samp_factor - 1) / c->v_samp_factor * c->v_samp_factor;
        total += w * h * sizeof(JBLOCK);
    }
    return total;
}

int cardscan_jpeg_read_header(const uint8_t *data, size_t size, cardscan_jpeg_header *header,
                              char message[CARDSCAN_JPEG_MESSAGE_LENGTH]) {
    struct jpeg_decompress_struct cinfo;
    error_manager e;
    memset(header, 0, sizeof(*header));
    install(&cinfo, &e, message, 0);
    if (setjmp(e.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    jpeg_calc_output_dimensions(&cinfo);
    header->width = cinfo.output_width;
    header->height = cinfo.output_height;
    header->components = cinfo.out_color_components;
    header->multiple_scans = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    header->coefficient_bytes = header->multiple_scans ? coefficient_bytes(&cinfo) : 0;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

static inline void set_byte(uint32_t *line, uint32_t x, uint32_t v) {
    uint32_t shift = 24 - 8 * (x & 3);
    line[x >> 2] = (line[x >> 2] & ~(0xFFu << shift)) | (v << shift);
}

static inline uint32_t clamp(int v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }

int cardscan_jpeg_decode(const uint8_t *data, size_t size, int gray, int reduction, uint32_t width, uint32_t height,
                         uint32_t *out, int words_per_line, size_t max_memory, int max_scans,
                         char message[CARDSCAN_JPEG_MESSAGE_LENGTH]) {
    struct jpeg_decompress_struct cinfo;
    error_manager e;
    JSAMPROW volatile row = NULL;
    struct jpeg_progress_mgr progress;
    install(&cinfo, &e, message, max_scans);
    if (setjmp(e.jump)) {
        free(row);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    if (max_memory > 0) cinfo.mem->max_memory_to_use = (long)max_memory;
    progress.progress_monitor = count_scans;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (gray) cinfo.out_color_space = JCS_GRAYSCALE;
    if (reduction != 1 && reduction != 2 && reduction != 4 && reduction != 8) {
        snprintf(message, CARDSCAN_JPEG_MESSAGE_LENGTH, "reduction %d is not 1, 2, 4 or 8", reduction);
        longjmp(e.jump, 1);
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)reduction;
    jpeg_calc_output_dimensions(&cinfo);
    int channels = cinfo.out_color_components;
    if (cinfo.output_width != width || cinfo.output_height != height) {
        snprintf(message, CARDSCAN_JPEG_MESSAGE_LENGTH, "size %ux%u differs from the header's", cinfo.output_width, cinfo.output_height);
        longjmp(e.jump, 1);
    }
    if (channels != 1 && channels != 3 && channels != 4) {
        snprintf(message, CARDSCAN_JPEG_MESSAGE_LENGTH, "%d samples per pixel", channels);
        longjmp(e.jump, 1);
    }
    row = malloc((size_t)width * (size_t)channels);
    if (!row) {
        snprintf(message, CARDSCAN_JPEG_MESSAGE_LENGTH, "out of memory");
        longjmp(e.jump, 1);
    }
    jpeg_start_decompress(&cinfo);
    int adobe = cinfo.saw_Adobe_marker;
    JSAMPROW rows[1] = {row};
    for (uint32_t y = 0; y < height; y++) {
        if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) {
            snprintf(message, CARDSCAN_JPEG_MESSAGE_LENGTH, "no data at row %u", y);
            longjmp(e.jump, 1);
        }
        uint32_t *line = out + (size_t)y * (size_t)words_per_line;
        if (channels == 1) {
            for (uint32_t x = 0; x < width; x++) set_byte(line, x, row[x]);
        } else if (channels == 3) {
            for (uint32_t x = 0; x < width; x++) {
                const JSAMPLE *p = row + 3 * (size_t)x;
                line[x] = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8);
            }
        } else {
            // CMYK (YCCK arrives as CMYK): black minus the complement of each colour weighted
            // by black; Adobe files store C, M, Y inverted.
            for (uint32_t x = 0; x < width; x++) {
                const JSAMPLE *p = row + 4 * (size_t)x;
                int c = p[0], m = p[1], yel = p[2], k = p[3];
                int r = adobe ? k * c / 255 : k * (255 - c) / 255;
                int g = adobe ? k * m / 255 : k * (255 - m) / 255;
                int b = adobe ? k * yel / 255 : k * (255 - yel) / 255;
                line[x] = (clamp(r) << 24) | (clamp(g) << 16) | (clamp(b) << 8);
            }
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    return 0;
}
