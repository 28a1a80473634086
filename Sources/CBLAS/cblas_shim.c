#define _GNU_SOURCE
#include <dlfcn.h>
#include "cblas_shim.h"

int lorgnette_blas_set_threads(int threads) {
    void (*set)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (set == NULL) return 0;
    set(threads);
    return 1;
}

const char *lorgnette_blas_provider(void) {
    char *(*config)(void) = (char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_config");
    if (config == NULL) return "unknown";
    return config();
}
