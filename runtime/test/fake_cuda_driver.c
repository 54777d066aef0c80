/* A stand-in for libcuda.so.1 that lets the runtime's CUDA path run on
 * machines without a GPU. Device memory is host memory and kernels do
 * nothing: no numbers are computed.
 *
 * $RLX_FAKE_CUDA picks a failure: "no-device", "bad-ptx", "oom" (every
 * allocation), "oom-after-N" (a device with room for N blocks),
 * "launch-fail" (every wait once a kernel was launched); anything else
 * behaves like a working device.
 * $RLX_FAKE_CUDA_LOG names a file that gets one line per module load (with
 * the PTX's .target line), kernel lookup, launch (with its grid and block
 * sizes), allocation and copy. rlx_fake_cuda_calls(NAME) counts the calls
 * of cuMemAlloc, cuMemFree and cuLaunchKernel since the library was loaded.
 * Events hold the host's clock when they are recorded (the fake's work is
 * synchronous), so elapsed times are the host's.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/cuda_driver.h"

#define EXPORT __attribute__((visibility("default")))

/* The driver's signatures, checked against the definitions below. */
#define RLX_FAKE_DECLARATION(name, symbol, parameters)                         \
  EXPORT CUresult symbol parameters;
RLX_CUDA_DRIVER_FUNCTIONS(RLX_FAKE_DECLARATION)
#undef RLX_FAKE_DECLARATION

static int fails(const char *mode) {
  const char *current = getenv("RLX_FAKE_CUDA");
  return current && strcmp(current, mode) == 0;
}

static void log_call(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

static void log_call(const char *format, ...) {
  const char *path = getenv("RLX_FAKE_CUDA_LOG");
  FILE *log = path && *path ? fopen(path, "a") : NULL;
  if (!log)
    return;
  va_list args;
  va_start(args, format);
  vfprintf(log, format, args);
  va_end(args);
  fputc('\n', log);
  fclose(log);
}

static int num_allocs, num_frees, num_launches;

EXPORT int rlx_fake_cuda_calls(const char *name) {
  return strcmp(name, "cuMemAlloc") == 0      ? num_allocs
         : strcmp(name, "cuMemFree") == 0     ? num_frees
         : strcmp(name, "cuLaunchKernel") == 0 ? num_launches
                                               : -1;
}

EXPORT CUresult cuInit(unsigned flags) {
  return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuGetErrorName(CUresult result, const char **name) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_PTX:
    *name = "CUDA_ERROR_INVALID_PTX";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_FAILED:
    *name = "CUDA_ERROR_LAUNCH_FAILED";
    return CUDA_SUCCESS;
  }
  *name = "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

EXPORT CUresult cuGetErrorString(CUresult result, const char **text) {
  *text = result == CUDA_ERROR_LAUNCH_FAILED ? "unspecified launch failure"
                                        : "fake driver error";
  return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
  *count = fails("no-device") ? 0 : 1;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *name, int size, int device) {
  (void)device;
  strncpy(name, "Fake GPU", (size_t)size);
  return CUDA_SUCCESS;
}

static int primary_context;
EXPORT CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  (void)device;
  *context = &primary_context;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  (void)device;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxSetCurrent(void *context) {
  return context ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static int stream;
EXPORT CUresult cuStreamCreate(void **out, unsigned flags) {
  (void)flags;
  *out = &stream;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuStreamDestroy_v2(void *s) {
  return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
EXPORT CUresult cuStreamSynchronize(void *s) {
  (void)s;
  return fails("launch-fail") && num_launches > 0 ? CUDA_ERROR_LAUNCH_FAILED
                                                  : CUDA_SUCCESS;
}

/* Whether the next allocation fails: with "oom-after-N" the device holds N
 * blocks. */
static int allocation_fails(void) {
  const char *mode = getenv("RLX_FAKE_CUDA");
  int limit;
  if (mode && sscanf(mode, "oom-after-%d", &limit) == 1)
    return num_allocs - num_frees >= limit;
  return fails("oom");
}

EXPORT CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  log_call("cuMemAlloc %zu", bytes);
  if (allocation_fails())
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *memory = calloc(1, bytes);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  ++num_allocs;
  *pointer = (unsigned long long)(size_t)memory;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemFree_v2(unsigned long long pointer) {
  log_call("cuMemFree");
  ++num_frees;
  free((void *)(size_t)pointer);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src,
                                size_t bytes) {
  log_call("cuMemcpyHtoD %zu", bytes);
  memcpy((void *)(size_t)dst, src, bytes);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyDtoH_v2(void *dst, unsigned long long src,
                                size_t bytes) {
  log_call("cuMemcpyDtoH %zu", bytes);
  memcpy(dst, (const void *)(size_t)src, bytes);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyAsync(unsigned long long dst, unsigned long long src,
                              size_t bytes, void *s) {
  (void)s;
  log_call("cuMemcpyAsync %zu", bytes);
  memmove((void *)(size_t)dst, (const void *)(size_t)src, bytes);
  return CUDA_SUCCESS;
}

/* A module keeps its PTX, where cuModuleGetFunction looks for entries. */
struct function {
  char name[256];
  struct function *next;
};
struct module {
  char *ptx;
  struct function *functions;
};

EXPORT CUresult cuModuleLoadDataEx(void **out, const void *image,
                                   unsigned count, int *options,
                                   void **values) {
  if (!fails("bad-ptx") && strstr(image, ".entry")) {
    struct module *module = calloc(1, sizeof(*module));
    if (!module || !(module->ptx = strdup(image))) {
      free(module);
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
    const char *target = strstr(module->ptx, ".target ");
    log_call("cuModuleLoadDataEx %.*s", target ? (int)strcspn(target, "\n") : 0,
             target ? target : "");
    *out = module;
    return CUDA_SUCCESS;
  }
  for (unsigned i = 0; i < count; ++i)
    if (options[i] == 5) /* CU_JIT_ERROR_LOG_BUFFER */
      strcpy(values[i], "ptxas fatal   : Unresolved extern function 'f'");
  return CUDA_ERROR_INVALID_PTX;
}
EXPORT CUresult cuModuleUnload(void *m) {
  struct module *module = m;
  if (!module)
    return CUDA_ERROR_INVALID_VALUE;
  while (module->functions) {
    struct function *next = module->functions->next;
    free(module->functions);
    module->functions = next;
  }
  free(module->ptx);
  free(module);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuModuleGetFunction(void **out, void *m, const char *name) {
  struct module *module = m;
  char entry[300];
  snprintf(entry, sizeof(entry), ".entry %s(", name);
  if (strlen(name) >= sizeof(module->functions->name) ||
      !strstr(module->ptx, entry))
    return CUDA_ERROR_NOT_FOUND;
  log_call("cuModuleGetFunction %s", name);
  struct function *function = module->functions;
  while (function && strcmp(function->name, name) != 0)
    function = function->next;
  if (function) {
    *out = function;
    return CUDA_SUCCESS;
  }
  function = calloc(1, sizeof(*function));
  if (!function)
    return CUDA_ERROR_OUT_OF_MEMORY;
  strcpy(function->name, name);
  function->next = module->functions;
  module->functions = function;
  *out = function;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz,
                               unsigned shared, void *s, void **params,
                               void **extra) {
  (void)s, (void)params, (void)extra;
  const struct function *function = f;
  log_call("cuLaunchKernel %s grid %u %u %u block %u %u %u shared %u",
           function->name, gx, gy, gz, bx, by, bz, shared);
  ++num_launches;
  return gx == 0 || bx == 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

/* An event is the host's monotonic clock, in milliseconds, at its record. */
EXPORT CUresult cuEventCreate(void **out, unsigned flags) {
  (void)flags;
  double *event = calloc(1, sizeof(*event));
  if (!event)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *out = event;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuEventDestroy_v2(void *event) {
  if (!event)
    return CUDA_ERROR_INVALID_VALUE;
  free(event);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuEventRecord(void *event, void *s) {
  (void)s;
  struct timespec now;
  if (!event || clock_gettime(CLOCK_MONOTONIC, &now) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *(double *)event = (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
  if (!start || !end)
    return CUDA_ERROR_INVALID_VALUE;
  *ms = (float)(*(double *)end - *(double *)start);
  return CUDA_SUCCESS;
}
