#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include "png_level.h"

static _Thread_local int store_only = 0;
static atomic_int interposed = 0;

void cardscan_png_store_only(int on) { store_only = on; }

int cardscan_png_level_interposed(void) { return atomic_load(&interposed); }

typedef void (*png_level_function)(void *png_ptr, int level);

// libpng's signature: void png_set_compression_level(png_structrp png_ptr, int level).
__attribute__((used, visibility("default")))
void png_set_compression_level(void *png_ptr, int level) {
    static _Atomic(png_level_function) original = NULL;
    png_level_function next = atomic_load(&original);
    if (next == NULL) {
        next = (png_level_function)dlsym(RTLD_NEXT, "png_set_compression_level");
        atomic_store(&original, next);
    }
    if (next == NULL) return; // libpng keeps its default level
    atomic_store(&interposed, 1);
    next(png_ptr, store_only ? 0 : level);
}
