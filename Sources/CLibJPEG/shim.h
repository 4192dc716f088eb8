#ifndef CARDSCAN_CLIBJPEG_SHIM_H
#define CARDSCAN_CLIBJPEG_SHIM_H
// Debian: libjpeg-dev (libjpeg-turbo; see scripts/setup.sh). jpeglib.h needs stdio.h first.
#include <stdio.h>
#include <jpeglib.h>
#endif
