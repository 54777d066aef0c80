/* A module that depends on an OpenMP library, as rlx-compile's modules with
 * parallel loops depend on libomp: here the fake one of fake_openmp.c. Its
 * function returns the thread count its calling thread has been given. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

int omp_get_max_threads(void);

EXPORT const char rlx_manifest[] = "rlx-module 1\n"
                                   "func threads 0 1\n"
                                   "res i64 0\n";

typedef struct memref0 {
  void *allocated;
  void *aligned;
  int64_t offset;
} memref0_t;

EXPORT void rlx_invoke_threads(void **args) {
  const memref0_t *out = args[0];
  *(int64_t *)out->aligned = omp_get_max_threads();
}
