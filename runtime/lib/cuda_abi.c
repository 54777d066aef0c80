/* The mgpu* functions that host code compiled with `rlx-compile
 * --target=cuda` calls (upstream MLIR's CUDA runtime ABI, the signatures of
 * mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp), on the runtime's
 * CUDA path.
 *
 * They run on the context of the execution the calling thread is in (see
 * rlx_cuda_execution_begin; module.c starts one around each call of a CUDA
 * module's function): its device, its one stream, its caching allocator and
 * its JIT-compiled kernel modules. The ABI returns no errors, so the first
 * failure is recorded in the execution and every later call does nothing
 * (frees still return their buffers to the cache); the runtime reports the
 * failure as the call's status. Called outside an execution, they do
 * nothing and return NULL. */
#define _POSIX_C_SOURCE 200809L

#include "cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* The context of the calling thread's execution, or NULL. */
static _Thread_local rlx_cuda_context_t current;

void rlx_cuda_execution_begin(rlx_cuda_context_t context) {
  pthread_mutex_lock(&context->execution_lock);
  current = context;
  context->kernel = NULL;
  context->kernel_pending = false;
  CUresult result = context->driver.cuCtxSetCurrent(context->context);
  if (result != CUDA_SUCCESS)
    context->execution_error =
        rlx_cuda_driver_error(&context->driver, result,
                              "cannot use the CUDA device", "cuCtxSetCurrent");
}

/* Records `status` as the current execution's failure unless it has one. */
static void record(rlx_cuda_context_t context, rlx_status_t status) {
  if (!context->execution_error)
    context->execution_error = status;
  else
    rlx_status_free(status);
}

/* For messages: the name of the kernel looked up last. */
static const char *kernel_name(rlx_cuda_context_t context) {
  return context->kernel ? context->kernel : "(unknown)";
}

/* Waits for the context's stream, blaming a failure on the kernel that ran
 * since the last wait, if any. */
static void synchronize(rlx_cuda_context_t context) {
  CUresult result = context->driver.cuStreamSynchronize(context->stream);
  if (result != CUDA_SUCCESS) {
    char what[320];
    if (context->kernel_pending)
      snprintf(what, sizeof(what), "kernel '%s' failed", kernel_name(context));
    else
      snprintf(what, sizeof(what), "the CUDA stream failed");
    record(context, rlx_cuda_driver_error(&context->driver, result, what,
                                          "cuStreamSynchronize"));
  }
  context->kernel_pending = false;
}

/* Records `event` on the context's stream. */
static void record_event(rlx_cuda_context_t context, CUevent event) {
  CUresult result = context->driver.cuEventRecord(event, context->stream);
  if (result != CUDA_SUCCESS)
    record(context, rlx_cuda_driver_error(&context->driver, result,
                                          "cannot time the call",
                                          "cuEventRecord"));
}

void rlx_cuda_execution_start_clock(rlx_cuda_context_t context) {
  if (!context->execution_error)
    record_event(context, context->work_start);
}

rlx_status_t rlx_cuda_execution_finish(rlx_cuda_context_t context) {
  if (!context->execution_error)
    record_event(context, context->work_end);
  if (!context->execution_error)
    synchronize(context);
  float ms = 0;
  if (!context->execution_error) {
    CUresult result = context->driver.cuEventElapsedTime(
        &ms, context->work_start, context->work_end);
    if (result == CUDA_SUCCESS)
      context->work_ms = ms;
    else
      record(context, rlx_cuda_driver_error(&context->driver, result,
                                            "cannot time the call",
                                            "cuEventElapsedTime"));
  }
  rlx_status_t status = context->execution_error;
  context->execution_error = NULL;
  return status;
}

void rlx_cuda_execution_end(rlx_cuda_context_t context) {
  rlx_status_free(context->execution_error);
  context->execution_error = NULL;
  current = NULL;
  pthread_mutex_unlock(&context->execution_lock);
}

bool rlx_cuda_last_work_time(rlx_cuda_context_t context, double *ms) {
  pthread_mutex_lock(&context->execution_lock);
  *ms = context->work_ms;
  pthread_mutex_unlock(&context->execution_lock);
  return *ms >= 0;
}

/* The current execution's context if it has not failed, else NULL. */
static rlx_cuda_context_t running(void) {
  return current && !current->execution_error ? current : NULL;
}

/* ---- the ABI ------------------------------------------------------------- */

/* The handle of a kernel image: JIT-compiled per context, on first use. */
struct image_handle {
  const void *image;
  int opt_level;
};

RLX_API void *mgpuModuleLoadJIT(void *data, int opt_level);
RLX_API void mgpuModuleUnload(void *module);
RLX_API void *mgpuModuleGetFunction(void *module, const char *name);
RLX_API void mgpuLaunchKernel(void *function, intptr_t grid_x,
                              intptr_t grid_y, intptr_t grid_z,
                              intptr_t block_x, intptr_t block_y,
                              intptr_t block_z, int32_t shared_bytes,
                              void *stream, void **params, void **extra,
                              size_t num_params);
RLX_API void *mgpuStreamCreate(void);
RLX_API void mgpuStreamDestroy(void *stream);
RLX_API void mgpuStreamSynchronize(void *stream);
RLX_API void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared);
RLX_API void mgpuMemFree(void *pointer, void *stream);
RLX_API void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);

/* Called by the compiled module's constructors when it is loaded, before
 * any context exists: the image is only recorded. */
void *mgpuModuleLoadJIT(void *data, int opt_level) {
  struct image_handle *handle = malloc(sizeof(*handle));
  if (handle) {
    handle->image = data;
    handle->opt_level = opt_level;
  }
  return handle;
}

/* Called by the module's destructors when it is unloaded; each context
 * unloads its own copy of the kernels when it is destroyed. */
void mgpuModuleUnload(void *module) { free(module); }

void *mgpuModuleGetFunction(void *module, const char *name) {
  rlx_cuda_context_t context = running();
  if (!context)
    return NULL;
  const struct image_handle *handle = module;
  if (!handle) {
    record(context, rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                                    "no kernel module for kernel '%s': out of "
                                    "host memory when the module was loaded",
                                    name));
    return NULL;
  }
  CUmodule loaded;
  rlx_status_t status = rlx_cuda_image_module(context, handle->image,
                                              handle->opt_level, &loaded);
  if (status) {
    record(context, status);
    return NULL;
  }
  CUfunction function = NULL;
  CUresult result =
      context->driver.cuModuleGetFunction(&function, loaded, name);
  if (result != CUDA_SUCCESS) {
    record(context,
           result == CUDA_ERROR_NOT_FOUND
               ? rlx_make_status(RLX_STATUS_NOT_FOUND,
                                 "no kernel '%s' in the CUDA module", name)
               : rlx_cuda_driver_error(&context->driver, result,
                                       "cannot find a kernel",
                                       "cuModuleGetFunction"));
    return NULL;
  }
  context->kernel = name;
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y,
                      intptr_t grid_z, intptr_t block_x, intptr_t block_y,
                      intptr_t block_z, int32_t shared_bytes, void *stream,
                      void **params, void **extra, size_t num_params) {
  (void)stream, (void)num_params;
  rlx_cuda_context_t context = running();
  if (!context)
    return;
  const intptr_t sizes[] = {grid_x, grid_y, grid_z, block_x, block_y, block_z};
  for (size_t i = 0; i < 6; ++i) {
    if (sizes[i] < 1 || sizes[i] > UINT32_MAX || shared_bytes < 0) {
      record(context,
             rlx_make_status(RLX_STATUS_INTERNAL,
                             "cannot launch kernel '%s': grid %jdx%jdx%jd, "
                             "block %jdx%jdx%jd, %d bytes of shared memory",
                             kernel_name(context), (intmax_t)grid_x,
                             (intmax_t)grid_y, (intmax_t)grid_z,
                             (intmax_t)block_x, (intmax_t)block_y,
                             (intmax_t)block_z, (int)shared_bytes));
      return;
    }
  }
  CUresult result = context->driver.cuLaunchKernel(
      function, (unsigned)grid_x, (unsigned)grid_y, (unsigned)grid_z,
      (unsigned)block_x, (unsigned)block_y, (unsigned)block_z,
      (unsigned)shared_bytes, context->stream, params, extra);
  if (result != CUDA_SUCCESS) {
    char what[320];
    snprintf(what, sizeof(what), "cannot launch kernel '%s'",
             kernel_name(context));
    record(context, rlx_cuda_driver_error(&context->driver, result, what,
                                          "cuLaunchKernel"));
    return;
  }
  context->kernel_pending = true;
}

/* All work of an execution runs on its context's one stream, in order. */
void *mgpuStreamCreate(void) {
  rlx_cuda_context_t context = running();
  return context ? context->stream : NULL;
}

void mgpuStreamDestroy(void *stream) { (void)stream; }

void mgpuStreamSynchronize(void *stream) {
  (void)stream;
  rlx_cuda_context_t context = running();
  if (context)
    synchronize(context);
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared) {
  (void)stream;
  rlx_cuda_context_t context = running();
  if (!context)
    return NULL;
  if (host_shared) {
    record(context, rlx_make_status(RLX_STATUS_UNIMPLEMENTED,
                                    "host-shared device memory (gpu.alloc "
                                    "host_shared) is not supported"));
    return NULL;
  }
  if (bytes > SIZE_MAX) {
    record(context, rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                                    "out of device memory: cannot allocate "
                                    "%ju bytes on %s",
                                    (uintmax_t)bytes, context->name));
    return NULL;
  }
  rlx_cuda_buffer_t buffer = 0;
  rlx_status_t status = rlx_cuda_alloc(context, (size_t)bytes, &buffer);
  if (status) {
    record(context, status);
    return NULL;
  }
  return (void *)(uintptr_t)buffer;
}

/* Runs after a failure too, so that the buffer goes back to the cache. */
void mgpuMemFree(void *pointer, void *stream) {
  (void)stream;
  if (!current)
    return;
  rlx_status_t status =
      rlx_cuda_free(current, (rlx_cuda_buffer_t)(uintptr_t)pointer);
  if (status)
    record(current, status);
}

/* Host or device to host or device: addresses are unified. */
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  (void)stream;
  rlx_cuda_context_t context = running();
  if (!context || bytes == 0)
    return;
  CUresult result = context->driver.cuMemcpyAsync(
      (CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, bytes,
      context->stream);
  if (result != CUDA_SUCCESS)
    record(context, rlx_cuda_driver_error(&context->driver, result,
                                          "cannot copy device memory",
                                          "cuMemcpyAsync"));
}
