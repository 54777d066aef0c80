/* Tests of the runtime's CUDA path without a GPU: a missing driver, a
 * library that is not a driver, and every failure of a fake driver.
 *
 * Usage: rlx-cuda-test FAKE_DRIVER
 *        rlx-cuda-test --load-ptx FILE...
 * FAKE_DRIVER is the fake libcuda (fake_cuda_driver.c). With --load-ptx, the
 * real driver JIT-compiles each PTX file for device 0 (tools/gpu-check.sh).
 * Prints one line per check and ends with "N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include "rlx/cuda.h"

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
  if (argc != 2) {
    fprintf(stderr, "usage: %s FAKE_DRIVER | --load-ptx FILE...\n", argv[0]);
    return 2;
  }
  test_missing_driver();
  test_fake_driver(argv[1]);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
