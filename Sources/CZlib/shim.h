#ifndef CARDSCAN_CZLIB_SHIM_H
#define CARDSCAN_CZLIB_SHIM_H
#include <zlib.h>
#endif
