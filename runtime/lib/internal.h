/* Helpers shared by the runtime's translation units; not installed. */
#ifndef RLX_RUNTIME_INTERNAL_H
#define RLX_RUNTIME_INTERNAL_H

#include "rlx/runtime.h"

#include <stdbool.h>
#include <stdio.h>

#if defined(__GNUC__)
#define RLX_PRINTF(fmt_index, args_index)                                      \
  __attribute__((format(printf, fmt_index, args_index)))
#else
#define RLX_PRINTF(fmt_index, args_index)
#endif

/* Builds a status with a printf-style message. Never returns NULL: if the
 * message cannot be allocated, a static OUT_OF_MEMORY status is returned. */
rlx_status_t rlx_make_status(rlx_status_code_t code, const char *format, ...)
    RLX_PRINTF(2, 3);

struct rlx_tensor {
  rlx_dtype_t dtype;
  size_t rank;
  int64_t dims[RLX_MAX_RANK];
  size_t element_count;
  size_t byte_size;
  void *data;
  bool owns_data;
};

/* Enough for "[d0,...,d31]" with every dim at 20 characters, and the NUL. */
#define RLX_DIMS_TEXT_SIZE (3 + RLX_MAX_RANK * 21)

bool rlx_dtype_is_valid(rlx_dtype_t dtype);
/* True for c64 and c128. */
bool rlx_dtype_is_complex(rlx_dtype_t dtype);
/* The alignment in bytes an element needs: its size, but the size of one
 * part for a complex dtype (C's float _Complex is aligned as a float). */
size_t rlx_dtype_alignment(rlx_dtype_t dtype);

/* Writes "[2,3]" ("[]" for rank 0) into `buffer`, truncating to `size`, and
 * returns the length the full text needs. */
size_t rlx_format_dims(size_t rank, const int64_t *dims, char *buffer,
                       size_t size);

/* Validates a static shape: rank <= RLX_MAX_RANK, dims non-NULL when rank is
 * non-zero, every dim >= 0, and every row-major stride as well as the byte
 * size representable in int64_t and size_t. `what` names the shape's owner in
 * messages. On success stores the element count and byte size. */
rlx_status_t rlx_check_shape(const char *what, rlx_dtype_t dtype, size_t rank,
                             const int64_t *dims, size_t *count_out,
                             size_t *bytes_out);

/* Checks that the `size` bytes at `image`, the whole file `path`, are an
 * ELF shared object for this host whose headers, segments and section
 * header table lie within the file, so that mapping it cannot fault
 * (rlx_module_load runs this before dlopen). */
rlx_status_t rlx_check_elf_image(const char *path, const unsigned char *image,
                                 size_t size);

/* Parses `length` bytes of manifest text as rlx_module_load does, into a
 * module that names `path` and has no code: its functions cannot be
 * invoked. For the tests and the fuzzers; free it with rlx_module_free. */
rlx_status_t rlx_module_parse_manifest(const char *path, const char *text,
                                       size_t length, rlx_module_t **out);

/* ---- dim expressions (expr.c): the symbolic dims of manifest version 2 --- */

/* The longest expression a manifest may use, in characters, and its deepest
 * nesting of parentheses and unary minus. */
#define RLX_EXPR_MAX_LENGTH 512
#define RLX_EXPR_MAX_DEPTH 64

/* A parsed dim expression: a postfix program over int64 values. */
typedef struct rlx_expr {
  char *text;       /* as written in the manifest, NUL-terminated */
  int64_t *code;    /* the program (expr.c) */
  size_t length;    /* words of `code` */
  size_t symbol;    /* if the expression is one bare symbol, its index;
                       else SIZE_MAX */
  bool has_symbols; /* false for a constant expression */
} rlx_expr_t;

typedef enum rlx_expr_result {
  RLX_EXPR_OK,
  RLX_EXPR_OVERFLOW,         /* a result outside int64_t */
  RLX_EXPR_DIVISION_BY_ZERO, /* '/' or '%' by zero */
} rlx_expr_result_t;

/* Maps the symbol `name` (`length` bytes, not NUL-terminated) to its index,
 * or rejects it with a status. */
typedef rlx_status_t (*rlx_expr_resolver_t)(void *context, const char *name,
                                            size_t length, size_t *index);

/* Parses the `length` bytes at `text` into `out` (free it with
 * rlx_expr_free). An INVALID_FORMAT status says what is wrong with the
 * expression but not where it is; the caller adds that. */
rlx_status_t rlx_expr_compile(const char *text, size_t length,
                              rlx_expr_resolver_t resolve, void *context,
                              rlx_expr_t *out);
/* Frees the fields of `expr`; accepts NULL and a zeroed expression. */
void rlx_expr_free(rlx_expr_t *expr);
/* Evaluates `expr` with symbol i = symbols[i]; writes `out` only on
 * RLX_EXPR_OK. */
rlx_expr_result_t rlx_expr_evaluate(const rlx_expr_t *expr,
                                    const int64_t *symbols, int64_t *out);
/* Iterates over the symbols `expr` reads, in order and with repeats: start
 * with `*cursor` = 0; false at the end. */
bool rlx_expr_next_symbol(const rlx_expr_t *expr, size_t *cursor,
                          size_t *symbol);

/* Reads an .npy stream as rlx_npy_load reads the file `path`. `file_size`
 * is the stream's size in bytes, or -1 if unknown (a pipe): a header that
 * claims more data than a stream of known size holds is rejected before
 * anything is allocated. */
rlx_status_t rlx_npy_read(FILE *file, const char *path, int64_t file_size,
                          rlx_tensor_t **out);

/* INVALID_ARGUMENT if RLX_NUM_THREADS holds no valid thread count and the
 * program has not set one with rlx_set_num_threads; rlx_module_load fails
 * with it. */
rlx_status_t rlx_check_thread_environment(void);

#endif /* RLX_RUNTIME_INTERNAL_H */
