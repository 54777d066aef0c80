/* RLX runtime: loads modules produced by rlx-compile and invokes them.
 *
 * Conventions shared by every function in this header:
 *  - A fallible call returns rlx_status_t: NULL on success, otherwise a
 *    heap-allocated status the caller releases with rlx_status_free().
 *  - Output parameters are written only on success.
 *  - NULL where a pointer is required yields RLX_STATUS_INVALID_ARGUMENT;
 *    infallible accessors given NULL return 0 / NULL instead of crashing.
 *  - A loaded module and its functions are immutable: any number of threads
 *    may introspect and invoke them concurrently. Tensors carry no locks; a
 *    tensor must not be written by one thread while another uses it.
 *
 * See docs/runtime.md for the module ABI and a usage example.
 */
#ifndef RLX_RUNTIME_H
#define RLX_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define RLX_API __attribute__((visibility("default")))
#else
#define RLX_API
#endif

/* Largest tensor rank the runtime accepts, in manifests and tensors alike. */
#define RLX_MAX_RANK 32

/* Alignment in bytes of the data of tensors the runtime allocates. */
#define RLX_TENSOR_ALIGNMENT 64

/* ------------------------------------------------------------------------ */
/* Status                                                                   */
/* ------------------------------------------------------------------------ */

typedef enum rlx_status_code {
  RLX_STATUS_OK = 0,
  RLX_STATUS_INVALID_ARGUMENT, /* NULL pointer, bad count, bad byte length */
  RLX_STATUS_NOT_FOUND,        /* missing file, function or symbol */
  RLX_STATUS_OUT_OF_RANGE,     /* index past the end, size overflow */
  RLX_STATUS_SHAPE_MISMATCH,   /* rank or dims differ from the signature */
  RLX_STATUS_DTYPE_MISMATCH,   /* element type differs from the signature */
  RLX_STATUS_INVALID_FORMAT,   /* malformed manifest or .npy file */
  RLX_STATUS_IO_ERROR,         /* file system or dynamic loader failure */
  RLX_STATUS_OUT_OF_MEMORY,
  RLX_STATUS_UNIMPLEMENTED, /* well-formed input the runtime does not support */
  RLX_STATUS_INTERNAL,
  /* A call of a mesh function (docs/runtime.md, "Meshes") that another
   * process of the mesh failed: nothing ran. Appended: the values above are
   * ABI. */
  RLX_STATUS_PEER_FAILED,
} rlx_status_code_t;

typedef struct rlx_status *rlx_status_t;

/* RLX_STATUS_OK for NULL. */
RLX_API rlx_status_code_t rlx_status_code(rlx_status_t status);
/* "OK" for NULL. The string lives as long as the status. */
RLX_API const char *rlx_status_message(rlx_status_t status);
/* Accepts NULL. */
RLX_API void rlx_status_free(rlx_status_t status);
/* Stable upper-case name such as "SHAPE_MISMATCH"; "UNKNOWN" if invalid. */
RLX_API const char *rlx_status_code_name(rlx_status_code_t code);

/* ------------------------------------------------------------------------ */
/* Element types                                                            */
/* ------------------------------------------------------------------------ */

typedef enum rlx_dtype {
  RLX_DTYPE_F32 = 0,
  RLX_DTYPE_F16,
  RLX_DTYPE_BF16,
  RLX_DTYPE_F64,
  RLX_DTYPE_I8,
  RLX_DTYPE_I16,
  RLX_DTYPE_I32,
  RLX_DTYPE_I64,
  RLX_DTYPE_BOOL, /* one byte per element, 0 or 1; "i1" in manifests */
  /* Complex numbers (MLIR complex<f32>, complex<f64>): the real part, then
   * the imaginary part, as C's float _Complex / double _Complex and NumPy's
   * complex64 / complex128. Appended after BOOL: the values above are ABI. */
  RLX_DTYPE_C64,  /* two f32, 8 bytes; "c64" in manifests */
  RLX_DTYPE_C128, /* two f64, 16 bytes; "c128" in manifests */
} rlx_dtype_t;

/* Bytes per element; 0 for an invalid dtype. */
RLX_API size_t rlx_dtype_size(rlx_dtype_t dtype);
/* Manifest token ("f32", ..., "i1" for bool, "c64", "c128"); NULL for an
 * invalid dtype. */
RLX_API const char *rlx_dtype_name(rlx_dtype_t dtype);
/* Parses a manifest token; "bool" is accepted as a synonym of "i1". */
RLX_API rlx_status_t rlx_dtype_from_name(const char *name, rlx_dtype_t *out);

/* ------------------------------------------------------------------------ */
/* Conversion                                                               */
/* ------------------------------------------------------------------------ */

/* Converts `count` elements between two dtypes. This is the single
 * routine behind every typed copy in the runtime, so all paths produce
 * identical bytes:
 *  - to f16/bf16: round to nearest, ties to even; overflow gives +-inf;
 *    NaN stays NaN with its sign.
 *  - float to integer: truncation toward zero, saturated to the target
 *    range; NaN gives 0.
 *  - integer to narrower integer: saturated.
 *  - anything to bool: nonzero (including NaN) gives 1. Bool inputs treat
 *    any nonzero byte as 1.
 *  - complex to complex: each part converted as f32 <-> f64.
 *  - real, integer or bool to complex: the value converted as to the part's
 *    type (f32 for c64, f64 for c128), with a +0 imaginary part.
 *  - complex to real, integer or bool is refused with INVALID_ARGUMENT
 *    (it would drop the imaginary part), even for count 0; nothing is
 *    written.
 * `src` and `dst` must not overlap unless they are the same dtype. */
RLX_API rlx_status_t rlx_convert(rlx_dtype_t src_dtype, const void *src,
                                 rlx_dtype_t dst_dtype, void *dst,
                                 size_t count);

/* Single-value helpers with the same rounding as rlx_convert. */
RLX_API uint16_t rlx_f32_to_f16(float value);
RLX_API float rlx_f16_to_f32(uint16_t bits);
RLX_API uint16_t rlx_f32_to_bf16(float value);
RLX_API float rlx_bf16_to_f32(uint16_t bits);

/* ------------------------------------------------------------------------ */
/* Tensor types                                                             */
/* ------------------------------------------------------------------------ */

/* The value of a symbolic dim (manifest version 2) in a function's type
 * views: its size is known only once the inputs are (see
 * rlx_function_input_dim_expr and rlx_function_output_dims). A tensor's dims
 * are never dynamic. */
#define RLX_DIM_DYNAMIC INT64_C(-1)

/* A borrowed view of a tensor type; `dims` has `rank` entries and is NULL
 * when rank is 0. In a function's signature a dim may be RLX_DIM_DYNAMIC. */
typedef struct rlx_tensor_type {
  rlx_dtype_t dtype;
  size_t rank;
  const int64_t *dims;
} rlx_tensor_type_t;

/* Formats `type` as e.g. "f32[2,3]" ("f32[]" for a scalar, "f32[?,3]" for
 * an RLX_DIM_DYNAMIC dim) snprintf-style:
 * writes at most `size` bytes including the NUL and returns the length the
 * full string needs. Returns 0 and writes nothing if `type` is NULL. */
RLX_API size_t rlx_tensor_type_format(const rlx_tensor_type_t *type,
                                      char *buffer, size_t size);

/* ------------------------------------------------------------------------ */
/* Tensors                                                                  */
/* ------------------------------------------------------------------------ */

/* A dense, row-major tensor. Either owns its data (rlx_tensor_create) or
 * borrows caller memory (rlx_tensor_wrap). */
typedef struct rlx_tensor rlx_tensor_t;

/* Allocates a zero-filled tensor with RLX_TENSOR_ALIGNMENT-aligned data.
 * `dims` may be NULL when `rank` is 0. Dims must be >= 0, the rank at most
 * RLX_MAX_RANK, and the byte size representable (else OUT_OF_RANGE). */
RLX_API rlx_status_t rlx_tensor_create(rlx_dtype_t dtype, size_t rank,
                                       const int64_t *dims, rlx_tensor_t **out);

/* Wraps caller memory without copying. `byte_length` must equal the tensor's
 * byte size exactly. `data` must stay valid until the tensor is freed; it may
 * be NULL only when the byte size is 0. */
RLX_API rlx_status_t rlx_tensor_wrap(rlx_dtype_t dtype, size_t rank,
                                     const int64_t *dims, void *data,
                                     size_t byte_length, rlx_tensor_t **out);

/* Frees the tensor, and its data if owned. Accepts NULL. */
RLX_API void rlx_tensor_free(rlx_tensor_t *tensor);

RLX_API rlx_dtype_t rlx_tensor_dtype(const rlx_tensor_t *tensor);
RLX_API size_t rlx_tensor_rank(const rlx_tensor_t *tensor);
/* `rank` entries, valid while the tensor lives; NULL for rank 0. */
RLX_API const int64_t *rlx_tensor_dims(const rlx_tensor_t *tensor);
RLX_API void *rlx_tensor_data(const rlx_tensor_t *tensor);
RLX_API size_t rlx_tensor_byte_size(const rlx_tensor_t *tensor);
RLX_API size_t rlx_tensor_element_count(const rlx_tensor_t *tensor);
/* A view of the tensor's type, valid while the tensor lives. */
RLX_API rlx_status_t rlx_tensor_get_type(const rlx_tensor_t *tensor,
                                         rlx_tensor_type_t *out);

/* Copies all elements from a caller buffer of `src_dtype` into the tensor,
 * converting with rlx_convert. `src_byte_length` must equal the element
 * count times rlx_dtype_size(src_dtype). */
RLX_API rlx_status_t rlx_tensor_copy_from(rlx_tensor_t *tensor,
                                          rlx_dtype_t src_dtype,
                                          const void *src,
                                          size_t src_byte_length);

/* Copies all elements of the tensor into a caller buffer of `dst_dtype`;
 * `dst_byte_length` must equal the element count times
 * rlx_dtype_size(dst_dtype). */
RLX_API rlx_status_t rlx_tensor_copy_to(const rlx_tensor_t *tensor,
                                        rlx_dtype_t dst_dtype, void *dst,
                                        size_t dst_byte_length);

/* ------------------------------------------------------------------------ */
/* Threads                                                                  */
/* ------------------------------------------------------------------------ */

/* The number of threads a module's parallel loops use, for the whole
 * process: `count`, or all online cores when 0 (the default). It applies to
 * every later call, from any thread. The environment variable
 * RLX_NUM_THREADS, read once when the runtime first needs the count, sets
 * the initial value; this call overrides it. OUT_OF_RANGE above INT_MAX. */
RLX_API rlx_status_t rlx_set_num_threads(size_t count);
/* The thread count calls will use: the count set, or the number of online
 * cores when that is 0. */
RLX_API size_t rlx_get_num_threads(void);

/* ------------------------------------------------------------------------ */
/* Modules and functions                                                    */
/* ------------------------------------------------------------------------ */

typedef struct rlx_module rlx_module_t;
/* Owned by its module; valid until rlx_module_free. */
typedef struct rlx_function rlx_function_t;

/* Loads a module produced by rlx-compile. Loading runs the object's
 * initializers, so only load trusted files; its manifest, however, is
 * validated and a malformed one is reported, never trusted. Fails with
 * INVALID_ARGUMENT while RLX_NUM_THREADS is set to something other than a
 * thread count, unless rlx_set_num_threads has overridden it. */
RLX_API rlx_status_t rlx_module_load(const char *path, rlx_module_t **out);
/* Unloads the module; its functions become invalid. Accepts NULL. */
RLX_API void rlx_module_free(rlx_module_t *module);
/* The path the module was loaded from. */
RLX_API const char *rlx_module_path(const rlx_module_t *module);

RLX_API size_t rlx_module_function_count(const rlx_module_t *module);
/* Functions keep manifest order. */
RLX_API rlx_status_t rlx_module_function_at(const rlx_module_t *module,
                                            size_t index,
                                            const rlx_function_t **out);
/* NOT_FOUND, listing the available names, if there is no such function. */
RLX_API rlx_status_t rlx_module_lookup(const rlx_module_t *module,
                                       const char *name,
                                       const rlx_function_t **out);

RLX_API const char *rlx_function_name(const rlx_function_t *fn);
RLX_API size_t rlx_function_num_inputs(const rlx_function_t *fn);
RLX_API size_t rlx_function_num_outputs(const rlx_function_t *fn);
/* The type views stay valid as long as the module. */
RLX_API rlx_status_t rlx_function_input_type(const rlx_function_t *fn,
                                             size_t index,
                                             rlx_tensor_type_t *out);
RLX_API rlx_status_t rlx_function_output_type(const rlx_function_t *fn,
                                              size_t index,
                                              rlx_tensor_type_t *out);

/* Symbolic shapes (manifest version 2, docs/runtime.md). A dim of a
 * signature is static (a number) or symbolic: a symbol such as "S" or an
 * expression such as "2*S" or "(S+7)/8". Symbols are bound by the inputs'
 * dims at each call; "where" clauses constrain them. */

/* The text of dim `dim` of input `index` as the manifest writes it ("S",
 * "2*S"), valid as long as the module; NULL for a static dim or an index
 * past the end. */
RLX_API const char *rlx_function_input_dim_expr(const rlx_function_t *fn,
                                                size_t index, size_t dim);
RLX_API const char *rlx_function_output_dim_expr(const rlx_function_t *fn,
                                                 size_t index, size_t dim);

/* The function's symbols (0 for a function with static shapes), in order
 * of their first appearance in its arg lines, and their names (NULL past
 * the end). Each is bound by the first input dim that is the bare symbol. */
RLX_API size_t rlx_function_num_symbols(const rlx_function_t *fn);
RLX_API const char *rlx_function_symbol_name(const rlx_function_t *fn,
                                             size_t index);

/* The function's where clauses as "<expr> <rel> <expr>" (e.g. "S%8 == 0"),
 * without their reason; NULL past the end. */
RLX_API size_t rlx_function_num_where_clauses(const rlx_function_t *fn);
RLX_API const char *rlx_function_where_clause(const rlx_function_t *fn,
                                              size_t index);

/* Writes the `rank` dims of output `output` for a call with `inputs` into
 * `dims` (NULL allowed for rank 0). The inputs are checked exactly as
 * rlx_function_invoke checks them: counts, dtypes, ranks, every dim against
 * the bound symbols, and the where clauses. SHAPE_MISMATCH for a negative
 * dim, OUT_OF_RANGE for an expression that overflows or divides by zero and
 * for a shape whose byte size overflows. An output of a mesh function that
 * is split over the mesh has the dims of this process's block of it. */
RLX_API rlx_status_t rlx_function_output_dims(const rlx_function_t *fn,
                                              rlx_tensor_t *const *inputs,
                                              size_t num_inputs, size_t output,
                                              int64_t *dims);

/* Writes the `rank` dims of input `index` for the symbol values
 * `symbols[0..num_symbols)` (in rlx_function_symbol_name order; num_symbols
 * must equal rlx_function_num_symbols) into `dims`, e.g. to allocate inputs
 * of chosen sizes. Symbol values must be >= 0. Where clauses are not
 * checked here: a call checks them. */
RLX_API rlx_status_t rlx_function_input_dims(const rlx_function_t *fn,
                                             const int64_t *symbols,
                                             size_t num_symbols, size_t index,
                                             int64_t *dims);

/* Fast path: runs `fn` reading `inputs` and writing into the caller-owned
 * `outputs`, without copies. Every count, dtype, rank and dim is checked
 * against the signature first (symbolic dims: the inputs bind the symbols,
 * the where clauses must hold, and each output must have the shape
 * rlx_function_output_dims computes), and outputs may not overlap each other
 * or any input; nothing runs if a check fails. A function of a mesh module
 * takes whole inputs (it runs on this process's blocks of the split ones)
 * and writes this process's block of each split output; after its checks,
 * passed or failed, the processes agree (rlx_module_mesh_agree), and it runs
 * only if every process's checks passed: else PEER_FAILED on the others. */
RLX_API rlx_status_t rlx_function_invoke(const rlx_function_t *fn,
                                         rlx_tensor_t *const *inputs,
                                         size_t num_inputs,
                                         rlx_tensor_t *const *outputs,
                                         size_t num_outputs);

/* The time the last completed call of a function of `fn`'s module took on
 * its CUDA device (the functions of a module share one stream), in
 * milliseconds: CUDA events recorded on the stream before and after the
 * function's own work (its kernels, device copies and allocations, and the
 * gaps while the host launched them), so the runtime's copies of inputs and
 * outputs between host and device are not counted. INVALID_ARGUMENT for a
 * function that runs on the CPU, NOT_FOUND before a call has completed. */
RLX_API rlx_status_t rlx_function_device_time(const rlx_function_t *fn,
                                              double *ms_out);

/* Convenience path: validates like rlx_function_invoke, allocates the outputs
 * (symbolic dims take the sizes the inputs give them; a split output of a
 * mesh function is this process's block), runs `fn` and stores
 * the new tensors in `outputs_out[0..num_outputs)`, which the caller then
 * owns. On failure every entry is set to NULL. */
RLX_API rlx_status_t rlx_function_call(const rlx_function_t *fn,
                                       rlx_tensor_t *const *inputs,
                                       size_t num_inputs,
                                       rlx_tensor_t **outputs_out,
                                       size_t num_outputs);

/* ------------------------------------------------------------------------ */
/* Meshes                                                                   */
/* ------------------------------------------------------------------------ */

/* A module whose manifest has a "mesh" line runs once per process of an MPI
 * job (mpirun -np N, SPMD; docs/runtime.md, "Meshes"): each process loads
 * it, makes the same calls in the same order, and the module's compiled
 * code communicates through MPI. The runtime does not link MPI: the module
 * does, and exports rlx_mesh_start/_rank/_size/_any/_stop, which the runtime
 * calls. Callers pass whole (global) inputs; the runtime hands each process
 * its block of the inputs split over the mesh. A split output is this
 * process's block: rlx_function_output_dims gives its shape. */

/* The most axes a mesh has, and the most processes. */
#define RLX_MESH_MAX_RANK 4
#define RLX_MESH_MAX_PROCESSES 4096

/* A module's mesh and this process's place on it. Without a mesh line: rank
 * 0, dims NULL, one process, process 0. */
typedef struct rlx_mesh {
  size_t rank;          /* axes of the mesh */
  const int64_t *dims;  /* `rank` axis sizes, valid as long as the module */
  size_t num_processes; /* the product of the dims */
  size_t process;       /* this process's index: its MPI world rank */
  /* Its position on the mesh: `process` delinearized row-major over `dims`
   * (process = coords[0] * dims[1] + coords[1] on a 2-D mesh); entries past
   * `rank` are 0. */
  int64_t coords[RLX_MESH_MAX_RANK];
} rlx_mesh_t;

RLX_API rlx_status_t rlx_module_mesh(const rlx_module_t *module,
                                     rlx_mesh_t *out);

/* The mesh axes that split dim `dim` of input (output) `index`, major to
 * minor: writes them to `axes` (room for RLX_MESH_MAX_RANK; may be NULL)
 * and returns their count. 0 for a whole dim, an index or dim past the end,
 * and a module without a mesh. The type views of rlx_function_input_type and
 * _output_type keep the whole (global) shapes. */
RLX_API size_t rlx_function_input_split(const rlx_function_t *fn, size_t index,
                                        size_t dim, size_t *axes);
RLX_API size_t rlx_function_output_split(const rlx_function_t *fn, size_t index,
                                         size_t dim, size_t *axes);

/* A collective over the processes of `module`'s mesh: each process calls it
 * at the same point, with `failed` nonzero if it failed; `*any_failed_out`
 * (may be NULL) is then 1 if any of them did, else 0. Every call of a mesh
 * function makes one such agreement after its checks, so a process that
 * fails before it can make a call the others make (reading its inputs, say)
 * calls rlx_module_mesh_agree(module, 1, NULL) in its place: the others'
 * call then returns RLX_STATUS_PEER_FAILED without running. A module
 * without a mesh: `*any_failed_out` is `failed != 0`. */
RLX_API rlx_status_t rlx_module_mesh_agree(const rlx_module_t *module,
                                           int failed, int *any_failed_out);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RUNTIME_H */
