#ifndef LORGNETTE_CBLAS_SHIM_H
#define LORGNETTE_CBLAS_SHIM_H

// The system BLAS/LAPACK seen from Swift. The link is against the generic `libblas`/`liblapacke`
// (Debian's alternatives pick OpenBLAS or the reference BLAS at run time), so nothing here names
// an OpenBLAS symbol directly.
#include <cblas.h>
#include <lapacke.h>

/// Asks the BLAS runtime to use one thread, if it is OpenBLAS (looked up with dlsym so the
/// reference BLAS still links). Returns 1 when the request reached OpenBLAS, 0 otherwise.
int lorgnette_blas_set_threads(int threads);

/// The name of the BLAS runtime provider when it can tell ("OpenBLAS ..."), else "unknown".
const char *lorgnette_blas_provider(void);

#endif
