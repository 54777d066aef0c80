/* libFuzzer harness: the module manifest parser on arbitrary bytes, as
 * rlx_module_load runs it on a module's rlx_manifest (mesh and split lines
 * included); then, for symbolic shapes (version 2), the evaluation of every
 * dim expression and where clause as a call would run it, on shapes of a
 * few symbol values. */
#include "internal.h"

#include <stdint.h>
#include <string.h>

/* Symbol values tried: empty, small, odd, and the extremes. */
static const int64_t symbol_values[] = {0,        1, 3, 64, INT64_C(1) << 32,
                                        INT64_MAX};

/* Shapes the inputs of `fn` would have with every symbol at `value`, and
 * the outputs a call would get. The tensors have no data: only their
 * shapes are read. */
static void evaluate(const rlx_function_t *fn, int64_t value) {
  size_t num_symbols = rlx_function_num_symbols(fn);
  size_t num_inputs = rlx_function_num_inputs(fn);
  /* Bounded so that one input does not take long. */
  if (num_symbols > 256 || num_inputs > 64)
    return;
  int64_t symbols[256];
  struct rlx_tensor tensors[64];
  rlx_tensor_t *inputs[64];
  for (size_t s = 0; s < num_symbols; ++s)
    symbols[s] = value;
  for (size_t i = 0; i < num_inputs; ++i) {
    rlx_tensor_type_t type;
    rlx_status_t status = rlx_function_input_type(fn, i, &type);
    memset(&tensors[i], 0, sizeof(tensors[i]));
    if (!status)
      status =
          rlx_function_input_dims(fn, symbols, num_symbols, i, tensors[i].dims);
    if (status) {
      rlx_status_free(status);
      return;
    }
    tensors[i].dtype = type.dtype;
    tensors[i].rank = type.rank;
    inputs[i] = &tensors[i];
  }
  int64_t dims[RLX_MAX_RANK];
  for (size_t j = 0; j < rlx_function_num_outputs(fn); ++j)
    rlx_status_free(rlx_function_output_dims(fn, inputs, num_inputs, j, dims));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rlx_module_t *module = NULL;
  rlx_status_t status = rlx_module_parse_manifest(
      "fuzz.so", (const char *)data, size, &module);
  if (!status) {
    rlx_mesh_t mesh;
    rlx_status_free(rlx_module_mesh(module, &mesh));
    /* Walk what was parsed: every type must be readable. */
    for (size_t i = 0; i < rlx_module_function_count(module); ++i) {
      const rlx_function_t *fn = NULL;
      rlx_status_free(rlx_module_function_at(module, i, &fn));
      rlx_tensor_type_t type;
      size_t axes[RLX_MESH_MAX_RANK];
      for (size_t j = 0; j < rlx_function_num_inputs(fn); ++j) {
        rlx_status_free(rlx_function_input_type(fn, j, &type));
        for (size_t d = 0; d <= type.rank; ++d) {
          (void)rlx_function_input_dim_expr(fn, j, d);
          (void)rlx_function_input_split(fn, j, d, axes);
        }
      }
      for (size_t j = 0; j < rlx_function_num_outputs(fn); ++j) {
        rlx_status_free(rlx_function_output_type(fn, j, &type));
        for (size_t d = 0; d <= type.rank; ++d) {
          (void)rlx_function_output_dim_expr(fn, j, d);
          (void)rlx_function_output_split(fn, j, d, axes);
        }
      }
      for (size_t j = 0; j < rlx_function_num_where_clauses(fn); ++j)
        (void)rlx_function_where_clause(fn, j);
      if (rlx_function_num_symbols(fn) > 0 ||
          rlx_function_num_where_clauses(fn) > 0)
        for (size_t v = 0; v < sizeof(symbol_values) / sizeof(*symbol_values);
             ++v)
          evaluate(fn, symbol_values[v]);
    }
  }
  rlx_status_free(status);
  rlx_module_free(module);
  return 0;
}
