/* A hand-written module following the rlx-compile ABI, used to test the
 * runtime without the compiler. Each rlx_invoke_* reads its arguments
 * through the memref descriptors exactly as compiled code does. */
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

#define SCALAR_F32_ARG "arg f32 0\n"
#define FIVE_SCALAR_F32_ARGS                                                   \
  SCALAR_F32_ARG SCALAR_F32_ARG SCALAR_F32_ARG SCALAR_F32_ARG SCALAR_F32_ARG
#define MANY_INPUTS 65

EXPORT const char rlx_manifest[] =
    "rlx-module 1\n"
    /* out = a + b */
    "func add_f32 2 1\n"
    "arg f32 2 2 3\n"
    "arg f32 2 2 3\n"
    "res f32 2 2 3\n"
    /* total = sum of values where mask; picked = mask ? scale : 0;
     * inverted = !mask */
    "func mixed 3 3\n"
    "arg i64 1 4\n"
    "arg i1 1 4\n"
    "arg f16 0\n"
    "res i64 0\n"
    "res f16 1 4\n"
    "res i1 1 4\n"
    /* out = 42 */
    "func noargs 0 1\n"
    "res f32 0\n"
    /* out = in */
    "func copy_bf16 1 1\n"
    "arg bf16 1 3\n"
    "res bf16 1 3\n"
    /* out = sum of 65 scalars: more arguments than the runtime keeps on its
     * stack */
    "func many_inputs 65 1\n" FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS
        FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS
            FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS
                FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS
                    FIVE_SCALAR_F32_ARGS FIVE_SCALAR_F32_ARGS "res f32 0\n";

/* Read by the test through dlsym: invocations so far, and descriptors that
 * broke the ABI contract (offset 0, allocated == aligned, row-major). */
EXPORT int rlx_fixture_calls;
EXPORT int rlx_fixture_descriptor_errors;

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

EXPORT void rlx_invoke_add_f32(void **args) {
  ++rlx_fixture_calls;
  const memref2_t *a = args[0], *b = args[1], *out = args[2];
  check2(a, 2, 3);
  check2(b, 2, 3);
  check2(out, 2, 3);
  const float *pa = a->aligned, *pb = b->aligned;
  float *po = out->aligned;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      po[i * out->strides[0] + j] =
          pa[i * a->strides[0] + j] + pb[i * b->strides[0] + j];
}

EXPORT void rlx_invoke_mixed(void **args) {
  ++rlx_fixture_calls;
  const memref1_t *values = args[0], *mask = args[1];
  const memref0_t *scale = args[2], *total = args[3];
  const memref1_t *picked = args[4], *inverted = args[5];
  check1(values, 4);
  check1(mask, 4);
  check_header(scale->allocated, scale->aligned, scale->offset);
  check_header(total->allocated, total->aligned, total->offset);
  check1(picked, 4);
  check1(inverted, 4);

  const int64_t *v = values->aligned;
  const uint8_t *m = mask->aligned;
  uint16_t s;
  memcpy(&s, scale->aligned, sizeof(s));
  int64_t sum = 0;
  uint16_t *p = picked->aligned;
  uint8_t *inv = inverted->aligned;
  for (int i = 0; i < 4; ++i) {
    if (m[i])
      sum += v[i];
    p[i] = m[i] ? s : 0;
    inv[i] = !m[i];
  }
  memcpy(total->aligned, &sum, sizeof(sum));
}

EXPORT void rlx_invoke_noargs(void **args) {
  ++rlx_fixture_calls;
  const memref0_t *out = args[0];
  check_header(out->allocated, out->aligned, out->offset);
  const float value = 42.0f;
  memcpy(out->aligned, &value, sizeof(value));
}

EXPORT void rlx_invoke_copy_bf16(void **args) {
  ++rlx_fixture_calls;
  const memref1_t *in = args[0], *out = args[1];
  check1(in, 3);
  check1(out, 3);
  memcpy(out->aligned, in->aligned, 3 * sizeof(uint16_t));
}

EXPORT void rlx_invoke_many_inputs(void **args) {
  ++rlx_fixture_calls;
  float sum = 0;
  for (int i = 0; i < MANY_INPUTS; ++i) {
    const memref0_t *in = args[i];
    check_header(in->allocated, in->aligned, in->offset);
    sum += *(const float *)in->aligned;
  }
  const memref0_t *out = args[MANY_INPUTS];
  memcpy(out->aligned, &sum, sizeof(sum));
}
