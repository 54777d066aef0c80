/* The CUDA path: the driver API, loaded at run time with dlopen. */
#define _POSIX_C_SOURCE 200809L

#include "cuda_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

rlx_status_t rlx_cuda_driver_error(const struct driver *driver,
                                   CUresult result, const char *what,
                                   const char *call) {
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
#define RLX_RESOLVE_FUNCTION(name, symbol, parameters)                         \
  RLX_RESOLVE(name, #symbol);
  RLX_CUDA_DRIVER_FUNCTIONS(RLX_RESOLVE_FUNCTION)
#undef RLX_RESOLVE_FUNCTION
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
  if (pthread_mutex_init(&context->execution_lock, NULL) != 0) {
    free(context);
    return rlx_make_status(RLX_STATUS_INTERNAL,
                           "cannot create the CUDA context's lock");
  }
  context->work_ms = -1;
  struct driver *driver = &context->driver;
  rlx_status_t status = load_driver(driver);
  if (status) {
    rlx_cuda_context_destroy(context);
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
                 : rlx_cuda_driver_error(driver, result,
                                         "cannot initialize CUDA", "cuInit");
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
  if (result == CUDA_SUCCESS) {
    call = "cuEventCreate";
    result = driver->cuEventCreate(&context->work_start, 0);
  }
  if (result == CUDA_SUCCESS)
    result = driver->cuEventCreate(&context->work_end, 0);
  if (result != CUDA_SUCCESS) {
    status = rlx_cuda_driver_error(driver, result,
                                   "cannot open the CUDA device", call);
    rlx_cuda_context_destroy(context);
    return status;
  }
  *out = context;
  return NULL;
}

static void free_blocks(rlx_cuda_context_t context, struct block_list *list) {
  for (size_t i = 0; i < list->count; ++i)
    context->driver.cuMemFree(list->blocks[i].pointer);
  list->count = 0;
}

void rlx_cuda_context_destroy(rlx_cuda_context_t context) {
  if (!context)
    return;
  struct driver *driver = &context->driver;
  if (driver->library) {
    /* The destroying thread may not be the one the context was made current
     * on. */
    if (context->context)
      driver->cuCtxSetCurrent(context->context);
    for (size_t i = 0; i < context->num_images; ++i)
      driver->cuModuleUnload(context->images[i].module);
    free_blocks(context, &context->cached);
    free_blocks(context, &context->live);
    if (context->work_start)
      driver->cuEventDestroy(context->work_start);
    if (context->work_end)
      driver->cuEventDestroy(context->work_end);
    if (context->stream)
      driver->cuStreamDestroy(context->stream);
    if (context->context)
      driver->cuDevicePrimaryCtxRelease(context->device);
    dlclose(driver->library);
  }
  free(context->images);
  free(context->cached.blocks);
  free(context->live.blocks);
  rlx_status_free(context->execution_error);
  pthread_mutex_destroy(&context->execution_lock);
  free(context);
}

const char *rlx_cuda_device_name(rlx_cuda_context_t context) {
  return context ? context->name : "";
}

/* Device memory is cached by size class: a request rounds up to a multiple
 * of a quarter of the power of two below it (at least 256 bytes), so a
 * block is at most 25% larger than the requests it serves. */
static size_t size_class(size_t bytes) {
  if (bytes <= 256)
    return 256;
  unsigned log2 = 0;
  while ((bytes - 1) >> (log2 + 1))
    ++log2;
  size_t step = (size_t)1 << (log2 - 2);
  size_t rounded = (bytes + step - 1) & ~(step - 1);
  return rounded < bytes ? bytes : rounded;
}

/* Makes room for one more block, so that adding it cannot fail. */
static bool reserve_block(struct block_list *list) {
  if (list->count < list->capacity)
    return true;
  size_t capacity = list->capacity ? 2 * list->capacity : 16;
  struct device_block *blocks =
      realloc(list->blocks, capacity * sizeof(*blocks));
  if (!blocks)
    return false;
  list->blocks = blocks;
  list->capacity = capacity;
  return true;
}

static struct device_block take_block(struct block_list *list, size_t index) {
  struct device_block block = list->blocks[index];
  list->blocks[index] = list->blocks[--list->count];
  return block;
}

rlx_status_t rlx_cuda_alloc(rlx_cuda_context_t context, size_t bytes,
                            rlx_cuda_buffer_t *out) {
  if (!context || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_alloc: context or out is NULL");
  /* The driver rejects empty allocations; an empty buffer needs none. */
  if (bytes == 0) {
    *out = 0;
    return NULL;
  }
  if (!reserve_block(&context->live))
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "cannot track a device buffer: out of host memory");
  struct device_block block = {0, size_class(bytes)};
  for (size_t i = 0; i < context->cached.count; ++i) {
    if (context->cached.blocks[i].bytes == block.bytes) {
      block = take_block(&context->cached, i);
      context->live.blocks[context->live.count++] = block;
      *out = block.pointer;
      return NULL;
    }
  }
  CUresult result = context->driver.cuMemAlloc(&block.pointer, block.bytes);
  /* Blocks cached for other sizes may be what the device lacks. */
  if (result == CUDA_ERROR_OUT_OF_MEMORY && context->cached.count > 0) {
    free_blocks(context, &context->cached);
    result = context->driver.cuMemAlloc(&block.pointer, block.bytes);
  }
  if (result != CUDA_SUCCESS)
    return result == CUDA_ERROR_OUT_OF_MEMORY
               ? rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                                 "out of device memory: cannot allocate "
                                 "%zu bytes on %s",
                                 bytes, context->name)
               : rlx_cuda_driver_error(&context->driver, result,
                                       "cannot allocate device memory",
                                       "cuMemAlloc");
  context->live.blocks[context->live.count++] = block;
  *out = block.pointer;
  return NULL;
}

rlx_status_t rlx_cuda_free(rlx_cuda_context_t context,
                           rlx_cuda_buffer_t buffer) {
  if (!context)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_free: context is NULL");
  if (buffer == 0)
    return NULL;
  /* Buffers are usually freed in reverse order of allocation. */
  size_t i = context->live.count;
  while (i > 0 && context->live.blocks[i - 1].pointer != buffer)
    --i;
  if (i == 0)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_cuda_free: 0x%llx is not a buffer allocated "
                           "on %s",
                           (unsigned long long)buffer, context->name);
  if (reserve_block(&context->cached)) {
    context->cached.blocks[context->cached.count++] =
        take_block(&context->live, i - 1);
    return NULL;
  }
  CUresult result = context->driver.cuMemFree(buffer);
  take_block(&context->live, i - 1);
  return result == CUDA_SUCCESS
             ? NULL
             : rlx_cuda_driver_error(&context->driver, result,
                                     "cannot free device memory",
                                     "cuMemFree");
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
             : rlx_cuda_driver_error(&context->driver, result,
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
             : rlx_cuda_driver_error(&context->driver, result,
                            "cannot copy from the device", "cuMemcpyDtoH");
}

/* JIT-compiles `image` (PTX) for the context's device; `opt_level` < 0
 * leaves the optimization level to the driver. */
static rlx_status_t load_image(rlx_cuda_context_t context, const void *image,
                               int opt_level, CUmodule *out) {
  char log[4096] = "";
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, (void *)(uintptr_t)sizeof(log),
                    (void *)(uintptr_t)(opt_level < 0 ? 0 : opt_level)};
  CUresult result = context->driver.cuModuleLoadDataEx(
      out, image, opt_level < 0 ? 2 : 3, options, values);
  if (result == CUDA_SUCCESS)
    return NULL;
  if (result == CUDA_ERROR_INVALID_PTX ||
      result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "PTX rejected by the CUDA driver for %s: %s",
                           context->name, *log ? log : "no log");
  return rlx_cuda_driver_error(&context->driver, result, "cannot load PTX",
                               "cuModuleLoadDataEx");
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
  rlx_status_t status = load_image(context, ptx, -1, &module->module);
  if (status) {
    free(module);
    return status;
  }
  module->context = context;
  *out = module;
  return NULL;
}

rlx_status_t rlx_cuda_image_module(rlx_cuda_context_t context,
                                   const void *image, int opt_level,
                                   CUmodule *out) {
  for (size_t i = 0; i < context->num_images; ++i) {
    if (context->images[i].image == image) {
      *out = context->images[i].module;
      return NULL;
    }
  }
  struct loaded_image *images =
      realloc(context->images,
              (context->num_images + 1) * sizeof(*context->images));
  if (!images)
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "cannot track a CUDA module: out of host memory");
  context->images = images;
  struct loaded_image *loaded = &images[context->num_images];
  rlx_status_t status = load_image(context, image, opt_level, &loaded->module);
  if (status)
    return status;
  loaded->image = image;
  ++context->num_images;
  *out = loaded->module;
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
               : rlx_cuda_driver_error(driver, result, "cannot find the kernel",
                              "cuModuleGetFunction");
  CUstream stream = module->context->stream;
  result = driver->cuLaunchKernel(function, grid[0], grid[1], grid[2],
                                  block[0], block[1], block[2], shared_bytes,
                                  stream, args, NULL);
  char what[256];
  if (result != CUDA_SUCCESS) {
    snprintf(what, sizeof(what), "cannot launch kernel '%s'", kernel);
    return rlx_cuda_driver_error(driver, result, what, "cuLaunchKernel");
  }
  result = driver->cuStreamSynchronize(stream);
  if (result == CUDA_SUCCESS)
    return NULL;
  snprintf(what, sizeof(what), "kernel '%s' failed", kernel);
  return rlx_cuda_driver_error(driver, result, what, "cuStreamSynchronize");
}
