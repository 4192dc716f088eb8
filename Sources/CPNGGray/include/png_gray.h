#ifndef CARDSCAN_PNG_GRAY_H
#define CARDSCAN_PNG_GRAY_H
#include <stddef.h>
#include <stdint.h>

// Decodes a PNG held in memory straight to 8-bit luminance, row by row, into `out` (a Leptonica
// 8 bpp raster: `words_per_line` 32-bit words per row, bytes big-endian within each word). Colour
// is weighted as Leptonica weighs it (0.3/0.5/0.2), transparency is composited on white, 16-bit samples
// are reduced to 8, palettes and low bit depths expanded. Only `width` x `height` of the image
// header are written. Memory: libpng's row buffer, never a full colour image (a 144 MP RGB PNG
// decoded by Leptonica first took 576 MB as 32 bpp). Returns 0 on success, -1 on a corrupt,
// truncated or mismatched file, -2 for an interlaced PNG with transparency (not handled here).
int cardscan_png_read_gray(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                           uint32_t *out, int words_per_line);

// Decodes a PNG held in memory to 32-bit RGB (0xRRGGBB00, Leptonica's 32 bpp layout) `reduction`
// times smaller in each direction, row by row: only every `reduction`-th pixel of every
// `reduction`-th row is kept (nearest), so no full-size image is made (a 140 MP photo drawn for
// `--annotate` took 1.3 GB). Transparency is composited on white; grey, palettes, low and 16-bit
// depths are expanded to 8-bit RGB. `out` holds ceil(width / reduction) x ceil(height /
// reduction) pixels. Returns 0, -1 on a corrupt or truncated file, -2 for an interlaced PNG (its
// rows come in passes; not handled here).
int cardscan_png_read_rgb_reduced(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                  uint32_t reduction, uint32_t *out, int words_per_line);

#endif
