/* A hand-written CUDA module following what rlx-compile --target=cuda
 * emits: constructors hand the kernel image to mgpuModuleLoadJIT, and each
 * rlx_invoke_* drives the device through the runtime's mgpu* functions on
 * the device buffers the runtime staged. Used by rlx-cuda-test with the
 * fake driver, whose kernels compute nothing, so the data path is checked
 * with copies alone. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

void *mgpuModuleLoadJIT(void *data, int opt_level);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y,
                      intptr_t grid_z, intptr_t block_x, intptr_t block_y,
                      intptr_t block_z, int32_t shared_bytes, void *stream,
                      void **params, void **extra, size_t num_params);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared);
void mgpuMemFree(void *pointer, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);

EXPORT const char rlx_manifest[] = "rlx-module 2\n"
                                   "target cuda\n"
                                   /* out = in, through a device temporary
                                    * and a launch of copy_kernel */
                                   "func copy 1 1\n"
                                   "arg f32 1 4\n"
                                   "res f32 1 4\n"
                                   /* launches a kernel the PTX lacks */
                                   "func missing_kernel 0 1\n"
                                   "res f32 0\n"
                                   /* out = in, R rows of 3: the buffers
                                    * have the sizes of the call's tensors */
                                   "func copy_rows 1 1\n"
                                   "arg f32 2 R 3\n"
                                   "res f32 2 R 3\n";

static char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry copy_kernel() { ret; }\n";
static void *module;

__attribute__((constructor)) static void load(void) {
  module = mgpuModuleLoadJIT(ptx, 2);
}
__attribute__((destructor)) static void unload(void) {
  mgpuModuleUnload(module);
}

/* The fields of a rank-1 memref descriptor used here. */
struct descriptor {
  void *allocated;
  void *aligned;
};

static void launch(const char *kernel, void *stream) {
  void *function = mgpuModuleGetFunction(module, kernel);
  mgpuLaunchKernel(function, 1, 1, 1, 4, 1, 1, 0, stream, NULL, NULL, 0);
  mgpuStreamSynchronize(stream);
}

EXPORT void rlx_invoke_copy(void **args) {
  const struct descriptor *in = args[0], *out = args[1];
  void *stream = mgpuStreamCreate();
  void *temporary = mgpuMemAlloc(16, stream, false);
  mgpuMemcpy(temporary, in->aligned, 16, stream);
  launch("copy_kernel", stream);
  mgpuMemcpy(out->aligned, temporary, 16, stream);
  mgpuMemFree(temporary, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

EXPORT void rlx_invoke_missing_kernel(void **args) {
  (void)args;
  void *stream = mgpuStreamCreate();
  launch("absent_kernel", stream);
  mgpuStreamDestroy(stream);
}

/* A rank-2 memref descriptor. */
struct descriptor2 {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

EXPORT void rlx_invoke_copy_rows(void **args) {
  const struct descriptor2 *in = args[0], *out = args[1];
  size_t bytes = (size_t)(in->sizes[0] * in->sizes[1]) * sizeof(float);
  void *stream = mgpuStreamCreate();
  mgpuMemcpy(out->aligned, in->aligned, bytes, stream);
  launch("copy_kernel", stream);
  mgpuStreamDestroy(stream);
}
