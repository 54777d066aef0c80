/* libFuzzer harness: the .npy reader on arbitrary bytes, as a stream of
 * known size (a file) and of unknown size (a pipe). */
#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include "internal.h"

#include <stdint.h>
#include <stdio.h>

static void read_stream(const uint8_t *data, size_t size, int64_t known) {
  /* fmemopen cannot open an empty buffer; one unread byte stands in. */
  static const uint8_t empty[1];
  FILE *file = fmemopen((void *)(size ? data : empty), size ? size : 1, "rb");
  if (!file)
    return;
  if (!size)
    fgetc(file);
  rlx_tensor_t *tensor = NULL;
  rlx_status_t status = rlx_npy_read(file, "fuzz.npy", known, &tensor);
  if (!status && (rlx_tensor_byte_size(tensor) == 0) !=
                     (rlx_tensor_element_count(tensor) == 0))
    __builtin_trap(); /* a loaded tensor's sizes must agree */
  rlx_status_free(status);
  rlx_tensor_free(tensor);
  fclose(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  read_stream(data, size, (int64_t)size);
  read_stream(data, size, -1);
  return 0;
}
