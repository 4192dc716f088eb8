#ifndef CARDSCAN_PNG_LEVEL_H
#define CARDSCAN_PNG_LEVEL_H
// Tesseract 5.3 passes every text line it recognises through an in-memory PNG (ImageData::SetPix
// encodes it with Leptonica, RecognizeLine decodes it again); deflate at zlib's default level was
// about 8% of cardscan's scan time. This target defines `png_set_compression_level`, which
// Leptonica calls for each PNG it writes. While `cardscan_png_store_only(1)` is in effect on the
// calling thread, the level passed on to libpng is 0 (stored, no compression search); otherwise the
// caller's level passes through unchanged. The definition takes effect only in an executable that
// exports the symbol (`-Xlinker --export-dynamic-symbol=png_set_compression_level`); elsewhere
// libpng's own function is used and nothing changes.

/// Sets (1) or clears (0) store-only PNG compression for the calling thread.
void cardscan_png_store_only(int on);

/// 1 once Leptonica has called this target's `png_set_compression_level` (the symbol is exported
/// and libpng's original was found), else 0.
int cardscan_png_level_interposed(void);

#endif
