/* The CUDA path: the driver API, loaded at run time with dlopen. */
#define _POSIX_C_SOURCE 200809L

#include "rlx/cuda.h"

#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few driver types and constants used here, as cuda.h defines them; the
 * runtime builds without the CUDA toolkit. */
typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_NOT_FOUND = 500,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* Driver entry points, resolved once per context. */
struct driver {
  void *library;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
};

struct rlx_cuda_context {
  struct driver driver;
  CUdevice device;
  CUcontext context;
  CUstream stream;
  char name[256];
};

struct rlx_cuda_module {
  rlx_cuda_context_t context;
  CUmodule module;
};

static rlx_status_code_t status_code_of(CUresult result) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    return RLX_STATUS_OUT_OF_MEMORY;
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_INVALID_DEVICE:
  case CUDA_ERROR_NOT_FOUND:
    return RLX_STATUS_NOT_FOUND;
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    return RLX_STATUS_INVALID_FORMAT;
  default:
    return RLX_STATUS_INTERNAL;
  }
}

/* A status for a failed driver call: "<what>: <call>: <NAME> (<text>)". */
static rlx_status_t driver_error(const struct driver *driver, CUresult result,
                                 const char *what, const char *call) {
  const char *name = NULL, *text = NULL;
  if (driver->cuGetErrorName)
    driver->cuGetErrorName(result, &name);
  if (driver->cuGetErrorString)
    driver->cuGetErrorString(result, &text);
  return rlx_make_status(status_code_of(result), "%s: %s failed: %s (%s)",
                         what, call, name ? name : "unknown CUDA error",
                         text ? text : "no description");
}

static rlx_status_t load_driver(struct driver *driver) {
  const char *path = getenv("RLX_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  driver->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!driver->library) {
    const char *reason = dlerror();
    return rlx_make_status(RLX_STATUS_NOT_FOUND,
                           "no CUDA driver: cannot load %s: %s", path,
                           reason ? reason : "unknown reason");
  }
#define RLX_RESOLVE(field, symbol)                                             \
  do {                                                                         \
    *(void **)&driver->field = dlsym(driver->library, symbol);                 \
    if (!driver->field) {                                                      \
      dlclose(driver->library);                                                \
      driver->library = NULL;                                                  \
      return rlx_make_status(RLX_STATUS_NOT_FOUND,                             \
                             "CUDA driver %s lacks %s", path, symbol);         \
    }                                                                          \
  } while (0)
  RLX_RESOLVE(cuInit, "cuInit");
  RLX_RESOLVE(cuGetErrorName, "cuGetErrorName");
  RLX_RESOLVE(cuGetErrorString, "cuGetErrorString");
  RLX_RESOLVE(cuDeviceGetCount, "cuDeviceGetCount");
  RLX_RESOLVE(cuDeviceGet, "cuDeviceGet");
  RLX_RESOLVE(cuDeviceGetName, "cuDeviceGetName");
  RLX_RESOLVE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  RLX_RESOLVE(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  RLX_RESOLVE(cuCtxSetCurrent, "cuCtxSetCurrent");
  RLX_RESOLVE(cuStreamCreate, "cuStreamCreate");
  RLX_RESOLVE(cuStreamDestroy, "cuStreamDestroy_v2");
  RLX_RESOLVE(cuStreamSynchronize, "cuStreamSynchronize");
  RLX_RESOLVE(cuMemAlloc, "cuMemAlloc_v2");
  RLX_RESOLVE(cuMemFree, "cuMemFree_v2");
  RLX_RESOLVE(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  RLX_RESOLVE(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  RLX_RESOLVE(cuModuleLoadDataEx, "cuModuleLoadDataEx");
  RLX_RESOLVE(cuModuleUnload, "cuModuleUnload");
  RLX_RESOLVE(cuModuleGetFunction, "cuModuleGetFunction");
  RLX_RESOLVE(cuLaunchKernel, "cuLaunchKernel");
#undef RLX_RESOLVE
  return NULL;
}

rlx_status_t rlx_cuda_context_create(int ordinal, rlx_cuda_context_t *out) {
  if (!out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_context_create: out is NULL");
  rlx_cuda_context_t context = calloc(1, sizeof(*context));
  if (!context)
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "cannot allocate a CUDA context");
  struct driver *driver = &context->driver;
  rlx_status_t status = load_driver(driver);
  if (status) {
    free(context);
    return status;
  }
  CUresult result = driver->cuInit(0);
  int count = 0;
  if (result == CUDA_SUCCESS)
    result = driver->cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    status = result == CUDA_SUCCESS || result == CUDA_ERROR_NO_DEVICE
                 ? rlx_make_status(RLX_STATUS_NOT_FOUND,
                                   "no CUDA device: the driver sees none")
                 : driver_error(driver, result, "cannot initialize CUDA",
                                "cuInit");
    rlx_cuda_context_destroy(context);
    return status;
  }
  if (ordinal < 0 || ordinal >= count) {
    rlx_cuda_context_destroy(context);
    return rlx_make_status(RLX_STATUS_NOT_FOUND,
                           "no CUDA device %d: the driver sees %d", ordinal,
                           count);
  }
  const char *call = "cuDeviceGet";
  result = driver->cuDeviceGet(&context->device, ordinal);
  if (result == CUDA_SUCCESS) {
    call = "cuDeviceGetName";
    result = driver->cuDeviceGetName(context->name, sizeof(context->name),
                                     context->device);
  }
  if (result == CUDA_SUCCESS) {
    call = "cuDevicePrimaryCtxRetain";
    result = driver->cuDevicePrimaryCtxRetain(&context->context,
                                              context->device);
  }
  if (result == CUDA_SUCCESS) {
    call = "cuCtxSetCurrent";
    result = driver->cuCtxSetCurrent(context->context);
  }
  if (result == CUDA_SUCCESS) {
    call = "cuStreamCreate";
    result = driver->cuStreamCreate(&context->stream, 0);
  }
  if (result != CUDA_SUCCESS) {
    status = driver_error(driver, result, "cannot open the CUDA device", call);
    rlx_cuda_context_destroy(context);
    return status;
  }
  *out = context;
  return NULL;
}

void rlx_cuda_context_destroy(rlx_cuda_context_t context) {
  if (!context)
    return;
  struct driver *driver = &context->driver;
  if (context->stream)
    driver->cuStreamDestroy(context->stream);
  if (context->context)
    driver->cuDevicePrimaryCtxRelease(context->device);
  if (driver->library)
    dlclose(driver->library);
  free(context);
}

const char *rlx_cuda_device_name(rlx_cuda_context_t context) {
  return context ? context->name : "";
}

rlx_status_t rlx_cuda_alloc(rlx_cuda_context_t context, size_t bytes,
                            rlx_cuda_buffer_t *out) {
  if (!context || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_alloc: context or out is NULL");
  CUdeviceptr pointer = 0;
  /* The driver rejects empty allocations; an empty buffer needs none. */
  if (bytes == 0) {
    *out = 0;
    return NULL;
  }
  CUresult result = context->driver.cuMemAlloc(&pointer, bytes);
  if (result != CUDA_SUCCESS)
    return result == CUDA_ERROR_OUT_OF_MEMORY
               ? rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                                 "out of device memory: cannot allocate "
                                 "%zu bytes on %s",
                                 bytes, context->name)
               : driver_error(&context->driver, result,
                              "cannot allocate device memory", "cuMemAlloc");
  *out = pointer;
  return NULL;
}

rlx_status_t rlx_cuda_free(rlx_cuda_context_t context,
                           rlx_cuda_buffer_t buffer) {
  if (!context)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_free: context is NULL");
  if (buffer == 0)
    return NULL;
  CUresult result = context->driver.cuMemFree(buffer);
  return result == CUDA_SUCCESS
             ? NULL
             : driver_error(&context->driver, result,
                            "cannot free device memory", "cuMemFree");
}

rlx_status_t rlx_cuda_copy_to_device(rlx_cuda_context_t context,
                                     rlx_cuda_buffer_t dst, const void *src,
                                     size_t bytes) {
  if (!context || (!src && bytes))
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_copy_to_device: context or src is NULL");
  if (bytes == 0)
    return NULL;
  CUresult result = context->driver.cuMemcpyHtoD(dst, src, bytes);
  return result == CUDA_SUCCESS
             ? NULL
             : driver_error(&context->driver, result,
                            "cannot copy to the device", "cuMemcpyHtoD");
}

rlx_status_t rlx_cuda_copy_to_host(rlx_cuda_context_t context, void *dst,
                                   rlx_cuda_buffer_t src, size_t bytes) {
  if (!context || (!dst && bytes))
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_copy_to_host: context or dst is NULL");
  if (bytes == 0)
    return NULL;
  CUresult result = context->driver.cuMemcpyDtoH(dst, src, bytes);
  return result == CUDA_SUCCESS
             ? NULL
             : driver_error(&context->driver, result,
                            "cannot copy from the device", "cuMemcpyDtoH");
}

rlx_status_t rlx_cuda_module_load(rlx_cuda_context_t context, const char *ptx,
                                  rlx_cuda_module_t *out) {
  if (!context || !ptx || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_module_load: context, ptx or out is NULL");
  rlx_cuda_module_t module = calloc(1, sizeof(*module));
  if (!module)
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "cannot allocate a CUDA module");
  char log[4096] = "";
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)sizeof(log)};
  CUresult result = context->driver.cuModuleLoadDataEx(&module->module, ptx, 2,
                                                       options, values);
  if (result != CUDA_SUCCESS) {
    free(module);
    if (result == CUDA_ERROR_INVALID_PTX ||
        result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                             "PTX rejected by the CUDA driver for %s: %s",
                             context->name, *log ? log : "no log");
    return driver_error(&context->driver, result, "cannot load PTX",
                        "cuModuleLoadDataEx");
  }
  module->context = context;
  *out = module;
  return NULL;
}

void rlx_cuda_module_unload(rlx_cuda_module_t module) {
  if (!module)
    return;
  module->context->driver.cuModuleUnload(module->module);
  free(module);
}

rlx_status_t rlx_cuda_launch(rlx_cuda_module_t module, const char *kernel,
                             const uint32_t grid[3], const uint32_t block[3],
                             uint32_t shared_bytes, void **args) {
  if (!module || !kernel || !grid || !block)
    return rlx_make_status(
        RLX_STATUS_INVALID_ARGUMENT,
        "rlx_cuda_launch: module, kernel, grid or block is NULL");
  const struct driver *driver = &module->context->driver;
  CUfunction function;
  CUresult result =
      driver->cuModuleGetFunction(&function, module->module, kernel);
  if (result != CUDA_SUCCESS)
    return result == CUDA_ERROR_NOT_FOUND
               ? rlx_make_status(RLX_STATUS_NOT_FOUND,
                                 "no kernel '%s' in the CUDA module", kernel)
               : driver_error(driver, result, "cannot find the kernel",
                              "cuModuleGetFunction");
  CUstream stream = module->context->stream;
  result = driver->cuLaunchKernel(function, grid[0], grid[1], grid[2],
                                  block[0], block[1], block[2], shared_bytes,
                                  stream, args, NULL);
  char what[256];
  if (result != CUDA_SUCCESS) {
    snprintf(what, sizeof(what), "cannot launch kernel '%s'", kernel);
    return driver_error(driver, result, what, "cuLaunchKernel");
  }
  result = driver->cuStreamSynchronize(stream);
  if (result == CUDA_SUCCESS)
    return NULL;
  snprintf(what, sizeof(what), "kernel '%s' failed", kernel);
  return driver_error(driver, result, what, "cuStreamSynchronize");
}
