/* The CUDA driver API as the runtime uses it: the few types and constants
 * of cuda.h it needs (the runtime builds without the CUDA toolkit) and one
 * list of the entry points it calls, with their signatures. cuda.c resolves
 * them from libcuda.so.1; test/fake_cuda_driver.c declares its stand-ins
 * from the same list, so the two cannot disagree. Not installed. */
#ifndef RLX_RUNTIME_CUDA_DRIVER_H
#define RLX_RUNTIME_CUDA_DRIVER_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef void *CUevent;
typedef unsigned long long CUdeviceptr;
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* X(name, symbol, parameters) for each entry point: `name` is the API's
 * name, `symbol` the versioned symbol libcuda.so.1 exports for it. Every
 * driver has the first version of cuEventElapsedTime; _v2 arrived with
 * CUDA 12.8. */
#define RLX_CUDA_DRIVER_FUNCTIONS(X)                                           \
  X(cuInit, cuInit, (unsigned))                                                \
  X(cuGetErrorName, cuGetErrorName, (CUresult, const char **))                 \
  X(cuGetErrorString, cuGetErrorString, (CUresult, const char **))             \
  X(cuDeviceGetCount, cuDeviceGetCount, (int *))                               \
  X(cuDeviceGet, cuDeviceGet, (CUdevice *, int))                               \
  X(cuDeviceGetName, cuDeviceGetName, (char *, int, CUdevice))                 \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain,                        \
    (CUcontext *, CUdevice))                                                   \
  X(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2, (CUdevice))       \
  X(cuCtxSetCurrent, cuCtxSetCurrent, (CUcontext))                             \
  X(cuStreamCreate, cuStreamCreate, (CUstream *, unsigned))                    \
  X(cuStreamDestroy, cuStreamDestroy_v2, (CUstream))                           \
  X(cuStreamSynchronize, cuStreamSynchronize, (CUstream))                      \
  X(cuMemAlloc, cuMemAlloc_v2, (CUdeviceptr *, size_t))                        \
  X(cuMemFree, cuMemFree_v2, (CUdeviceptr))                                    \
  X(cuMemcpyHtoD, cuMemcpyHtoD_v2, (CUdeviceptr, const void *, size_t))        \
  X(cuMemcpyDtoH, cuMemcpyDtoH_v2, (void *, CUdeviceptr, size_t))              \
  X(cuMemcpyAsync, cuMemcpyAsync,                                              \
    (CUdeviceptr, CUdeviceptr, size_t, CUstream))                              \
  X(cuModuleLoadDataEx, cuModuleLoadDataEx,                                    \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, cuModuleUnload, (CUmodule))                                \
  X(cuModuleGetFunction, cuModuleGetFunction,                                  \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuLaunchKernel, cuLaunchKernel,                                            \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  X(cuEventCreate, cuEventCreate, (CUevent *, unsigned))                       \
  X(cuEventDestroy, cuEventDestroy_v2, (CUevent))                              \
  X(cuEventRecord, cuEventRecord, (CUevent, CUstream))                         \
  X(cuEventElapsedTime, cuEventElapsedTime, (float *, CUevent, CUevent))

#endif /* RLX_RUNTIME_CUDA_DRIVER_H */
