/* A hand-written module with complex tensors, following the rlx-compile
 * ABI: MLIR lays out a memref of complex<f32> (c64) or complex<f64> (c128)
 * as {re, im} structs, the layout of C's float _Complex and NumPy's
 * complex64. Each rlx_invoke_* reads its arguments through the memref
 * descriptors as compiled code does. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT const char rlx_manifest[] =
    "rlx-module 1\n"
    /* out = a * b, element-wise: a product tells the real part from the
     * imaginary one */
    "func mul_c64 2 1\n"
    "arg c64 1 3\n"
    "arg c64 1 3\n"
    "res c64 1 3\n"
    /* re, im = the parts of z; sum = the sum of z's elements */
    "func split_c128 1 3\n"
    "arg c128 2 2 2\n"
    "res f64 2 2 2\n"
    "res f64 2 2 2\n"
    "res c128 0\n";

/* Read by the test through dlsym: invocations so far, and descriptors that
 * broke the ABI contract (offset 0, allocated == aligned, row-major). */
EXPORT int rlx_fixture_calls;
EXPORT int rlx_fixture_descriptor_errors;

typedef struct c64 {
  float re, im;
} c64_t;

typedef struct c128 {
  double re, im;
} c128_t;

typedef struct memref0 {
  void *allocated;
  void *aligned;
  int64_t offset;
} memref0_t;

typedef struct memref1 {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} memref1_t;

typedef struct memref2 {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} memref2_t;

static void check_header(void *allocated, void *aligned, int64_t offset) {
  if (allocated != aligned || offset != 0)
    ++rlx_fixture_descriptor_errors;
}

static void check1(const memref1_t *m, int64_t d0) {
  check_header(m->allocated, m->aligned, m->offset);
  if (m->sizes[0] != d0 || m->strides[0] != 1)
    ++rlx_fixture_descriptor_errors;
}

static void check2(const memref2_t *m, int64_t d0, int64_t d1) {
  check_header(m->allocated, m->aligned, m->offset);
  if (m->sizes[0] != d0 || m->sizes[1] != d1 || m->strides[0] != d1 ||
      m->strides[1] != 1)
    ++rlx_fixture_descriptor_errors;
}

EXPORT void rlx_invoke_mul_c64(void **args) {
  ++rlx_fixture_calls;
  const memref1_t *a = args[0], *b = args[1], *out = args[2];
  check1(a, 3);
  check1(b, 3);
  check1(out, 3);
  const c64_t *pa = a->aligned, *pb = b->aligned;
  c64_t *po = out->aligned;
  for (int64_t i = 0; i < 3; ++i) {
    c64_t x = pa[i], y = pb[i];
    po[i].re = x.re * y.re - x.im * y.im;
    po[i].im = x.re * y.im + x.im * y.re;
  }
}

EXPORT void rlx_invoke_split_c128(void **args) {
  ++rlx_fixture_calls;
  const memref2_t *z = args[0], *re = args[1], *im = args[2];
  const memref0_t *sum = args[3];
  check2(z, 2, 2);
  check2(re, 2, 2);
  check2(im, 2, 2);
  check_header(sum->allocated, sum->aligned, sum->offset);
  const c128_t *pz = z->aligned;
  double *pre = re->aligned, *pim = im->aligned;
  c128_t total = {0, 0};
  for (int64_t i = 0; i < 4; ++i) {
    pre[i] = pz[i].re;
    pim[i] = pz[i].im;
    total.re += pz[i].re;
    total.im += pz[i].im;
  }
  *(c128_t *)sum->aligned = total;
}
