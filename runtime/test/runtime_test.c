/* Tests of the RLX runtime against the hand-written fixture modules.
 *
 * Usage: rlx-runtime-test FIXTURE_DIR
 * FIXTURE_DIR holds the rlx_runtime_fixture*.so modules. Scratch files go to
 * a fresh directory under $TMPDIR (default /tmp) that is removed at exit.
 * (`--threads-probe` is the mode the thread tests run it in as a child.)
 * Prints one line per check and ends with "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include "rlx/npy.h"
#include "rlx/runtime.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed;
static int failed;
static const char *fixture_dir;
static char scratch_dir[4096];

/* ---- check helpers ------------------------------------------------------- */

static void report(bool ok, const char *name, const char *detail) {
  if (ok) {
    ++passed;
    printf("PASS: %s\n", name);
  } else {
    ++failed;
    printf("FAIL: %s: %s\n", name, detail);
  }
}

static void check(bool ok, const char *name) {
  report(ok, name, "condition is false");
}

/* Expects `status` to carry `code` and a message containing every non-NULL
 * substring; frees the status. */
static void expect_error(rlx_status_t status, rlx_status_code_t code,
                         const char *name, const char *substring,
                         const char *substring2) {
  char detail[2048];
  bool ok = status && rlx_status_code(status) == code &&
            (!substring || strstr(rlx_status_message(status), substring)) &&
            (!substring2 || strstr(rlx_status_message(status), substring2));
  snprintf(detail, sizeof(detail), "got %s '%s', want %s containing '%s'%s%s",
           rlx_status_code_name(rlx_status_code(status)),
           rlx_status_message(status), rlx_status_code_name(code),
           substring ? substring : "", substring2 ? " and " : "",
           substring2 ? substring2 : "");
  report(ok, name, detail);
  if (ok)
    printf("      message: %s\n", rlx_status_message(status));
  rlx_status_free(status);
}

static void expect_ok(rlx_status_t status, const char *name) {
  char detail[2048];
  snprintf(detail, sizeof(detail), "unexpected %s: %s",
           rlx_status_code_name(rlx_status_code(status)),
           rlx_status_message(status));
  report(status == NULL, name, detail);
  rlx_status_free(status);
}

static char *format(const char *fmt, ...) {
  static char buffers[8][4096];
  static int next;
  char *buffer = buffers[next++ % 8];
  va_list args;
  va_start(args, fmt);
  vsnprintf(buffer, sizeof(buffers[0]), fmt, args);
  va_end(args);
  return buffer;
}

static const char *fixture(const char *name) {
  return format("%s/%s.so", fixture_dir, name);
}

static const char *scratch(const char *name) {
  return format("%s/%s", scratch_dir, name);
}

static bool write_file(const char *path, const void *data, size_t size) {
  FILE *file = fopen(path, "wb");
  if (!file)
    return false;
  bool ok = fwrite(data, 1, size, file) == size;
  return fclose(file) == 0 && ok;
}

static uint16_t f16_bits_of(double value) {
  uint16_t bits;
  rlx_status_free(rlx_convert(RLX_DTYPE_F64, &value, RLX_DTYPE_F16, &bits, 1));
  return bits;
}

static uint16_t bf16_bits_of(double value) {
  uint16_t bits;
  rlx_status_free(rlx_convert(RLX_DTYPE_F64, &value, RLX_DTYPE_BF16, &bits, 1));
  return bits;
}

/* ---- status and dtypes --------------------------------------------------- */

static void test_status_and_dtypes(void) {
  check(rlx_status_code(NULL) == RLX_STATUS_OK, "status: NULL is OK");
  check(strcmp(rlx_status_message(NULL), "OK") == 0,
        "status: NULL message is OK");
  rlx_status_free(NULL);
  check(strcmp(rlx_status_code_name(RLX_STATUS_SHAPE_MISMATCH),
               "SHAPE_MISMATCH") == 0,
        "status: code name");
  check(strcmp(rlx_status_code_name((rlx_status_code_t)999), "UNKNOWN") == 0,
        "status: unknown code name");

  static const struct {
    rlx_dtype_t dtype;
    const char *name;
    size_t size;
  } table[] = {
      {RLX_DTYPE_F32, "f32", 4},    {RLX_DTYPE_F16, "f16", 2},
      {RLX_DTYPE_BF16, "bf16", 2},  {RLX_DTYPE_F64, "f64", 8},
      {RLX_DTYPE_I8, "i8", 1},      {RLX_DTYPE_I16, "i16", 2},
      {RLX_DTYPE_I32, "i32", 4},    {RLX_DTYPE_I64, "i64", 8},
      {RLX_DTYPE_BOOL, "i1", 1},    {RLX_DTYPE_C64, "c64", 8},
      {RLX_DTYPE_C128, "c128", 16},
  };
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i) {
    rlx_dtype_t parsed = (rlx_dtype_t)-1;
    rlx_status_t status = rlx_dtype_from_name(table[i].name, &parsed);
    check(!status && parsed == table[i].dtype &&
              strcmp(rlx_dtype_name(table[i].dtype), table[i].name) == 0 &&
              rlx_dtype_size(table[i].dtype) == table[i].size,
          format("dtype: %s name, size and parse", table[i].name));
    rlx_status_free(status);
  }
  /* The enum's values are ABI: new dtypes come after the old ones. */
  check(RLX_DTYPE_BOOL == 8 && RLX_DTYPE_C64 == 9 && RLX_DTYPE_C128 == 10,
        "dtype: enum values are stable, complex appended");
  rlx_dtype_t parsed = RLX_DTYPE_F32;
  expect_ok(rlx_dtype_from_name("bool", &parsed), "dtype: parse 'bool'");
  check(parsed == RLX_DTYPE_BOOL, "dtype: 'bool' is i1");
  expect_error(rlx_dtype_from_name("f128", &parsed),
               RLX_STATUS_INVALID_ARGUMENT, "dtype: unknown name", "'f128'",
               "i1, c64, c128)");
  expect_error(rlx_dtype_from_name("c32", &parsed), RLX_STATUS_INVALID_ARGUMENT,
               "dtype: unknown complex name", "'c32'", NULL);
  expect_error(rlx_dtype_from_name("complex64", &parsed),
               RLX_STATUS_INVALID_ARGUMENT,
               "dtype: NumPy's name is not a token", "'complex64'", NULL);
  expect_error(rlx_dtype_from_name(NULL, &parsed), RLX_STATUS_INVALID_ARGUMENT,
               "dtype: parse NULL name", "name is NULL", NULL);
  expect_error(rlx_dtype_from_name("f32", NULL), RLX_STATUS_INVALID_ARGUMENT,
               "dtype: parse NULL out", "out is NULL", NULL);
  check(rlx_dtype_size((rlx_dtype_t)42) == 0 &&
            rlx_dtype_name((rlx_dtype_t)42) == NULL &&
            rlx_dtype_size((rlx_dtype_t)11) == 0 &&
            rlx_dtype_name((rlx_dtype_t)11) == NULL,
        "dtype: invalid dtype has no size or name");
}

/* ---- conversion ---------------------------------------------------------- */

static void test_half_conversion(void) {
  check(rlx_f32_to_f16(1.0f) == 0x3C00, "f16: 1.0");
  check(rlx_f32_to_f16(-2.0f) == 0xC000, "f16: -2.0");
  check(rlx_f32_to_f16(65504.0f) == 0x7BFF, "f16: max finite");
  check(rlx_f32_to_f16(65519.0f) == 0x7BFF,
        "f16: below overflow tie stays finite");
  check(rlx_f32_to_f16(65520.0f) == 0x7C00, "f16: overflow tie rounds to inf");
  check(rlx_f32_to_f16(1e10f) == 0x7C00, "f16: overflow gives inf");
  check(rlx_f32_to_f16(-1e10f) == 0xFC00, "f16: negative overflow gives -inf");
  check(rlx_f32_to_f16(INFINITY) == 0x7C00 &&
            rlx_f32_to_f16(-INFINITY) == 0xFC00,
        "f16: infinities");
  check(rlx_f32_to_f16(-0.0f) == 0x8000, "f16: negative zero");
  check(rlx_f32_to_f16(1.0f + 0x1p-11f) == 0x3C00,
        "f16: tie rounds to even (down)");
  check(rlx_f32_to_f16(1.0f + 3 * 0x1p-11f) == 0x3C02,
        "f16: tie rounds to even (up)");
  check(rlx_f32_to_f16(1.0f + 0x1p-11f + 0x1p-20f) == 0x3C01,
        "f16: above tie rounds up");
  check(rlx_f32_to_f16(0x1p-24f) == 0x0001, "f16: smallest subnormal");
  check(rlx_f32_to_f16(0x1p-25f) == 0x0000,
        "f16: half of smallest subnormal ties to zero");
  check(rlx_f32_to_f16(3 * 0x1p-25f) == 0x0002,
        "f16: subnormal tie rounds to even");
  check(rlx_f32_to_f16(0x1p-14f - 0x1p-25f) == 0x0400,
        "f16: largest subnormal rounds up into the normals");
  check(rlx_f32_to_f16(0x1p-30f) == 0x0000, "f16: underflow to zero");
  check(rlx_f32_to_f16(-0x1p-30f) == 0x8000, "f16: underflow keeps the sign");

  uint16_t nan_bits = rlx_f32_to_f16(NAN);
  check((nan_bits & 0x7C00) == 0x7C00 && (nan_bits & 0x03FF) != 0,
        "f16: NaN stays NaN");
  check((rlx_f32_to_f16(-NAN) & 0x8000) != 0, "f16: NaN keeps its sign");
  check(isnan(rlx_f16_to_f32(0x7E00)) && isnan(rlx_f16_to_f32(0xFC01)),
        "f16: NaN decodes to NaN");
  check(rlx_f16_to_f32(0x0001) == 0x1p-24f, "f16: decode smallest subnormal");
  check(rlx_f16_to_f32(0x3555) == 0.333251953125f, "f16: decode 1/3");
  check(rlx_f16_to_f32(0xFC00) == -INFINITY, "f16: decode -inf");

  /* f64 sources round once: 1 + 2^-11 + 2^-40 is above the f16 tie, while
   * a detour through f32 would land exactly on it and round down. */
  check(f16_bits_of(1.0 + 0x1p-11 + 0x1p-40) == 0x3C01,
        "f16: f64 source is rounded once");

  bool all_f16 = true, all_bf16 = true;
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float f = rlx_f16_to_f32((uint16_t)bits);
    uint16_t back = rlx_f32_to_f16(f);
    all_f16 &= isnan(f) ? isnan(rlx_f16_to_f32(back)) : back == bits;
    float b = rlx_bf16_to_f32((uint16_t)bits);
    uint16_t bback = rlx_f32_to_bf16(b);
    all_bf16 &= isnan(b) ? isnan(rlx_bf16_to_f32(bback)) : bback == bits;
  }
  check(all_f16, "f16: all 65536 bit patterns round trip through f32");
  check(all_bf16, "bf16: all 65536 bit patterns round trip through f32");

  check(rlx_f32_to_bf16(1.0f) == 0x3F80, "bf16: 1.0");
  check(rlx_f32_to_bf16(1.0f + 0x1p-8f) == 0x3F80,
        "bf16: tie rounds to even (down)");
  check(rlx_f32_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3F82,
        "bf16: tie rounds to even (up)");
  check(rlx_f32_to_bf16(1.0f + 0x1p-8f + 0x1p-20f) == 0x3F81,
        "bf16: above tie rounds up");
  check(rlx_f32_to_bf16(3.4028235e38f) == 0x7F80,
        "bf16: f32 max rounds to inf");
  check(rlx_f32_to_bf16(-INFINITY) == 0xFF80, "bf16: -inf");
  uint16_t bnan = rlx_f32_to_bf16(-NAN);
  check((bnan & 0x7F80) == 0x7F80 && (bnan & 0x7F) != 0 && (bnan & 0x8000),
        "bf16: NaN stays NaN with its sign");
  check(rlx_bf16_to_f32(0x0001) == 0x1p-133f,
        "bf16: decode smallest subnormal");
  check(bf16_bits_of(0x1p-134) == 0, "bf16: subnormal tie to zero");
  check(bf16_bits_of(1e300) == 0x7F80, "bf16: f64 overflow gives inf");
}

static void test_element_conversion(void) {
  const float floats[] = {3.7f, -3.7f, NAN, 1e10f, -1e10f, 0.0f};
  int32_t ints[6];
  expect_ok(rlx_convert(RLX_DTYPE_F32, floats, RLX_DTYPE_I32, ints, 6),
            "convert: f32 to i32");
  check(ints[0] == 3 && ints[1] == -3 && ints[2] == 0 && ints[3] == INT32_MAX &&
            ints[4] == INT32_MIN && ints[5] == 0,
        "convert: f32 to i32 truncates, saturates, NaN gives 0");

  const double big[] = {INFINITY, -INFINITY, 9.3e18, -9.3e18};
  int64_t wide[4];
  expect_ok(rlx_convert(RLX_DTYPE_F64, big, RLX_DTYPE_I64, wide, 4),
            "convert: f64 to i64");
  check(wide[0] == INT64_MAX && wide[1] == INT64_MIN && wide[2] == INT64_MAX &&
            wide[3] == INT64_MIN,
        "convert: f64 to i64 saturates");

  const int64_t narrow_in[] = {1000, -1000, 5, INT64_MAX};
  int8_t narrow[4];
  expect_ok(rlx_convert(RLX_DTYPE_I64, narrow_in, RLX_DTYPE_I8, narrow, 4),
            "convert: i64 to i8");
  check(narrow[0] == 127 && narrow[1] == -128 && narrow[2] == 5 &&
            narrow[3] == 127,
        "convert: i64 to i8 saturates");

  const int64_t exact_in[] = {INT64_MAX, INT64_MIN, 123456789012345678};
  int64_t exact_out[3];
  expect_ok(rlx_convert(RLX_DTYPE_I64, exact_in, RLX_DTYPE_I64, exact_out, 3),
            "convert: i64 to i64");
  check(memcmp(exact_in, exact_out, sizeof(exact_in)) == 0,
        "convert: i64 copies exactly");

  /* 2^60 + 2^52 + 1 is just above the bf16 tie between 2^60 and
   * 2^60 + 2^53; plain int64 -> double rounding would drop the +1. */
  const int64_t near_tie = (INT64_C(1) << 60) + (INT64_C(1) << 52) + 1;
  uint16_t bf;
  expect_ok(rlx_convert(RLX_DTYPE_I64, &near_tie, RLX_DTYPE_BF16, &bf, 1),
            "convert: i64 to bf16");
  check(rlx_bf16_to_f32(bf) == 0x1p60f + 0x1p53f,
        "convert: i64 to bf16 rounds correctly above 2^53");
  const int64_t int_in[] = {16777217, -3};
  float int_out[2];
  expect_ok(rlx_convert(RLX_DTYPE_I64, int_in, RLX_DTYPE_F32, int_out, 2),
            "convert: i64 to f32");
  check(int_out[0] == 16777216.0f && int_out[1] == -3.0f,
        "convert: i64 to f32 ties to even");

  const float to_bool_in[] = {0.0f, -0.0f, 2.5f, NAN};
  uint8_t bools[4];
  expect_ok(rlx_convert(RLX_DTYPE_F32, to_bool_in, RLX_DTYPE_BOOL, bools, 4),
            "convert: f32 to bool");
  check(bools[0] == 0 && bools[1] == 0 && bools[2] == 1 && bools[3] == 1,
        "convert: f32 to bool (NaN is true)");
  const uint8_t bool_in[] = {0, 1, 7};
  int32_t bool_ints[3];
  double bool_doubles[3];
  uint8_t bool_out[3];
  expect_ok(rlx_convert(RLX_DTYPE_BOOL, bool_in, RLX_DTYPE_I32, bool_ints, 3),
            "convert: bool to i32");
  expect_ok(
      rlx_convert(RLX_DTYPE_BOOL, bool_in, RLX_DTYPE_F64, bool_doubles, 3),
      "convert: bool to f64");
  expect_ok(rlx_convert(RLX_DTYPE_BOOL, bool_in, RLX_DTYPE_BOOL, bool_out, 3),
            "convert: bool to bool");
  check(bool_ints[2] == 1 && bool_doubles[2] == 1.0 && bool_out[2] == 1 &&
            bool_out[0] == 0,
        "convert: nonzero bool bytes read as 1");

  const float halves_in[] = {0.1f, -65504.0f, 1e-8f};
  uint16_t halves[3];
  float halves_back[3];
  double doubles[3];
  expect_ok(rlx_convert(RLX_DTYPE_F32, halves_in, RLX_DTYPE_F16, halves, 3),
            "convert: f32 to f16");
  expect_ok(rlx_convert(RLX_DTYPE_F16, halves, RLX_DTYPE_F32, halves_back, 3),
            "convert: f16 to f32");
  expect_ok(rlx_convert(RLX_DTYPE_F16, halves, RLX_DTYPE_F64, doubles, 3),
            "convert: f16 to f64");
  check(halves[0] == rlx_f32_to_f16(0.1f) && halves_back[1] == -65504.0f &&
            doubles[0] == (double)rlx_f16_to_f32(halves[0]),
        "convert: element-wise f16 matches the scalar helpers");

  uint16_t f16_from_bf16;
  const uint16_t bf16_one_third = rlx_f32_to_bf16(1.0f / 3.0f);
  expect_ok(rlx_convert(RLX_DTYPE_BF16, &bf16_one_third, RLX_DTYPE_F16,
                        &f16_from_bf16, 1),
            "convert: bf16 to f16");
  check(f16_from_bf16 == rlx_f32_to_f16(rlx_bf16_to_f32(bf16_one_third)),
        "convert: bf16 to f16 goes through the exact value");

  const uint32_t payload_nan = 0x7FC12345;
  uint32_t copied;
  expect_ok(rlx_convert(RLX_DTYPE_F32, &payload_nan, RLX_DTYPE_F32, &copied, 1),
            "convert: f32 to f32");
  check(copied == payload_nan, "convert: same-dtype copy keeps NaN payloads");

  expect_ok(rlx_convert(RLX_DTYPE_F32, NULL, RLX_DTYPE_I8, NULL, 0),
            "convert: zero elements with NULL buffers");
  expect_error(rlx_convert(RLX_DTYPE_F32, NULL, RLX_DTYPE_I8, narrow, 1),
               RLX_STATUS_INVALID_ARGUMENT, "convert: NULL src", "src is NULL",
               NULL);
  expect_error(rlx_convert(RLX_DTYPE_F32, floats, RLX_DTYPE_I8, NULL, 1),
               RLX_STATUS_INVALID_ARGUMENT, "convert: NULL dst", "dst is NULL",
               NULL);
  expect_error(rlx_convert((rlx_dtype_t)77, floats, RLX_DTYPE_I8, narrow, 1),
               RLX_STATUS_INVALID_ARGUMENT, "convert: invalid dtype",
               "dtype 77", NULL);
}

/* {re, im} pairs, the layout of c64 and c128 elements. */
typedef struct test_c64 {
  float re, im;
} test_c64_t;
typedef struct test_c128 {
  double re, im;
} test_c128_t;

static void test_complex_conversion(void) {
  const test_c64_t narrow[] = {
      {1.5f, -2.25f}, {-0.0f, 3e38f}, {NAN, -INFINITY}};
  test_c128_t wide[3];
  expect_ok(rlx_convert(RLX_DTYPE_C64, narrow, RLX_DTYPE_C128, wide, 3),
            "convert: c64 to c128");
  check(wide[0].re == 1.5 && wide[0].im == -2.25 && wide[1].re == 0 &&
            signbit(wide[1].re) && wide[1].im == (double)3e38f &&
            isnan(wide[2].re) && wide[2].im == -INFINITY,
        "convert: c64 to c128 widens both parts, in order");

  const test_c128_t doubles[] = {{0.1, -1e300}, {1.0 + 0x1p-24, 1e-50}};
  test_c64_t floats[2];
  expect_ok(rlx_convert(RLX_DTYPE_C128, doubles, RLX_DTYPE_C64, floats, 2),
            "convert: c128 to c64");
  check(floats[0].re == 0.1f && floats[0].im == -INFINITY &&
            floats[1].re == 1.0f && floats[1].im == 0.0f,
        "convert: c128 to c64 rounds each part as f64 to f32");

  const uint32_t payload[2] = {0x7FC12345, 0xFFC00001};
  uint32_t copied[2];
  expect_ok(rlx_convert(RLX_DTYPE_C64, payload, RLX_DTYPE_C64, copied, 1),
            "convert: c64 to c64");
  check(copied[0] == payload[0] && copied[1] == payload[1],
        "convert: same-dtype complex copy keeps NaN payloads");

  const float reals[] = {3.5f, -0.0f, NAN};
  test_c64_t from_reals[3];
  expect_ok(rlx_convert(RLX_DTYPE_F32, reals, RLX_DTYPE_C64, from_reals, 3),
            "convert: f32 to c64");
  check(from_reals[0].re == 3.5f && from_reals[0].im == 0 &&
            !signbit(from_reals[0].im) && from_reals[1].re == 0 &&
            signbit(from_reals[1].re) && !signbit(from_reals[1].im) &&
            isnan(from_reals[2].re) && from_reals[2].im == 0,
        "convert: f32 to c64 has a +0 imaginary part");

  const double precise = 0.1;
  test_c64_t from_double;
  test_c128_t from_double_wide;
  expect_ok(
      rlx_convert(RLX_DTYPE_F64, &precise, RLX_DTYPE_C64, &from_double, 1),
      "convert: f64 to c64");
  expect_ok(rlx_convert(RLX_DTYPE_F64, &precise, RLX_DTYPE_C128,
                        &from_double_wide, 1),
            "convert: f64 to c128");
  check(from_double.re == 0.1f && from_double.im == 0 &&
            from_double_wide.re == 0.1 && from_double_wide.im == 0,
        "convert: f64 to complex rounds as to the part's dtype");

  const uint16_t halves[] = {rlx_f32_to_f16(-1.5f), rlx_f32_to_bf16(0.5f)};
  test_c128_t from_f16;
  test_c64_t from_bf16;
  expect_ok(
      rlx_convert(RLX_DTYPE_F16, &halves[0], RLX_DTYPE_C128, &from_f16, 1),
      "convert: f16 to c128");
  expect_ok(
      rlx_convert(RLX_DTYPE_BF16, &halves[1], RLX_DTYPE_C64, &from_bf16, 1),
      "convert: bf16 to c64");
  check(from_f16.re == -1.5 && from_f16.im == 0 && from_bf16.re == 0.5f &&
            from_bf16.im == 0,
        "convert: f16 and bf16 to complex");

  /* Integers reach c64 as they reach f32: 2^24 + 1 ties to even. */
  const int64_t ints[] = {16777217, INT64_MIN, -3};
  test_c64_t from_ints[3];
  test_c128_t from_ints_wide[3];
  expect_ok(rlx_convert(RLX_DTYPE_I64, ints, RLX_DTYPE_C64, from_ints, 3),
            "convert: i64 to c64");
  expect_ok(rlx_convert(RLX_DTYPE_I64, ints, RLX_DTYPE_C128, from_ints_wide, 3),
            "convert: i64 to c128");
  check(from_ints[0].re == 16777216.0f && from_ints[1].re == -0x1p63f &&
            from_ints[2].re == -3.0f && from_ints[2].im == 0 &&
            from_ints_wide[0].re == 16777217.0 &&
            from_ints_wide[1].re == -0x1p63 && from_ints_wide[2].im == 0,
        "convert: integers to complex round like integers to f32/f64");
  const int8_t small = -7;
  test_c128_t from_small;
  expect_ok(rlx_convert(RLX_DTYPE_I8, &small, RLX_DTYPE_C128, &from_small, 1),
            "convert: i8 to c128");
  check(from_small.re == -7 && from_small.im == 0, "convert: i8 to c128 value");

  const uint8_t bools[] = {0, 1, 7};
  test_c128_t from_bools[3];
  expect_ok(rlx_convert(RLX_DTYPE_BOOL, bools, RLX_DTYPE_C128, from_bools, 3),
            "convert: bool to c128");
  check(from_bools[0].re == 0 && from_bools[1].re == 1 &&
            from_bools[2].re == 1 && from_bools[2].im == 0,
        "convert: bool to complex reads nonzero bytes as 1");

  /* Complex to anything real is refused, whatever the count, and writes
   * nothing. */
  float f32_out[3] = {-1, -1, -1};
  expect_error(rlx_convert(RLX_DTYPE_C64, narrow, RLX_DTYPE_F32, f32_out, 3),
               RLX_STATUS_INVALID_ARGUMENT, "convert: c64 to f32 is refused",
               "cannot convert c64 to f32", "imaginary part");
  check(f32_out[0] == -1 && f32_out[2] == -1,
        "convert: a refused conversion writes nothing");
  int32_t i32_out = 5;
  expect_error(rlx_convert(RLX_DTYPE_C128, doubles, RLX_DTYPE_I32, &i32_out, 1),
               RLX_STATUS_INVALID_ARGUMENT, "convert: c128 to i32 is refused",
               "cannot convert c128 to i32", NULL);
  uint8_t bool_out = 9;
  expect_error(rlx_convert(RLX_DTYPE_C64, narrow, RLX_DTYPE_BOOL, &bool_out, 1),
               RLX_STATUS_INVALID_ARGUMENT, "convert: c64 to bool is refused",
               "cannot convert c64 to i1", NULL);
  check(i32_out == 5 && bool_out == 9,
        "convert: refused conversions leave the destination");
  expect_error(rlx_convert(RLX_DTYPE_C128, NULL, RLX_DTYPE_F64, NULL, 0),
               RLX_STATUS_INVALID_ARGUMENT,
               "convert: c128 to f64 is refused for zero elements too",
               "cannot convert c128 to f64", NULL);
  expect_ok(rlx_convert(RLX_DTYPE_F64, NULL, RLX_DTYPE_C128, NULL, 0),
            "convert: zero elements to complex with NULL buffers");
  expect_error(rlx_convert(RLX_DTYPE_F32, reals, RLX_DTYPE_C64, NULL, 1),
               RLX_STATUS_INVALID_ARGUMENT, "convert: NULL complex dst",
               "dst is NULL", NULL);
  expect_error(rlx_convert(RLX_DTYPE_C64, narrow, (rlx_dtype_t)11, floats, 1),
               RLX_STATUS_INVALID_ARGUMENT,
               "convert: the dtype after c128 is invalid", "dtype 11", NULL);
}

/* ---- tensors ------------------------------------------------------------- */

static void test_tensors(void) {
  const int64_t dims[] = {2, 3};
  rlx_tensor_t *t = NULL;
  expect_ok(rlx_tensor_create(RLX_DTYPE_F32, 2, dims, &t), "tensor: create");
  bool zeroed = true;
  for (size_t i = 0; t && i < rlx_tensor_byte_size(t); ++i)
    zeroed &= ((unsigned char *)rlx_tensor_data(t))[i] == 0;
  check(t && rlx_tensor_dtype(t) == RLX_DTYPE_F32 && rlx_tensor_rank(t) == 2 &&
            rlx_tensor_dims(t)[0] == 2 && rlx_tensor_dims(t)[1] == 3 &&
            rlx_tensor_element_count(t) == 6 && rlx_tensor_byte_size(t) == 24,
        "tensor: create sets dtype, dims and sizes");
  check(t && (uintptr_t)rlx_tensor_data(t) % RLX_TENSOR_ALIGNMENT == 0,
        "tensor: create aligns data to 64 bytes");
  check(zeroed, "tensor: create zero-fills");
  rlx_tensor_type_t type;
  expect_ok(rlx_tensor_get_type(t, &type), "tensor: get_type");
  char text[32];
  check(rlx_tensor_type_format(&type, text, sizeof(text)) == 8 &&
            strcmp(text, "f32[2,3]") == 0,
        "tensor: format type f32[2,3]");
  char tiny[5];
  check(rlx_tensor_type_format(&type, tiny, sizeof(tiny)) == 8 &&
            strcmp(tiny, "f32[") == 0,
        "tensor: format truncates and reports the full length");
  check(rlx_tensor_type_format(NULL, text, sizeof(text)) == 0,
        "tensor: format NULL type");

  const double values[] = {1.5, -2.25, 1e-8, 65504.0, 7.0, -0.0};
  expect_ok(rlx_tensor_copy_from(t, RLX_DTYPE_F64, values, sizeof(values)),
            "tensor: copy_from f64 into f32");
  uint16_t halves[6];
  expect_ok(rlx_tensor_copy_to(t, RLX_DTYPE_F16, halves, sizeof(halves)),
            "tensor: copy_to f16");
  check(halves[0] == rlx_f32_to_f16(1.5f) && halves[1] == 0xC080 &&
            halves[3] == 0x7BFF && halves[5] == 0x8000,
        "tensor: typed copies convert values");
  expect_error(rlx_tensor_copy_from(t, RLX_DTYPE_I64, values, 40),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: copy_from wrong length",
               "need 48 bytes, got 40", "f32[2,3]");
  expect_error(rlx_tensor_copy_to(t, RLX_DTYPE_F16, halves, 14),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: copy_to wrong length",
               "need 12 bytes, got 14", NULL);
  expect_error(rlx_tensor_copy_from(NULL, RLX_DTYPE_F64, values, 48),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: copy_from NULL tensor",
               "tensor is NULL", NULL);
  expect_error(rlx_tensor_copy_from(t, RLX_DTYPE_F64, NULL, 48),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: copy_from NULL buffer",
               "buffer is NULL", NULL);
  expect_error(rlx_tensor_copy_to(t, RLX_DTYPE_F64, NULL, 48),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: copy_to NULL buffer",
               "buffer is NULL", NULL);
  expect_error(rlx_tensor_copy_to(NULL, RLX_DTYPE_F64, halves, 48),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: copy_to NULL tensor",
               "tensor is NULL", NULL);
  expect_error(rlx_tensor_copy_to(t, (rlx_dtype_t)99, halves, 12),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: copy_to invalid dtype",
               "invalid dtype 99", NULL);
  expect_error(rlx_tensor_get_type(NULL, &type), RLX_STATUS_INVALID_ARGUMENT,
               "tensor: get_type NULL tensor", "tensor is NULL", NULL);
  expect_error(rlx_tensor_get_type(t, NULL), RLX_STATUS_INVALID_ARGUMENT,
               "tensor: get_type NULL out", "out is NULL", NULL);
  rlx_tensor_free(t);

  rlx_tensor_t *scalar = NULL;
  expect_ok(rlx_tensor_create(RLX_DTYPE_BOOL, 0, NULL, &scalar),
            "tensor: create scalar with NULL dims");
  check(scalar && rlx_tensor_rank(scalar) == 0 &&
            rlx_tensor_dims(scalar) == NULL &&
            rlx_tensor_element_count(scalar) == 1 &&
            rlx_tensor_byte_size(scalar) == 1,
        "tensor: scalar has one element");
  expect_ok(rlx_tensor_get_type(scalar, &type), "tensor: scalar get_type");
  check(rlx_tensor_type_format(&type, text, sizeof(text)) == 4 &&
            strcmp(text, "i1[]") == 0,
        "tensor: format scalar type i1[]");
  rlx_tensor_free(scalar);

  const int64_t empty_dims[] = {4, 0, 3};
  rlx_tensor_t *empty = NULL;
  expect_ok(rlx_tensor_create(RLX_DTYPE_I64, 3, empty_dims, &empty),
            "tensor: create with a zero dim");
  check(empty && rlx_tensor_element_count(empty) == 0 &&
            rlx_tensor_byte_size(empty) == 0 && rlx_tensor_data(empty),
        "tensor: zero-size tensor still has a data pointer");
  rlx_tensor_free(empty);

  rlx_tensor_t *unused = NULL;
  expect_error(rlx_tensor_create(RLX_DTYPE_F32, 2, dims, NULL),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: create NULL out",
               "out is NULL", NULL);
  expect_error(rlx_tensor_create(RLX_DTYPE_F32, 2, NULL, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: create NULL dims",
               "dims is NULL but rank is 2", NULL);
  const int64_t negative[] = {2, -1};
  expect_error(rlx_tensor_create(RLX_DTYPE_F32, 2, negative, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: create negative dim",
               "dim 1 is negative (-1)", NULL);
  int64_t many[RLX_MAX_RANK + 1];
  for (size_t i = 0; i <= RLX_MAX_RANK; ++i)
    many[i] = 1;
  expect_error(
      rlx_tensor_create(RLX_DTYPE_F32, RLX_MAX_RANK + 1, many, &unused),
      RLX_STATUS_OUT_OF_RANGE, "tensor: create rank 33",
      "rank 33 exceeds the maximum of 32", NULL);
  expect_ok(rlx_tensor_create(RLX_DTYPE_F32, RLX_MAX_RANK, many, &unused),
            "tensor: create rank 32");
  rlx_tensor_free(unused);
  unused = NULL;
  const int64_t overflow[] = {INT64_C(1) << 40, INT64_C(1) << 40};
  expect_error(rlx_tensor_create(RLX_DTYPE_F32, 2, overflow, &unused),
               RLX_STATUS_OUT_OF_RANGE, "tensor: create overflowing dims",
               "[1099511627776,1099511627776] is too large", NULL);
  const int64_t overflow_bytes[] = {INT64_C(1) << 62};
  expect_error(rlx_tensor_create(RLX_DTYPE_F64, 1, overflow_bytes, &unused),
               RLX_STATUS_OUT_OF_RANGE, "tensor: create overflowing bytes",
               "is too large", NULL);
  const int64_t overflow_stride[] = {0, INT64_C(1) << 40, INT64_C(1) << 40};
  expect_error(rlx_tensor_create(RLX_DTYPE_F32, 3, overflow_stride, &unused),
               RLX_STATUS_OUT_OF_RANGE,
               "tensor: create with zero elements but overflowing strides",
               "is too large", NULL);
  const int64_t huge[] = {INT64_C(1) << 60};
  expect_error(rlx_tensor_create(RLX_DTYPE_F32, 1, huge, &unused),
               RLX_STATUS_OUT_OF_MEMORY, "tensor: create unallocatable",
               "cannot allocate", NULL);
  expect_error(rlx_tensor_create((rlx_dtype_t)99, 2, dims, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: create invalid dtype",
               "invalid dtype 99", NULL);
  check(unused == NULL, "tensor: failed creates leave out untouched");

  _Alignas(64) float storage[6] = {1, 2, 3, 4, 5, 6};
  rlx_tensor_t *wrapped = NULL;
  expect_ok(rlx_tensor_wrap(RLX_DTYPE_F32, 2, dims, storage, sizeof(storage),
                            &wrapped),
            "tensor: wrap");
  check(wrapped && rlx_tensor_data(wrapped) == storage,
        "tensor: wrap does not copy");
  rlx_tensor_free(wrapped);
  check(storage[5] == 6, "tensor: freeing a wrapped tensor keeps the memory");
  expect_error(rlx_tensor_wrap(RLX_DTYPE_F32, 2, dims, storage, 20, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: wrap short byte length",
               "f32[2,3] needs exactly 24 bytes, got 20", NULL);
  expect_error(rlx_tensor_wrap(RLX_DTYPE_F32, 2, dims, storage, 28, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: wrap long byte length",
               "got 28", NULL);
  expect_error(rlx_tensor_wrap(RLX_DTYPE_F32, 2, dims, NULL, 24, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: wrap NULL data",
               "data is NULL", NULL);
  expect_error(rlx_tensor_wrap(RLX_DTYPE_F32, 1, dims + 1, (char *)storage + 2,
                               12, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: wrap misaligned data",
               "not 4-byte aligned", NULL);
  expect_error(rlx_tensor_wrap(RLX_DTYPE_F32, 2, dims, storage, 24, NULL),
               RLX_STATUS_INVALID_ARGUMENT, "tensor: wrap NULL out",
               "out is NULL", NULL);
  expect_error(
      rlx_tensor_wrap(RLX_DTYPE_F32, 2, overflow, storage, 24, &unused),
      RLX_STATUS_OUT_OF_RANGE, "tensor: wrap overflowing dims", "is too large",
      NULL);
  const int64_t zero_dims[] = {0};
  expect_ok(rlx_tensor_wrap(RLX_DTYPE_F32, 1, zero_dims, NULL, 0, &unused),
            "tensor: wrap empty tensor with NULL data");
  rlx_tensor_free(unused);

  rlx_tensor_free(NULL);
  check(rlx_tensor_rank(NULL) == 0 && rlx_tensor_dims(NULL) == NULL &&
            rlx_tensor_data(NULL) == NULL && rlx_tensor_byte_size(NULL) == 0 &&
            rlx_tensor_element_count(NULL) == 0,
        "tensor: accessors accept NULL");
}

static void test_complex_tensors(void) {
  const int64_t dims[] = {2, 3};
  rlx_tensor_t *t = NULL;
  expect_ok(rlx_tensor_create(RLX_DTYPE_C64, 2, dims, &t),
            "complex tensor: create c64");
  bool zeroed = true;
  for (size_t i = 0; t && i < rlx_tensor_byte_size(t); ++i)
    zeroed &= ((unsigned char *)rlx_tensor_data(t))[i] == 0;
  check(t && rlx_tensor_dtype(t) == RLX_DTYPE_C64 &&
            rlx_tensor_element_count(t) == 6 && rlx_tensor_byte_size(t) == 48 &&
            (uintptr_t)rlx_tensor_data(t) % RLX_TENSOR_ALIGNMENT == 0 && zeroed,
        "complex tensor: c64[2,3] is 48 zeroed, aligned bytes");
  rlx_tensor_type_t type;
  char text[32];
  expect_ok(rlx_tensor_get_type(t, &type), "complex tensor: get_type");
  check(rlx_tensor_type_format(&type, text, sizeof(text)) == 8 &&
            strcmp(text, "c64[2,3]") == 0,
        "complex tensor: format c64[2,3]");

  const test_c128_t values[] = {{1, 2},    {-3, 0.5},  {0.1, -0.1},
                                {0, -0.0}, {1e300, 0}, {-1, -1}};
  expect_ok(rlx_tensor_copy_from(t, RLX_DTYPE_C128, values, sizeof(values)),
            "complex tensor: copy_from c128 into c64");
  test_c64_t *data = t ? rlx_tensor_data(t) : NULL;
  check(data && data[0].re == 1 && data[0].im == 2 && data[1].re == -3 &&
            data[1].im == 0.5f && data[2].re == 0.1f && data[2].im == -0.1f &&
            signbit(data[3].im) && data[4].re == INFINITY,
        "complex tensor: copy_from converts each part");
  test_c128_t back[6];
  expect_ok(rlx_tensor_copy_to(t, RLX_DTYPE_C128, back, sizeof(back)),
            "complex tensor: copy_to c128");
  check(back[1].re == -3 && back[1].im == 0.5 && back[2].re == (double)0.1f,
        "complex tensor: copy_to widens");
  const double reals[] = {1, 2, 3, 4, 5, 6};
  expect_ok(rlx_tensor_copy_from(t, RLX_DTYPE_F64, reals, sizeof(reals)),
            "complex tensor: copy_from f64 into c64");
  check(data && data[5].re == 6 && data[5].im == 0 && data[0].im == 0,
        "complex tensor: real values get a zero imaginary part");
  double out[6] = {0};
  expect_error(rlx_tensor_copy_to(t, RLX_DTYPE_F64, out, sizeof(out)),
               RLX_STATUS_INVALID_ARGUMENT, "complex tensor: copy_to f64",
               "cannot convert c64 to f64", NULL);
  check(out[0] == 0, "complex tensor: a refused copy writes nothing");
  expect_error(
      rlx_tensor_copy_from(t, RLX_DTYPE_C128, values, 48),
      RLX_STATUS_INVALID_ARGUMENT, "complex tensor: copy_from wrong length",
      "6 elements of c128 (tensor c64[2,3]) need 96 bytes, got 48", NULL);
  rlx_tensor_free(t);

  rlx_tensor_t *scalar = NULL;
  expect_ok(rlx_tensor_create(RLX_DTYPE_C128, 0, NULL, &scalar),
            "complex tensor: create c128 scalar");
  expect_ok(rlx_tensor_get_type(scalar, &type),
            "complex tensor: scalar get_type");
  check(scalar && rlx_tensor_byte_size(scalar) == 16 &&
            rlx_tensor_type_format(&type, text, sizeof(text)) == 6 &&
            strcmp(text, "c128[]") == 0,
        "complex tensor: c128[] is 16 bytes");
  rlx_tensor_free(scalar);

  const int64_t huge[] = {INT64_C(1) << 59};
  rlx_tensor_t *unused = NULL;
  expect_error(rlx_tensor_create(RLX_DTYPE_C128, 1, huge, &unused),
               RLX_STATUS_OUT_OF_RANGE, "complex tensor: 16-byte overflow",
               "is too large", NULL);

  /* A complex element is aligned as one of its parts (C's double _Complex,
   * NumPy's complex128, MLIR's {f64, f64}). */
  _Alignas(16) double storage[9] = {0};
  const int64_t two[] = {2};
  rlx_tensor_t *wrapped = NULL;
  expect_ok(rlx_tensor_wrap(RLX_DTYPE_C128, 1, two, storage + 1,
                            2 * sizeof(test_c128_t), &wrapped),
            "complex tensor: wrap c128 at an 8-byte boundary");
  rlx_tensor_free(wrapped);
  wrapped = NULL;
  expect_ok(rlx_tensor_wrap(RLX_DTYPE_C64, 1, two, (char *)storage + 4,
                            2 * sizeof(test_c64_t), &wrapped),
            "complex tensor: wrap c64 at a 4-byte boundary");
  rlx_tensor_free(wrapped);
  expect_error(rlx_tensor_wrap(RLX_DTYPE_C128, 1, two, (char *)storage + 4,
                               2 * sizeof(test_c128_t), &unused),
               RLX_STATUS_INVALID_ARGUMENT, "complex tensor: wrap misaligned",
               "not 8-byte aligned", NULL);
  expect_error(rlx_tensor_wrap(RLX_DTYPE_C64, 1, two, storage, 8, &unused),
               RLX_STATUS_INVALID_ARGUMENT, "complex tensor: wrap short",
               "c64[2] needs exactly 16 bytes, got 8", NULL);
}

/* ---- modules ------------------------------------------------------------- */

static void test_load_errors(void) {
  rlx_module_t *module = NULL;
  expect_error(rlx_module_load(NULL, &module), RLX_STATUS_INVALID_ARGUMENT,
               "load: NULL path", "path is NULL", NULL);
  expect_error(rlx_module_load(fixture("rlx_runtime_fixture"), NULL),
               RLX_STATUS_INVALID_ARGUMENT, "load: NULL out", "out is NULL",
               NULL);
  expect_error(rlx_module_load(scratch("missing.so"), &module),
               RLX_STATUS_NOT_FOUND, "load: missing file",
               "No such file or directory", "missing.so");
  /* A bare name is a file in the working directory, never a library found
   * through the search path. */
  expect_error(rlx_module_load("libc.so.6", &module), RLX_STATUS_NOT_FOUND,
               "load: bare name is not searched on the library path",
               "cannot load module 'libc.so.6'", NULL);

  const char text[] = "this is not an ELF file\n";
  write_file(scratch("text.so"), text, sizeof(text) - 1);
  expect_error(rlx_module_load(scratch("text.so"), &module),
               RLX_STATUS_INVALID_FORMAT, "load: not a shared object",
               "text.so", "not an ELF file");
  expect_error(rlx_module_load(scratch_dir, &module), RLX_STATUS_IO_ERROR,
               "load: a directory", "cannot load module", "is a directory");
  expect_error(rlx_module_load("/dev/null", &module), RLX_STATUS_IO_ERROR,
               "load: a device", "cannot load module '/dev/null'",
               "not a regular file");
  expect_error(
      rlx_module_load(fixture("rlx_runtime_fixture_no_manifest"), &module),
      RLX_STATUS_INVALID_FORMAT, "load: no rlx_manifest",
      "is not an RLX module", "rlx_manifest");
  expect_error(
      rlx_module_load(fixture("rlx_runtime_fixture_bad_manifest"), &module),
      RLX_STATUS_INVALID_FORMAT, "load: bad manifest",
      "line 3: rank 2 needs 2 dims, got 1", NULL);
  expect_error(
      rlx_module_load(fixture("rlx_runtime_fixture_missing_invoke"), &module),
      RLX_STATUS_NOT_FOUND, "load: missing invoke symbol",
      "declares function 'ghost' but does not export "
      "rlx_invoke_ghost",
      "undefined symbol");
  check(module == NULL, "load: failures leave out untouched");
}

/* ---- the ELF check before dlopen ----------------------------------------- */

static unsigned char *read_whole_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  unsigned char *bytes = NULL;
  long length = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
  if (length > 0 && fseek(file, 0, SEEK_SET) == 0 &&
      (bytes = malloc((size_t)length)) &&
      fread(bytes, 1, (size_t)length, file) != (size_t)length) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *size = (size_t)length;
  return bytes;
}

static void put_u16(unsigned char *at, uint16_t value) {
  memcpy(at, &value, sizeof(value));
}

static void put_u64(unsigned char *at, uint64_t value) {
  memcpy(at, &value, sizeof(value));
}

static uint64_t get_u64(const unsigned char *at) {
  uint64_t value;
  memcpy(&value, at, sizeof(value));
  return value;
}

/* Offsets in the ELF64 header and program header (elf.h's Elf64_Ehdr and
 * Elf64_Phdr). */
enum {
  E_CLASS = 4,
  E_DATA = 5,
  E_TYPE = 16,
  E_MACHINE = 18,
  E_PHOFF = 32,
  E_SHOFF = 40,
  E_PHENTSIZE = 54,
  E_PHNUM = 56,
  P_OFFSET = 8,
  P_FILESZ = 32,
  P_MEMSZ = 40,
};

/* The index of the first PT_LOAD program header of `image`. */
static size_t first_load(const unsigned char *image) {
  uint64_t phoff = get_u64(image + E_PHOFF);
  for (size_t i = 0;; ++i) {
    uint32_t type;
    memcpy(&type, image + phoff + 56 * i, sizeof(type));
    if (type == 1)
      return i;
  }
}

static bool truncation_rejected(const unsigned char *image, size_t cut) {
  const char *path = scratch("cut.so");
  write_file(path, image, cut);
  rlx_module_t *module = NULL;
  rlx_status_t status = rlx_module_load(path, &module);
  bool rejected = rlx_status_code(status) == RLX_STATUS_INVALID_FORMAT;
  rlx_status_free(status);
  rlx_module_free(module);
  return rejected;
}

static void test_elf_check(void) {
  size_t size = 0;
  unsigned char *original =
      read_whole_file(fixture("rlx_runtime_fixture"), &size);
  check(original && size > 4096, "elf: fixture module is readable");
  if (!original)
    return;
  unsigned char *image = malloc(size);
  rlx_module_t *module = NULL;

  /* The first half of a valid module used to kill the process with SIGBUS
   * inside dlopen. */
  const char *half = scratch("half.so");
  write_file(half, original, size / 2);
  expect_error(rlx_module_load(half, &module), RLX_STATUS_INVALID_FORMAT,
               "elf: first half of a module", "half.so", "truncated ELF file");
  /* Cuts at every page boundary, and just short of the end. */
  bool all_rejected = truncation_rejected(original, size - 1);
  for (size_t cut = 0; cut < size; cut += 4096)
    all_rejected &= truncation_rejected(original, cut);
  check(all_rejected, "elf: every truncation of a module is reported");

  size_t load = first_load(original);
  size_t load_at = get_u64(original + E_PHOFF) + 56 * load;
  static const struct elf_case {
    const char *name;
    int field; /* offset, or -1 for the first PT_LOAD's p_filesz */
    int width; /* 1, 2 or 8 bytes */
    uint64_t value;
    const char *substring;
  } cases[] = {
      {"bad magic", 1, 1, 'F', "not an ELF file"},
      {"32-bit class", E_CLASS, 1, 1, "an ELF file for another machine"},
      {"big-endian data", E_DATA, 1, 2, "an ELF file for another machine"},
      {"other machine", E_MACHINE, 2, 0x28 /* EM_ARM */,
       "machine 40; this host has"},
      {"executable", E_TYPE, 2, 2 /* ET_EXEC */, "not a shared object"},
      {"program headers past the end", E_PHOFF, 8, UINT64_MAX - 8,
       "the program headers end past"},
      {"no program headers", E_PHNUM, 2, 0, "0 program headers"},
      {"extended program header count", E_PHNUM, 2, 0xffff,
       "65535 program headers"},
      {"odd program header size", E_PHENTSIZE, 2, 32,
       "program headers of 32 bytes"},
      {"section headers past the end", E_SHOFF, 8, UINT64_MAX / 2,
       "the section headers start past"},
      {"segment past the end", -1, 8, 1u << 30, "truncated ELF file: segment"},
      {"segment offset overflows", -2, 8, UINT64_MAX - 1,
       "truncated ELF file: segment"},
      {"segment larger in the file than in memory", -3, 8, 1,
       "bytes in the file but 1 in memory"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const struct elf_case *c = &cases[i];
    memcpy(image, original, size);
    size_t at = c->field >= 0   ? (size_t)c->field
                : c->field == -1 ? load_at + P_FILESZ
                : c->field == -2 ? load_at + P_OFFSET
                                 : load_at + P_MEMSZ;
    if (c->width == 1)
      image[at] = (unsigned char)c->value;
    else if (c->width == 2)
      put_u16(image + at, (uint16_t)c->value);
    else
      put_u64(image + at, c->value);
    const char *path = scratch("corrupt.so");
    write_file(path, image, size);
    expect_error(rlx_module_load(path, &module), RLX_STATUS_INVALID_FORMAT,
                 format("elf: %s", c->name), c->substring, "corrupt.so");
  }
  const char *tiny = scratch("tiny.so");
  write_file(tiny, original, 63);
  expect_error(rlx_module_load(tiny, &module), RLX_STATUS_INVALID_FORMAT,
               "elf: shorter than an ELF header", "not an ELF file (63 bytes)",
               NULL);
  check(module == NULL, "elf: rejected files leave out untouched");

  /* The unmodified copy still loads. */
  const char *copy = scratch("copy.so");
  write_file(copy, original, size);
  expect_ok(rlx_module_load(copy, &module), "elf: an intact copy loads");
  rlx_module_free(module);
  free(image);
  free(original);
}

/* Manifests fed to the writable fixture; `substring` of the error, or NULL
 * when the manifest is valid. */
static const struct manifest_case {
  const char *name;
  const char *manifest;
  rlx_status_code_t code;
  const char *substring;
} manifest_cases[] = {
    {"empty", "", RLX_STATUS_INVALID_FORMAT, "it is empty"},
    {"blank lines only", "\n \n\t\n", RLX_STATUS_INVALID_FORMAT, "it is empty"},
    {"no header", "func f 0 1\nres f32 0\n", RLX_STATUS_INVALID_FORMAT,
     "line 1: expected the header 'rlx-module 1'"},
    {"header with extra token", "rlx-module 1 2\n", RLX_STATUS_INVALID_FORMAT,
     "expected the header"},
    {"version 3", "rlx-module 3\nfunc f 0 0\n", RLX_STATUS_UNIMPLEMENTED,
     "manifest version 3; this runtime reads versions 1 and 2"},
    {"bad version", "rlx-module one\n", RLX_STATUS_INVALID_FORMAT,
     "version 'one' is not a non-negative integer"},
    {"custom without a name", "rlx-module 2\ncustom\nfunc f 0 0\n",
     RLX_STATUS_INVALID_FORMAT, "line 2: expected 'custom <name>'"},
    {"custom name not an identifier", "rlx-module 2\ncustom 9f\n",
     RLX_STATUS_INVALID_FORMAT,
     "custom function name '9f' is not a C identifier"},
    {"duplicate custom function", "rlx-module 2\ncustom f\ncustom f\n",
     RLX_STATUS_INVALID_FORMAT, "line 3: duplicate custom function 'f'"},
    {"custom line after a function", "rlx-module 2\nfunc f 0 0\ncustom g\n",
     RLX_STATUS_INVALID_FORMAT, "line 3: expected a 'func' line, got 'custom'"},
    /* The fixture calls no C function: it has no rlx_custom_g. */
    {"custom function the module does not export",
     "rlx-module 2\ntarget cpu\ncustom g\n", RLX_STATUS_INVALID_FORMAT,
     "lists the custom function 'g' but does not export rlx_custom_g"},
    {"not a func line", "rlx-module 1\nfunk f 0 0\n", RLX_STATUS_INVALID_FORMAT,
     "line 2: expected a 'func' line, got 'funk'"},
    {"short func line", "rlx-module 1\nfunc f 1\n", RLX_STATUS_INVALID_FORMAT,
     "expected 'func <name> <num_inputs> <num_outputs>'"},
    {"bad function name", "rlx-module 1\nfunc 9f 0 0\n",
     RLX_STATUS_INVALID_FORMAT, "function name '9f' is not a C identifier"},
    {"function name with a dot", "rlx-module 1\nfunc a.b 0 0\n",
     RLX_STATUS_INVALID_FORMAT, "'a.b' is not a C identifier"},
    {"negative count", "rlx-module 1\nfunc f -1 0\n", RLX_STATUS_INVALID_FORMAT,
     "input count '-1' is not a non-negative integer"},
    {"count past the manifest", "rlx-module 1\nfunc f 99999999999999999999 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "input count '99999999999999999999' is too "
     "large"},
    {"more outputs than lines", "rlx-module 1\nfunc f 0 5\nres f32 0\n",
     RLX_STATUS_INVALID_FORMAT, "output count '5' is too large"},
    {"missing arg line", "rlx-module 1\nfunc f 2 0\narg f32 0\n\n",
     RLX_STATUS_INVALID_FORMAT,
     "manifest ends inside function 'f' (input 1 of 2 missing)"},
    {"res instead of arg", "rlx-module 1\nfunc f 1 1\nres f32 0\nres f32 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: expected 'arg' line 0 of function 'f', got 'res'"},
    {"unknown dtype", "rlx-module 1\nfunc f 1 0\narg f33 0\n",
     RLX_STATUS_INVALID_FORMAT, "unknown dtype 'f33'"},
    {"unknown complex dtype", "rlx-module 1\nfunc f 0 1\nres c32 1 2\n",
     RLX_STATUS_INVALID_FORMAT, "line 3: unknown dtype 'c32'"},
    {"missing rank", "rlx-module 1\nfunc f 1 0\narg f32\n",
     RLX_STATUS_INVALID_FORMAT, "'arg' line needs a dtype and a rank"},
    {"too few dims", "rlx-module 1\nfunc f 1 0\narg f32 2 3\n",
     RLX_STATUS_INVALID_FORMAT, "rank 2 needs 2 dims, got 1"},
    {"too many dims", "rlx-module 1\nfunc f 0 1\nres f32 1 3 4\n",
     RLX_STATUS_INVALID_FORMAT, "rank 1 needs 1 dim, got 2"},
    {"rank 33", "rlx-module 1\nfunc f 1 0\narg f32 33\n",
     RLX_STATUS_INVALID_FORMAT, "rank '33' is too large (at most 32)"},
    {"negative dim", "rlx-module 1\nfunc f 1 0\narg f32 1 -3\n",
     RLX_STATUS_INVALID_FORMAT, "dim '-3' is not a non-negative integer"},
    {"dim beyond int64",
     "rlx-module 1\nfunc f 1 0\narg f32 1 9223372036854775808\n",
     RLX_STATUS_INVALID_FORMAT, "dim '9223372036854775808' is too large"},
    {"overflowing dims",
     "rlx-module 1\nfunc f 1 0\narg f32 2 4294967296 4294967296\n",
     RLX_STATUS_INVALID_FORMAT,
     "input 0 of 'f': shape [4294967296,4294967296] is too large"},
    {"too many tokens",
     "rlx-module 1\nfunc f 1 0\narg f32 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
     "1 1"
     " 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n",
     RLX_STATUS_INVALID_FORMAT, "too many tokens (at most 35)"},
    {"duplicate function",
     "rlx-module 1\nfunc f 0 1\nres f32 0\nfunc f 0 1\nres f32 0\n",
     RLX_STATUS_INVALID_FORMAT, "line 4: duplicate function 'f'"},
    {"missing invoke symbol", "rlx-module 1\nfunc f 0 0\nfunc nope 0 0\n",
     RLX_STATUS_NOT_FOUND, "does not export rlx_invoke_nope"},
    {"unknown target", "rlx-module 1\ntarget tpu\nfunc f 0 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 2: unknown target 'tpu' (expected cpu or cuda)"},
    {"target without a name", "rlx-module 1\ntarget\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 2: expected 'target cpu' or 'target cuda'"},
    {"target after a function", "rlx-module 1\nfunc f 0 0\ntarget cpu\n",
     RLX_STATUS_INVALID_FORMAT, "line 3: expected a 'func' line, got 'target'"},
    /* Version 1 has neither symbols nor where clauses. */
    {"v1: symbolic dim", "rlx-module 1\nfunc f 1 0\narg f32 1 S\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: dim 'S' is not a non-negative integer"},
    {"v1: where clause",
     "rlx-module 1\nfunc f 1 0\narg f32 1 2\nwhere 1 == 1\n",
     RLX_STATUS_INVALID_FORMAT, "line 4: expected a 'func' line, got 'where'"},
    /* Version 2: symbolic dims and where clauses. */
    {"v2: unbalanced '('", "rlx-module 2\nfunc f 1 0\narg f32 1 (S+1\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: dim 0 of input 0 of 'f': expression '(S+1': expected ')' at "
     "the end"},
    {"v2: unbalanced ')'", "rlx-module 2\nfunc f 1 0\narg f32 1 S+1)\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: dim 0 of input 0 of 'f': expression 'S+1)': unbalanced ')' at "
     "character 4"},
    {"v2: trailing operator",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 S*\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: dim 0 of output 0 of 'f': expression 'S*': expected a number, "
     "a symbol, '(' or '-' at the end"},
    {"v2: leading operator",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 *S\n",
     RLX_STATUS_INVALID_FORMAT, "got '*' at character 1"},
    {"v2: operand after operand",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 2S\n",
     RLX_STATUS_INVALID_FORMAT,
     "expression '2S': expected an operator or the end, got 'S' at character "
     "2"},
    {"v2: empty parentheses",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 ()\n",
     RLX_STATUS_INVALID_FORMAT, "got ')' at character 2"},
    {"v2: unknown character",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 S$2\n",
     RLX_STATUS_INVALID_FORMAT,
     "expression 'S$2': expected an operator or the end, got '$' at "
     "character 2"},
    {"v2: 65 nested parentheses",
     "rlx-module 2\nfunc f 1 0\narg f32 1 "
     "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
     "S)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: dim 0 of input 0 of 'f': expression '"
     "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((...': "
     "nested more than 64 levels deep"},
    {"v2: 65 nested minus signs",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 "
     "-----------------------------------------------------------------S\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: dim 0 of output 0 of 'f': expression '"
     "----------------------------------------------------------------...': "
     "nested more than 64 levels deep"},
    {"v2: expression longer than 512 characters",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 "
     "S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+"
     "S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+"
     "S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+"
     "S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+"
     "S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+"
     "S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+"
     "S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+S+"
     "S+S+S+S+S\n",
     RLX_STATUS_INVALID_FORMAT, "...': longer than 512 characters"},
    {"v2: integer beyond int64",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 S+9223372036854775808\n",
     RLX_STATUS_INVALID_FORMAT,
     "integer at character 3 is too large (at most 9223372036854775807)"},
    {"v2: unknown symbol in a result",
     "rlx-module 2\nfunc f 1 1\narg f32 1 S\nres f32 1 T\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: dim 0 of output 0 of 'f': symbol 'T' of 'f' is not bound by "
     "any input"},
    {"v2: symbol no input binds",
     "rlx-module 2\nfunc f 2 0\narg f32 1 2*S\narg f32 1 T\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: symbol 'S' of 'f' is not bound by any input"},
    {"v2: a parenthesized symbol does not bind",
     "rlx-module 2\nfunc f 1 0\narg f32 1 (S)\n", RLX_STATUS_INVALID_FORMAT,
     "line 3: symbol 'S' of 'f' is not bound by any input"},
    {"v2: a result does not bind", "rlx-module 2\nfunc f 0 1\nres f32 1 S\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: dim 0 of output 0 of 'f': symbol 'S' of 'f' is not bound"},
    {"v2: symbols belong to their function",
     "rlx-module 2\nfunc f 1 0\narg f32 1 S\nfunc g 0 1\nres f32 1 S\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 5: dim 0 of output 0 of 'g': symbol 'S' of 'g' is not bound"},
    {"v2: unknown symbol in a where clause",
     "rlx-module 2\nfunc f 1 0\narg f32 1 S\nwhere T == 1\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: where clause of 'f': symbol 'T' of 'f' is not bound by any "
     "input"},
    {"v2: where without a relation",
     "rlx-module 2\nfunc f 1 0\narg f32 1 S\nwhere S%8\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: expected 'where <expr> <relation> <expr> [reason]'"},
    {"v2: where without a right-hand side",
     "rlx-module 2\nfunc f 1 0\narg f32 1 S\nwhere S ==\n",
     RLX_STATUS_INVALID_FORMAT, "line 4: expected 'where <expr>"},
    {"v2: where with an unknown relation",
     "rlx-module 2\nfunc f 1 0\narg f32 1 S\nwhere S != 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: unknown relation '!=' in a where clause of 'f' (expected ==, >= "
     "or <=)"},
    {"v2: where with a malformed expression",
     "rlx-module 2\nfunc f 1 0\narg f32 1 S\nwhere S% == 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: where clause of 'f': expression 'S%': expected a number"},
    {"v2: where before any function", "rlx-module 2\nwhere 1 == 1\n",
     RLX_STATUS_INVALID_FORMAT, "line 2: expected a 'func' line, got 'where'"},
    {"v2: where between arg lines",
     "rlx-module 2\nfunc f 2 0\narg f32 1 S\nwhere S == 1\narg f32 1 S\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: expected 'arg' line 1 of function 'f', got 'where'"},
    {"v2: negative constant dim", "rlx-module 2\nfunc f 1 0\narg f32 1 2-3\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: dim 0 of input 0 of 'f': '2-3' is negative (-1)"},
    {"v2: constant division by zero",
     "rlx-module 2\nfunc f 1 0\narg f32 1 4/(2-2)\n", RLX_STATUS_INVALID_FORMAT,
     "line 3: dim 0 of input 0 of 'f': '4/(2-2)' divides by zero"},
    {"v2: constant overflow",
     "rlx-module 2\nfunc f 1 0\narg f32 1 9223372036854775807+1\n",
     RLX_STATUS_INVALID_FORMAT, "'9223372036854775807+1' overflows int64"},
    {"v2: folded shape too large",
     "rlx-module 2\nfunc f 1 0\narg f32 2 65536*65536 65536*65536\n",
     RLX_STATUS_INVALID_FORMAT,
     "input 0 of 'f': shape [4294967296,4294967296] is too large"},
    /* Meshes: a "mesh" line after the header (and target line), "split"
     * lines after a function's arg and res lines. */
    {"mesh: version 1", "rlx-module 1\nmesh 1 2\n", RLX_STATUS_INVALID_FORMAT,
     "line 2: a 'mesh' line needs manifest version 2"},
    {"mesh: without sizes", "rlx-module 2\nmesh\n", RLX_STATUS_INVALID_FORMAT,
     "line 2: expected 'mesh <rank> <size> ...'"},
    {"mesh: rank 0", "rlx-module 2\nmesh 0 2\n", RLX_STATUS_INVALID_FORMAT,
     "line 2: a mesh has 1 to 4 axes, got rank 0"},
    {"mesh: rank 5", "rlx-module 2\nmesh 5 1 1 1 1 1\n",
     RLX_STATUS_INVALID_FORMAT, "mesh rank '5' is too large (at most 4)"},
    {"mesh: too few sizes", "rlx-module 2\nmesh 2 2\n",
     RLX_STATUS_INVALID_FORMAT, "a mesh of rank 2 needs 2 sizes, got 1"},
    {"mesh: too many sizes", "rlx-module 2\nmesh 1 2 2\n",
     RLX_STATUS_INVALID_FORMAT, "a mesh of rank 1 needs 1 size, got 2"},
    {"mesh: size 0", "rlx-module 2\nmesh 2 2 0\n", RLX_STATUS_INVALID_FORMAT,
     "line 2: mesh axis 1 has size 0 (at least 1)"},
    {"mesh: size not a number", "rlx-module 2\nmesh 1 x\n",
     RLX_STATUS_INVALID_FORMAT, "mesh size 'x' is not a non-negative integer"},
    {"mesh: an axis larger than 4096", "rlx-module 2\nmesh 1 4097\n",
     RLX_STATUS_INVALID_FORMAT, "mesh size '4097' is too large (at most 4096)"},
    {"mesh: more than 4096 processes", "rlx-module 2\nmesh 2 64 65\n",
     RLX_STATUS_INVALID_FORMAT,
     "a mesh of 4160 processes is too large (at most 4096)"},
    {"mesh: twice", "rlx-module 2\nmesh 1 2\nmesh 1 2\n",
     RLX_STATUS_INVALID_FORMAT, "line 3: a second 'mesh' line"},
    {"mesh: after a custom line", "rlx-module 2\ncustom g\nmesh 1 2\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 3: the 'mesh' line comes right after the header"},
    {"mesh: after a function",
     "rlx-module 2\nfunc f 1 0\narg f32 1 4\nmesh 1 2\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: the 'mesh' line comes right after the header"},
    {"mesh: before the target line", "rlx-module 2\nmesh 1 2\ntarget cpu\n",
     RLX_STATUS_INVALID_FORMAT, "line 3: expected a 'func' line, got 'target'"},
    {"mesh: a cuda module", "rlx-module 2\ntarget cuda\nmesh 1 2\n",
     RLX_STATUS_UNIMPLEMENTED,
     "line 3: a 'target cuda' module on a mesh is not supported yet"},
    {"split: without a mesh line",
     "rlx-module 2\nfunc f 1 0\narg f32 1 4\nsplit arg 0 0 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 4: 'split' line of 'f' without a 'mesh' line"},
    {"split: version 1",
     "rlx-module 1\nfunc f 1 0\narg f32 1 4\nsplit arg 0 0 0\n",
     RLX_STATUS_INVALID_FORMAT, "line 4: expected a 'func' line, got 'split'"},
    {"split: without an axis",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit arg 0 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 5: expected 'split <arg|res> <index> <dim> <axis> [<axis> ...]'"},
    {"split: neither arg nor res",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit in 0 0 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "expected 'split arg' or 'split res', got 'split in'"},
    {"split: an input past the end",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit arg 1 0 0\n",
     RLX_STATUS_INVALID_FORMAT, "line 5: split of input 1: 'f' has 1 input"},
    {"split: an output past the end",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit res 0 0 0\n",
     RLX_STATUS_INVALID_FORMAT, "split of output 0: 'f' has 0 outputs"},
    {"split: a dim past the rank",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit arg 0 1 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "split of dim 1 of input 0 of 'f', which has rank 1"},
    {"split: a symbolic dim",
     "rlx-module 2\nmesh 1 2\nfunc f 1 1\narg f32 1 S\nres f32 1 S\n"
     "split res 0 0 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 6: dim 0 of output 0 of 'f' is symbolic ('S'): only a static dim "
     "can be split"},
    {"split: an axis past the mesh",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit arg 0 0 1\n",
     RLX_STATUS_INVALID_FORMAT,
     "mesh axis 1 is out of range: the mesh has 1 axis"},
    {"split: an axis that is not a number",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit arg 0 0 x\n",
     RLX_STATUS_INVALID_FORMAT, "mesh axis 'x' is not a non-negative integer"},
    {"split: an axis twice in a line",
     "rlx-module 2\nmesh 2 2 2\nfunc f 1 0\narg f32 1 8\nsplit arg 0 0 1 1\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 5: mesh axis 1 splits input 0 of 'f' twice"},
    {"split: an axis on two dims of a tensor",
     "rlx-module 2\nmesh 2 2 2\nfunc f 1 0\narg f32 2 4 4\nsplit arg 0 0 0\n"
     "split arg 0 1 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 6: mesh axis 0 splits input 0 of 'f' twice"},
    {"split: a dim twice",
     "rlx-module 2\nmesh 2 2 2\nfunc f 1 0\narg f32 2 4 4\nsplit arg 0 0 0\n"
     "split arg 0 0 1\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 6: dim 0 of input 0 of 'f' is split twice"},
    {"split: a dim the axis does not divide",
     "rlx-module 2\nmesh 1 2\nfunc f 0 1\nres f32 1 5\nsplit res 0 0 0\n",
     RLX_STATUS_INVALID_FORMAT,
     "dim 0 of output 0 of 'f' is 5, which does not split into 2 equal "
     "blocks"},
    {"split: a dim two axes do not divide",
     "rlx-module 2\nmesh 2 2 3\nfunc f 1 0\narg f32 1 8\nsplit arg 0 0 0 1\n",
     RLX_STATUS_INVALID_FORMAT,
     "dim 0 of input 0 of 'f' is 8, which does not split into 6 equal "
     "blocks"},
    {"split: before the res lines",
     "rlx-module 2\nmesh 1 2\nfunc f 1 1\narg f32 1 4\nsplit arg 0 0 0\n"
     "res f32 1 4\n",
     RLX_STATUS_INVALID_FORMAT,
     "line 5: expected 'res' line 0 of function 'f', got 'split'"},
    /* The patchable fixture has no MPI. */
    {"mesh: a module without rlx_mesh_start",
     "rlx-module 2\nmesh 1 2\nfunc f 1 0\narg f32 1 4\nsplit arg 0 0 0\n",
     RLX_STATUS_NOT_FOUND,
     "has a 'mesh' line but does not export rlx_mesh_start"},
    {"valid with target cpu",
     "rlx-module 1\ntarget cpu\nfunc f 1 1\narg i1 0\nres bf16 3 0 2 5\n"
     "func g 0 0\n",
     RLX_STATUS_OK, NULL},
    {"valid with blank lines, tabs and CRLF",
     "\n\trlx-module   1\r\n\nfunc f 1 1\r\narg\tbool 0\r\n  res bf16 3 0 2 "
     "5\r\n\nfunc g 0 0",
     RLX_STATUS_OK, NULL},
};

static bool text_is(const char *text, const char *expected) {
  return text && strcmp(text, expected) == 0;
}

/* A valid version-2 manifest, loaded through the patchable fixture, read
 * back through the introspection API. */
static void test_manifest_v2(const char *path, char *manifest) {
  snprintf(manifest, 4096,
           "rlx-module 2\n"
           "target cpu\n"
           "func f 2 2\n"
           "arg f32 3 B S 4\n"
           /* 64 levels of parentheses are the most an expression may use */
           "arg i8 2 2*S "
           "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((S+"
           "1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))\n"
           "res f32 2 B*S -(-4)\n"
           "res i1 1 (S+7)/8\n"
           "where S%%8 == 0 rlx.reshape at model.mlir:12:5\r\n"
           "where\tB   >=  1\n"
           "func g 1 1\n"
           "arg f32 1 S\n"
           "res f32 1 S\n"
           "where S <= 9223372036854775807 a reason of many words: 1 2 3 4 5 6 "
           "7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 "
           "30 31 32 33 34 35 36 37 38 39 40\n");
  rlx_module_t *module = NULL;
  expect_ok(rlx_module_load(path, &module), "manifest v2: valid manifest");
  const rlx_function_t *f = NULL, *g = NULL;
  if (!module || rlx_module_function_count(module) != 2 ||
      rlx_module_function_at(module, 0, &f) ||
      rlx_module_function_at(module, 1, &g)) {
    check(false, "manifest v2: two functions");
    rlx_module_free(module);
    return;
  }
  rlx_tensor_type_t in0, in1, out0, out1;
  bool ok = !rlx_function_input_type(f, 0, &in0) &&
            !rlx_function_input_type(f, 1, &in1) &&
            !rlx_function_output_type(f, 0, &out0) &&
            !rlx_function_output_type(f, 1, &out1);
  check(ok && in0.rank == 3 && in0.dims[0] == RLX_DIM_DYNAMIC &&
            in0.dims[1] == RLX_DIM_DYNAMIC && in0.dims[2] == 4 &&
            in1.dtype == RLX_DTYPE_I8 && in1.dims[0] == RLX_DIM_DYNAMIC &&
            out0.dims[0] == RLX_DIM_DYNAMIC && out0.dims[1] == 4 &&
            out1.dtype == RLX_DTYPE_BOOL && out1.dims[0] == RLX_DIM_DYNAMIC,
        "manifest v2: symbolic dims read as RLX_DIM_DYNAMIC");
  char text[64];
  rlx_tensor_type_format(&in0, text, sizeof(text));
  check(strcmp(text, "f32[?,?,4]") == 0,
        "manifest v2: a dynamic dim formats as '?'");
  check(text_is(rlx_function_input_dim_expr(f, 0, 0), "B") &&
            text_is(rlx_function_input_dim_expr(f, 0, 1), "S") &&
            rlx_function_input_dim_expr(f, 0, 2) == NULL &&
            text_is(rlx_function_input_dim_expr(f, 1, 0), "2*S") &&
            text_is(rlx_function_output_dim_expr(f, 0, 0), "B*S") &&
            text_is(rlx_function_output_dim_expr(f, 1, 0), "(S+7)/8"),
        "manifest v2: dim expressions as written");
  const char *nested = rlx_function_input_dim_expr(f, 1, 1);
  check(nested && strlen(nested) == 64 * 2 + 3,
        "manifest v2: 64 levels of nesting");
  check(rlx_function_output_dim_expr(f, 0, 1) == NULL,
        "manifest v2: a constant expression is folded into a static dim");
  check(rlx_function_input_dim_expr(f, 0, 3) == NULL &&
            rlx_function_input_dim_expr(f, 2, 0) == NULL &&
            rlx_function_output_dim_expr(f, 2, 0) == NULL &&
            rlx_function_input_dim_expr(NULL, 0, 0) == NULL,
        "manifest v2: dim expressions past the end are NULL");
  check(rlx_function_num_symbols(f) == 2 &&
            text_is(rlx_function_symbol_name(f, 0), "B") &&
            text_is(rlx_function_symbol_name(f, 1), "S") &&
            rlx_function_symbol_name(f, 2) == NULL &&
            rlx_function_num_symbols(NULL) == 0 &&
            rlx_function_symbol_name(NULL, 0) == NULL,
        "manifest v2: symbols in order of appearance");
  check(rlx_function_num_where_clauses(f) == 2 &&
            text_is(rlx_function_where_clause(f, 0), "S%8 == 0") &&
            text_is(rlx_function_where_clause(f, 1), "B >= 1") &&
            rlx_function_where_clause(f, 2) == NULL &&
            rlx_function_num_where_clauses(NULL) == 0,
        "manifest v2: where clauses");
  check(
      rlx_function_num_symbols(g) == 1 &&
          text_is(rlx_function_symbol_name(g, 0), "S") &&
          rlx_function_num_where_clauses(g) == 1 &&
          text_is(rlx_function_where_clause(g, 0), "S <= 9223372036854775807"),
      "manifest v2: a where clause's reason may have many words");

  /* Symbols bind at a call: input 0's dims give B = 2 and S = 8. */
  const int64_t dims0[] = {2, 8, 4}, dims1[] = {16, 9};
  rlx_tensor_t *x = NULL, *y = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F32, 3, dims0, &x));
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_I8, 2, dims1, &y));
  rlx_tensor_t *inputs[] = {x, y};
  int64_t dims[2] = {0, 0};
  expect_ok(rlx_function_output_dims(f, inputs, 2, 0, dims),
            "manifest v2: output dims");
  check(dims[0] == 16 && dims[1] == 4, "manifest v2: output 0 is [B*S,4]");
  expect_ok(rlx_function_output_dims(f, inputs, 2, 1, dims),
            "manifest v2: output dims of a rank-1 output");
  check(dims[0] == 1, "manifest v2: output 1 is [(S+7)/8]");
  rlx_tensor_free(x);
  rlx_tensor_free(y);
  rlx_module_free(module);
}

static void test_manifest_parsing(void) {
  char path[4096];
  snprintf(path, sizeof(path), "%s", fixture("rlx_runtime_fixture_patchable"));
  /* Holding our own reference keeps the patched mapping alive between
   * loads. */
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  char *manifest = handle ? dlsym(handle, "rlx_manifest") : NULL;
  check(manifest != NULL, "manifest: patchable fixture opens");
  if (!manifest)
    return;

  for (size_t i = 0; i < sizeof(manifest_cases) / sizeof(manifest_cases[0]);
       ++i) {
    const struct manifest_case *c = &manifest_cases[i];
    snprintf(manifest, 4096, "%s", c->manifest);
    rlx_module_t *module = NULL;
    rlx_status_t status = rlx_module_load(path, &module);
    const char *name = format("manifest: %s", c->name);
    if (c->code != RLX_STATUS_OK) {
      expect_error(status, c->code, name, c->substring, "rlx_runtime_fixture");
      continue;
    }
    expect_ok(status, name);
    const rlx_function_t *fn = NULL;
    rlx_tensor_type_t in, out;
    bool ok = module && rlx_module_function_count(module) == 2 &&
              !rlx_module_function_at(module, 0, &fn) &&
              !rlx_function_input_type(fn, 0, &in) &&
              !rlx_function_output_type(fn, 0, &out) &&
              in.dtype == RLX_DTYPE_BOOL && in.rank == 0 && in.dims == NULL &&
              out.dtype == RLX_DTYPE_BF16 && out.rank == 3 &&
              out.dims[0] == 0 && out.dims[1] == 2 && out.dims[2] == 5;
    check(ok, "manifest: valid manifest is parsed exactly");
    rlx_module_free(module);
  }

  snprintf(manifest, 4096, "rlx-module 1\n");
  rlx_module_t *empty = NULL;
  expect_ok(rlx_module_load(path, &empty), "manifest: no functions");
  check(rlx_module_function_count(empty) == 0,
        "manifest: a module may export no functions");
  rlx_module_free(empty);

  test_manifest_v2(path, manifest);

  memset(manifest, 'x', 4096);
  rlx_module_t *module = NULL;
  expect_error(rlx_module_load(path, &module), RLX_STATUS_INVALID_FORMAT,
               "manifest: not NUL-terminated", "not NUL-terminated", NULL);
  dlclose(handle);
}

/* Counters exported by the fixture module. */
static int *fixture_calls;
static int *fixture_descriptor_errors;

static rlx_tensor_t *make_f32(size_t rank, const int64_t *dims,
                              const float *values) {
  rlx_tensor_t *t = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F32, rank, dims, &t));
  if (t && values)
    memcpy(rlx_tensor_data(t), values, rlx_tensor_byte_size(t));
  return t;
}

static void test_introspection(const rlx_module_t *module) {
  check(rlx_module_function_count(module) == 5, "module: five functions");
  check(strcmp(rlx_module_path(module), fixture("rlx_runtime_fixture")) == 0,
        "module: path");
  const char *names[] = {"add_f32", "mixed", "noargs", "copy_bf16",
                         "many_inputs"};
  bool in_order = true;
  for (size_t i = 0; i < 5; ++i) {
    const rlx_function_t *fn = NULL;
    rlx_status_t status = rlx_module_function_at(module, i, &fn);
    in_order &= !status && strcmp(rlx_function_name(fn), names[i]) == 0;
    rlx_status_free(status);
  }
  check(in_order, "module: functions keep manifest order");

  const rlx_function_t *fn = NULL;
  expect_error(rlx_module_function_at(module, 5, &fn), RLX_STATUS_OUT_OF_RANGE,
               "module: function_at past the end",
               "function index 5 is out of range", "has 5 functions");
  expect_error(rlx_module_function_at(NULL, 0, &fn),
               RLX_STATUS_INVALID_ARGUMENT, "module: function_at NULL module",
               "module is NULL", NULL);
  expect_error(rlx_module_function_at(module, 0, NULL),
               RLX_STATUS_INVALID_ARGUMENT, "module: function_at NULL out",
               "out is NULL", NULL);
  expect_error(rlx_module_lookup(module, "nope", &fn), RLX_STATUS_NOT_FOUND,
               "module: lookup unknown function", "no function 'nope'",
               "available: add_f32, mixed, noargs, copy_bf16, many_inputs");
  double ms = 0;
  if (!rlx_module_function_at(module, 0, &fn))
    expect_error(rlx_function_device_time(fn, &ms), RLX_STATUS_INVALID_ARGUMENT,
                 "module: no device time on the CPU",
                 "'add_f32' runs on the CPU: it has no device time", NULL);
  expect_error(rlx_function_device_time(NULL, &ms),
               RLX_STATUS_INVALID_ARGUMENT, "module: device time of NULL",
               "fn or ms_out is NULL", NULL);
  expect_error(rlx_module_lookup(NULL, "add_f32", &fn),
               RLX_STATUS_INVALID_ARGUMENT, "module: lookup NULL module",
               "module is NULL", NULL);
  expect_error(rlx_module_lookup(module, NULL, &fn),
               RLX_STATUS_INVALID_ARGUMENT, "module: lookup NULL name",
               "name is NULL", NULL);
  expect_error(rlx_module_lookup(module, "add_f32", NULL),
               RLX_STATUS_INVALID_ARGUMENT, "module: lookup NULL out",
               "out is NULL", NULL);
  check(rlx_module_function_count(NULL) == 0 && rlx_module_path(NULL) == NULL,
        "module: accessors accept NULL");
  rlx_module_free(NULL);

  expect_ok(rlx_module_lookup(module, "mixed", &fn), "module: lookup mixed");
  rlx_tensor_type_t type;
  check(rlx_function_num_inputs(fn) == 3 && rlx_function_num_outputs(fn) == 3,
        "function: mixed has 3 inputs and 3 outputs");
  expect_ok(rlx_function_input_type(fn, 1, &type), "function: input_type");
  check(type.dtype == RLX_DTYPE_BOOL && type.rank == 1 && type.dims[0] == 4,
        "function: input 1 of mixed is i1[4]");
  expect_ok(rlx_function_output_type(fn, 0, &type), "function: output_type");
  check(type.dtype == RLX_DTYPE_I64 && type.rank == 0 && type.dims == NULL,
        "function: output 0 of mixed is i64[]");
  expect_error(rlx_function_input_type(fn, 3, &type), RLX_STATUS_OUT_OF_RANGE,
               "function: input_type past the end",
               "input index 3 is out of range: 'mixed' has 3 inputs", NULL);
  expect_error(rlx_function_output_type(fn, 7, &type), RLX_STATUS_OUT_OF_RANGE,
               "function: output_type past the end", "output index 7", NULL);
  expect_error(rlx_function_input_type(NULL, 0, &type),
               RLX_STATUS_INVALID_ARGUMENT, "function: input_type NULL fn",
               "fn is NULL", NULL);
  expect_error(rlx_function_output_type(fn, 0, NULL),
               RLX_STATUS_INVALID_ARGUMENT, "function: output_type NULL out",
               "out is NULL", NULL);
  check(rlx_function_name(NULL) == NULL && rlx_function_num_inputs(NULL) == 0 &&
            rlx_function_num_outputs(NULL) == 0,
        "function: accessors accept NULL");
}

static void test_invoke_errors(const rlx_function_t *add) {
  const int64_t dims[] = {2, 3};
  const float a_values[] = {1, 2, 3, 4, 5, 6};
  const float b_values[] = {10, 20, 30, 40, 50, 60};
  rlx_tensor_t *a = make_f32(2, dims, a_values);
  rlx_tensor_t *b = make_f32(2, dims, b_values);
  rlx_tensor_t *out = make_f32(2, dims, NULL);
  rlx_tensor_t *inputs[] = {a, b, a};
  rlx_tensor_t *outputs[] = {out, out};
  const int calls_before = *fixture_calls;

  expect_error(rlx_function_invoke(add, inputs, 1, outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: too few inputs",
               "'add_f32' takes 2 inputs, got 1", NULL);
  expect_error(rlx_function_invoke(add, inputs, 3, outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: too many inputs",
               "'add_f32' takes 2 inputs, got 3", NULL);
  expect_error(rlx_function_invoke(add, inputs, 2, outputs, 0),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: too few outputs",
               "'add_f32' returns 1 output, got 0", NULL);
  expect_error(rlx_function_invoke(add, inputs, 2, outputs, 2),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: too many outputs",
               "'add_f32' returns 1 output, got 2", NULL);
  expect_error(rlx_function_invoke(NULL, inputs, 2, outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: NULL function",
               "fn is NULL", NULL);
  expect_error(rlx_function_invoke(add, NULL, 2, outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: NULL inputs array",
               "inputs array is NULL", NULL);
  expect_error(rlx_function_invoke(add, inputs, 2, NULL, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: NULL outputs array",
               "outputs array is NULL", NULL);

  rlx_tensor_t *with_null[] = {a, NULL};
  expect_error(rlx_function_invoke(add, with_null, 2, outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: NULL input tensor",
               "input 1 of 'add_f32' is NULL", NULL);
  rlx_tensor_t *null_output[] = {NULL};
  expect_error(rlx_function_invoke(add, inputs, 2, null_output, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: NULL output tensor",
               "output 0 of 'add_f32' is NULL", NULL);

  rlx_tensor_t *ints = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_I32, 2, dims, &ints));
  rlx_tensor_t *wrong_dtype[] = {a, ints};
  expect_error(rlx_function_invoke(add, wrong_dtype, 2, outputs, 1),
               RLX_STATUS_DTYPE_MISMATCH, "invoke: wrong input dtype",
               "input 1 of 'add_f32': expected dtype f32, got i32", NULL);
  rlx_tensor_t *int_output[] = {ints};
  expect_error(rlx_function_invoke(add, inputs, 2, int_output, 1),
               RLX_STATUS_DTYPE_MISMATCH, "invoke: wrong output dtype",
               "output 0 of 'add_f32': expected dtype f32, got i32", NULL);

  const int64_t flat_dims[] = {6};
  rlx_tensor_t *flat = make_f32(1, flat_dims, NULL);
  rlx_tensor_t *wrong_rank[] = {flat, b};
  expect_error(rlx_function_invoke(add, wrong_rank, 2, outputs, 1),
               RLX_STATUS_SHAPE_MISMATCH, "invoke: wrong input rank",
               "input 0 of 'add_f32': expected rank 2 shape [2,3], got rank 1 "
               "shape [6]",
               NULL);
  const int64_t wide_dims[] = {2, 4};
  rlx_tensor_t *wide = make_f32(2, wide_dims, NULL);
  rlx_tensor_t *wrong_dims[] = {a, wide};
  expect_error(rlx_function_invoke(add, wrong_dims, 2, outputs, 1),
               RLX_STATUS_SHAPE_MISMATCH, "invoke: wrong input dims",
               "input 1 of 'add_f32': expected shape [2,3], got [2,4]", NULL);
  const int64_t transposed_dims[] = {3, 2};
  rlx_tensor_t *transposed = make_f32(2, transposed_dims, NULL);
  rlx_tensor_t *wrong_output[] = {transposed};
  expect_error(rlx_function_invoke(add, inputs, 2, wrong_output, 1),
               RLX_STATUS_SHAPE_MISMATCH, "invoke: wrong output dims",
               "output 0 of 'add_f32': expected shape [2,3], got [3,2]", NULL);

  rlx_tensor_t *aliased[] = {b};
  expect_error(rlx_function_invoke(add, inputs, 2, aliased, 1),
               RLX_STATUS_INVALID_ARGUMENT, "invoke: output aliasing an input",
               "output 0 of 'add_f32' overlaps input 1", NULL);
  /* A wrapped view that starts inside input 0's buffer. */
  rlx_tensor_t *view = NULL;
  rlx_status_free(rlx_tensor_wrap(RLX_DTYPE_F32, 2, dims,
                                  (float *)rlx_tensor_data(a) + 5, 24, &view));
  rlx_tensor_t *partial[] = {view};
  expect_error(rlx_function_invoke(add, inputs, 2, partial, 1),
               RLX_STATUS_INVALID_ARGUMENT,
               "invoke: output partially overlapping an input",
               "overlaps input 0", NULL);

  rlx_tensor_t *call_outputs[2] = {a, a};
  expect_error(rlx_function_call(add, wrong_dims, 2, call_outputs, 1),
               RLX_STATUS_SHAPE_MISMATCH, "call: wrong input dims",
               "input 1 of 'add_f32': expected shape [2,3], got [2,4]", NULL);
  check(call_outputs[0] == NULL, "call: failure leaves NULL outputs");
  expect_error(rlx_function_call(add, inputs, 1, call_outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "call: wrong input count",
               "'add_f32' takes 2 inputs, got 1", NULL);
  expect_error(rlx_function_call(add, inputs, 2, call_outputs, 2),
               RLX_STATUS_INVALID_ARGUMENT, "call: wrong output count",
               "'add_f32' returns 1 output, got 2", NULL);
  expect_error(rlx_function_call(add, inputs, 2, NULL, 1),
               RLX_STATUS_INVALID_ARGUMENT, "call: NULL outputs array",
               "rlx_function_call: the outputs array is NULL", NULL);
  expect_error(rlx_function_call(add, NULL, 2, call_outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "call: NULL inputs array",
               "rlx_function_call: the inputs array is NULL", NULL);
  expect_error(rlx_function_call(NULL, inputs, 2, call_outputs, 1),
               RLX_STATUS_INVALID_ARGUMENT, "call: NULL function", "fn is NULL",
               NULL);
  check(*fixture_calls == calls_before,
        "invoke: failed validation never runs the function");

  rlx_tensor_free(view);
  rlx_tensor_free(transposed);
  rlx_tensor_free(wide);
  rlx_tensor_free(flat);
  rlx_tensor_free(ints);
  rlx_tensor_free(a);
  rlx_tensor_free(b);
  rlx_tensor_free(out);
}

static void test_invoke(const rlx_module_t *module) {
  const rlx_function_t *add = NULL, *mixed = NULL, *noargs = NULL, *many = NULL;
  expect_ok(rlx_module_lookup(module, "add_f32", &add),
            "invoke: lookup add_f32");
  expect_ok(rlx_module_lookup(module, "mixed", &mixed), "invoke: lookup mixed");
  expect_ok(rlx_module_lookup(module, "noargs", &noargs),
            "invoke: lookup noargs");
  expect_ok(rlx_module_lookup(module, "many_inputs", &many),
            "invoke: lookup many_inputs");
  if (!add || !mixed || !noargs || !many)
    return;
  test_invoke_errors(add);

  const int64_t dims[] = {2, 3};
  const float a_values[] = {1, 2, 3, 4, 5, 6};
  _Alignas(64) float b_values[] = {0.5f, -2, 30, 40, 50, 60.25f};
  rlx_tensor_t *a = make_f32(2, dims, a_values);
  rlx_tensor_t *b = NULL;
  expect_ok(
      rlx_tensor_wrap(RLX_DTYPE_F32, 2, dims, b_values, sizeof(b_values), &b),
      "invoke: wrap input");
  rlx_tensor_t *out = make_f32(2, dims, NULL);
  rlx_tensor_t *inputs[] = {a, b};
  expect_ok(rlx_function_invoke(add, inputs, 2, &out, 1),
            "invoke: add_f32 into a caller output");
  const float *o = rlx_tensor_data(out);
  check(o[0] == 1.5f && o[1] == 0 && o[2] == 33 && o[5] == 66.25f,
        "invoke: add_f32 results");

  int64_t out_dims[2] = {0, 0};
  expect_ok(rlx_function_output_dims(add, inputs, 2, 0, out_dims),
            "output_dims: add_f32");
  check(out_dims[0] == 2 && out_dims[1] == 3 &&
            rlx_function_num_symbols(add) == 0 &&
            rlx_function_num_where_clauses(add) == 0 &&
            rlx_function_input_dim_expr(add, 0, 0) == NULL &&
            rlx_function_output_dim_expr(add, 0, 1) == NULL,
        "output_dims: a static function's output is its static shape");
  rlx_tensor_t *wrong_inputs[] = {a, out};
  rlx_tensor_t *wrong_inputs_flat = NULL;
  const int64_t six[] = {6};
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F32, 1, six, &wrong_inputs_flat));
  wrong_inputs[1] = wrong_inputs_flat;
  expect_error(rlx_function_output_dims(add, wrong_inputs, 2, 0, out_dims),
               RLX_STATUS_SHAPE_MISMATCH,
               "output_dims: checks a static function's inputs",
               "input 1 of 'add_f32': expected rank 2 shape [2,3], got rank 1 "
               "shape [6]",
               NULL);
  rlx_tensor_free(wrong_inputs_flat);

  rlx_tensor_t *result = NULL;
  expect_ok(rlx_function_call(add, inputs, 2, &result, 1), "call: add_f32");
  rlx_tensor_type_t type;
  check(result && !rlx_tensor_get_type(result, &type) &&
            type.dtype == RLX_DTYPE_F32 && type.rank == 2 &&
            type.dims[0] == 2 && type.dims[1] == 3 &&
            memcmp(rlx_tensor_data(result), o, 24) == 0,
        "call: add_f32 allocates outputs with the signature's type");
  check(result && (uintptr_t)rlx_tensor_data(result) % 64 == 0,
        "call: outputs are 64-byte aligned");
  rlx_tensor_free(result);
  rlx_tensor_free(out);
  rlx_tensor_free(a);
  rlx_tensor_free(b);

  const int64_t four[] = {4};
  rlx_tensor_t *values = NULL, *mask = NULL, *scale = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_I64, 1, four, &values));
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_BOOL, 1, four, &mask));
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F16, 0, NULL, &scale));
  const int64_t v[] = {INT64_C(1) << 40, 7, -3, 100};
  const uint8_t m[] = {1, 0, 1, 0};
  const float s = 0.5f;
  expect_ok(rlx_tensor_copy_from(values, RLX_DTYPE_I64, v, sizeof(v)),
            "call: fill i64 input");
  expect_ok(rlx_tensor_copy_from(mask, RLX_DTYPE_BOOL, m, sizeof(m)),
            "call: fill bool input");
  expect_ok(rlx_tensor_copy_from(scale, RLX_DTYPE_F32, &s, sizeof(s)),
            "call: fill f16 scalar from f32");
  rlx_tensor_t *mixed_in[] = {values, mask, scale};
  rlx_tensor_t *mixed_out[3] = {NULL, NULL, NULL};
  expect_ok(rlx_function_call(mixed, mixed_in, 3, mixed_out, 3),
            "call: mixed with i64, bool, f16 and rank-0 I/O");
  if (mixed_out[0]) {
    int64_t total;
    float picked[4];
    int32_t inverted[4];
    expect_ok(
        rlx_tensor_copy_to(mixed_out[0], RLX_DTYPE_I64, &total, sizeof(total)),
        "call: read i64 scalar output");
    expect_ok(
        rlx_tensor_copy_to(mixed_out[1], RLX_DTYPE_F32, picked, sizeof(picked)),
        "call: read f16 output as f32");
    expect_ok(rlx_tensor_copy_to(mixed_out[2], RLX_DTYPE_I32, inverted,
                                 sizeof(inverted)),
              "call: read bool output as i32");
    check(total == (INT64_C(1) << 40) - 3, "call: mixed i64 total");
    check(picked[0] == 0.5f && picked[1] == 0 && picked[2] == 0.5f &&
              picked[3] == 0,
          "call: mixed f16 output");
    check(inverted[0] == 0 && inverted[1] == 1 && inverted[2] == 0 &&
              inverted[3] == 1,
          "call: mixed bool output");
  }
  for (int i = 0; i < 3; ++i)
    rlx_tensor_free(mixed_out[i]);
  rlx_tensor_free(values);
  rlx_tensor_free(mask);
  rlx_tensor_free(scale);

  rlx_tensor_t *answer = NULL;
  expect_ok(rlx_function_call(noargs, NULL, 0, &answer, 1),
            "call: function without inputs");
  check(answer && *(const float *)rlx_tensor_data(answer) == 42.0f,
        "call: noargs result");
  rlx_tensor_free(answer);

  const rlx_function_t *copy_bf16 = NULL;
  expect_ok(rlx_module_lookup(module, "copy_bf16", &copy_bf16),
            "invoke: lookup copy_bf16");
  const int64_t three[] = {3};
  const float bf_in[] = {1.0f, -0.375f, 3e38f};
  rlx_tensor_t *bf = NULL, *bf_out = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_BF16, 1, three, &bf));
  rlx_status_free(
      rlx_tensor_copy_from(bf, RLX_DTYPE_F32, bf_in, sizeof(bf_in)));
  expect_ok(rlx_function_call(copy_bf16, &bf, 1, &bf_out, 1),
            "call: bf16 function");
  check(bf_out && memcmp(rlx_tensor_data(bf_out), rlx_tensor_data(bf), 6) == 0,
        "call: copy_bf16 result");
  rlx_tensor_free(bf);
  rlx_tensor_free(bf_out);

  rlx_tensor_t *scalars[65];
  float expected = 0;
  for (int i = 0; i < 65; ++i) {
    float value = (float)i;
    scalars[i] = make_f32(0, NULL, &value);
    expected += value;
  }
  rlx_tensor_t *sum = NULL;
  expect_ok(rlx_function_call(many, scalars, 65, &sum, 1),
            "call: 65 inputs (heap-allocated descriptors)");
  check(sum && *(const float *)rlx_tensor_data(sum) == expected,
        "call: many_inputs result");
  rlx_tensor_free(sum);
  for (int i = 0; i < 65; ++i)
    rlx_tensor_free(scalars[i]);

  check(*fixture_descriptor_errors == 0,
        "invoke: descriptors have offset 0, allocated == aligned, row-major "
        "strides");
}

static void test_module(void) {
  const char *path = fixture("rlx_runtime_fixture");
  /* Our own reference to reach the fixture's counters; the runtime's load
   * shares the mapping. */
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  fixture_calls = handle ? dlsym(handle, "rlx_fixture_calls") : NULL;
  fixture_descriptor_errors =
      handle ? dlsym(handle, "rlx_fixture_descriptor_errors") : NULL;
  check(fixture_calls && fixture_descriptor_errors,
        "module: fixture counters are visible");
  rlx_module_t *module = NULL;
  expect_ok(rlx_module_load(path, &module), "module: load the fixture");
  if (module && fixture_calls) {
    test_introspection(module);
    test_invoke(module);
  }
  rlx_module_free(module);
  if (handle)
    dlclose(handle);
}

/* ---- symbolic shapes ----------------------------------------------------- */

/* Counters exported by the dynamic fixture module. */
static int *dynamic_calls;
static int *dynamic_descriptor_errors;
static int64_t *dynamic_output_sizes;

static rlx_tensor_t *make_tensor(rlx_dtype_t dtype, size_t rank,
                                 const int64_t *dims) {
  rlx_tensor_t *t = NULL;
  rlx_status_free(rlx_tensor_create(dtype, rank, dims, &t));
  return t;
}

/* A rank-1 f32 tensor holding 0, 1, 2, ... */
static rlx_tensor_t *make_iota(int64_t n) {
  rlx_tensor_t *t = make_tensor(RLX_DTYPE_F32, 1, &n);
  float *data = t ? rlx_tensor_data(t) : NULL;
  for (int64_t i = 0; data && i < n; ++i)
    data[i] = (float)i;
  return t;
}

static bool has_dims(const rlx_tensor_t *t, size_t rank, int64_t d0,
                     int64_t d1) {
  return t && rlx_tensor_rank(t) == rank &&
         (rank < 1 || rlx_tensor_dims(t)[0] == d0) &&
         (rank < 2 || rlx_tensor_dims(t)[1] == d1);
}

/* Calls `fn` with `inputs` and expects an error; checks that it did not
 * run and that the outputs stay NULL. */
static void expect_call_error(const rlx_function_t *fn, rlx_tensor_t **inputs,
                              size_t num_inputs, rlx_status_code_t code,
                              const char *name, const char *substring) {
  int calls = *dynamic_calls;
  /* Any non-NULL value: a failed call must reset it. */
  rlx_tensor_t *out = (rlx_tensor_t *)inputs;
  expect_error(rlx_function_call(fn, inputs, num_inputs, &out, 1), code, name,
               substring, NULL);
  check(out == NULL && *dynamic_calls == calls,
        format("%s: nothing runs", name));
}

static void test_dynamic_add(const rlx_function_t *add) {
  const int64_t dims[] = {3, 4};
  rlx_tensor_t *a = make_tensor(RLX_DTYPE_F32, 2, dims);
  rlx_tensor_t *b = make_tensor(RLX_DTYPE_F32, 2, dims);
  if (!a || !b)
    return;
  for (int i = 0; i < 12; ++i) {
    ((float *)rlx_tensor_data(a))[i] = (float)i;
    ((float *)rlx_tensor_data(b))[i] = 100.0f * (float)i;
  }
  rlx_tensor_t *inputs[] = {a, b}, *out = NULL;
  expect_ok(rlx_function_call(add, inputs, 2, &out, 1),
            "dynamic: call add with S = 3");
  check(has_dims(out, 2, 3, 4) && dynamic_output_sizes[0] == 3 &&
            dynamic_output_sizes[1] == 4,
        "dynamic: call allocates the output as [S,4] = [3,4]");
  check(out && ((float *)rlx_tensor_data(out))[11] == 1111.0f,
        "dynamic: add results");

  /* The fast path checks the caller's output against the computed shape. */
  int64_t out_dims[2] = {0, 0};
  expect_ok(rlx_function_output_dims(add, inputs, 2, 0, out_dims),
            "dynamic: output_dims of add");
  check(out_dims[0] == 3 && out_dims[1] == 4, "dynamic: output_dims is [3,4]");
  expect_ok(rlx_function_invoke(add, inputs, 2, &out, 1),
            "dynamic: invoke add into an output of the computed shape");
  const int64_t short_dims[] = {2, 4}, wide_dims[] = {3, 5}, flat_dims[] = {12};
  rlx_tensor_t *short_out = make_tensor(RLX_DTYPE_F32, 2, short_dims);
  rlx_tensor_t *wide = make_tensor(RLX_DTYPE_F32, 2, wide_dims);
  rlx_tensor_t *flat = make_tensor(RLX_DTYPE_F32, 1, flat_dims);
  int calls = *dynamic_calls;
  expect_error(rlx_function_invoke(add, inputs, 2, &short_out, 1),
               RLX_STATUS_SHAPE_MISMATCH, "dynamic: invoke with a wrong output",
               "output 0 of 'add': dim 0 is 2, expected S = 3 (bound by input "
               "0, dim 0)",
               NULL);
  expect_error(rlx_function_invoke(add, inputs, 2, &wide, 1),
               RLX_STATUS_SHAPE_MISMATCH,
               "dynamic: invoke with a wrong static output dim",
               "output 0 of 'add': dim 1 is 5, expected 4", NULL);
  expect_error(rlx_function_invoke(add, inputs, 2, &flat, 1),
               RLX_STATUS_SHAPE_MISMATCH,
               "dynamic: invoke with a wrong output rank",
               "output 0 of 'add': expected rank 2 shape [S,4], got rank 1 "
               "shape [12]",
               NULL);
  rlx_tensor_t *null_output = NULL;
  expect_error(rlx_function_invoke(add, inputs, 2, &null_output, 1),
               RLX_STATUS_INVALID_ARGUMENT, "dynamic: invoke with NULL output",
               "output 0 of 'add' is NULL", NULL);
  rlx_tensor_t *aliased[] = {a};
  expect_error(rlx_function_invoke(add, inputs, 2, aliased, 1),
               RLX_STATUS_INVALID_ARGUMENT,
               "dynamic: invoke with an aliasing output",
               "output 0 of 'add' overlaps input 0", NULL);
  check(*dynamic_calls == calls, "dynamic: rejected invokes never run");

  /* Inputs: binding, static dims, ranks, dtypes. */
  rlx_tensor_t *mismatched[] = {a, short_out};
  expect_call_error(add, mismatched, 2, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: input disagreeing with the bound symbol",
                    "input 1 of 'add': dim 0 is 2, expected S = 3 (bound by "
                    "input 0, dim 0)");
  rlx_tensor_t *wide_input[] = {wide, b};
  expect_call_error(add, wide_input, 2, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: input with a wrong static dim",
                    "input 0 of 'add': dim 1 is 5, expected 4");
  rlx_tensor_t *flat_input[] = {flat, b};
  expect_call_error(add, flat_input, 2, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: input with a wrong rank",
                    "input 0 of 'add': expected rank 2 shape [S,4], got rank "
                    "1 shape [12]");
  rlx_tensor_t *ints = make_tensor(RLX_DTYPE_I32, 2, dims);
  rlx_tensor_t *int_input[] = {a, ints};
  expect_call_error(add, int_input, 2, RLX_STATUS_DTYPE_MISMATCH,
                    "dynamic: input with a wrong dtype",
                    "input 1 of 'add': expected dtype f32, got i32");
  rlx_tensor_t *null_input[] = {a, NULL};
  expect_call_error(add, null_input, 2, RLX_STATUS_INVALID_ARGUMENT,
                    "dynamic: NULL input", "input 1 of 'add' is NULL");
  rlx_tensor_t *unused = NULL;
  expect_error(rlx_function_call(add, inputs, 1, &unused, 1),
               RLX_STATUS_INVALID_ARGUMENT, "dynamic: too few inputs",
               "'add' takes 2 inputs, got 1", NULL);
  expect_error(rlx_function_output_dims(add, mismatched, 2, 0, out_dims),
               RLX_STATUS_SHAPE_MISMATCH,
               "dynamic: output_dims checks the inputs like invoke",
               "input 1 of 'add': dim 0 is 2, expected S = 3", NULL);
  expect_error(rlx_function_output_dims(add, inputs, 2, 1, out_dims),
               RLX_STATUS_OUT_OF_RANGE, "dynamic: output_dims past the end",
               "output index 1 is out of range: 'add' has 1 outputs", NULL);
  expect_error(rlx_function_output_dims(add, inputs, 2, 0, NULL),
               RLX_STATUS_INVALID_ARGUMENT, "dynamic: output_dims NULL dims",
               "rlx_function_output_dims: dims is NULL", NULL);
  expect_error(rlx_function_output_dims(add, inputs, 3, 0, out_dims),
               RLX_STATUS_INVALID_ARGUMENT,
               "dynamic: output_dims wrong input count",
               "'add' takes 2 inputs, got 3", NULL);
  expect_error(rlx_function_output_dims(NULL, inputs, 2, 0, out_dims),
               RLX_STATUS_INVALID_ARGUMENT, "dynamic: output_dims NULL fn",
               "fn is NULL", NULL);

  /* S = 0: empty tensors. */
  const int64_t empty_dims[] = {0, 4};
  rlx_tensor_t *e0 = make_tensor(RLX_DTYPE_F32, 2, empty_dims);
  rlx_tensor_t *e1 = make_tensor(RLX_DTYPE_F32, 2, empty_dims);
  rlx_tensor_t *empty_inputs[] = {e0, e1}, *empty_out = NULL;
  expect_ok(rlx_function_call(add, empty_inputs, 2, &empty_out, 1),
            "dynamic: call add with S = 0");
  check(has_dims(empty_out, 2, 0, 4), "dynamic: the output is [0,4]");

  rlx_tensor_free(empty_out);
  rlx_tensor_free(e0);
  rlx_tensor_free(e1);
  rlx_tensor_free(ints);
  rlx_tensor_free(flat);
  rlx_tensor_free(wide);
  rlx_tensor_free(short_out);
  rlx_tensor_free(out);
  rlx_tensor_free(a);
  rlx_tensor_free(b);
}

static void test_dynamic_expressions(const rlx_module_t *module) {
  const rlx_function_t *concat = NULL, *window = NULL, *pairs = NULL,
                       *pair_sum = NULL, *chunks = NULL;
  expect_ok(rlx_module_lookup(module, "concat", &concat),
            "dynamic: lookup concat");
  expect_ok(rlx_module_lookup(module, "window", &window),
            "dynamic: lookup window");
  expect_ok(rlx_module_lookup(module, "pairs", &pairs),
            "dynamic: lookup pairs");
  expect_ok(rlx_module_lookup(module, "pair_sum", &pair_sum),
            "dynamic: lookup pair_sum");
  expect_ok(rlx_module_lookup(module, "chunks", &chunks),
            "dynamic: lookup chunks");
  if (!concat || !window || !pairs || !pair_sum || !chunks)
    return;

  /* concat: [A,C] and [B,C] give [A+B,C]. */
  const int64_t a_dims[] = {2, 3}, b_dims[] = {1, 3}, c2_dims[] = {1, 2};
  rlx_tensor_t *a = make_tensor(RLX_DTYPE_F32, 2, a_dims);
  rlx_tensor_t *b = make_tensor(RLX_DTYPE_F32, 2, b_dims);
  rlx_tensor_t *c2 = make_tensor(RLX_DTYPE_F32, 2, c2_dims);
  if (a && b)
    ((float *)rlx_tensor_data(b))[2] = 7.0f;
  rlx_tensor_t *ab[] = {a, b}, *out = NULL;
  expect_ok(rlx_function_call(concat, ab, 2, &out, 1), "dynamic: call concat");
  check(has_dims(out, 2, 3, 3) && ((float *)rlx_tensor_data(out))[8] == 7.0f,
        "dynamic: concat gives [A+B,C] = [3,3]");
  rlx_tensor_free(out);
  rlx_tensor_t *ac2[] = {a, c2};
  expect_call_error(concat, ac2, 2, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: concat with a different C",
                    "input 1 of 'concat': dim 1 is 2, expected C = 3 (bound "
                    "by input 0, dim 1)");
  /* Zero-sized tensors with huge dims: A+B overflows. */
  const int64_t huge_dims[] = {INT64_MAX, 0},
                big_dims[] = {INT64_C(1) << 61, 0};
  rlx_tensor_t *huge = NULL, *big = NULL;
  expect_ok(rlx_tensor_wrap(RLX_DTYPE_F32, 2, huge_dims, NULL, 0, &huge),
            "dynamic: wrap a [INT64_MAX,0] tensor");
  expect_ok(rlx_tensor_wrap(RLX_DTYPE_F32, 2, big_dims, NULL, 0, &big),
            "dynamic: wrap a [2^61,0] tensor");
  rlx_tensor_t *huge2[] = {huge, huge}, *big2[] = {big, big};
  expect_call_error(concat, huge2, 2, RLX_STATUS_OUT_OF_RANGE,
                    "dynamic: an expression that overflows",
                    "output 0 of 'concat': dim 0 = A+B overflows int64 with "
                    "A = 9223372036854775807, B = 9223372036854775807");
  int64_t dims[2] = {0, 0};
  expect_error(rlx_function_output_dims(concat, huge2, 2, 0, dims),
               RLX_STATUS_OUT_OF_RANGE,
               "dynamic: output_dims of an expression that overflows",
               "dim 0 = A+B overflows int64", NULL);
  expect_ok(rlx_function_call(concat, big2, 2, &out, 1),
            "dynamic: call concat on [2^61,0] tensors");
  check(has_dims(out, 2, INT64_C(1) << 62, 0), "dynamic: output is [2^62,0]");
  rlx_tensor_free(out);

  /* window: [S] gives [S-2]; S = 1 makes it negative. */
  rlx_tensor_t *x5 = make_iota(5), *x1 = make_iota(1), *x6 = make_iota(6);
  expect_ok(rlx_function_call(window, &x5, 1, &out, 1), "dynamic: call window");
  check(has_dims(out, 1, 3, 0) && ((float *)rlx_tensor_data(out))[2] == 9.0f,
        "dynamic: window gives [S-2] = [3]");
  rlx_tensor_free(out);
  expect_call_error(window, &x1, 1, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: a negative result dim",
                    "output 0 of 'window': dim 0 = S-2 is negative (-1) with "
                    "S = 1");
  expect_error(rlx_function_output_dims(window, &x1, 1, 0, dims),
               RLX_STATUS_SHAPE_MISMATCH,
               "dynamic: output_dims of a negative result dim",
               "dim 0 = S-2 is negative (-1)", NULL);
  rlx_tensor_t *x0 = make_iota(0);
  int calls = *dynamic_calls;
  expect_error(rlx_function_invoke(window, &x1, 1, &x0, 1),
               RLX_STATUS_SHAPE_MISMATCH,
               "dynamic: invoke with a negative result dim",
               "output 0 of 'window': dim 0 = S-2 is negative", NULL);
  check(*dynamic_calls == calls, "dynamic: invoke did not run");

  /* pairs: where S%2 == 0. */
  expect_ok(rlx_function_call(pairs, &x6, 1, &out, 1), "dynamic: call pairs");
  check(has_dims(out, 2, 3, 2) && dynamic_output_sizes[0] == 3 &&
            dynamic_output_sizes[1] == 2,
        "dynamic: pairs gives [S/2,2] = [3,2]");
  rlx_tensor_free(out);
  expect_call_error(pairs, &x5, 1, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: a where clause that does not hold",
                    "'pairs': S%2 == 0 does not hold with S = 5 (rlx.reshape "
                    "at model.mlir:12:5)");

  /* pair_sum: input 0 is [2*N], N bound by input 1. */
  rlx_tensor_t *y3 = make_iota(3);
  rlx_tensor_t *xy[] = {x6, y3}, *x5y3[] = {x5, y3};
  expect_ok(rlx_function_call(pair_sum, xy, 2, &out, 1),
            "dynamic: call pair_sum");
  check(has_dims(out, 1, 3, 0) && ((float *)rlx_tensor_data(out))[2] == 11.0f,
        "dynamic: pair_sum gives [N] with input 0 checked as [2*N]");
  rlx_tensor_free(out);
  expect_call_error(pair_sum, x5y3, 2, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: an input dim that is an expression",
                    "input 0 of 'pair_sum': dim 0 is 5, expected 2*N = 6 with "
                    "N = 3");

  /* chunks: where S%K == 0, where K <= 64. */
  int64_t k_dims[] = {3};
  rlx_tensor_t *k = make_tensor(RLX_DTYPE_I8, 1, k_dims);
  rlx_tensor_t *xk[] = {x6, k};
  expect_ok(rlx_function_call(chunks, xk, 2, &out, 1), "dynamic: call chunks");
  check(has_dims(out, 2, 2, 3), "dynamic: chunks gives [S/K,K] = [2,3]");
  rlx_tensor_free(out);
  rlx_tensor_free(k);
  k_dims[0] = 0;
  xk[1] = k = make_tensor(RLX_DTYPE_I8, 1, k_dims);
  expect_call_error(chunks, xk, 2, RLX_STATUS_OUT_OF_RANGE,
                    "dynamic: a where clause that divides by zero",
                    "'chunks': where S%K == 0: S%K divides by zero with S = 6, "
                    "K = 0");
  rlx_tensor_free(k);
  k_dims[0] = 4;
  xk[1] = k = make_tensor(RLX_DTYPE_I8, 1, k_dims);
  expect_call_error(chunks, xk, 2, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: the reason of a where clause",
                    "'chunks': S%K == 0 does not hold with S = 6, K = 4 (a "
                    "whole number of chunks)");
  rlx_tensor_free(k);
  k_dims[0] = 128;
  xk[1] = k = make_tensor(RLX_DTYPE_I8, 1, k_dims);
  rlx_tensor_t *x128 = make_iota(128);
  xk[0] = x128;
  expect_call_error(chunks, xk, 2, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: a where clause without a reason",
                    "'chunks': K <= 64 does not hold with K = 128");
  rlx_tensor_free(x128);
  rlx_tensor_free(k);

  /* rlx_function_input_dims: shapes for chosen symbol values. */
  const int64_t n3[] = {3}, n_max[] = {INT64_MAX}, negative[] = {-1},
                s_big[] = {INT64_C(1) << 62};
  int64_t in_dims[2] = {0, 0};
  expect_ok(rlx_function_input_dims(pair_sum, n3, 1, 0, in_dims),
            "dynamic: input_dims of pair_sum with N = 3");
  check(in_dims[0] == 6, "dynamic: input 0 of pair_sum is [2*N] = [6]");
  expect_error(rlx_function_input_dims(pair_sum, n_max, 1, 0, in_dims),
               RLX_STATUS_OUT_OF_RANGE, "dynamic: input_dims overflowing",
               "input 0 of 'pair_sum': dim 0 = 2*N overflows int64 with N = "
               "9223372036854775807",
               NULL);
  expect_error(rlx_function_input_dims(pair_sum, negative, 1, 0, in_dims),
               RLX_STATUS_INVALID_ARGUMENT, "dynamic: a negative symbol value",
               "symbol 'N' of 'pair_sum' is -1", NULL);
  expect_error(rlx_function_input_dims(pair_sum, n3, 2, 0, in_dims),
               RLX_STATUS_INVALID_ARGUMENT, "dynamic: too many symbol values",
               "'pair_sum' has 1 symbol, got 2 values", NULL);
  expect_error(rlx_function_input_dims(pair_sum, n3, 1, 2, in_dims),
               RLX_STATUS_OUT_OF_RANGE, "dynamic: input_dims past the end",
               "input index 2 is out of range", NULL);
  expect_error(rlx_function_input_dims(pair_sum, NULL, 1, 0, in_dims),
               RLX_STATUS_INVALID_ARGUMENT, "dynamic: input_dims NULL symbols",
               "symbols is NULL", NULL);
  const rlx_function_t *add = NULL;
  rlx_status_free(rlx_module_lookup(module, "add", &add));
  expect_error(rlx_function_input_dims(add, s_big, 1, 0, in_dims),
               RLX_STATUS_OUT_OF_RANGE,
               "dynamic: input_dims of a shape whose size overflows",
               "input 0 of 'add': shape [4611686018427387904,4] is too large",
               NULL);

  rlx_tensor_free(y3);
  rlx_tensor_free(x0);
  rlx_tensor_free(x1);
  rlx_tensor_free(x5);
  rlx_tensor_free(x6);
  rlx_tensor_free(huge);
  rlx_tensor_free(big);
  rlx_tensor_free(a);
  rlx_tensor_free(b);
  rlx_tensor_free(c2);
}

static void test_dynamic_static_and_many(const rlx_module_t *module) {
  const rlx_function_t *fold = NULL, *many = NULL;
  expect_ok(rlx_module_lookup(module, "fold", &fold), "dynamic: lookup fold");
  expect_ok(rlx_module_lookup(module, "many_symbols", &many),
            "dynamic: lookup many_symbols");
  if (!fold || !many)
    return;

  /* fold: constant expressions are static dims, checked as in version 1. */
  rlx_tensor_type_t type;
  check(!rlx_function_input_type(fold, 0, &type) && type.dims[0] == 4 &&
            rlx_function_input_dim_expr(fold, 0, 0) == NULL &&
            rlx_function_num_symbols(fold) == 0,
        "dynamic: fold's input is the static [4]");
  rlx_tensor_t *x4 = make_iota(4), *x5 = make_iota(5), *out = NULL;
  expect_ok(rlx_function_call(fold, &x4, 1, &out, 1), "dynamic: call fold");
  check(has_dims(out, 1, 4, 0) && ((float *)rlx_tensor_data(out))[3] == 3.0f,
        "dynamic: fold copies");
  rlx_tensor_free(out);
  expect_call_error(fold, &x5, 1, RLX_STATUS_SHAPE_MISMATCH,
                    "dynamic: a folded dim is checked like a static one",
                    "input 0 of 'fold': expected shape [4], got [5]");
  rlx_tensor_free(x4);
  rlx_tensor_free(x5);

  /* many_symbols: 96 symbols, more than the stack holds. */
  check(rlx_function_num_symbols(many) == 96 &&
            text_is(rlx_function_symbol_name(many, 95), "c31"),
        "dynamic: many_symbols has 96 symbols");
  int64_t dims[3][32];
  rlx_tensor_t *inputs[3] = {NULL, NULL, NULL};
  int64_t expected = 0;
  for (int i = 0; i < 3; ++i) {
    for (int d = 0; d < 32; ++d)
      dims[i][d] = 1 + (i == 1 && d == 7) + 2 * (i == 2 && d == 31);
    inputs[i] = make_tensor(RLX_DTYPE_F32, 32, dims[i]);
    for (int d = 0; d < 32; ++d)
      expected += dims[i][d];
  }
  expect_ok(rlx_function_output_dims(many, inputs, 3, 0, NULL),
            "dynamic: output_dims of a scalar accepts NULL dims");
  rlx_tensor_t *sum = NULL;
  expect_ok(rlx_function_call(many, inputs, 3, &sum, 1),
            "dynamic: call with 96 symbols");
  int64_t got = 0;
  if (sum)
    memcpy(&got, rlx_tensor_data(sum), sizeof(got));
  check(got == expected, "dynamic: many_symbols sees every dim");
  expect_ok(rlx_function_invoke(many, inputs, 3, &sum, 1),
            "dynamic: invoke with 96 symbols");
  rlx_tensor_free(sum);
  for (int i = 0; i < 3; ++i)
    rlx_tensor_free(inputs[i]);
}

static void test_dynamic(void) {
  const char *path = fixture("rlx_runtime_fixture_dynamic");
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  dynamic_calls = handle ? dlsym(handle, "rlx_fixture_calls") : NULL;
  dynamic_descriptor_errors =
      handle ? dlsym(handle, "rlx_fixture_descriptor_errors") : NULL;
  dynamic_output_sizes =
      handle ? dlsym(handle, "rlx_fixture_output_sizes") : NULL;
  check(dynamic_calls && dynamic_descriptor_errors && dynamic_output_sizes,
        "dynamic: fixture counters are visible");
  rlx_module_t *module = NULL;
  expect_ok(rlx_module_load(path, &module), "dynamic: load the fixture");
  const rlx_function_t *add = NULL;
  if (module && dynamic_calls && dynamic_descriptor_errors &&
      dynamic_output_sizes) {
    expect_ok(rlx_module_lookup(module, "add", &add), "dynamic: lookup add");
    if (add) {
      rlx_tensor_type_t type;
      check(!rlx_function_input_type(add, 0, &type) && type.rank == 2 &&
                type.dims[0] == RLX_DIM_DYNAMIC && type.dims[1] == 4 &&
                text_is(rlx_function_input_dim_expr(add, 0, 0), "S") &&
                text_is(rlx_function_output_dim_expr(add, 0, 0), "S") &&
                rlx_function_output_dim_expr(add, 0, 1) == NULL,
            "dynamic: add is f32[S,4] -> f32[S,4]");
      test_dynamic_add(add);
    }
    test_dynamic_expressions(module);
    test_dynamic_static_and_many(module);
    check(*dynamic_descriptor_errors == 0,
          "dynamic: descriptors carry the actual sizes, row-major strides");
  }
  rlx_module_free(module);
  if (handle)
    dlclose(handle);
}

/* ---- meshes -------------------------------------------------------------- */

/* The fake MPI and the records of a mesh fixture (fixture_mesh.c). */
typedef struct mesh_fixture {
  void *handle;
  int32_t *rank, *size, *peer_failed, *start_result, *any_last_flag;
  int *start_calls, *stop_calls, *any_calls, *calls;
  const void **data;
  int64_t *offsets;
  int64_t (*sizes)[2];
  int64_t (*strides)[2];
  float (*values)[64];
} mesh_fixture_t;

static bool open_mesh_fixture(const char *name, mesh_fixture_t *f) {
  memset(f, 0, sizeof(*f));
  f->handle = dlopen(fixture(name), RTLD_NOW | RTLD_LOCAL);
  if (!f->handle)
    return false;
  f->rank = dlsym(f->handle, "rlx_fixture_rank");
  f->size = dlsym(f->handle, "rlx_fixture_size");
  f->peer_failed = dlsym(f->handle, "rlx_fixture_peer_failed");
  f->start_result = dlsym(f->handle, "rlx_fixture_start_result");
  f->any_last_flag = dlsym(f->handle, "rlx_fixture_any_last_flag");
  f->start_calls = dlsym(f->handle, "rlx_fixture_start_calls");
  f->stop_calls = dlsym(f->handle, "rlx_fixture_stop_calls");
  f->any_calls = dlsym(f->handle, "rlx_fixture_any_calls");
  f->calls = dlsym(f->handle, "rlx_fixture_calls");
  f->data = dlsym(f->handle, "rlx_fixture_data");
  f->offsets = dlsym(f->handle, "rlx_fixture_offsets");
  f->sizes = dlsym(f->handle, "rlx_fixture_sizes");
  f->strides = dlsym(f->handle, "rlx_fixture_strides");
  f->values = dlsym(f->handle, "rlx_fixture_values");
  return f->rank && f->size && f->peer_failed && f->start_result &&
         f->any_last_flag && f->start_calls && f->stop_calls && f->any_calls &&
         f->calls && f->data && f->offsets && f->sizes && f->strides &&
         f->values;
}

/* A 2-D f32 tensor holding 0, 1, 2, ... in row-major order. */
static rlx_tensor_t *make_iota2(int64_t rows, int64_t cols) {
  const int64_t dims[] = {rows, cols};
  rlx_tensor_t *t = make_tensor(RLX_DTYPE_F32, 2, dims);
  float *data = t ? rlx_tensor_data(t) : NULL;
  for (int64_t i = 0; data && i < rows * cols; ++i)
    data[i] = (float)i;
  return t;
}

/* Whether the recorded input `arg` is `rows` x `cols` with row-major
 * strides, offset 0, and element [i][j] = value(i, j). */
typedef float (*mesh_value_fn)(int64_t i, int64_t j, int process);

static bool received(const mesh_fixture_t *f, int arg, int64_t rows,
                     int64_t cols, mesh_value_fn value, int process) {
  bool ok = f->sizes[arg][0] == rows && f->sizes[arg][1] == cols &&
            f->strides[arg][0] == cols && f->strides[arg][1] == 1 &&
            f->offsets[arg] == 0;
  for (int64_t i = 0; ok && i < rows; ++i)
    for (int64_t j = 0; ok && j < cols; ++j)
      ok = f->values[arg][i * cols + j] == value(i, j, process);
  return ok;
}

/* Whether `t` holds 100 * process + index, as the fixture writes. */
static bool written_by(const rlx_tensor_t *t, int process) {
  const float *data = rlx_tensor_data(t);
  bool ok = data != NULL;
  for (size_t i = 0; ok && i < rlx_tensor_element_count(t); ++i)
    ok = data[i] == (float)(100 * process + (int)i);
  return ok;
}

static bool is_aligned(const void *data) {
  return (uintptr_t)data % RLX_TENSOR_ALIGNMENT == 0;
}

/* Input 0 of 'rows' (f32[4,3] split by rows): process p gets rows 2p and
 * 2p+1. Of 'cols' (f32[3,4] split by columns): columns 2p and 2p+1. */
static float rows_block(int64_t i, int64_t j, int p) {
  return (float)((2 * p + i) * 3 + j);
}
static float cols_block(int64_t i, int64_t j, int p) {
  return (float)(i * 4 + 2 * p + j);
}
static float dynamic_block(int64_t i, int64_t j, int p) {
  return (float)(i * 4 + 2 * p + j);
}

/* On the 2x2 mesh, process p is at (p / 2, p % 2). Input 0 (f32[4,6], dim 0
 * over axes 0, 1) gives it row p; input 1 (f32[2,8], dim 1 over axes 1, 0)
 * columns 2b, 2b+1 with b = (p % 2) * 2 + p / 2; input 2 (f32[4,4], dim 0
 * over axis 0, dim 1 over axis 1) the 2x2 block at (p / 2, p % 2). */
static float grid_block0(int64_t i, int64_t j, int p) {
  return (float)((p + i) * 6 + j);
}
static float grid_block1(int64_t i, int64_t j, int p) {
  int64_t b = (p % 2) * 2 + p / 2;
  return (float)(i * 8 + 2 * b + j);
}
static float grid_block2(int64_t i, int64_t j, int p) {
  return (float)((2 * (p / 2) + i) * 4 + 2 * (p % 2) + j);
}

/* The calls of 'rows', 'cols' and 'dynamic' on process `p` (module `m`). */
static void test_mesh_blocks(const mesh_fixture_t *f, const rlx_module_t *m,
                             int p) {
  const rlx_function_t *rows = NULL, *cols = NULL, *dynamic = NULL;
  expect_ok(rlx_module_lookup(m, "rows", &rows), "mesh: lookup rows");
  expect_ok(rlx_module_lookup(m, "cols", &cols), "mesh: lookup cols");
  expect_ok(rlx_module_lookup(m, "dynamic", &dynamic), "mesh: lookup dynamic");
  if (!rows || !cols || !dynamic)
    return;
  *f->rank = p;

  rlx_tensor_t *x = make_iota2(4, 3), *bias = make_iota(3);
  rlx_tensor_t *inputs[] = {x, bias}, *outputs[2] = {NULL, NULL};
  int64_t dims[2] = {0, 0};
  int any_calls = *f->any_calls;
  expect_ok(rlx_function_output_dims(rows, inputs, 2, 1, dims),
            format("mesh %d: output dims of a split output", p));
  check(dims[0] == 2 && dims[1] == 3 && *f->any_calls == any_calls,
        format("mesh %d: a split output's dims are the process's block, and "
               "asking makes no agreement",
               p));
  expect_ok(rlx_function_output_dims(rows, inputs, 2, 0, dims),
            format("mesh %d: output dims of a replicated output", p));
  check(dims[0] == 4 && dims[1] == 3,
        format("mesh %d: a replicated output is whole", p));

  int calls = *f->calls;
  expect_ok(rlx_function_call(rows, inputs, 2, outputs, 2),
            format("mesh %d: call rows", p));
  check(*f->calls == calls + 1 && *f->any_calls == any_calls + 1 &&
            *f->any_last_flag == 0,
        format("mesh %d: one agreement (flag 0), then it runs", p));
  check(received(f, 0, 2, 3, rows_block, p) &&
            f->data[0] == (const float *)rlx_tensor_data(x) + 6 * p,
        format("mesh %d: a split of dim 0 is a view of the process's rows", p));
  check(f->sizes[1][0] == 3 && f->data[1] == rlx_tensor_data(bias),
        format("mesh %d: a replicated input is passed whole", p));
  check(has_dims(outputs[0], 2, 4, 3) && has_dims(outputs[1], 2, 2, 3) &&
            written_by(outputs[0], p) && written_by(outputs[1], p),
        format("mesh %d: rlx_function_call allocates a split output's "
               "block",
               p));

  /* invoke with the caller's outputs: a split output must be the block */
  expect_ok(rlx_function_invoke(rows, inputs, 2, outputs, 2),
            format("mesh %d: invoke rows", p));
  rlx_tensor_t *whole = make_iota2(4, 3);
  rlx_tensor_t *wrong[] = {outputs[0], whole};
  calls = *f->calls;
  any_calls = *f->any_calls;
  expect_error(rlx_function_invoke(rows, inputs, 2, wrong, 2),
               RLX_STATUS_SHAPE_MISMATCH,
               format("mesh %d: invoke with a whole split output", p),
               "output 1 of 'rows': expected shape [2,3], got [4,3] (this "
               "process's block: dim 0 of 4 is split over the mesh)",
               NULL);
  check(
      *f->calls == calls && *f->any_calls == any_calls + 1 &&
          *f->any_last_flag == 1,
      format("mesh %d: a failed check is agreed on (flag 1); nothing runs", p));
  rlx_tensor_free(whole);
  rlx_tensor_free(outputs[0]);
  rlx_tensor_free(outputs[1]);
  rlx_tensor_free(x);
  rlx_tensor_free(bias);

  /* A split of dim 1: a copy, 64-byte aligned. */
  x = make_iota2(3, 4);
  rlx_tensor_t *out = NULL;
  expect_ok(rlx_function_call(cols, &x, 1, &out, 1),
            format("mesh %d: call cols", p));
  const char *base = rlx_tensor_data(x);
  const char *copy = f->data[0];
  check(received(f, 0, 3, 2, cols_block, p) && is_aligned(copy) &&
            (copy + 24 <= base || copy >= base + 48),
        format("mesh %d: a split of dim 1 is an aligned copy of the "
               "process's columns",
               p));
  check(has_dims(out, 2, 3, 2) && written_by(out, p),
        format("mesh %d: cols' output is the block [3,2]", p));
  rlx_tensor_free(out);
  rlx_tensor_free(x);

  /* Symbolic dim 0 stays whole; where S <= 8. */
  x = make_iota2(5, 4);
  out = NULL;
  expect_ok(rlx_function_call(dynamic, &x, 1, &out, 1),
            format("mesh %d: call dynamic", p));
  check(received(f, 0, 5, 2, dynamic_block, p) && has_dims(out, 2, 5, 2),
        format("mesh %d: a symbolic dim next to a split one", p));
  rlx_tensor_free(out);
  rlx_tensor_free(x);
  x = make_iota2(0, 4);
  out = NULL;
  expect_ok(rlx_function_call(dynamic, &x, 1, &out, 1),
            format("mesh %d: call dynamic on an empty tensor", p));
  check(f->sizes[0][0] == 0 && f->sizes[0][1] == 2 && has_dims(out, 2, 0, 2),
        format("mesh %d: an empty block", p));
  rlx_tensor_free(out);
  rlx_tensor_free(x);
  x = make_iota2(9, 4);
  out = NULL;
  calls = *f->calls;
  any_calls = *f->any_calls;
  expect_error(rlx_function_call(dynamic, &x, 1, &out, 1),
               RLX_STATUS_SHAPE_MISMATCH,
               format("mesh %d: a where clause fails", p),
               "'dynamic': S <= 8 does not hold with S = 9", NULL);
  check(out == NULL && *f->calls == calls && *f->any_calls == any_calls + 1 &&
            *f->any_last_flag == 1,
        format("mesh %d: a failed where clause is agreed on", p));
  rlx_tensor_free(x);
}

/* Each failure once the function is known is agreed on exactly once (flag
 * 1), and nothing runs; another process's failure fails this one's call. */
static void test_mesh_agreement(const mesh_fixture_t *f,
                                const rlx_module_t *m) {
  const rlx_function_t *rows = NULL, *plain = NULL;
  expect_ok(rlx_module_lookup(m, "rows", &rows), "mesh: lookup rows again");
  expect_ok(rlx_module_lookup(m, "plain", &plain), "mesh: lookup plain");
  if (!rows || !plain)
    return;
  *f->rank = 0;
  rlx_tensor_t *x = make_iota2(4, 3), *bias = make_iota(3);
  rlx_tensor_t *bad = make_iota2(4, 4);
  rlx_tensor_t *ints = make_tensor(RLX_DTYPE_I32, 1, (const int64_t[]){3});
  rlx_tensor_t *good[] = {x, bias}, *null_input[] = {x, NULL},
               *wrong_shape[] = {bad, bias}, *wrong_dtype[] = {x, ints};
  rlx_tensor_t *outputs[2] = {NULL, NULL};
  static const struct {
    const char *name;
    int which;
    rlx_status_code_t code;
    const char *substring;
  } cases[] = {
      {"input count", 0, RLX_STATUS_INVALID_ARGUMENT,
       "'rows' takes 2 inputs, got 1"},
      {"NULL input", 1, RLX_STATUS_INVALID_ARGUMENT,
       "input 1 of 'rows' is NULL"},
      {"shape", 2, RLX_STATUS_SHAPE_MISMATCH,
       "input 0 of 'rows': expected shape [4,3], got [4,4]"},
      {"dtype", 3, RLX_STATUS_DTYPE_MISMATCH,
       "input 1 of 'rows': expected dtype f32, got i32"},
      {"NULL outputs array", 4, RLX_STATUS_INVALID_ARGUMENT,
       "the outputs array is NULL"},
      {"output count", 5, RLX_STATUS_INVALID_ARGUMENT,
       "'rows' returns 2 outputs, got 1"},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
    rlx_tensor_t **inputs = cases[c].which == 1   ? null_input
                            : cases[c].which == 2 ? wrong_shape
                            : cases[c].which == 3 ? wrong_dtype
                                                  : good;
    size_t num_inputs = cases[c].which == 0 ? 1 : 2;
    int calls = *f->calls, any_calls = *f->any_calls;
    rlx_status_t status =
        cases[c].which == 4 ? rlx_function_call(rows, inputs, 2, NULL, 2)
        : cases[c].which == 5
            ? rlx_function_call(rows, inputs, 2, outputs, 1)
            : rlx_function_call(rows, inputs, num_inputs, outputs, 2);
    expect_error(status, cases[c].code,
                 format("mesh agreement: own failure: %s", cases[c].name),
                 cases[c].substring, NULL);
    check(*f->calls == calls && *f->any_calls == any_calls + 1 &&
              *f->any_last_flag == 1 && !outputs[0] && !outputs[1],
          format("mesh agreement: own failure: %s: agreed once with flag 1, "
                 "nothing runs",
                 cases[c].name));
    calls = *f->calls;
    any_calls = *f->any_calls;
    rlx_tensor_t *given[] = {x, bias};
    if (cases[c].which == 4 || cases[c].which == 5)
      continue;
    expect_error(
        rlx_function_invoke(rows, inputs, num_inputs, given, 2), cases[c].code,
        format("mesh agreement: own failure in invoke: %s", cases[c].name),
        NULL, NULL);
    check(*f->calls == calls && *f->any_calls == any_calls + 1 &&
              *f->any_last_flag == 1,
          format("mesh agreement: own failure in invoke: %s: agreed once",
                 cases[c].name));
  }

  int any_calls = *f->any_calls;
  expect_error(rlx_function_call(NULL, good, 2, outputs, 2),
               RLX_STATUS_INVALID_ARGUMENT, "mesh agreement: a NULL function",
               "fn is NULL", NULL);
  check(*f->any_calls == any_calls,
        "mesh agreement: without a function there is nothing to agree on");

  /* Another process failed its checks. */
  *f->peer_failed = 1;
  int calls = *f->calls;
  any_calls = *f->any_calls;
  outputs[0] = outputs[1] = x; /* must be reset */
  expect_error(rlx_function_call(rows, good, 2, outputs, 2),
               RLX_STATUS_PEER_FAILED, "mesh agreement: a peer failed",
               "'rows': another process of the mesh failed this call's checks "
               "(see its error); nothing ran",
               NULL);
  check(*f->calls == calls && *f->any_calls == any_calls + 1 &&
            *f->any_last_flag == 0 && !outputs[0] && !outputs[1],
        "mesh agreement: a peer failed: this process's flag is 0, nothing "
        "runs, no outputs");
  rlx_tensor_t *ints_out = make_tensor(RLX_DTYPE_I32, 1, (const int64_t[]){3});
  expect_error(rlx_function_invoke(plain, &ints, 1, &ints_out, 1),
               RLX_STATUS_PEER_FAILED,
               "mesh agreement: a peer failed a call without splits",
               "'plain': another process", NULL);
  check(*f->calls == calls, "mesh agreement: a peer failed: plain did not run");
  int any = -1;
  expect_ok(rlx_module_mesh_agree(m, 0, &any), "mesh agree: peer failed");
  check(any == 1 && *f->any_last_flag == 0,
        "mesh agree: another process's failure is reported");
  *f->peer_failed = 0;
  expect_ok(rlx_module_mesh_agree(m, 1, &any), "mesh agree: own failure");
  check(any == 1 && *f->any_last_flag == 1,
        "mesh agree: this process's failure is passed on");
  expect_ok(rlx_module_mesh_agree(m, 0, &any), "mesh agree: no failure");
  check(any == 0, "mesh agree: nobody failed");
  any_calls = *f->any_calls;
  expect_ok(rlx_module_mesh_agree(m, 1, NULL), "mesh agree: NULL out");
  check(*f->any_calls == any_calls + 1, "mesh agree: one collective per call");
  expect_error(rlx_module_mesh_agree(NULL, 1, &any),
               RLX_STATUS_INVALID_ARGUMENT, "mesh agree: NULL module",
               "module is NULL", NULL);
  expect_ok(rlx_function_invoke(plain, &ints, 1, &ints_out, 1),
            "mesh: a function without splits runs");
  check(f->data[0] == rlx_tensor_data(ints) &&
            ((const int32_t *)rlx_tensor_data(ints_out))[2] == 2,
        "mesh: a function without splits gets whole tensors");
  rlx_tensor_free(ints_out);
  rlx_tensor_free(ints);
  rlx_tensor_free(bad);
  rlx_tensor_free(x);
  rlx_tensor_free(bias);
}

/* The 2x2 mesh: every process's blocks of 'grid'. */
static void test_mesh_grid(void) {
  mesh_fixture_t f;
  check(open_mesh_fixture("rlx_runtime_fixture_mesh2d", &f),
        "mesh 2d: fixture records are visible");
  if (!f.handle || !f.calls)
    return;
  rlx_module_t *modules[4] = {NULL, NULL, NULL, NULL};
  for (int p = 0; p < 4; ++p) {
    *f.rank = p;
    expect_ok(
        rlx_module_load(fixture("rlx_runtime_fixture_mesh2d"), &modules[p]),
        format("mesh 2d: load as process %d", p));
  }
  check(*f.start_calls == 0,
        "mesh 2d: a second mesh module does not start MPI again");
  rlx_tensor_t *a = make_iota2(4, 6), *b = make_iota2(2, 8),
               *c = make_iota2(4, 4);
  rlx_tensor_t *inputs[] = {a, b, c};
  for (int p = 0; p < 4 && modules[p]; ++p) {
    rlx_mesh_t mesh;
    expect_ok(rlx_module_mesh(modules[p], &mesh), "mesh 2d: rlx_module_mesh");
    check(mesh.rank == 2 && mesh.dims[0] == 2 && mesh.dims[1] == 2 &&
              mesh.num_processes == 4 && mesh.process == (size_t)p &&
              mesh.coords[0] == p / 2 && mesh.coords[1] == p % 2 &&
              mesh.coords[2] == 0,
          format("mesh 2d: process %d is at (%d, %d)", p, p / 2, p % 2));
    const rlx_function_t *grid = NULL;
    expect_ok(rlx_module_lookup(modules[p], "grid", &grid),
              "mesh 2d: lookup grid");
    size_t axes[RLX_MESH_MAX_RANK] = {9, 9, 9, 9};
    check(rlx_function_input_split(grid, 0, 0, axes) == 2 && axes[0] == 0 &&
              axes[1] == 1 && rlx_function_input_split(grid, 1, 1, axes) == 2 &&
              axes[0] == 1 && axes[1] == 0 &&
              rlx_function_input_split(grid, 1, 0, axes) == 0 &&
              rlx_function_output_split(grid, 0, 0, axes) == 1 &&
              axes[0] == 1 && rlx_function_output_split(grid, 0, 1, NULL) == 1,
          "mesh 2d: split axes, major to minor");
    *f.rank = p;
    rlx_tensor_t *out = NULL;
    expect_ok(rlx_function_call(grid, inputs, 3, &out, 1),
              format("mesh 2d: call grid as process %d", p));
    check(received(&f, 0, 1, 6, grid_block0, p) &&
              f.data[0] == (const float *)rlx_tensor_data(a) + 6 * p,
          format("mesh 2d %d: a dim over two axes, a view of row %d", p, p));
    check(received(&f, 1, 2, 2, grid_block1, p) && is_aligned(f.data[1]),
          format("mesh 2d %d: dim 1 over axes 1, 0 (a copy)", p));
    check(received(&f, 2, 2, 2, grid_block2, p) && is_aligned(f.data[2]),
          format("mesh 2d %d: both dims split (a copy)", p));
    check(has_dims(out, 2, 2, 2) && written_by(out, p),
          format("mesh 2d %d: the output is the block [2,2]", p));
    rlx_tensor_free(out);
  }
  rlx_tensor_free(a);
  rlx_tensor_free(b);
  rlx_tensor_free(c);
  for (int p = 0; p < 4; ++p)
    rlx_module_free(modules[p]);
  check(*f.stop_calls == 0,
        "mesh 2d: MPI keeps running while another mesh module is loaded");
  dlclose(f.handle);
}

/* In a child process, where MPI has not started: a failing rlx_mesh_start
 * fails the load, and MPI cannot be started again. Returns the child's
 * exit status: 0 if all went as expected. */
static int mesh_start_failure_child(void) {
  mesh_fixture_t f;
  if (!open_mesh_fixture("rlx_runtime_fixture_mesh", &f))
    return 10;
  *f.start_result = 7;
  rlx_module_t *m = NULL;
  rlx_status_t status =
      rlx_module_load(fixture("rlx_runtime_fixture_mesh"), &m);
  if (rlx_status_code(status) != RLX_STATUS_IO_ERROR ||
      !strstr(rlx_status_message(status),
              "starting MPI failed: rlx_mesh_start returned 7"))
    return 11;
  rlx_status_free(status);
  *f.start_result = 0;
  status = rlx_module_load(fixture("rlx_runtime_fixture_mesh"), &m);
  if (rlx_status_code(status) != RLX_STATUS_UNIMPLEMENTED ||
      !strstr(rlx_status_message(status), "MPI failed to start"))
    return 12;
  rlx_status_free(status);
  if (*f.start_calls != 1 || *f.stop_calls != 0)
    return 13;
  return 0;
}

/* Also in a child: a size mismatch on the first mesh module loaded stops
 * the MPI it started. */
static int mesh_size_child(void) {
  mesh_fixture_t f;
  if (!open_mesh_fixture("rlx_runtime_fixture_mesh", &f))
    return 10;
  *f.size = 1;
  rlx_module_t *m = NULL;
  rlx_status_t status =
      rlx_module_load(fixture("rlx_runtime_fixture_mesh"), &m);
  if (rlx_status_code(status) != RLX_STATUS_INVALID_ARGUMENT ||
      !strstr(rlx_status_message(status),
              "runs on a mesh of 2 processes, but this process is one of 1 "
              "(launch it with mpirun -np 2)"))
    return 11;
  rlx_status_free(status);
  return *f.start_calls == 1 && *f.stop_calls == 1 ? 0 : 12;
}

static void expect_child(int (*body)(void), const char *name) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0)
    _exit(body());
  int wait_status = 0;
  bool ok = pid > 0 && waitpid(pid, &wait_status, 0) == pid;
  report(ok && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0, name,
         format("child exit status %d", WEXITSTATUS(wait_status)));
}

static void test_mesh(void) {
  /* A module without a mesh line: one process. */
  rlx_module_t *plain = NULL;
  expect_ok(rlx_module_load(fixture("rlx_runtime_fixture"), &plain),
            "mesh: load a module without a mesh");
  rlx_mesh_t mesh;
  memset(&mesh, 0xff, sizeof(mesh));
  expect_ok(rlx_module_mesh(plain, &mesh), "mesh: rlx_module_mesh, no mesh");
  check(mesh.rank == 0 && mesh.dims == NULL && mesh.num_processes == 1 &&
            mesh.process == 0 && mesh.coords[0] == 0,
        "mesh: a module without a mesh runs on one process");
  int any = -1;
  expect_ok(rlx_module_mesh_agree(plain, 1, &any),
            "mesh: agree without a mesh");
  check(any == 1, "mesh: agreeing alone");
  const rlx_function_t *add = NULL;
  rlx_status_free(rlx_module_lookup(plain, "add_f32", &add));
  check(add && rlx_function_input_split(add, 0, 0, NULL) == 0 &&
            rlx_function_output_split(add, 0, 0, NULL) == 0,
        "mesh: nothing is split without a mesh");
  expect_error(rlx_module_mesh(NULL, &mesh), RLX_STATUS_INVALID_ARGUMENT,
               "mesh: rlx_module_mesh(NULL)", "module is NULL", NULL);
  expect_error(rlx_module_mesh(plain, NULL), RLX_STATUS_INVALID_ARGUMENT,
               "mesh: rlx_module_mesh out NULL", "out is NULL", NULL);
  rlx_module_free(plain);

  expect_child(mesh_start_failure_child,
               "mesh: a failed rlx_mesh_start fails the load; MPI does not "
               "start again");
  expect_child(mesh_size_child,
               "mesh: a size mismatch on the first mesh module stops MPI");

  mesh_fixture_t f;
  check(open_mesh_fixture("rlx_runtime_fixture_mesh", &f),
        "mesh: fixture records are visible");
  if (!f.handle || !f.calls)
    return;
  char path[4096];
  snprintf(path, sizeof(path), "%s", fixture("rlx_runtime_fixture_mesh"));
  rlx_module_t *m0 = NULL, *m1 = NULL, *extra = NULL;
  *f.rank = 0;
  expect_ok(rlx_module_load(path, &m0), "mesh: load as process 0");
  check(*f.start_calls == 1 && *f.stop_calls == 0, "mesh: MPI starts once");
  *f.rank = 1;
  expect_ok(rlx_module_load(path, &m1), "mesh: load as process 1");
  check(*f.start_calls == 1,
        "mesh: a second load in the process does not start MPI again");
  if (!m0 || !m1) {
    rlx_module_free(m0);
    rlx_module_free(m1);
    return;
  }
  expect_ok(rlx_module_mesh(m1, &mesh), "mesh: rlx_module_mesh");
  check(mesh.rank == 1 && mesh.dims && mesh.dims[0] == 2 &&
            mesh.num_processes == 2 && mesh.process == 1 &&
            mesh.coords[0] == 1 && mesh.coords[1] == 0,
        "mesh: process 1 of a 1-D mesh of 2");

  *f.size = 3;
  expect_error(rlx_module_load(path, &extra), RLX_STATUS_INVALID_ARGUMENT,
               "mesh: a world of another size",
               "runs on a mesh of 2 processes, but this process is one of 3 "
               "(launch it with mpirun -np 2)",
               "rlx_runtime_fixture_mesh.so");
  *f.size = 2;
  *f.rank = 2;
  expect_error(rlx_module_load(path, &extra), RLX_STATUS_IO_ERROR,
               "mesh: a rank outside the world",
               "rlx_mesh_rank returned 2, not a process of 0 to 1", NULL);
  check(*f.stop_calls == 0 && *f.start_calls == 1,
        "mesh: failed loads leave MPI to the loaded modules");

  const rlx_function_t *rows = NULL;
  rlx_status_free(rlx_module_lookup(m0, "rows", &rows));
  size_t axes[RLX_MESH_MAX_RANK] = {9, 9, 9, 9};
  rlx_tensor_type_t type;
  check(rows && rlx_function_input_split(rows, 0, 0, axes) == 1 &&
            axes[0] == 0 && axes[1] == 9 &&
            rlx_function_input_split(rows, 0, 1, axes) == 0 &&
            rlx_function_input_split(rows, 1, 0, axes) == 0 &&
            rlx_function_input_split(rows, 2, 0, axes) == 0 &&
            rlx_function_input_split(rows, 0, 2, axes) == 0 &&
            rlx_function_output_split(rows, 0, 0, axes) == 0 &&
            rlx_function_output_split(rows, 1, 0, axes) == 1 &&
            rlx_function_output_split(NULL, 1, 0, axes) == 0,
        "mesh: which dims are split");
  check(rows && !rlx_function_output_type(rows, 1, &type) &&
            type.dims[0] == 4 && type.dims[1] == 3,
        "mesh: the output type is the whole (global) one");

  test_mesh_blocks(&f, m0, 0);
  test_mesh_blocks(&f, m1, 1);
  test_mesh_agreement(&f, m0);
  test_mesh_grid();

  rlx_module_free(m1);
  check(*f.stop_calls == 0, "mesh: MPI runs while a mesh module is loaded");
  rlx_module_free(m0);
  check(*f.stop_calls == 1, "mesh: freeing the last mesh module stops MPI");
  *f.rank = 0;
  expect_error(rlx_module_load(path, &extra), RLX_STATUS_UNIMPLEMENTED,
               "mesh: MPI does not start again", "MPI was stopped when",
               "cannot start again in the same process");
  check(*f.start_calls == 1, "mesh: rlx_mesh_start ran once in the process");
  dlclose(f.handle);
}

/* ---- complex module ------------------------------------------------------ */

static void test_complex_module(void) {
  const char *path = fixture("rlx_runtime_fixture_complex");
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  int *calls = handle ? dlsym(handle, "rlx_fixture_calls") : NULL;
  int *descriptor_errors =
      handle ? dlsym(handle, "rlx_fixture_descriptor_errors") : NULL;
  check(calls && descriptor_errors, "complex module: fixture counters");
  rlx_module_t *module = NULL;
  expect_ok(rlx_module_load(path, &module), "complex module: load");
  const rlx_function_t *mul = NULL, *split = NULL;
  if (!module || !calls || !descriptor_errors ||
      rlx_module_lookup(module, "mul_c64", &mul) ||
      rlx_module_lookup(module, "split_c128", &split)) {
    check(false, "complex module: mul_c64 and split_c128");
    rlx_module_free(module);
    if (handle)
      dlclose(handle);
    return;
  }

  rlx_tensor_type_t in, out;
  char text[32];
  check(!rlx_function_input_type(mul, 1, &in) &&
            !rlx_function_output_type(mul, 0, &out) &&
            in.dtype == RLX_DTYPE_C64 && out.dtype == RLX_DTYPE_C64 &&
            rlx_tensor_type_format(&in, text, sizeof(text)) == 6 &&
            strcmp(text, "c64[3]") == 0,
        "complex module: the manifest's c64 is parsed");
  check(!rlx_function_input_type(split, 0, &in) &&
            !rlx_function_output_type(split, 2, &out) &&
            in.dtype == RLX_DTYPE_C128 && in.rank == 2 &&
            out.dtype == RLX_DTYPE_C128 && out.rank == 0,
        "complex module: the manifest's c128 is parsed");

  /* (1+2i)(2) = 2+4i; (3-i)(1+i) = 4+2i; (0.5)(-4+2i) = -2+i */
  const int64_t three[] = {3};
  const test_c64_t a_values[] = {{1, 2}, {3, -1}, {0.5f, 0}};
  const test_c64_t b_values[] = {{2, 0}, {1, 1}, {-4, 2}};
  rlx_tensor_t *inputs[2] = {make_tensor(RLX_DTYPE_C64, 1, three),
                             make_tensor(RLX_DTYPE_C64, 1, three)};
  rlx_tensor_t *product = NULL;
  if (inputs[0] && inputs[1]) {
    memcpy(rlx_tensor_data(inputs[0]), a_values, sizeof(a_values));
    memcpy(rlx_tensor_data(inputs[1]), b_values, sizeof(b_values));
  }
  expect_ok(rlx_function_call(mul, inputs, 2, &product, 1),
            "complex module: call mul_c64");
  const test_c64_t *p = product ? rlx_tensor_data(product) : NULL;
  check(p && rlx_tensor_dtype(product) == RLX_DTYPE_C64 && p[0].re == 2 &&
            p[0].im == 4 && p[1].re == 4 && p[1].im == 2 && p[2].re == -2 &&
            p[2].im == 1,
        "complex module: mul_c64 result (real part first)");
  rlx_tensor_free(product);

  rlx_tensor_t *wrong = make_tensor(RLX_DTYPE_C128, 1, three);
  rlx_tensor_t *mixed[2] = {inputs[0], wrong};
  product = (rlx_tensor_t *)mixed;
  int before = *calls;
  expect_error(rlx_function_call(mul, mixed, 2, &product, 1),
               RLX_STATUS_DTYPE_MISMATCH, "complex module: c128 for c64",
               "input 1 of 'mul_c64': expected dtype c64, got c128", NULL);
  check(product == NULL && *calls == before,
        "complex module: a dtype mismatch runs nothing");
  rlx_tensor_free(wrong);
  rlx_tensor_free(inputs[0]);
  rlx_tensor_free(inputs[1]);

  const int64_t square[] = {2, 2};
  const test_c128_t z_values[] = {{1, 2}, {-3, 0.5}, {0, -1}, {4, 4}};
  rlx_tensor_t *z = make_tensor(RLX_DTYPE_C128, 2, square);
  if (z)
    memcpy(rlx_tensor_data(z), z_values, sizeof(z_values));
  rlx_tensor_t *parts[3] = {NULL, NULL, NULL};
  expect_ok(rlx_function_call(split, &z, 1, parts, 3),
            "complex module: call split_c128");
  const double *re = parts[0] ? rlx_tensor_data(parts[0]) : NULL;
  const double *im = parts[1] ? rlx_tensor_data(parts[1]) : NULL;
  const test_c128_t *sum = parts[2] ? rlx_tensor_data(parts[2]) : NULL;
  check(re && im && sum && re[1] == -3 && im[1] == 0.5 && re[2] == 0 &&
            im[2] == -1 && sum->re == 2 && sum->im == 5.5 &&
            rlx_tensor_byte_size(parts[2]) == 16,
        "complex module: split_c128 results");
  for (size_t i = 0; i < 3; ++i)
    rlx_tensor_free(parts[i]);
  rlx_tensor_free(z);

  check(*descriptor_errors == 0,
        "complex module: descriptors are dense and row-major");
  rlx_module_free(module);
  if (handle)
    dlclose(handle);
}

/* ---- npy ----------------------------------------------------------------- */

static void test_npy_round_trips(void) {
  static const rlx_dtype_t dtypes[] = {
      RLX_DTYPE_F32, RLX_DTYPE_F16, RLX_DTYPE_F64, RLX_DTYPE_I8,
      RLX_DTYPE_I16, RLX_DTYPE_I32, RLX_DTYPE_I64, RLX_DTYPE_BOOL,
      RLX_DTYPE_C64, RLX_DTYPE_C128};
  const int64_t dims[] = {2, 3};
  const double values[] = {0, 1, -2, 3.5, 100, -7};
  for (size_t i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); ++i) {
    const char *name = rlx_dtype_name(dtypes[i]);
    rlx_tensor_t *t = NULL, *loaded = NULL;
    rlx_status_free(rlx_tensor_create(dtypes[i], 2, dims, &t));
    rlx_status_free(
        rlx_tensor_copy_from(t, RLX_DTYPE_F64, values, sizeof(values)));
    const char *path = scratch(format("round_%s.npy", name));
    expect_ok(rlx_npy_save(path, t), format("npy: save %s", name));
    expect_ok(rlx_npy_load(path, &loaded), format("npy: load %s", name));
    check(loaded && rlx_tensor_dtype(loaded) == dtypes[i] &&
              rlx_tensor_rank(loaded) == 2 && rlx_tensor_dims(loaded)[0] == 2 &&
              rlx_tensor_dims(loaded)[1] == 3 &&
              memcmp(rlx_tensor_data(loaded), rlx_tensor_data(t),
                     rlx_tensor_byte_size(t)) == 0,
          format("npy: %s round trip is exact", name));
    rlx_tensor_free(loaded);
    rlx_tensor_free(t);
  }

  /* bf16 is stored as f32 and comes back as exact f32 values. */
  rlx_tensor_t *bf = NULL, *loaded = NULL;
  const int64_t three[] = {3};
  const float bf_values[] = {1.0f / 3.0f, -1e30f, 0.5f};
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_BF16, 1, three, &bf));
  rlx_status_free(
      rlx_tensor_copy_from(bf, RLX_DTYPE_F32, bf_values, sizeof(bf_values)));
  expect_ok(rlx_npy_save(scratch("bf16.npy"), bf), "npy: save bf16");
  expect_ok(rlx_npy_load(scratch("bf16.npy"), &loaded), "npy: load saved bf16");
  float widened[3];
  rlx_status_free(
      rlx_tensor_copy_to(bf, RLX_DTYPE_F32, widened, sizeof(widened)));
  check(loaded && rlx_tensor_dtype(loaded) == RLX_DTYPE_F32 &&
            memcmp(rlx_tensor_data(loaded), widened, sizeof(widened)) == 0,
        "npy: bf16 is saved as exact f32");
  rlx_tensor_free(loaded);
  rlx_tensor_free(bf);

  /* Header layout: version 1.0, 1-tuple comma, data 64-byte aligned. */
  FILE *file = fopen(scratch("round_f32.npy"), "rb");
  unsigned char head[128] = {0};
  size_t got = file ? fread(head, 1, sizeof(head), file) : 0;
  if (file)
    fclose(file);
  size_t header_length = (size_t)head[8] | (size_t)head[9] << 8;
  check(got == sizeof(head) && memcmp(head, "\x93NUMPY\x01\x00", 8) == 0 &&
            (10 + header_length) % 64 == 0 &&
            head[10 + header_length - 1] == '\n' &&
            strstr((const char *)head + 10,
                   "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), "
                   "}"),
        "npy: saved header matches NumPy's layout");

  /* Complex tensors are saved as NumPy's complex64 and complex128. */
  const test_c128_t complex_values[] = {{1.5, -2}, {-0.0, 1e-3}, {NAN, 7}};
  for (int c = 0; c < 2; ++c) {
    rlx_dtype_t dtype = c ? RLX_DTYPE_C128 : RLX_DTYPE_C64;
    const char *name = rlx_dtype_name(dtype);
    rlx_tensor_t *t = NULL, *back = NULL;
    rlx_status_free(rlx_tensor_create(dtype, 1, three, &t));
    rlx_status_free(rlx_tensor_copy_from(t, RLX_DTYPE_C128, complex_values,
                                         sizeof(complex_values)));
    const char *path = scratch(format("complex_%s.npy", name));
    expect_ok(rlx_npy_save(path, t), format("npy: save complex %s", name));
    expect_ok(rlx_npy_load(path, &back), format("npy: load complex %s", name));
    check(back && rlx_tensor_dtype(back) == dtype &&
              memcmp(rlx_tensor_data(back), rlx_tensor_data(t),
                     rlx_tensor_byte_size(t)) == 0,
          format("npy: %s with imaginary parts round trips exactly", name));
    FILE *saved = fopen(path, "rb");
    char saved_head[128] = {0};
    if (saved) {
      (void)!fread(saved_head, 1, sizeof(saved_head) - 1, saved);
      fclose(saved);
    }
    check(
        strstr(saved_head + 10, c ? "{'descr': '<c16', " : "{'descr': '<c8', "),
        format("npy: %s is saved with NumPy's descr", name));
    rlx_tensor_free(back);
    rlx_tensor_free(t);
  }

  rlx_tensor_t *scalar = NULL, *scalar_loaded = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_I64, 0, NULL, &scalar));
  *(int64_t *)rlx_tensor_data(scalar) = -42;
  expect_ok(rlx_npy_save(scratch("scalar.npy"), scalar), "npy: save scalar");
  expect_ok(rlx_npy_load(scratch("scalar.npy"), &scalar_loaded),
            "npy: load scalar");
  check(scalar_loaded && rlx_tensor_rank(scalar_loaded) == 0 &&
            *(const int64_t *)rlx_tensor_data(scalar_loaded) == -42,
        "npy: scalar shape () round trip");
  rlx_tensor_free(scalar);
  rlx_tensor_free(scalar_loaded);

  const int64_t empty_dims[] = {0, 3};
  rlx_tensor_t *empty = NULL, *empty_loaded = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F32, 2, empty_dims, &empty));
  expect_ok(rlx_npy_save(scratch("empty.npy"), empty), "npy: save empty");
  expect_ok(rlx_npy_load(scratch("empty.npy"), &empty_loaded),
            "npy: load empty");
  check(empty_loaded && rlx_tensor_element_count(empty_loaded) == 0 &&
            rlx_tensor_dims(empty_loaded)[1] == 3,
        "npy: zero-size round trip");
  rlx_tensor_free(empty);
  rlx_tensor_free(empty_loaded);

  expect_error(rlx_npy_save(NULL, scalar), RLX_STATUS_INVALID_ARGUMENT,
               "npy: save NULL path", "path is NULL", NULL);
  expect_error(rlx_npy_save(scratch("x.npy"), NULL),
               RLX_STATUS_INVALID_ARGUMENT, "npy: save NULL tensor",
               "tensor is NULL", NULL);
  rlx_tensor_t *one = make_f32(0, NULL, NULL);
  expect_error(rlx_npy_save(scratch("no/such/dir/x.npy"), one),
               RLX_STATUS_NOT_FOUND, "npy: save into a missing directory",
               "cannot create", "no/such/dir/x.npy");
  rlx_tensor_free(one);
  expect_error(rlx_npy_load(NULL, &loaded), RLX_STATUS_INVALID_ARGUMENT,
               "npy: load NULL path", "path is NULL", NULL);
  expect_error(rlx_npy_load(scratch("scalar.npy"), NULL),
               RLX_STATUS_INVALID_ARGUMENT, "npy: load NULL out", "out is NULL",
               NULL);
}

/* Writes an npy file with the given version and header text (taken as is)
 * followed by `data_size` bytes of `data`. */
static const char *write_npy(const char *name, unsigned major,
                             const char *header, const void *data,
                             size_t data_size) {
  unsigned char buffer[4096];
  size_t header_size = strlen(header);
  size_t n = 0;
  memcpy(buffer, "\x93NUMPY", 6);
  n = 6;
  buffer[n++] = (unsigned char)major;
  buffer[n++] = 0;
  buffer[n++] = (unsigned char)(header_size & 0xff);
  buffer[n++] = (unsigned char)(header_size >> 8);
  if (major > 1) {
    buffer[n++] = 0;
    buffer[n++] = 0;
  }
  memcpy(buffer + n, header, header_size);
  n += header_size;
  memcpy(buffer + n, data, data_size);
  n += data_size;
  const char *path = scratch(name);
  write_file(path, buffer, n);
  return path;
}

static void test_npy_reading(void) {
  const float f32_data[] = {1, 2, 3};
  rlx_tensor_t *t = NULL;

  const char *v2 = write_npy("v2.npy", 2,
                             "{\"shape\": (3,), \"fortran_order\": False, "
                             "\"descr\": \"<f4\"}\n",
                             f32_data, sizeof(f32_data));
  expect_ok(rlx_npy_load(v2, &t), "npy: version 2.0, reordered keys, "
                                  "double quotes");
  check(t && rlx_tensor_element_count(t) == 3 &&
            ((const float *)rlx_tensor_data(t))[2] == 3.0f,
        "npy: version 2.0 data");
  rlx_tensor_free(t);
  t = NULL;

  const int8_t i8_data[] = {-1, 2};
  const char *v3 = write_npy("v3.npy", 3,
                             "{'descr': '<i1', 'fortran_order': False, "
                             "'shape': (2,)}",
                             i8_data, sizeof(i8_data));
  expect_ok(rlx_npy_load(v3, &t), "npy: version 3.0 with '<i1'");
  check(t && rlx_tensor_dtype(t) == RLX_DTYPE_I8 &&
            ((const int8_t *)rlx_tensor_data(t))[0] == -1,
        "npy: '<i1' loads as i8");
  rlx_tensor_free(t);
  t = NULL;

  const uint8_t bool_data[] = {0, 2, 1};
  const char *bools = write_npy("bools.npy", 1,
                                "{'descr': '|b1', 'fortran_order': False, "
                                "'shape': (3,), }\n",
                                bool_data, sizeof(bool_data));
  expect_ok(rlx_npy_load(bools, &t), "npy: load bool");
  check(t && ((const uint8_t *)rlx_tensor_data(t))[1] == 1,
        "npy: bool bytes are normalized to 0/1");
  rlx_tensor_free(t);
  t = NULL;

  /* NumPy's complex64: {re, im} pairs of f32. */
  const float c8_data[] = {1, -2, 0.5f, 3};
  const char *c8 = write_npy("c8.npy", 1,
                             "{'descr': '<c8', 'fortran_order': False, "
                             "'shape': (2,), }\n",
                             c8_data, sizeof(c8_data));
  expect_ok(rlx_npy_load(c8, &t), "npy: load '<c8'");
  check(t && rlx_tensor_dtype(t) == RLX_DTYPE_C64 &&
            rlx_tensor_element_count(t) == 2 &&
            ((const test_c64_t *)rlx_tensor_data(t))[1].re == 0.5f &&
            ((const test_c64_t *)rlx_tensor_data(t))[1].im == 3,
        "npy: '<c8' loads as c64");
  rlx_tensor_free(t);
  t = NULL;

  static const struct npy_case {
    const char *name;
    unsigned major;
    const char *header;
    size_t data_size;
    rlx_status_code_t code;
    const char *substring;
  } cases[] = {
      {"bad_magic", 0, NULL, 0, RLX_STATUS_INVALID_FORMAT,
       "not an npy file (bad magic)"},
      {"version_4", 4, "{}", 0, RLX_STATUS_UNIMPLEMENTED,
       "unsupported npy format version 4.0"},
      {"fortran", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }",
       12, RLX_STATUS_UNIMPLEMENTED, "Fortran-order arrays are not supported"},
      {"unsigned", 1,
       "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", 3,
       RLX_STATUS_UNIMPLEMENTED, "unsupported npy dtype '|u1'"},
      {"big_endian", 1,
       "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", 12,
       RLX_STATUS_UNIMPLEMENTED, "'>f4', big-endian"},
      {"complex256", 1,
       "{'descr': '<c32', 'fortran_order': False, 'shape': (1,), }", 32,
       RLX_STATUS_UNIMPLEMENTED,
       "'<c32' (supported: <f2 <f4 <f8 |i1 <i2 <i4 "
       "<i8 |b1 <c8 <c16)"},
      {"big_endian_complex", 1,
       "{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", 8,
       RLX_STATUS_UNIMPLEMENTED, "'>c8', big-endian"},
      {"structured", 1,
       "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }", 12,
       RLX_STATUS_INVALID_FORMAT, "expected a quoted string"},
      {"not_a_dict", 1, "('descr', '<f4')", 0, RLX_STATUS_INVALID_FORMAT,
       "malformed npy header at offset 0: expected '{'"},
      {"missing_shape", 1, "{'descr': '<f4', 'fortran_order': False}", 0,
       RLX_STATUS_INVALID_FORMAT, "the npy header lacks 'shape'"},
      {"unknown_key", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", 4,
       RLX_STATUS_INVALID_FORMAT, "unexpected key 'x'"},
      {"duplicate_key", 1,
       "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
       "'shape': ()}",
       4, RLX_STATUS_INVALID_FORMAT, "duplicate key 'descr'"},
      {"bad_bool", 1, "{'descr': '<f4', 'fortran_order': 0, 'shape': ()}", 4,
       RLX_STATUS_INVALID_FORMAT, "fortran_order must be True or False"},
      {"one_tuple_without_comma", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", 12,
       RLX_STATUS_INVALID_FORMAT, "a one-dim shape needs a trailing comma"},
      {"negative_dim", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", 0,
       RLX_STATUS_INVALID_FORMAT, "expected a non-negative integer dim"},
      {"huge_dim", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(99999999999999999999,)}",
       0, RLX_STATUS_INVALID_FORMAT, "dim is too large"},
      {"overflowing_shape", 1,
       "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, "
       "4294967296)}",
       0, RLX_STATUS_OUT_OF_RANGE, "is too large"},
      {"rank_33", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, "
       "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "
       "1, 1, 1, 1)}",
       4, RLX_STATUS_OUT_OF_RANGE, "shape has more than 32 dims"},
      {"unterminated_string", 1, "{'descr': '<f4", 0, RLX_STATUS_INVALID_FORMAT,
       "unterminated string"},
      {"trailing_text", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': ()} x", 4,
       RLX_STATUS_INVALID_FORMAT, "unexpected text after the header dict"},
      {"short_data", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20,
       RLX_STATUS_INVALID_FORMAT,
       "npy data is truncated: shape [2,3] of '<f4' needs 24 bytes, the file "
       "has 20"},
      {"long_data", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 12,
       RLX_STATUS_INVALID_FORMAT, "bytes past the data"},
  };
  const unsigned char zeros[64] = {0};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const struct npy_case *c = &cases[i];
    const char *path;
    if (c->header) {
      path = write_npy(format("%s.npy", c->name), c->major, c->header, zeros,
                       c->data_size);
    } else {
      path = scratch(format("%s.npy", c->name));
      write_file(path, "\x93NUMPX\x01\x00\x02\x00{}", 12);
    }
    expect_error(rlx_npy_load(path, &t), c->code, format("npy: %s", c->name),
                 c->substring, format("%s.npy", c->name));
  }

  /* Truncations of a valid file at every length short of its header. */
  const char *valid = scratch("round_f32.npy");
  FILE *file = fopen(valid, "rb");
  unsigned char bytes[128];
  size_t size = file ? fread(bytes, 1, sizeof(bytes), file) : 0;
  if (file)
    fclose(file);
  bool all_rejected = size == sizeof(bytes);
  for (size_t cut = 0; cut < sizeof(bytes); ++cut) {
    const char *path = scratch("truncated.npy");
    write_file(path, bytes, cut);
    rlx_status_t status = rlx_npy_load(path, &t);
    all_rejected &= rlx_status_code(status) == RLX_STATUS_INVALID_FORMAT &&
                    strstr(rlx_status_message(status), "truncated.npy");
    rlx_status_free(status);
  }
  check(all_rejected, "npy: every truncation of a file is reported");
  const char *header_cut = scratch("header_cut.npy");
  write_file(header_cut, bytes, 40);
  expect_error(rlx_npy_load(header_cut, &t), RLX_STATUS_INVALID_FORMAT,
               "npy: truncated header",
               "truncated npy header (30 of 118 bytes)", "header_cut.npy");
  expect_error(rlx_npy_load(scratch("absent.npy"), &t), RLX_STATUS_NOT_FOUND,
               "npy: missing file", "cannot open", "absent.npy");
  expect_error(rlx_npy_load(scratch_dir, &t), RLX_STATUS_IO_ERROR,
               "npy: a directory", "cannot read", NULL);
  check(t == NULL, "npy: failed loads leave out untouched");
}

/* Loads the .npy file at `path` through a pipe (small files only: the whole
 * file is written before the read starts). */
static rlx_status_t load_through_pipe(const char *path, rlx_tensor_t **out) {
  size_t size = 0;
  unsigned char *bytes = read_whole_file(path, &size);
  int fds[2];
  if (!bytes || size > 4096 || pipe(fds) != 0) {
    free(bytes);
    return rlx_npy_load("", out);
  }
  bool written = write(fds[1], bytes, size) == (ssize_t)size;
  close(fds[1]);
  free(bytes);
  rlx_status_t status = written
                            ? rlx_npy_load(format("/dev/fd/%d", fds[0]), out)
                            : rlx_npy_load("", out);
  close(fds[0]);
  return status;
}

/* Sizes claimed by a header are checked against the file before anything
 * is allocated, and a failed save removes only what it created. */
static void test_npy_sizes_and_failed_saves(void) {
  rlx_tensor_t *t = NULL;
  /* A small file that claims 1 GiB; and one that claims 4 TiB, which
   * allocating first would report as OUT_OF_MEMORY. */
  const char *gib = write_npy(
      "gib.npy", 1,
      "{'descr': '<f4', 'fortran_order': False, 'shape': (268435456,), }",
      "abcd", 4);
  expect_error(rlx_npy_load(gib, &t), RLX_STATUS_INVALID_FORMAT,
               "npy: 1 GiB claimed by a small file",
               "needs 1073741824 bytes, the file has 4", "gib.npy");
  const char *tib = write_npy(
      "tib.npy", 1,
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }",
      "", 0);
  expect_error(rlx_npy_load(tib, &t), RLX_STATUS_INVALID_FORMAT,
               "npy: 4 TiB claimed by a small file, nothing allocated",
               "needs 4398046511104 bytes, the file has 0", NULL);

  /* A pipe has no size: its data is read as it arrives. */
  expect_error(load_through_pipe(gib, &t), RLX_STATUS_INVALID_FORMAT,
               "npy: 1 GiB claimed by a pipe",
               "needs 1073741824 bytes, the file has 4", NULL);
  expect_ok(load_through_pipe(scratch("round_f32.npy"), &t),
            "npy: load from a pipe");
  check(t && rlx_tensor_element_count(t) == 6, "npy: a pipe's data");
  rlx_tensor_free(t);
  t = NULL;

  int64_t dims[1] = {4096};
  rlx_tensor_t *big = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F32, 1, dims, &big));
  struct stat st;
  expect_error(rlx_npy_save("/dev/full", big), RLX_STATUS_IO_ERROR,
               "npy: save to /dev/full", "cannot write '/dev/full'", NULL);
  check(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode),
        "npy: a failed save leaves /dev/full in place");

  /* Writes past a small file size limit fail with EFBIG. */
  const char *existing = scratch("existing.npy");
  write_file(existing, "keep", 4);
  const char *fresh = scratch("fresh.npy");
  struct rlimit saved;
  bool limited = getrlimit(RLIMIT_FSIZE, &saved) == 0;
  struct rlimit small = saved;
  small.rlim_cur = 1024;
  void (*saved_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  limited = limited && setrlimit(RLIMIT_FSIZE, &small) == 0;
  check(limited, "npy: file size limit set");
  if (limited) {
    expect_error(rlx_npy_save(existing, big), RLX_STATUS_IO_ERROR,
                 "npy: failed save over an existing file", "existing.npy",
                 "too large");
    expect_error(rlx_npy_save(fresh, big), RLX_STATUS_IO_ERROR,
                 "npy: failed save to a new file", "fresh.npy", "too large");
    setrlimit(RLIMIT_FSIZE, &saved);
  }
  signal(SIGXFSZ, saved_handler);
  check(stat(existing, &st) == 0,
        "npy: a failed save does not delete a file it did not create");
  check(stat(fresh, &st) != 0, "npy: a failed save removes the file it created");
  rlx_tensor_free(big);
}

/* ---- threads ------------------------------------------------------------- */

static size_t online_cores(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? (size_t)cores : 1;
}

/* Runs the OpenMP fixture's `threads` and returns the thread count the
 * (fake) OpenMP library was given on the calling thread, or -1. */
static int64_t invoked_thread_count(const rlx_function_t *fn) {
  const int64_t no_dims[1] = {0};
  rlx_tensor_t *out = NULL;
  rlx_status_t status = rlx_tensor_create(RLX_DTYPE_I64, 0, no_dims, &out);
  if (!status)
    status = rlx_function_invoke(fn, NULL, 0, &out, 1);
  int64_t count = status ? -1 : *(const int64_t *)rlx_tensor_data(out);
  rlx_status_free(status);
  rlx_tensor_free(out);
  return count;
}

/* The function invoke_on_new_thread runs. */
static const rlx_function_t *threads_function;

static void *invoke_on_new_thread(void *unused) {
  (void)unused;
  return (void *)(intptr_t)invoked_thread_count(threads_function);
}

/* `rlx-runtime-test --threads-probe FIXTURE_DIR [COUNT]`, run in a child
 * process by test_thread_environment with a given RLX_NUM_THREADS: sets
 * COUNT if given, then prints "threads T load CODE invoke N" (N is -1 if the
 * load failed), and the load's message on a second line. */
static int threads_probe(int argc, char **argv) {
  fixture_dir = argv[2];
  if (argc == 4)
    rlx_status_free(rlx_set_num_threads((size_t)strtoull(argv[3], NULL, 10)));
  size_t threads = rlx_get_num_threads();
  rlx_module_t *module = NULL;
  rlx_status_t status =
      rlx_module_load(fixture("rlx_runtime_fixture_openmp"), &module);
  const rlx_function_t *fn = NULL;
  if (!status)
    status = rlx_module_lookup(module, "threads", &fn);
  printf("threads %zu load %s invoke %lld\n%s\n", threads,
         rlx_status_code_name(rlx_status_code(status)),
         (long long)(fn ? invoked_thread_count(fn) : -1),
         rlx_status_message(status));
  rlx_status_free(status);
  rlx_module_free(module);
  return 0;
}

/* Runs threads_probe in a fresh process (the runtime reads RLX_NUM_THREADS
 * once per process) with RLX_NUM_THREADS set to `value`, or unset if NULL,
 * and stores its output in `out`. */
static bool run_threads_probe(const char *value, const char *count, char *out,
                              size_t size) {
  int fds[2];
  if (pipe(fds) != 0)
    return false;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    if (value)
      setenv("RLX_NUM_THREADS", value, 1);
    else
      unsetenv("RLX_NUM_THREADS");
    execl("/proc/self/exe", "rlx-runtime-test", "--threads-probe", fixture_dir,
          count, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  size_t length = 0;
  for (ssize_t n; pid > 0 && length + 1 < size &&
                  (n = read(fds[0], out + length, size - 1 - length)) > 0;)
    length += (size_t)n;
  out[length] = '\0';
  close(fds[0]);
  int wait_status = 0;
  return pid > 0 && waitpid(pid, &wait_status, 0) == pid &&
         WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

static void test_thread_environment(void) {
  const size_t cores = online_cores();
  static const struct {
    const char *value; /* RLX_NUM_THREADS, or NULL for unset */
    const char *count; /* given to rlx_set_num_threads, or NULL */
    long long threads; /* expected count; 0 for all cores */
    const char *load;  /* expected status of the load */
  } cases[] = {
      {NULL, NULL, 0, "OK"},
      {"", NULL, 0, "OK"},
      {"3", NULL, 3, "OK"},
      {"0", NULL, 0, "OK"},
      {"007", NULL, 7, "OK"},
      {"3", "5", 5, "OK"},
      {"abc", NULL, 0, "INVALID_ARGUMENT"},
      {"-1", NULL, 0, "INVALID_ARGUMENT"},
      {" 4", NULL, 0, "INVALID_ARGUMENT"},
      {"2147483648", NULL, 0, "INVALID_ARGUMENT"},
      {"abc", "2", 2, "OK"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    long long threads = cases[i].threads ? cases[i].threads : (long long)cores;
    bool load_ok = strcmp(cases[i].load, "OK") == 0;
    char want[128], got[1024];
    snprintf(want, sizeof(want), "threads %lld load %s invoke %lld\n", threads,
             cases[i].load, load_ok ? threads : -1LL);
    bool ran = run_threads_probe(cases[i].value, cases[i].count, got,
                                 sizeof(got));
    bool ok = ran && strncmp(got, want, strlen(want)) == 0 &&
              (load_ok || strstr(got, format("RLX_NUM_THREADS='%s' is not a "
                                             "thread count",
                                             cases[i].value)));
    const char *name =
        format("threads: RLX_NUM_THREADS %s%s%s%s", cases[i].value ? "'" : "",
               cases[i].value ? cases[i].value : "unset",
               cases[i].value ? "'" : "",
               cases[i].count ? format(", then set %s", cases[i].count) : "");
    report(ok, name, format("want '%.*s', got '%s'", (int)strlen(want) - 1,
                            want, got));
  }
}

static void test_threads(void) {
  const size_t cores = online_cores();
  expect_ok(rlx_set_num_threads(3), "threads: set 3");
  check(rlx_get_num_threads() == 3, "threads: get returns the count set");
  expect_ok(rlx_set_num_threads(0), "threads: set 0");
  check(rlx_get_num_threads() == cores, "threads: 0 means all online cores");
  expect_error(rlx_set_num_threads((size_t)INT_MAX + 1), RLX_STATUS_OUT_OF_RANGE,
               "threads: more than INT_MAX", "2147483648", NULL);
  check(rlx_get_num_threads() == cores, "threads: a rejected count is not set");

  rlx_module_t *module = NULL;
  expect_ok(rlx_module_load(fixture("rlx_runtime_fixture_openmp"), &module),
            "threads: load a module that depends on OpenMP");
  const rlx_function_t *fn = NULL;
  if (module)
    expect_ok(rlx_module_lookup(module, "threads", &fn),
              "threads: lookup threads");
  if (fn) {
    check(invoked_thread_count(fn) == (int64_t)cores,
          "threads: OpenMP gets all cores by default");
    rlx_status_free(rlx_set_num_threads(1));
    check(invoked_thread_count(fn) == 1,
          "threads: OpenMP gets the count set before the call");
    rlx_status_free(rlx_set_num_threads(5));
    threads_function = fn;
    pthread_t thread;
    void *result = NULL;
    bool joined =
        pthread_create(&thread, NULL, invoke_on_new_thread, NULL) == 0 &&
        pthread_join(thread, &result) == 0;
    check(joined && (intptr_t)result == 5,
          "threads: the count is set on the calling thread");
    rlx_status_free(rlx_set_num_threads(0));
  }
  rlx_module_free(module);
  test_thread_environment();
}

/* ---- main ---------------------------------------------------------------- */

/* The scratch directory only ever holds plain files. */
static void remove_scratch(void) {
  DIR *dir = opendir(scratch_dir);
  if (dir) {
    for (struct dirent *entry; (entry = readdir(dir));)
      if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
        unlink(scratch(entry->d_name));
    closedir(dir);
  }
  if (rmdir(scratch_dir) != 0)
    fprintf(stderr, "warning: could not remove %s\n", scratch_dir);
}

int main(int argc, char **argv) {
  if ((argc == 3 || argc == 4) && strcmp(argv[1], "--threads-probe") == 0)
    return threads_probe(argc, argv);
  if (argc != 2) {
    fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
    return 2;
  }
  fixture_dir = argv[1];
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch_dir, sizeof(scratch_dir), "%s/rlx-runtime-test-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(scratch_dir)) {
    perror("mkdtemp");
    return 2;
  }

  test_status_and_dtypes();
  test_half_conversion();
  test_element_conversion();
  test_complex_conversion();
  test_tensors();
  test_complex_tensors();
  test_load_errors();
  test_elf_check();
  test_manifest_parsing();
  test_module();
  test_dynamic();
  test_complex_module();
  test_mesh();
  test_threads();
  test_npy_round_trips();
  test_npy_reading();
  test_npy_sizes_and_failed_saves();

  remove_scratch();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
