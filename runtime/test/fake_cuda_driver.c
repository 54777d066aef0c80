/* A stand-in for libcuda.so.1 that lets rlx-cuda-test exercise the runtime's
 * CUDA error paths on machines without a GPU. $RLX_FAKE_CUDA picks the
 * failure: "no-device", "bad-ptx", "oom", "launch-fail"; anything else
 * behaves like a working device whose kernels do nothing. */
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;

static int fails(const char *mode) {
  const char *current = getenv("RLX_FAKE_CUDA");
  return current && strcmp(current, mode) == 0;
}

EXPORT CUresult cuInit(unsigned flags) { return flags == 0 ? 0 : 1; }

EXPORT CUresult cuGetErrorName(CUresult result, const char **name) {
  switch (result) {
  case 2:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return 0;
  case 218:
    *name = "CUDA_ERROR_INVALID_PTX";
    return 0;
  case 719:
    *name = "CUDA_ERROR_LAUNCH_FAILED";
    return 0;
  }
  *name = "CUDA_ERROR_UNKNOWN";
  return 0;
}

EXPORT CUresult cuGetErrorString(CUresult result, const char **text) {
  *text = result == 719 ? "unspecified launch failure" : "fake driver error";
  return 0;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
  *count = fails("no-device") ? 0 : 1;
  return 0;
}

EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return 0;
}

EXPORT CUresult cuDeviceGetName(char *name, int size, int device) {
  (void)device;
  strncpy(name, "Fake GPU", (size_t)size);
  return 0;
}

static int primary_context;
EXPORT CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  (void)device;
  *context = &primary_context;
  return 0;
}
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  (void)device;
  return 0;
}
EXPORT CUresult cuCtxSetCurrent(void *context) { return context ? 0 : 1; }

static int stream;
EXPORT CUresult cuStreamCreate(void **out, unsigned flags) {
  (void)flags;
  *out = &stream;
  return 0;
}
EXPORT CUresult cuStreamDestroy_v2(void *s) { return s ? 0 : 1; }
EXPORT CUresult cuStreamSynchronize(void *s) {
  (void)s;
  return fails("launch-fail") ? 719 : 0;
}

/* Device memory is host memory here. */
EXPORT CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  if (fails("oom"))
    return 2;
  void *memory = malloc(bytes);
  if (!memory)
    return 2;
  *pointer = (unsigned long long)(size_t)memory;
  return 0;
}
EXPORT CUresult cuMemFree_v2(unsigned long long pointer) {
  free((void *)(size_t)pointer);
  return 0;
}
EXPORT CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src,
                                size_t bytes) {
  memcpy((void *)(size_t)dst, src, bytes);
  return 0;
}
EXPORT CUresult cuMemcpyDtoH_v2(void *dst, unsigned long long src,
                                size_t bytes) {
  memcpy(dst, (const void *)(size_t)src, bytes);
  return 0;
}

static int module;
EXPORT CUresult cuModuleLoadDataEx(void **out, const void *image,
                                   unsigned count, int *options,
                                   void **values) {
  if (!fails("bad-ptx") && strstr(image, ".entry")) {
    *out = &module;
    return 0;
  }
  for (unsigned i = 0; i < count; ++i)
    if (options[i] == 5) /* CU_JIT_ERROR_LOG_BUFFER */
      strcpy(values[i], "ptxas fatal   : Unresolved extern function 'f'");
  return 218;
}
EXPORT CUresult cuModuleUnload(void *m) { return m ? 0 : 1; }
EXPORT CUresult cuModuleGetFunction(void **function, void *m,
                                    const char *name) {
  (void)m;
  if (strcmp(name, "kernel") != 0)
    return 500;
  *function = &module;
  return 0;
}
EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz,
                               unsigned shared, void *s, void **params,
                               void **extra) {
  (void)f, (void)gy, (void)gz, (void)by, (void)bz, (void)shared, (void)s,
      (void)params, (void)extra;
  return gx == 0 || bx == 0 ? 1 : 0;
}
