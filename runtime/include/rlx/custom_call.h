/* The C side of rlx.custom_call: how a function the user links into a
 * module (rlx-compile --link) receives its buffers.
 *
 * `rlx.custom_call @f(%x, %y) : (tensor<?x16xf32>, tensor<f32>) ->
 * (tensor<4x16xf32>)` calls
 *
 *   RLX_CUSTOM_CALL(f)(RLX_BUFFER(float, 2) *x, RLX_BUFFER0(float) *y,
 *                      RLX_BUFFER(float, 2) *out);
 *
 * with one pointer per input, then one per result: MLIR's C interface of
 * memrefs (the function is named `_mlir_ciface_f`). Element `[i, j]` of a
 * buffer `b` is `b->aligned[b->offset + i * b->strides[0] + j *
 * b->strides[1]]`; sizes and strides count elements. Inputs may be views
 * (any strides) and must not be written; results are dense row-major
 * buffers of the result types' static shapes, which the function writes
 * whole. It must not keep, free or reallocate any pointer. Element types:
 * float, double, _Float16 / uint16_t (f16, bf16 bits), int8_t ... int64_t,
 * and uint8_t holding 0 or 1 for i1.
 *
 * See docs/runtime.md ("Custom calls").
 */
#ifndef RLX_CUSTOM_CALL_H
#define RLX_CUSTOM_CALL_H

#include <stdint.h>

/* A strided buffer of `rank` >= 1 elements of `type` (MLIR's memref
 * descriptor). */
#define RLX_BUFFER(type, rank)                                                 \
  struct {                                                                     \
    type *allocated;                                                           \
    type *aligned;                                                             \
    int64_t offset;                                                            \
    int64_t sizes[rank];                                                       \
    int64_t strides[rank];                                                     \
  }

/* A rank-0 buffer: one element at `aligned[offset]`. */
#define RLX_BUFFER0(type)                                                      \
  struct {                                                                     \
    type *allocated;                                                           \
    type *aligned;                                                             \
    int64_t offset;                                                            \
  }

/* The definition of the custom function `name`: returns nothing. */
#define RLX_CUSTOM_CALL(name) void _mlir_ciface_##name

#endif /* RLX_CUSTOM_CALL_H */
