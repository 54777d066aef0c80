/* Tests of the runtime's CUDA path without a GPU: a missing driver, a
 * library that is not a driver, every failure of a fake driver, the caching
 * allocator, and a CUDA module run through the mgpu* ABI.
 *
 * Usage: rlx-cuda-test FAKE_DRIVER CUDA_MODULE
 *        rlx-cuda-test --load-ptx FILE...
 * FAKE_DRIVER is the fake libcuda (fake_cuda_driver.c), CUDA_MODULE the
 * hand-written module fixture_cuda.c. With --load-ptx, the real driver
 * JIT-compiles each PTX file for device 0 (tools/gpu-check.sh).
 * Prints one line per check and ends with "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include "rlx/cuda.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed;
static int failed;

static void report(bool ok, const char *name, const char *detail) {
  if (ok) {
    ++passed;
    printf("PASS: %s\n", name);
  } else {
    ++failed;
    printf("FAIL: %s: %s\n", name, detail);
  }
}

/* Expects `status` to carry `code` and a message containing `substring`;
 * frees the status. */
static void expect_error(rlx_status_t status, rlx_status_code_t code,
                         const char *name, const char *substring) {
  char detail[1024];
  bool ok = status && rlx_status_code(status) == code &&
            strstr(rlx_status_message(status), substring);
  snprintf(detail, sizeof(detail), "got %s '%s', want %s containing '%s'",
           rlx_status_code_name(rlx_status_code(status)),
           rlx_status_message(status), rlx_status_code_name(code), substring);
  report(ok, name, detail);
  if (ok)
    printf("      message: %s\n", rlx_status_message(status));
  rlx_status_free(status);
}

static bool expect_ok(rlx_status_t status, const char *name) {
  report(!status, name, rlx_status_message(status));
  rlx_status_free(status);
  return !status;
}

static const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry kernel() { ret; }\n";

static void test_missing_driver(void) {
  rlx_cuda_context_t context = NULL;
  setenv("RLX_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  expect_error(rlx_cuda_context_create(0, &context), RLX_STATUS_NOT_FOUND,
               "no driver", "no CUDA driver: cannot load "
                            "/nonexistent/libcuda.so.1");
  setenv("RLX_CUDA_DRIVER", "libm.so.6", 1);
  expect_error(rlx_cuda_context_create(0, &context), RLX_STATUS_NOT_FOUND,
               "not a driver", "CUDA driver libm.so.6 lacks cuInit");
  expect_error(rlx_cuda_context_create(0, NULL), RLX_STATUS_INVALID_ARGUMENT,
               "NULL out", "out is NULL");
}

static void test_fake_driver(const char *fake) {
  setenv("RLX_CUDA_DRIVER", fake, 1);
  rlx_cuda_context_t context = NULL;

  setenv("RLX_FAKE_CUDA", "no-device", 1);
  expect_error(rlx_cuda_context_create(0, &context), RLX_STATUS_NOT_FOUND,
               "no device", "no CUDA device: the driver sees none");

  setenv("RLX_FAKE_CUDA", "", 1);
  expect_error(rlx_cuda_context_create(3, &context), RLX_STATUS_NOT_FOUND,
               "no such device", "no CUDA device 3: the driver sees 1");
  if (!expect_ok(rlx_cuda_context_create(0, &context), "context"))
    return;
  report(strcmp(rlx_cuda_device_name(context), "Fake GPU") == 0,
         "device name", rlx_cuda_device_name(context));

  float in[4] = {1, 2, 3, 4}, out[4] = {0};
  rlx_cuda_buffer_t buffer = 0;
  if (expect_ok(rlx_cuda_alloc(context, sizeof(in), &buffer), "alloc")) {
    expect_ok(rlx_cuda_copy_to_device(context, buffer, in, sizeof(in)),
              "copy to device");
    expect_ok(rlx_cuda_copy_to_host(context, out, buffer, sizeof(out)),
              "copy to host");
    report(memcmp(in, out, sizeof(in)) == 0, "round trip", "data differs");
    expect_ok(rlx_cuda_free(context, buffer), "free");
  }
  expect_error(rlx_cuda_copy_to_host(context, NULL, 0, 4),
               RLX_STATUS_INVALID_ARGUMENT, "NULL destination", "dst is NULL");

  rlx_cuda_module_t module = NULL;
  if (expect_ok(rlx_cuda_module_load(context, ptx, &module), "load PTX")) {
    uint32_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    expect_ok(rlx_cuda_launch(module, "kernel", grid, block, 0, NULL),
              "launch");
    expect_error(rlx_cuda_launch(module, "missing", grid, block, 0, NULL),
                 RLX_STATUS_NOT_FOUND, "missing kernel",
                 "no kernel 'missing' in the CUDA module");
    setenv("RLX_FAKE_CUDA", "launch-fail", 1);
    expect_error(rlx_cuda_launch(module, "kernel", grid, block, 0, NULL),
                 RLX_STATUS_INTERNAL, "launch error",
                 "kernel 'kernel' failed: cuStreamSynchronize failed: "
                 "CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)");
    rlx_cuda_module_unload(module);
  }

  setenv("RLX_FAKE_CUDA", "bad-ptx", 1);
  expect_error(rlx_cuda_module_load(context, ptx, &module),
               RLX_STATUS_INVALID_FORMAT, "PTX rejected",
               "PTX rejected by the CUDA driver for Fake GPU: ptxas fatal");

  setenv("RLX_FAKE_CUDA", "oom", 1);
  expect_error(rlx_cuda_alloc(context, 1 << 20, &buffer),
               RLX_STATUS_OUT_OF_MEMORY, "out of memory",
               "out of device memory: cannot allocate 1048576 bytes on "
               "Fake GPU");
  rlx_cuda_context_destroy(context);
  unsetenv("RLX_FAKE_CUDA");
}

/* Calls of `name` the fake driver (loaded by the runtime from `fake`)
 * counted so far. */
static int fake_calls(void *fake, const char *name) {
  int (*calls)(const char *) = NULL;
  *(void **)&calls = dlsym(fake, "rlx_fake_cuda_calls");
  return calls ? calls(name) : -1;
}

static void expect_count(void *fake, const char *name, int expected,
                         const char *check) {
  char detail[128];
  int got = fake_calls(fake, name);
  snprintf(detail, sizeof(detail), "%d calls of %s, want %d", got, name,
           expected);
  report(got == expected, check, detail);
}

static void test_caching_allocator(const char *fake_path) {
  setenv("RLX_CUDA_DRIVER", fake_path, 1);
  unsetenv("RLX_FAKE_CUDA");
  /* Keeps the fake loaded, and its counters, across contexts. */
  void *fake = dlopen(fake_path, RTLD_NOW | RTLD_LOCAL);
  rlx_cuda_context_t context = NULL;
  if (!fake || !expect_ok(rlx_cuda_context_create(0, &context),
                          "allocator context")) {
    report(fake != NULL, "load the fake driver", dlerror());
    if (fake)
      dlclose(fake);
    return;
  }
  int allocs = fake_calls(fake, "cuMemAlloc");
  int frees = fake_calls(fake, "cuMemFree");
  rlx_cuda_buffer_t a = 0, b = 0, c = 0;
  expect_ok(rlx_cuda_alloc(context, 1000, &a), "alloc 1000 bytes");
  expect_ok(rlx_cuda_free(context, a), "free to the cache");
  /* 1000 and 900 bytes share the 1024-byte size class. */
  expect_ok(rlx_cuda_alloc(context, 900, &b), "alloc 900 bytes");
  report(a == b, "same size class: the cached block is reused",
         "a different block");
  expect_count(fake, "cuMemAlloc", allocs + 1, "one driver allocation");
  expect_ok(rlx_cuda_alloc(context, 5000, &c), "alloc 5000 bytes");
  report(c != b, "another size class: a new block", "the same block");
  expect_count(fake, "cuMemAlloc", allocs + 2, "two driver allocations");
  expect_count(fake, "cuMemFree", frees, "nothing freed to the driver");
  expect_error(rlx_cuda_free(context, b + 8), RLX_STATUS_INVALID_ARGUMENT,
               "free of a foreign address", "is not a buffer allocated on");

  /* A device with room for 2 blocks: the cached one is released to make
   * room for a third. */
  expect_ok(rlx_cuda_free(context, c), "free 5000 bytes");
  setenv("RLX_FAKE_CUDA", "oom-after-2", 1);
  rlx_cuda_buffer_t d = 0;
  expect_ok(rlx_cuda_alloc(context, 20000, &d),
            "out of memory: the cache is released and the allocation "
            "retried");
  expect_count(fake, "cuMemFree", frees + 1, "the cached block freed");
  expect_error(rlx_cuda_alloc(context, 40000, &c), RLX_STATUS_OUT_OF_MEMORY,
               "out of memory with nothing cached",
               "out of device memory: cannot allocate 40000 bytes");
  unsetenv("RLX_FAKE_CUDA");
  expect_ok(rlx_cuda_free(context, b), "free b");
  expect_ok(rlx_cuda_free(context, d), "free d");
  rlx_cuda_context_destroy(context);
  expect_count(fake, "cuMemFree", frees + 3,
               "the context's destroy frees every block");
  dlclose(fake);
}

/* Calls `name` of the loaded CUDA module on `input` (NULL: no input). */
static rlx_status_t call(rlx_module_t *module, const char *name,
                         rlx_tensor_t *input, rlx_tensor_t **output) {
  const rlx_function_t *fn = NULL;
  rlx_status_t status = rlx_module_lookup(module, name, &fn);
  if (status)
    return status;
  return rlx_function_call(fn, input ? &input : NULL, input ? 1 : 0, output,
                           1);
}

/* Runs 'copy' of `module` 50 times; counts the runs whose output is wrong
 * or whose status is a failure. */
struct copy_runs {
  rlx_module_t *module;
  float scale;
  int failures;
};

static void *run_copies(void *arg) {
  struct copy_runs *runs = arg;
  float values[4] = {runs->scale, 2 * runs->scale, 3 * runs->scale, 0};
  int64_t dims[1] = {4};
  rlx_tensor_t *input = NULL, *output = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F32, 1, dims, &input));
  if (!input) {
    runs->failures = -1;
    return NULL;
  }
  memcpy(rlx_tensor_data(input), values, sizeof(values));
  for (int i = 0; i < 50; ++i) {
    rlx_status_t status = call(runs->module, "copy", input, &output);
    runs->failures += status || memcmp(rlx_tensor_data(output), values,
                                       sizeof(values)) != 0;
    rlx_status_free(status);
    rlx_tensor_free(output);
  }
  rlx_tensor_free(input);
  return NULL;
}

static void test_cuda_module(const char *fake_path, const char *path) {
  setenv("RLX_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  rlx_module_t *module = NULL;
  expect_error(rlx_module_load(path, &module), RLX_STATUS_NOT_FOUND,
               "CUDA module without a driver", "no CUDA driver");

  setenv("RLX_CUDA_DRIVER", fake_path, 1);
  unsetenv("RLX_FAKE_CUDA");
  void *fake = dlopen(fake_path, RTLD_NOW | RTLD_LOCAL);
  if (!expect_ok(rlx_module_load(path, &module), "load the CUDA module")) {
    if (fake)
      dlclose(fake);
    return;
  }
  const float values[4] = {1, -2, 3.5f, 4};
  int64_t dims[1] = {4};
  rlx_tensor_t *input = NULL, *output = NULL;
  expect_ok(rlx_tensor_create(RLX_DTYPE_F32, 1, dims, &input), "input");
  memcpy(rlx_tensor_data(input), values, sizeof(values));
  const rlx_function_t *copy = NULL;
  double ms = -1;
  rlx_status_free(rlx_module_lookup(module, "copy", &copy));
  expect_error(rlx_function_device_time(copy, &ms), RLX_STATUS_NOT_FOUND,
               "no device time before a call",
               "no call of the module of 'copy' has completed");
  int launches = fake_calls(fake, "cuLaunchKernel");
  if (expect_ok(call(module, "copy", input, &output), "run 'copy'")) {
    /* The fake's kernel computes nothing: the host code's copies carried
     * the input to the device, through a temporary, and back. */
    report(memcmp(rlx_tensor_data(output), values, sizeof(values)) == 0,
           "the output made the round trip through device buffers",
           "the output differs from the input");
    rlx_tensor_free(output);
    if (expect_ok(rlx_function_device_time(copy, &ms),
                  "the call's device time"))
      report(ms >= 0, "the device time is a duration", "it is negative");
  }
  expect_count(fake, "cuLaunchKernel", launches + 1, "one launch");
  int allocs = fake_calls(fake, "cuMemAlloc");
  expect_ok(call(module, "copy", input, &output), "run 'copy' again");
  rlx_tensor_free(output);
  expect_count(fake, "cuMemAlloc", allocs,
               "the second run allocates nothing: its blocks are cached");

  expect_error(call(module, "missing_kernel", NULL, &output),
               RLX_STATUS_NOT_FOUND, "a kernel the PTX lacks",
               "no kernel 'absent_kernel' in the CUDA module");
  expect_count(fake, "cuLaunchKernel", launches + 2,
               "nothing launched after the failure");
  setenv("RLX_FAKE_CUDA", "launch-fail", 1);
  expect_error(call(module, "copy", input, &output), RLX_STATUS_INTERNAL,
               "a failing kernel",
               "kernel 'copy_kernel' failed: cuStreamSynchronize failed: "
               "CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)");
  unsetenv("RLX_FAKE_CUDA");
  expect_ok(call(module, "copy", input, &output),
            "the next run after a failure");
  rlx_tensor_free(output);

  /* Two threads share the module's context: their calls take turns. */
  struct copy_runs runs[2] = {{module, 1, 0}, {module, -5, 0}};
  pthread_t threads[2];
  bool started[2];
  for (int i = 0; i < 2; ++i)
    started[i] = pthread_create(&threads[i], NULL, run_copies, &runs[i]) == 0;
  for (int i = 0; i < 2; ++i)
    if (started[i])
      pthread_join(threads[i], NULL);
  report(started[0] && started[1] && runs[0].failures == 0 &&
             runs[1].failures == 0,
         "two threads calling the module concurrently",
         "a thread did not start, or a run failed or got another's data");

  /* The entry point called directly, outside the runtime: the mgpu*
   * functions do nothing. */
  void (*invoke)(void **) = NULL;
  void *handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (handle)
    *(void **)&invoke = dlsym(handle, "rlx_invoke_copy");
  report(invoke != NULL, "rlx_invoke_copy found", dlerror());
  if (invoke) {
    float in[4] = {1, 2, 3, 4}, out[4] = {0};
    void *descriptors[2][5] = {{in, in}, {out, out}};
    void *args[2] = {descriptors[0], descriptors[1]};
    launches = fake_calls(fake, "cuLaunchKernel");
    invoke(args);
    report(out[0] == 0 && fake_calls(fake, "cuLaunchKernel") == launches,
           "outside a call the mgpu* functions do nothing",
           "something ran");
  }
  if (handle)
    dlclose(handle);
  rlx_module_free(module);

  /* Kernels are JIT-compiled by each module's context on first use. */
  setenv("RLX_FAKE_CUDA", "bad-ptx", 1);
  if (expect_ok(rlx_module_load(path, &module), "load with a picky driver")) {
    expect_error(call(module, "copy", input, &output),
                 RLX_STATUS_INVALID_FORMAT, "PTX rejected at the first run",
                 "PTX rejected by the CUDA driver for Fake GPU: ptxas fatal");
    rlx_module_free(module);
  }
  /* Room for the input and output buffers, none for the temporary. */
  setenv("RLX_FAKE_CUDA", "oom-after-2", 1);
  if (expect_ok(rlx_module_load(path, &module), "load with a small device")) {
    expect_error(call(module, "copy", input, &output),
                 RLX_STATUS_OUT_OF_MEMORY, "out of memory in mgpuMemAlloc",
                 "out of device memory: cannot allocate 16 bytes on Fake GPU");
    rlx_module_free(module);
  }
  unsetenv("RLX_FAKE_CUDA");
  rlx_tensor_free(input);
  if (fake)
    dlclose(fake);
}

/* A function with a symbolic dim: the runtime stages each call's tensors
 * by their actual sizes. */
static void test_cuda_dynamic(const char *fake_path, const char *path) {
  setenv("RLX_CUDA_DRIVER", fake_path, 1);
  unsetenv("RLX_FAKE_CUDA");
  void *fake = dlopen(fake_path, RTLD_NOW | RTLD_LOCAL);
  rlx_module_t *module = NULL;
  if (!expect_ok(rlx_module_load(path, &module),
                 "dynamic: load the CUDA module")) {
    if (fake)
      dlclose(fake);
    return;
  }
  const rlx_function_t *copy_rows = NULL;
  expect_ok(rlx_module_lookup(module, "copy_rows", &copy_rows),
            "dynamic: lookup copy_rows");
  const int64_t rows[] = {5, 100, 1};
  for (size_t i = 0; copy_rows && i < 3; ++i) {
    int64_t dims[2] = {rows[i], 3};
    rlx_tensor_t *input = NULL, *output = NULL;
    if (!expect_ok(rlx_tensor_create(RLX_DTYPE_F32, 2, dims, &input),
                   "dynamic: input"))
      continue;
    float *in = rlx_tensor_data(input);
    for (int64_t j = 0; j < 3 * rows[i]; ++j)
      in[j] = (float)(j * 7 + 1);
    char name[64];
    snprintf(name, sizeof(name), "dynamic: run 'copy_rows' with R = %d",
             (int)rows[i]);
    if (expect_ok(rlx_function_call(copy_rows, &input, 1, &output, 1), name)) {
      bool same =
          rlx_tensor_rank(output) == 2 &&
          rlx_tensor_dims(output)[0] == rows[i] &&
          memcmp(rlx_tensor_data(output), in, rlx_tensor_byte_size(input)) == 0;
      report(same, "dynamic: every row made the round trip",
             "the output differs from the input");
    }
    rlx_tensor_free(output);
    rlx_tensor_free(input);
  }
  int64_t dims[2] = {2, 4};
  rlx_tensor_t *input = NULL, *output = NULL;
  rlx_status_free(rlx_tensor_create(RLX_DTYPE_F32, 2, dims, &input));
  int allocs = fake_calls(fake, "cuMemAlloc");
  int launches = fake_calls(fake, "cuLaunchKernel");
  expect_error(rlx_function_call(copy_rows, &input, 1, &output, 1),
               RLX_STATUS_SHAPE_MISMATCH, "dynamic: a wrong static dim",
               "input 0 of 'copy_rows': dim 1 is 4, expected 3");
  report(fake_calls(fake, "cuMemAlloc") == allocs &&
             fake_calls(fake, "cuLaunchKernel") == launches,
         "dynamic: a rejected call touches no device",
         "something was allocated or launched");
  rlx_tensor_free(input);
  rlx_module_free(module);
  if (fake)
    dlclose(fake);
}

static char *read_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  char *text = NULL;
  if (fseek(file, 0, SEEK_END) == 0) {
    long size = ftell(file);
    text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && (fseek(file, 0, SEEK_SET) != 0 ||
                 fread(text, 1, (size_t)size, file) != (size_t)size)) {
      free(text);
      text = NULL;
    } else if (text) {
      text[size] = '\0';
    }
  }
  fclose(file);
  return text;
}

static void load_ptx_files(int count, char **paths) {
  rlx_cuda_context_t context = NULL;
  if (!expect_ok(rlx_cuda_context_create(0, &context), "CUDA device 0"))
    return;
  printf("      device: %s\n", rlx_cuda_device_name(context));
  for (int i = 0; i < count; ++i) {
    char *ptx = read_file(paths[i]);
    if (!ptx) {
      report(false, paths[i], "cannot read the file");
      continue;
    }
    rlx_cuda_module_t module = NULL;
    if (expect_ok(rlx_cuda_module_load(context, ptx, &module), paths[i]))
      rlx_cuda_module_unload(module);
    free(ptx);
  }
  rlx_cuda_context_destroy(context);
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--load-ptx") == 0) {
    load_ptx_files(argc - 2, argv + 2);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
  }
  if (argc != 3) {
    fprintf(stderr, "usage: %s FAKE_DRIVER CUDA_MODULE | --load-ptx FILE...\n",
            argv[0]);
    return 2;
  }
  test_missing_driver();
  test_fake_driver(argv[1]);
  test_caching_allocator(argv[1]);
  test_cuda_module(argv[1], argv[2]);
  test_cuda_dynamic(argv[1], argv[2]);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
