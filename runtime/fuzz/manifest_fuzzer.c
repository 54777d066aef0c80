/* libFuzzer harness: the module manifest parser on arbitrary bytes, as
 * rlx_module_load runs it on a module's rlx_manifest. */
#include "internal.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rlx_module_t *module = NULL;
  rlx_status_t status = rlx_module_parse_manifest(
      "fuzz.so", (const char *)data, size, &module);
  if (!status) {
    /* Walk what was parsed: every type must be readable. */
    for (size_t i = 0; i < rlx_module_function_count(module); ++i) {
      const rlx_function_t *fn = NULL;
      rlx_status_free(rlx_module_function_at(module, i, &fn));
      rlx_tensor_type_t type;
      for (size_t j = 0; j < rlx_function_num_inputs(fn); ++j)
        rlx_status_free(rlx_function_input_type(fn, j, &type));
      for (size_t j = 0; j < rlx_function_num_outputs(fn); ++j)
        rlx_status_free(rlx_function_output_type(fn, j, &type));
    }
  }
  rlx_status_free(status);
  rlx_module_free(module);
  return 0;
}
