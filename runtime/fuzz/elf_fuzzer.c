/* libFuzzer harness: the ELF check rlx_module_load runs before dlopen, on
 * arbitrary bytes as the whole file. */
#include "internal.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rlx_status_free(rlx_check_elf_image("fuzz.so", data, size));
  return 0;
}
