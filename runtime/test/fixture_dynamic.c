/* A hand-written module with symbolic shapes (manifest version 2), as
 * rlx-compile emits it for dynamic dims. Each rlx_invoke_* reads the sizes
 * of its tensors from the memref descriptors, as compiled code does. */
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

#define RANK32_SYMBOLS(p)                                                      \
  "32 " p "0 " p "1 " p "2 " p "3 " p "4 " p "5 " p "6 " p "7 " p "8 " p       \
  "9 " p "10 " p "11 " p "12 " p "13 " p "14 " p "15 " p "16 " p "17 " p       \
  "18 " p "19 " p "20 " p "21 " p "22 " p "23 " p "24 " p "25 " p "26 " p      \
  "27 " p "28 " p "29 " p "30 " p "31"

EXPORT const char rlx_manifest[] =
    "rlx-module 2\n"
    /* out = a + b */
    "func add 2 1\n"
    "arg f32 2 S 4\n"
    "arg f32 2 S 4\n"
    "res f32 2 S 4\n"
    /* out = the rows of a, then the rows of b */
    "func concat 2 1\n"
    "arg f32 2 A C\n"
    "arg f32 2 B C\n"
    "res f32 2 A+B C\n"
    /* out[i] = x[i] + x[i+1] + x[i+2]: no where clause, so S < 2 gives a
     * negative result dim */
    "func window 1 1\n"
    "arg f32 1 S\n"
    "res f32 1 S-2\n"
    /* out = x viewed as pairs */
    "func pairs 1 1\n"
    "arg f32 1 S\n"
    "res f32 2 S/2 2\n"
    "where S%2 == 0 rlx.reshape at model.mlir:12:5\n"
    /* out[i] = x[2i] + x[2i+1] + y[i]: input 0's dim is an expression of
     * the symbol input 1 binds */
    "func pair_sum 2 1\n"
    "arg f32 1 2*N\n"
    "arg f32 1 N\n"
    "res f32 1 N\n"
    /* out = x in rows of K (k only gives K) */
    "func chunks 2 1\n"
    "arg f32 1 S\n"
    "arg i8 1 K\n"
    "res f32 2 S/K K\n"
    "where S%K == 0 a whole number of chunks\n"
    "where K <= 64\n"
    /* out = x; its dims are constant expressions, folded at load */
    "func fold 1 1\n"
    "arg f32 1 (1+1)*2\n"
    "res f32 1 4\n"
    /* out = the sum of the 96 dims: more symbols than the runtime keeps on
     * its stack */
    "func many_symbols 3 1\n"
    "arg f32 " RANK32_SYMBOLS("a") "\n"
    "arg f32 " RANK32_SYMBOLS("b") "\n"
    "arg f32 " RANK32_SYMBOLS("c") "\n"
    "res i64 0\n";

/* Read by the test through dlsym: invocations so far, descriptors that
 * broke the ABI contract (offset 0, allocated == aligned, row-major), and
 * the sizes of the last call's output. */
EXPORT int rlx_fixture_calls;
EXPORT int rlx_fixture_descriptor_errors;
EXPORT int64_t rlx_fixture_output_sizes[2];

/* A memref descriptor: {allocated, aligned, offset, sizes[r], strides[r]}
 * as 64-bit words. */
static void *data_of(void *arg) {
  void *data;
  memcpy(&data, (char *)arg + sizeof(void *), sizeof(data));
  return data;
}

static const int64_t *sizes_of(void *arg) { return (const int64_t *)arg + 3; }

/* Checks the descriptor of a rank-`rank` tensor and returns its sizes. */
static const int64_t *check(void *arg, int rank) {
  const int64_t *words = arg;
  if (words[0] != words[1] || words[2] != 0)
    ++rlx_fixture_descriptor_errors;
  const int64_t *sizes = sizes_of(arg), *strides = sizes + rank;
  int64_t stride = 1;
  for (int d = rank; d-- > 0;) {
    if (strides[d] != stride)
      ++rlx_fixture_descriptor_errors;
    stride *= sizes[d];
  }
  return sizes;
}

static void record_output(const int64_t *sizes, int rank) {
  rlx_fixture_output_sizes[0] = rank > 0 ? sizes[0] : -1;
  rlx_fixture_output_sizes[1] = rank > 1 ? sizes[1] : -1;
}

EXPORT void rlx_invoke_add(void **args) {
  ++rlx_fixture_calls;
  const int64_t *a = check(args[0], 2), *out = check(args[2], 2);
  check(args[1], 2);
  record_output(out, 2);
  const float *pa = data_of(args[0]), *pb = data_of(args[1]);
  float *po = data_of(args[2]);
  for (int64_t i = 0; i < a[0] * a[1]; ++i)
    po[i] = pa[i] + pb[i];
}

EXPORT void rlx_invoke_concat(void **args) {
  ++rlx_fixture_calls;
  const int64_t *a = check(args[0], 2), *b = check(args[1], 2);
  record_output(check(args[2], 2), 2);
  char *out = data_of(args[2]);
  size_t a_bytes = (size_t)(a[0] * a[1]) * sizeof(float);
  memcpy(out, data_of(args[0]), a_bytes);
  memcpy(out + a_bytes, data_of(args[1]),
         (size_t)(b[0] * b[1]) * sizeof(float));
}

EXPORT void rlx_invoke_window(void **args) {
  ++rlx_fixture_calls;
  check(args[0], 1);
  const int64_t *out = check(args[1], 1);
  record_output(out, 1);
  const float *x = data_of(args[0]);
  float *o = data_of(args[1]);
  for (int64_t i = 0; i < out[0]; ++i)
    o[i] = x[i] + x[i + 1] + x[i + 2];
}

EXPORT void rlx_invoke_pairs(void **args) {
  ++rlx_fixture_calls;
  const int64_t *in = check(args[0], 1);
  record_output(check(args[1], 2), 2);
  memcpy(data_of(args[1]), data_of(args[0]), (size_t)in[0] * sizeof(float));
}

EXPORT void rlx_invoke_pair_sum(void **args) {
  ++rlx_fixture_calls;
  check(args[0], 1);
  const int64_t *n = check(args[1], 1);
  record_output(check(args[2], 1), 1);
  const float *x = data_of(args[0]), *y = data_of(args[1]);
  float *o = data_of(args[2]);
  for (int64_t i = 0; i < n[0]; ++i)
    o[i] = x[2 * i] + x[2 * i + 1] + y[i];
}

EXPORT void rlx_invoke_chunks(void **args) {
  ++rlx_fixture_calls;
  const int64_t *in = check(args[0], 1);
  check(args[1], 1);
  record_output(check(args[2], 2), 2);
  memcpy(data_of(args[2]), data_of(args[0]), (size_t)in[0] * sizeof(float));
}

EXPORT void rlx_invoke_fold(void **args) {
  ++rlx_fixture_calls;
  record_output(check(args[1], 1), 1);
  memcpy(data_of(args[1]), data_of(args[0]),
         (size_t)sizes_of(args[0])[0] * sizeof(float));
}

EXPORT void rlx_invoke_many_symbols(void **args) {
  ++rlx_fixture_calls;
  int64_t sum = 0;
  for (int i = 0; i < 3; ++i) {
    const int64_t *sizes = check(args[i], 32);
    for (int d = 0; d < 32; ++d)
      sum += sizes[d];
  }
  check(args[3], 0);
  memcpy(data_of(args[3]), &sum, sizeof(sum));
}
