#ifndef CARDSCAN_CTESSERACT_SHIM_H
#define CARDSCAN_CTESSERACT_SHIM_H
// Debian: libtesseract-dev, libleptonica-dev (see scripts/setup.sh).
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#endif
