/* RLX runtime, CUDA path: runs PTX kernels on an NVIDIA GPU through the CUDA
 * driver API. The driver (libcuda.so.1) is loaded with dlopen on first use,
 * so the runtime builds and runs without it; every failure, including a
 * missing driver or device, is a status with a message (see docs/gpu.md).
 *
 * The conventions of rlx/runtime.h apply: NULL is success, output
 * parameters are written only on success. A context is used by one thread
 * at a time: the one that created it (which it is made current on), or any
 * thread in a call of a CUDA module's function (made current for the call).
 */
#ifndef RLX_CUDA_H
#define RLX_CUDA_H

#include "rlx/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rlx_cuda_context *rlx_cuda_context_t;
typedef struct rlx_cuda_module *rlx_cuda_module_t;
/* A device address (CUdeviceptr). */
typedef uint64_t rlx_cuda_buffer_t;

/* Loads the driver (the library named by $RLX_CUDA_DRIVER, default
 * libcuda.so.1), initializes it and makes device `ordinal`'s primary context
 * current with a stream of its own. NOT_FOUND when there is no driver or no
 * such device. */
RLX_API rlx_status_t rlx_cuda_context_create(int ordinal,
                                             rlx_cuda_context_t *out);
/* Accepts NULL. */
RLX_API void rlx_cuda_context_destroy(rlx_cuda_context_t context);
/* The device's name, e.g. "NVIDIA H100"; "" for NULL. */
RLX_API const char *rlx_cuda_device_name(rlx_cuda_context_t context);

/* Device memory from the context's caching allocator: a size rounds up to
 * its size class, rlx_cuda_free keeps the block for the next allocation of
 * that class, and the context's destroy releases every block. When the
 * device has too little, the cache is released and the allocation retried;
 * then OUT_OF_MEMORY. rlx_cuda_free of an address the context did not
 * allocate is INVALID_ARGUMENT. */
RLX_API rlx_status_t rlx_cuda_alloc(rlx_cuda_context_t context, size_t bytes,
                                    rlx_cuda_buffer_t *out);
RLX_API rlx_status_t rlx_cuda_free(rlx_cuda_context_t context,
                                   rlx_cuda_buffer_t buffer);
RLX_API rlx_status_t rlx_cuda_copy_to_device(rlx_cuda_context_t context,
                                             rlx_cuda_buffer_t dst,
                                             const void *src, size_t bytes);
RLX_API rlx_status_t rlx_cuda_copy_to_host(rlx_cuda_context_t context,
                                           void *dst, rlx_cuda_buffer_t src,
                                           size_t bytes);

/* JIT-compiles NUL-terminated PTX for the context's device.
 * INVALID_FORMAT, with the driver's log, when the driver rejects it. */
RLX_API rlx_status_t rlx_cuda_module_load(rlx_cuda_context_t context,
                                          const char *ptx,
                                          rlx_cuda_module_t *out);
/* Accepts NULL. */
RLX_API void rlx_cuda_module_unload(rlx_cuda_module_t module);

/* Launches `kernel` on the context's stream with a grid of grid[0..2]
 * blocks of block[0..2] threads; args[i] points at the i-th kernel
 * parameter. Waits for the kernel, so errors it raises are reported here. */
RLX_API rlx_status_t rlx_cuda_launch(rlx_cuda_module_t module,
                                     const char *kernel,
                                     const uint32_t grid[3],
                                     const uint32_t block[3],
                                     uint32_t shared_bytes, void **args);

#ifdef __cplusplus
}
#endif

#endif /* RLX_CUDA_H */
