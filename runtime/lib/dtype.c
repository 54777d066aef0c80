#include "internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

bool rlx_dtype_is_valid(rlx_dtype_t dtype) {
  return (unsigned)dtype <= (unsigned)RLX_DTYPE_C128;
}

bool rlx_dtype_is_complex(rlx_dtype_t dtype) {
  return dtype == RLX_DTYPE_C64 || dtype == RLX_DTYPE_C128;
}

size_t rlx_dtype_alignment(rlx_dtype_t dtype) {
  /* A complex number is a pair of its parts, aligned as one part (C's
   * float _Complex, NumPy's complex64, MLIR's {f32, f32}). */
  size_t size = rlx_dtype_size(dtype);
  return rlx_dtype_is_complex(dtype) ? size / 2 : size;
}

size_t rlx_dtype_size(rlx_dtype_t dtype) {
  switch (dtype) {
  case RLX_DTYPE_C128:
    return 16;
  case RLX_DTYPE_C64:
  case RLX_DTYPE_F64:
  case RLX_DTYPE_I64:
    return 8;
  case RLX_DTYPE_F32:
  case RLX_DTYPE_I32:
    return 4;
  case RLX_DTYPE_F16:
  case RLX_DTYPE_BF16:
  case RLX_DTYPE_I16:
    return 2;
  case RLX_DTYPE_I8:
  case RLX_DTYPE_BOOL:
    return 1;
  }
  return 0;
}

const char *rlx_dtype_name(rlx_dtype_t dtype) {
  switch (dtype) {
  case RLX_DTYPE_F32:
    return "f32";
  case RLX_DTYPE_F16:
    return "f16";
  case RLX_DTYPE_BF16:
    return "bf16";
  case RLX_DTYPE_F64:
    return "f64";
  case RLX_DTYPE_I8:
    return "i8";
  case RLX_DTYPE_I16:
    return "i16";
  case RLX_DTYPE_I32:
    return "i32";
  case RLX_DTYPE_I64:
    return "i64";
  case RLX_DTYPE_BOOL:
    return "i1";
  case RLX_DTYPE_C64:
    return "c64";
  case RLX_DTYPE_C128:
    return "c128";
  }
  return NULL;
}

rlx_status_t rlx_dtype_from_name(const char *name, rlx_dtype_t *out) {
  if (!name || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_dtype_from_name: %s is NULL",
                           name ? "out" : "name");
  for (int d = RLX_DTYPE_F32; d <= RLX_DTYPE_C128; ++d) {
    if (strcmp(name, rlx_dtype_name((rlx_dtype_t)d)) == 0) {
      *out = (rlx_dtype_t)d;
      return NULL;
    }
  }
  if (strcmp(name, "bool") == 0) {
    *out = RLX_DTYPE_BOOL;
    return NULL;
  }
  return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                         "unknown dtype '%s' (expected one of f32, f16, "
                         "bf16, f64, i8, i16, i32, i64, i1, c64, c128)",
                         name);
}

/* ---- f16 / bf16 ---------------------------------------------------------- */

/* Both 16-bit formats are IEEE-style binary formats that differ only in their
 * exponent and mantissa widths, so one encoder and one decoder serve both.
 * Encoding starts from a double: every f32 is exactly a double, so rounding
 * once from there avoids double rounding for f32 and f64 sources alike. */
typedef struct half_format {
  unsigned exp_bits;
  unsigned man_bits;
} half_format_t;

static const half_format_t f16_format = {5, 10};
static const half_format_t bf16_format = {8, 7};

static uint16_t encode_half(double value, half_format_t fmt) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  const unsigned total_bits = fmt.exp_bits + fmt.man_bits;
  const uint64_t sign = (bits >> 63) << total_bits;
  const uint64_t exp_all_ones = ((UINT64_C(1) << fmt.exp_bits) - 1)
                                << fmt.man_bits;
  const int64_t double_exp = (int64_t)((bits >> 52) & 0x7ff);
  const uint64_t double_man = bits & ((UINT64_C(1) << 52) - 1);

  if (double_exp == 0x7ff) {
    if (double_man == 0)
      return (uint16_t)(sign | exp_all_ones);
    /* Quiet NaN keeping the payload's top bits. */
    uint64_t payload = double_man >> (52 - fmt.man_bits);
    return (uint16_t)(sign | exp_all_ones |
                      (UINT64_C(1) << (fmt.man_bits - 1)) | payload);
  }
  /* Zero, and doubles subnormal in f64, are far below either format's
   * smallest subnormal. */
  if (double_exp == 0)
    return (uint16_t)sign;

  const int64_t bias = (INT64_C(1) << (fmt.exp_bits - 1)) - 1;
  const int64_t target_exp = double_exp - 1023 + bias;
  const uint64_t significand = (UINT64_C(1) << 52) | double_man;
  /* Bits of the 53-bit significand dropped to fit the target mantissa; more
   * for results that are subnormal in the target format. */
  int64_t shift = 52 - (int64_t)fmt.man_bits;
  if (target_exp < 1)
    shift += 1 - target_exp;
  if (shift > 54)
    return (uint16_t)sign;

  uint64_t kept = significand >> shift;
  const uint64_t rest = significand & ((UINT64_C(1) << shift) - 1);
  const uint64_t half = UINT64_C(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;

  /* For normals `kept` still holds the implicit bit, which the addition
   * turns into an exponent increment; a rounding carry propagates the same
   * way, into infinity if need be. */
  uint64_t magnitude =
      target_exp < 1 ? kept
                     : ((uint64_t)(target_exp - 1) << fmt.man_bits) + kept;
  if (magnitude >= exp_all_ones)
    magnitude = exp_all_ones;
  return (uint16_t)(sign | magnitude);
}

static double decode_half(uint16_t value, half_format_t fmt) {
  const unsigned total_bits = fmt.exp_bits + fmt.man_bits;
  const bool negative = (value >> total_bits) & 1;
  const unsigned exp_max = (1u << fmt.exp_bits) - 1;
  const unsigned exp = (value >> fmt.man_bits) & exp_max;
  const uint64_t man = value & ((1u << fmt.man_bits) - 1);
  const int bias = (int)(exp_max >> 1);

  double magnitude;
  if (exp == exp_max) {
    if (man == 0) {
      magnitude = INFINITY;
    } else {
      uint64_t bits = (UINT64_C(0x7ff) << 52) | (man << (52 - fmt.man_bits));
      memcpy(&magnitude, &bits, sizeof(magnitude));
    }
  } else if (exp == 0) {
    magnitude = ldexp((double)man, 1 - bias - (int)fmt.man_bits);
  } else {
    magnitude = ldexp((double)(man | (UINT64_C(1) << fmt.man_bits)),
                      (int)exp - bias - (int)fmt.man_bits);
  }
  return negative ? -magnitude : magnitude;
}

uint16_t rlx_f32_to_f16(float value) { return encode_half(value, f16_format); }
float rlx_f16_to_f32(uint16_t bits) {
  return (float)decode_half(bits, f16_format);
}
uint16_t rlx_f32_to_bf16(float value) {
  return encode_half(value, bf16_format);
}
float rlx_bf16_to_f32(uint16_t bits) {
  return (float)decode_half(bits, bf16_format);
}

/* ---- element-wise conversion --------------------------------------------- */

static bool is_float(rlx_dtype_t dtype) {
  return dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
         dtype == RLX_DTYPE_BF16 || dtype == RLX_DTYPE_F64;
}

/* Integers and bools travel as int64_t so that i64 values stay exact. */
static int64_t load_int(const unsigned char *p, rlx_dtype_t dtype) {
  switch (dtype) {
  case RLX_DTYPE_I8: {
    int8_t v;
    memcpy(&v, p, sizeof(v));
    return v;
  }
  case RLX_DTYPE_I16: {
    int16_t v;
    memcpy(&v, p, sizeof(v));
    return v;
  }
  case RLX_DTYPE_I32: {
    int32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
  }
  case RLX_DTYPE_I64: {
    int64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
  }
  case RLX_DTYPE_BOOL:
    return *p != 0;
  case RLX_DTYPE_F32:
  case RLX_DTYPE_F16:
  case RLX_DTYPE_BF16:
  case RLX_DTYPE_F64:
  case RLX_DTYPE_C64:
  case RLX_DTYPE_C128:
    break;
  }
  return 0;
}

static double load_float(const unsigned char *p, rlx_dtype_t dtype) {
  switch (dtype) {
  case RLX_DTYPE_F32: {
    float v;
    memcpy(&v, p, sizeof(v));
    return v;
  }
  case RLX_DTYPE_F64: {
    double v;
    memcpy(&v, p, sizeof(v));
    return v;
  }
  case RLX_DTYPE_F16:
  case RLX_DTYPE_BF16: {
    uint16_t v;
    memcpy(&v, p, sizeof(v));
    return decode_half(v, dtype == RLX_DTYPE_F16 ? f16_format : bf16_format);
  }
  case RLX_DTYPE_I8:
  case RLX_DTYPE_I16:
  case RLX_DTYPE_I32:
  case RLX_DTYPE_I64:
  case RLX_DTYPE_BOOL:
  case RLX_DTYPE_C64:
  case RLX_DTYPE_C128:
    break;
  }
  return 0;
}

static int64_t clamp(int64_t value, int64_t lo, int64_t hi) {
  return value < lo ? lo : value > hi ? hi : value;
}

static void store_int(unsigned char *p, rlx_dtype_t dtype, int64_t value) {
  switch (dtype) {
  case RLX_DTYPE_I8: {
    int8_t v = (int8_t)clamp(value, INT8_MIN, INT8_MAX);
    memcpy(p, &v, sizeof(v));
    return;
  }
  case RLX_DTYPE_I16: {
    int16_t v = (int16_t)clamp(value, INT16_MIN, INT16_MAX);
    memcpy(p, &v, sizeof(v));
    return;
  }
  case RLX_DTYPE_I32: {
    int32_t v = (int32_t)clamp(value, INT32_MIN, INT32_MAX);
    memcpy(p, &v, sizeof(v));
    return;
  }
  case RLX_DTYPE_I64:
    memcpy(p, &value, sizeof(value));
    return;
  case RLX_DTYPE_BOOL:
    *p = value != 0;
    return;
  case RLX_DTYPE_F32:
  case RLX_DTYPE_F16:
  case RLX_DTYPE_BF16:
  case RLX_DTYPE_F64:
  case RLX_DTYPE_C64:
  case RLX_DTYPE_C128:
    break;
  }
}

static void store_float(unsigned char *p, rlx_dtype_t dtype, double value) {
  switch (dtype) {
  case RLX_DTYPE_F32: {
    float v = (float)value;
    memcpy(p, &v, sizeof(v));
    return;
  }
  case RLX_DTYPE_F64:
    memcpy(p, &value, sizeof(value));
    return;
  case RLX_DTYPE_F16:
  case RLX_DTYPE_BF16: {
    uint16_t v =
        encode_half(value, dtype == RLX_DTYPE_F16 ? f16_format : bf16_format);
    memcpy(p, &v, sizeof(v));
    return;
  }
  case RLX_DTYPE_I8:
  case RLX_DTYPE_I16:
  case RLX_DTYPE_I32:
  case RLX_DTYPE_I64:
  case RLX_DTYPE_BOOL:
  case RLX_DTYPE_C64:
  case RLX_DTYPE_C128:
    break;
  }
}

/* Truncates toward zero and saturates; NaN gives 0. The bounds are compared
 * as doubles: -2^63 is exact and 2^63 is the first value past INT64_MAX. */
static int64_t float_to_int(double value) {
  if (isnan(value))
    return 0;
  if (value <= -9223372036854775808.0)
    return INT64_MIN;
  if (value >= 9223372036854775808.0)
    return INT64_MAX;
  return (int64_t)value;
}

/* Integers beyond 2^53 reach f32/f16/bf16 through a double. Rounding to odd
 * in that first step, which keeps far more bits (53) than the target's 24 at
 * most, makes the second rounding the correctly rounded one. */
static double int_to_double_round_to_odd(int64_t value) {
  uint64_t magnitude =
      value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  int shift = 0;
  while ((magnitude >> shift) >= (UINT64_C(1) << 53))
    ++shift;
  uint64_t kept = magnitude >> shift;
  if (magnitude & ((UINT64_C(1) << shift) - 1))
    kept |= 1;
  double result = ldexp((double)kept, shift);
  return value < 0 ? -result : result;
}

/* Converts one element between two real dtypes (float, integer or bool). */
static void convert_real(const unsigned char *in, rlx_dtype_t src_dtype,
                         unsigned char *out, rlx_dtype_t dst_dtype) {
  if (is_float(src_dtype)) {
    double v = load_float(in, src_dtype);
    if (is_float(dst_dtype))
      store_float(out, dst_dtype, v);
    else if (dst_dtype == RLX_DTYPE_BOOL)
      *out = v != 0; /* true for NaN too */
    else
      store_int(out, dst_dtype, float_to_int(v));
  } else {
    int64_t v = load_int(in, src_dtype);
    if (dst_dtype == RLX_DTYPE_F64)
      store_float(out, dst_dtype, (double)v);
    else if (is_float(dst_dtype))
      store_float(out, dst_dtype, int_to_double_round_to_odd(v));
    else
      store_int(out, dst_dtype, v);
  }
}

/* The dtype of each part of a complex dtype: f32 for c64, f64 for c128. */
static rlx_dtype_t complex_part(rlx_dtype_t dtype) {
  return dtype == RLX_DTYPE_C64 ? RLX_DTYPE_F32 : RLX_DTYPE_F64;
}

rlx_status_t rlx_convert(rlx_dtype_t src_dtype, const void *src,
                         rlx_dtype_t dst_dtype, void *dst, size_t count) {
  if (!rlx_dtype_is_valid(src_dtype) || !rlx_dtype_is_valid(dst_dtype))
    return rlx_make_status(
        RLX_STATUS_INVALID_ARGUMENT, "rlx_convert: invalid dtype %d",
        rlx_dtype_is_valid(src_dtype) ? (int)dst_dtype : (int)src_dtype);
  const bool from_complex = rlx_dtype_is_complex(src_dtype);
  const bool to_complex = rlx_dtype_is_complex(dst_dtype);
  /* C's conversion would keep the real part silently (NumPy warns); a
   * caller that wants it takes it explicitly. Refused for any count: the
   * pair of dtypes is what is wrong. */
  if (from_complex && !to_complex)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_convert: cannot convert %s to %s: it would "
                           "drop the imaginary part (complex converts only to "
                           "c64 or c128)",
                           rlx_dtype_name(src_dtype),
                           rlx_dtype_name(dst_dtype));
  if (count == 0)
    return NULL;
  if (!src || !dst)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_convert: %s is NULL", src ? "dst" : "src");

  const size_t src_size = rlx_dtype_size(src_dtype);
  const size_t dst_size = rlx_dtype_size(dst_dtype);
  /* Same-type copies are bit-exact, NaN payloads included; bools still go
   * through the loop so that every stored byte is 0 or 1. */
  if (src_dtype == dst_dtype && src_dtype != RLX_DTYPE_BOOL) {
    memmove(dst, src, count * src_size);
    return NULL;
  }

  const unsigned char *in = src;
  unsigned char *out = dst;
  if (!to_complex) {
    for (size_t i = 0; i < count; ++i, in += src_size, out += dst_size)
      convert_real(in, src_dtype, out, dst_dtype);
    return NULL;
  }
  /* To complex: the real part converts as to the part's dtype; the
   * imaginary part too, or is +0 for a real source. */
  const rlx_dtype_t dst_part = complex_part(dst_dtype);
  const size_t dst_part_size = dst_size / 2;
  const rlx_dtype_t src_part =
      from_complex ? complex_part(src_dtype) : src_dtype;
  const size_t src_part_size = from_complex ? src_size / 2 : 0;
  for (size_t i = 0; i < count; ++i, in += src_size, out += dst_size) {
    convert_real(in, src_part, out, dst_part);
    if (from_complex)
      convert_real(in + src_part_size, src_part, out + dst_part_size, dst_part);
    else
      store_float(out + dst_part_size, dst_part, 0.0);
  }
  return NULL;
}
