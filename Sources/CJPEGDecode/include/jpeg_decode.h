#ifndef CARDSCAN_JPEG_DECODE_H
#define CARDSCAN_JPEG_DECODE_H
#include <stddef.h>
#include <stdint.h>

// JPEG decoding with libjpeg (libjpeg-turbo; Debian libjpeg-dev, see scripts/setup.sh),
// row by row straight into a Leptonica raster, with cardscan's own error manager: libjpeg never
// prints (its default `output_message` writes warnings and errors to stderr), a fatal error
// returns instead of exiting, and every warning (truncated or damaged data, also one raised by
// `jpeg_finish_decompress` after the last row) makes the decode fail with libjpeg's message.
//
// The pixels are what Leptonica's `pixReadMemJpeg` makes with the same libjpeg and its default
// settings: grey is libjpeg's luminance output (the Y channel, no colour conversion); colour is
// RGB packed 0xRRGGBB00; CMYK and YCCK are converted to RGB as Leptonica converts them (inverted
// when an Adobe marker says so).

// What the header says, read without decoding any pixel.
typedef struct {
    uint32_t width, height;
    // Samples per pixel of the colour output (1 grey, 3 RGB, 4 CMYK or YCCK).
    int components;
    // Nonzero for a progressive (or other multi-scan) file: libjpeg then keeps the coefficients
    // of the whole image while it decodes, `coefficient_bytes` of them, whatever is asked of it.
    int multiple_scans;
    size_t coefficient_bytes;
} cardscan_jpeg_header;

// Length of the message buffers (libjpeg's JMSG_LENGTH_MAX).
#define CARDSCAN_JPEG_MESSAGE_LENGTH 200

// Reads the header. Returns 0, or -1 with libjpeg's reason in `message`.
int cardscan_jpeg_read_header(const uint8_t *data, size_t size, cardscan_jpeg_header *header,
                              char message[CARDSCAN_JPEG_MESSAGE_LENGTH]);

// Decodes into `out`, `words_per_line` 32-bit words per row: with `gray`, 8-bit luminance (bytes
// big-endian within each word, as Leptonica's 8 bpp rasters); otherwise, for a file of 3 or 4
// components, 32-bit RGB (0xRRGGBB00), and for a grey file 8-bit grey. `reduction` (1, 2, 4 or 8)
// decodes the image that many times smaller in each direction with libjpeg's scaled inverse DCT
// (no full-size pixel is made); `width` x `height` must be the header's size divided by it,
// rounded up. libjpeg may use at most `max_memory` bytes for its buffers (0: no bound), and a
// file with more than `max_scans` scans is refused (a progressive file's scans each pass over the
// whole image). Returns 0, or -1 with the reason in `message` (the first warning or the error).
int cardscan_jpeg_decode(const uint8_t *data, size_t size, int gray, int reduction, uint32_t width, uint32_t height,
                         uint32_t *out, int words_per_line, size_t max_memory, int max_scans,
                         char message[CARDSCAN_JPEG_MESSAGE_LENGTH]);

#endif
