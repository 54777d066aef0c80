/* The CUDA path's internals, shared by cuda.c (contexts, memory, modules)
 * and cuda_abi.c (the mgpu* functions compiled host code calls); not
 * installed. */
#ifndef RLX_RUNTIME_CUDA_INTERNAL_H
#define RLX_RUNTIME_CUDA_INTERNAL_H

#include "rlx/cuda.h"

#include "cuda_driver.h"
#include "internal.h"

#include <pthread.h>

/* Driver entry points, resolved once per context. */
struct driver {
  void *library;
#define RLX_DRIVER_FIELD(name, symbol, parameters) CUresult(*name) parameters;
  RLX_CUDA_DRIVER_FUNCTIONS(RLX_DRIVER_FIELD)
#undef RLX_DRIVER_FIELD
};

/* A block of device memory; `bytes` is its size class. */
struct device_block {
  CUdeviceptr pointer;
  size_t bytes;
};

/* A growable array of blocks. */
struct block_list {
  struct device_block *blocks;
  size_t count;
  size_t capacity;
};

/* A kernel image of compiled host code (an mgpuModuleLoadJIT handle), JIT-
 * compiled for this context on first use. */
struct loaded_image {
  const void *image;
  CUmodule module;
};

struct rlx_cuda_context {
  struct driver driver;
  CUdevice device;
  CUcontext context;
  CUstream stream;
  char name[256];

  /* The caching allocator: blocks handed out, and freed blocks kept for
   * reuse until the context is destroyed. */
  struct block_list live;
  struct block_list cached;

  struct loaded_image *images;
  size_t num_images;

  /* One execution of compiled host code at a time (cuda_abi.c). */
  pthread_mutex_t execution_lock;
  /* The execution's first failure; later mgpu* calls do nothing. */
  rlx_status_t execution_error;
  /* The kernel looked up last, and whether it ran since the last wait on
   * the stream: errors of an asynchronous launch surface at the wait. */
  const char *kernel;
  bool kernel_pending;
  /* Events recorded on the stream around the work of an execution's host
   * code, and the time between them in the last execution that completed
   * (negative before the first). */
  CUevent work_start;
  CUevent work_end;
  double work_ms;
};

/* "<what>: <call> failed: <NAME> (<text>)", with the status code that fits
 * the driver's error. */
rlx_status_t rlx_cuda_driver_error(const struct driver *driver,
                                   CUresult result, const char *what,
                                   const char *call);

/* The module JIT-compiled from `image` for `context`, loaded on the first
 * call for that image and unloaded with the context. */
rlx_status_t rlx_cuda_image_module(rlx_cuda_context_t context,
                                   const void *image, int opt_level,
                                   CUmodule *out);

/* Makes `context` the one the current thread's mgpu* calls use, waiting for
 * any other execution on it to end. */
void rlx_cuda_execution_begin(rlx_cuda_context_t context);
/* Marks the start of the execution's work on the stream: what runs from
 * here to rlx_cuda_execution_finish is timed (rlx_cuda_last_work_time). */
void rlx_cuda_execution_start_clock(rlx_cuda_context_t context);
/* Waits for the stream; returns (and clears) the execution's first failure.
 */
rlx_status_t rlx_cuda_execution_finish(rlx_cuda_context_t context);
/* Ends the current thread's execution; a failure nobody took is dropped. */
void rlx_cuda_execution_end(rlx_cuda_context_t context);
/* The device time of the last execution that completed on `context`, in
 * milliseconds; false before there is one. */
bool rlx_cuda_last_work_time(rlx_cuda_context_t context, double *ms);

#endif /* RLX_RUNTIME_CUDA_INTERNAL_H */
