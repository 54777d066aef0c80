/* NumPy .npy file I/O for RLX tensors.
 *
 * Supported: format versions 1.0, 2.0 and 3.0; C order only; little-endian
 * descrs '<f2' '<f4' '<f8' '|i1' '<i2' '<i4' '<i8' '|b1' and the complex
 * '<c8' (c64) and '<c16' (c128) ('<i1' is read as '|i1'). Anything else is
 * reported, naming the file. NumPy has no bfloat16, so a bf16 tensor is saved
 * as '<f4' (exact) and no file ever loads as bf16. Files are written as
 * version 1.0.
 */
#ifndef RLX_NPY_H
#define RLX_NPY_H

#include "rlx/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the whole file into a new owning tensor. A malformed header, an
 * unsupported descr, Fortran order, or a data section whose length differs
 * from the shape's give INVALID_FORMAT or UNIMPLEMENTED. */
RLX_API rlx_status_t rlx_npy_load(const char *path, rlx_tensor_t **out);

/* Writes the tensor to `path`, overwriting any existing file in place. If
 * the write fails, a file this call created is removed; an existing one is
 * left as the failed write left it. */
RLX_API rlx_status_t rlx_npy_save(const char *path, const rlx_tensor_t *tensor);

#ifdef __cplusplus
}
#endif

#endif /* RLX_NPY_H */
