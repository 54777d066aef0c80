/* Module loading (dlopen + manifest parsing), introspection and invocation. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr1 */
#endif

#include "cuda_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <link.h>
#endif

_Static_assert(sizeof(void *) == sizeof(int64_t),
               "memref descriptors are built as arrays of 64-bit words");

typedef void (*rlx_invoke_fn)(void **args);
typedef void (*rlx_set_num_threads_fn)(int count);
typedef int32_t (*rlx_mesh_fn)(void);
typedef int32_t (*rlx_mesh_any_fn)(int32_t flag);

/* The mesh of a module with a "mesh" line, this process's place on it, and
 * the module's MPI entry points (rlx_mesh_*), which the runtime calls. */
typedef struct mesh {
  size_t rank;
  int64_t dims[RLX_MESH_MAX_RANK];
  size_t num_processes;
  size_t process; /* MPI world rank, once loaded */
  int64_t coords[RLX_MESH_MAX_RANK];
  rlx_mesh_fn start, world_rank, world_size, stop;
  rlx_mesh_any_fn any;
  bool joined; /* counted among the loaded mesh modules (mpi_users) */
} mesh_t;

/* "split <arg|res> <index> <dim> <axis> ...": dim `dim` of argument `arg`
 * (inputs, then outputs) is split in equal contiguous blocks over the mesh
 * axes `axes`, major to minor. */
typedef struct split {
  size_t arg;
  size_t dim;
  size_t num_axes;
  size_t axes[RLX_MESH_MAX_RANK];
  int64_t parts; /* the product of the axes' sizes */
} split_t;

/* A symbol of a function's symbolic dims (manifest version 2). The first
 * input dim that is the bare symbol binds it. */
typedef struct symbol {
  char *name;
  size_t name_length;
  bool bound;
  size_t input; /* the binding dim, once bound */
  size_t dim;
  size_t line; /* the manifest line that first uses it */
} symbol_t;

typedef enum relation { RELATION_EQ, RELATION_GE, RELATION_LE } relation_t;

/* "where <lhs> <relation> <rhs> [reason]" */
typedef struct where_clause {
  size_t lhs; /* indices into the function's exprs */
  size_t rhs;
  relation_t relation;
  char *text;   /* "<lhs> <relation> <rhs>" */
  char *reason; /* the rest of the line; may be empty */
} where_clause_t;

struct rlx_function {
  char *name;
  size_t num_inputs;
  size_t num_outputs;
  rlx_tensor_type_t *types; /* inputs, then outputs */
  int64_t *dims;            /* storage behind types[i].dims; a symbolic dim
                               is RLX_DIM_DYNAMIC */
  size_t descriptor_words;  /* 64-bit words of all argument descriptors */
  rlx_invoke_fn invoke;
  /* The module's omp_set_num_threads, or NULL if it has no OpenMP. */
  rlx_set_num_threads_fn set_num_threads;
  rlx_cuda_context_t cuda; /* the device its buffers live on, or NULL */

  /* Symbolic shapes (manifest version 2); all empty in a function whose
   * dims are static and that has no where clause. */
  size_t *dim_exprs; /* RLX_MAX_RANK per argument, like `dims`: 1 + the
                        index in `exprs` of a symbolic dim, 0 for a static
                        one; NULL while no dim is symbolic */
  rlx_expr_t *exprs; /* symbolic dims and both sides of where clauses */
  size_t num_exprs;
  size_t exprs_capacity;
  symbol_t *symbols;
  size_t num_symbols;
  size_t symbols_capacity;
  where_clause_t *wheres;
  size_t num_wheres;
  size_t wheres_capacity;

  /* Meshes: the module's mesh once loaded (NULL without a mesh line, and in
   * a module that was only parsed), the split lines, and the dims each
   * argument has in this process, like `dims` but with the split dims
   * divided (NULL while nothing is split). */
  const mesh_t *mesh;
  split_t *splits;
  size_t num_splits;
  size_t splits_capacity;
  int64_t *local_dims;
  bool splits_inputs; /* some split line is "split arg" */
};

struct rlx_module {
  char *path;
  void *handle;
  bool on_cuda; /* the manifest says "target cuda" */
  rlx_cuda_context_t cuda;
  size_t num_functions;
  rlx_function_t *functions;
  /* The C functions of the module's rlx.custom_calls ("custom" lines). */
  size_t num_custom_functions;
  char **custom_functions;
  bool has_mesh; /* the manifest has a "mesh" line */
  mesh_t mesh;
};

/* ---- manifest parsing ---------------------------------------------------- */

typedef struct token {
  const char *text;
  size_t length;
} token_t;

/* "arg <dtype> <rank> <dims...>" is the longest line. */
#define MAX_TOKENS (3 + RLX_MAX_RANK)

typedef struct parser {
  const char *path;
  const char *cursor;
  const char *end;
  uint64_t version;  /* the header's, once read */
  size_t line;       /* 1-based number of the current line */
  size_t lines_left; /* upper bound on the lines after the current one */
  token_t tokens[MAX_TOKENS];
  size_t num_tokens;
  /* A "where" line of version 2 has four tokens and then its reason: the
   * rest of the line, from `rest` to `line_end`. */
  const char *rest;
  const char *line_end;
} parser_t;

static rlx_status_t parse_error(const parser_t *p, const char *format, ...)
    RLX_PRINTF(2, 3);

static rlx_status_t parse_error(const parser_t *p, const char *format, ...) {
  char detail[512];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof(detail), format, args);
  va_end(args);
  return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                         "malformed manifest in '%s': line %zu: %s", p->path,
                         p->line, detail);
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Length of a token as printed in messages; keeps junk input readable. */
static int shown(const token_t *t) {
  return t->length > 64 ? 64 : (int)t->length;
}

static bool token_is(const token_t *t, const char *word) {
  return strlen(word) == t->length && memcmp(t->text, word, t->length) == 0;
}

/* Advances to the next non-blank line and splits it into tokens. Sets
 * `*found` to false at the end of the manifest. */
static rlx_status_t next_line(parser_t *p, bool *found) {
  for (;;) {
    if (p->cursor >= p->end) {
      *found = false;
      return NULL;
    }
    const char *line_end =
        memchr(p->cursor, '\n', (size_t)(p->end - p->cursor));
    if (!line_end)
      line_end = p->end;
    ++p->line;
    --p->lines_left;
    p->num_tokens = 0;
    const char *c = p->cursor;
    p->cursor = line_end < p->end ? line_end + 1 : p->end;
    p->rest = line_end;
    p->line_end = line_end;
    while (c < line_end) {
      while (c < line_end && is_space(*c))
        ++c;
      if (c == line_end)
        break;
      if (p->num_tokens == MAX_TOKENS)
        return parse_error(p, "too many tokens (at most %d)", MAX_TOKENS);
      token_t *t = &p->tokens[p->num_tokens++];
      t->text = c;
      while (c < line_end && !is_space(*c))
        ++c;
      t->length = (size_t)(c - t->text);
      if (p->version >= 2 && p->num_tokens == 4 &&
          token_is(&p->tokens[0], "where")) {
        p->rest = c; /* the reason: free text */
        break;
      }
    }
    if (p->num_tokens > 0) {
      *found = true;
      return NULL;
    }
  }
}

/* Parses a decimal integer in [0, max]; no sign, no spaces. */
static rlx_status_t parse_uint(const parser_t *p, const token_t *t,
                               const char *what, uint64_t max, uint64_t *out) {
  uint64_t value = 0;
  for (size_t i = 0; i < t->length; ++i) {
    char c = t->text[i];
    if (c < '0' || c > '9')
      return parse_error(p, "%s '%.*s' is not a non-negative integer", what,
                         shown(t), t->text);
    unsigned digit = (unsigned)(c - '0');
    if (digit > max || value > (max - digit) / 10)
      return parse_error(p, "%s '%.*s' is too large (at most %" PRIu64 ")",
                         what, shown(t), t->text, max);
    value = value * 10 + digit;
  }
  *out = value;
  return NULL;
}

static bool is_identifier(const token_t *t) {
  for (size_t i = 0; i < t->length; ++i) {
    char c = t->text[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && (i == 0 || c < '0' || c > '9'))
      return false;
  }
  return t->length > 0;
}

/* Makes room for element `count` of an array of `size`-byte elements with
 * `*capacity` slots. Returns the (possibly moved) array, or NULL when out
 * of memory, leaving `array` as it was. */
static void *grow(void *array, size_t *capacity, size_t count, size_t size) {
  if (count < *capacity)
    return array;
  size_t new_capacity = *capacity ? 2 * *capacity : 4;
  if (new_capacity > SIZE_MAX / size)
    return NULL;
  void *grown = realloc(array, new_capacity * size);
  if (grown)
    *capacity = new_capacity;
  return grown;
}

static rlx_status_t manifest_out_of_memory(const parser_t *p) {
  return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                         "out of memory reading the manifest of '%s'", p->path);
}

/* Turns a status about an expression (INVALID_FORMAT, which does not say
 * where the expression is) into a parse error at the current line, after
 * `prefix`. Other statuses pass through. */
static rlx_status_t locate(const parser_t *p, rlx_status_t status,
                           const char *prefix) {
  if (!status || rlx_status_code(status) != RLX_STATUS_INVALID_FORMAT)
    return status;
  rlx_status_t error =
      parse_error(p, "%s: %s", prefix, rlx_status_message(status));
  rlx_status_free(status);
  return error;
}

/* Resolves the symbols of expressions: in the arg lines a new symbol joins
 * the function's table (an input dim must bind it later); elsewhere every
 * symbol must already be there. */
typedef struct resolver {
  const parser_t *p;
  rlx_function_t *fn;
  bool may_add;
} resolver_t;

static rlx_status_t resolve_symbol(void *context, const char *name,
                                   size_t length, size_t *index) {
  resolver_t *r = context;
  rlx_function_t *fn = r->fn;
  for (size_t i = 0; i < fn->num_symbols; ++i) {
    if (fn->symbols[i].name_length == length &&
        memcmp(fn->symbols[i].name, name, length) == 0) {
      *index = i;
      return NULL;
    }
  }
  int shown_length = length > 64 ? 64 : (int)length;
  if (!r->may_add)
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "symbol '%.*s' of '%s' is not bound by any input",
                           shown_length, name, fn->name);
  symbol_t *grown =
      grow(fn->symbols, &fn->symbols_capacity, fn->num_symbols, sizeof(*grown));
  if (!grown)
    return manifest_out_of_memory(r->p);
  fn->symbols = grown;
  symbol_t *symbol = &fn->symbols[fn->num_symbols];
  memset(symbol, 0, sizeof(*symbol));
  symbol->name = malloc(length + 1);
  if (!symbol->name)
    return manifest_out_of_memory(r->p);
  memcpy(symbol->name, name, length);
  symbol->name[length] = '\0';
  symbol->name_length = length;
  symbol->line = r->p->line;
  *index = fn->num_symbols++;
  return NULL;
}

/* Parses the token `t`, an expression of `fn`'s symbols, into `expr`;
 * errors name it `what`. */
static rlx_status_t parse_expr(parser_t *p, rlx_function_t *fn,
                               const token_t *t, bool may_add_symbols,
                               const char *what, rlx_expr_t *expr) {
  resolver_t resolver = {.p = p, .fn = fn, .may_add = may_add_symbols};
  rlx_status_t status =
      rlx_expr_compile(t->text, t->length, resolve_symbol, &resolver, expr);
  return locate(p, status, what);
}

/* Moves `expr` into the function's exprs (or frees it, out of memory) and
 * stores its index in `*index`. */
static rlx_status_t store_expr(parser_t *p, rlx_function_t *fn,
                               rlx_expr_t *expr, size_t *index) {
  rlx_expr_t *grown =
      grow(fn->exprs, &fn->exprs_capacity, fn->num_exprs, sizeof(*grown));
  if (!grown) {
    rlx_expr_free(expr);
    return manifest_out_of_memory(p);
  }
  fn->exprs = grown;
  fn->exprs[fn->num_exprs] = *expr;
  *index = fn->num_exprs++;
  return NULL;
}

static bool is_number(const token_t *t) {
  for (size_t i = 0; i < t->length; ++i)
    if (t->text[i] < '0' || t->text[i] > '9')
      return false;
  return t->length > 0;
}

/* Parses dim `d` of argument `arg`: a number or, from version 2 on, a
 * symbol or an expression. A symbol the inputs have not bound yet is bound
 * by an input dim that is that bare symbol. An expression without symbols
 * is folded into a static dim. */
static rlx_status_t parse_dim(parser_t *p, rlx_function_t *fn, size_t arg,
                              size_t d, const token_t *t, const char *what) {
  int64_t *dim = &fn->dims[arg * RLX_MAX_RANK + d];
  if (p->version < 2 || is_number(t)) {
    uint64_t value = 0;
    rlx_status_t status = parse_uint(p, t, "dim", INT64_MAX, &value);
    if (!status)
      *dim = (int64_t)value;
    return status;
  }

  bool is_input = arg < fn->num_inputs;
  char prefix[160];
  snprintf(prefix, sizeof(prefix), "dim %zu of %s", d, what);
  rlx_expr_t expr;
  memset(&expr, 0, sizeof(expr));
  rlx_status_t status = parse_expr(p, fn, t, is_input, prefix, &expr);
  if (status)
    return status;
  if (!expr.has_symbols) {
    int64_t value = 0;
    rlx_expr_result_t result = rlx_expr_evaluate(&expr, NULL, &value);
    rlx_expr_free(&expr);
    if (result != RLX_EXPR_OK)
      return parse_error(p, "%s: '%.*s' %s", prefix, shown(t), t->text,
                         result == RLX_EXPR_OVERFLOW ? "overflows int64"
                                                     : "divides by zero");
    if (value < 0)
      return parse_error(p, "%s: '%.*s' is negative (%" PRId64 ")", prefix,
                         shown(t), t->text, value);
    *dim = value;
    return NULL;
  }

  if (!fn->dim_exprs) {
    fn->dim_exprs = calloc((fn->num_inputs + fn->num_outputs) * RLX_MAX_RANK,
                           sizeof(*fn->dim_exprs));
    if (!fn->dim_exprs) {
      rlx_expr_free(&expr);
      return manifest_out_of_memory(p);
    }
  }
  size_t symbol = expr.symbol;
  size_t index = 0;
  status = store_expr(p, fn, &expr, &index);
  if (status)
    return status;
  fn->dim_exprs[arg * RLX_MAX_RANK + d] = index + 1;
  *dim = RLX_DIM_DYNAMIC;
  /* Only a bare symbol binds: "(S)" or "S+0" is an expression. */
  if (is_input && is_identifier(t) && !fn->symbols[symbol].bound) {
    fn->symbols[symbol].bound = true;
    fn->symbols[symbol].input = arg;
    fn->symbols[symbol].dim = d;
  }
  return NULL;
}

/* Parses "<kind> <dtype> <rank> <d0> ..." into argument `arg` of `fn`,
 * input or output `index`. */
static rlx_status_t parse_type_line(parser_t *p, const char *kind,
                                    rlx_function_t *fn, size_t index,
                                    size_t arg) {
  rlx_tensor_type_t *type = &fn->types[arg];
  int64_t *dims = &fn->dims[arg * RLX_MAX_RANK];
  const token_t *t = p->tokens;
  if (!token_is(&t[0], kind))
    return parse_error(p, "expected '%s' line %zu of function '%s', got '%.*s'",
                       kind, index, fn->name, shown(&t[0]), t[0].text);
  if (p->num_tokens < 3)
    return parse_error(p, "'%s' line needs a dtype and a rank", kind);

  char dtype_name[8];
  bool dtype_ok = t[1].length < sizeof(dtype_name);
  if (dtype_ok) {
    memcpy(dtype_name, t[1].text, t[1].length);
    dtype_name[t[1].length] = '\0';
    rlx_status_t status = rlx_dtype_from_name(dtype_name, &type->dtype);
    dtype_ok = status == NULL;
    rlx_status_free(status);
  }
  if (!dtype_ok)
    return parse_error(p, "unknown dtype '%.*s'", shown(&t[1]), t[1].text);

  uint64_t rank = 0;
  rlx_status_t status = parse_uint(p, &t[2], "rank", RLX_MAX_RANK, &rank);
  if (status)
    return status;
  if (p->num_tokens != 3 + rank)
    return parse_error(p, "rank %" PRIu64 " needs %" PRIu64 " dim%s, got %zu",
                       rank, rank, rank == 1 ? "" : "s", p->num_tokens - 3);
  char what[96];
  snprintf(what, sizeof(what), "%s %zu of '%s'",
           token_is(&t[0], "arg") ? "input" : "output", index, fn->name);
  bool is_static = true;
  for (size_t i = 0; i < rank; ++i) {
    status = parse_dim(p, fn, arg, i, &t[3 + i], what);
    if (status)
      return status;
    is_static &= dims[i] != RLX_DIM_DYNAMIC;
  }
  type->rank = (size_t)rank;
  type->dims = rank > 0 ? dims : NULL;

  /* A symbolic shape's size is checked at each call, once it is known. */
  if (!is_static)
    return NULL;
  size_t count, bytes;
  status = rlx_check_shape(what, type->dtype, type->rank, dims, &count, &bytes);
  if (status) {
    rlx_status_t error = parse_error(p, "%s", rlx_status_message(status));
    rlx_status_free(status);
    return error;
  }
  return NULL;
}

/* Parses "where <lhs> <relation> <rhs> [reason]". */
static rlx_status_t parse_where(parser_t *p, rlx_function_t *fn) {
  const token_t *t = p->tokens;
  if (p->num_tokens < 4)
    return parse_error(p, "expected 'where <expr> <relation> <expr> "
                          "[reason]' (relations: ==, >=, <=)");
  relation_t relation;
  if (token_is(&t[2], "=="))
    relation = RELATION_EQ;
  else if (token_is(&t[2], ">="))
    relation = RELATION_GE;
  else if (token_is(&t[2], "<="))
    relation = RELATION_LE;
  else
    return parse_error(p,
                       "unknown relation '%.*s' in a where clause of '%s' "
                       "(expected ==, >= or <=)",
                       shown(&t[2]), t[2].text, fn->name);

  where_clause_t *grown =
      grow(fn->wheres, &fn->wheres_capacity, fn->num_wheres, sizeof(*grown));
  if (!grown)
    return manifest_out_of_memory(p);
  fn->wheres = grown;
  where_clause_t *clause = &fn->wheres[fn->num_wheres];
  memset(clause, 0, sizeof(*clause));
  clause->relation = relation;

  char prefix[96];
  snprintf(prefix, sizeof(prefix), "where clause of '%s'", fn->name);
  for (int side = 0; side < 2; ++side) {
    rlx_expr_t expr;
    memset(&expr, 0, sizeof(expr));
    rlx_status_t status =
        parse_expr(p, fn, &t[side ? 3 : 1], false, prefix, &expr);
    if (!status)
      status = store_expr(p, fn, &expr, side ? &clause->rhs : &clause->lhs);
    if (status)
      return status;
  }

  const char *reason = p->rest, *reason_end = p->line_end;
  while (reason < reason_end && is_space(*reason))
    ++reason;
  while (reason_end > reason && is_space(reason_end[-1]))
    --reason_end;
  size_t reason_length = (size_t)(reason_end - reason);
  size_t text_length = t[1].length + t[2].length + t[3].length + 2;
  clause->text = malloc(text_length + 1);
  clause->reason = malloc(reason_length + 1);
  if (!clause->text || !clause->reason) {
    free(clause->text);
    free(clause->reason);
    return manifest_out_of_memory(p);
  }
  snprintf(clause->text, text_length + 1, "%.*s %.*s %.*s", (int)t[1].length,
           t[1].text, (int)t[2].length, t[2].text, (int)t[3].length, t[3].text);
  memcpy(clause->reason, reason, reason_length);
  clause->reason[reason_length] = '\0';
  ++fn->num_wheres;
  return NULL;
}

static void free_function_fields(rlx_function_t *fn) {
  free(fn->name);
  free(fn->types);
  free(fn->dims);
  free(fn->dim_exprs);
  for (size_t i = 0; i < fn->num_exprs; ++i)
    rlx_expr_free(&fn->exprs[i]);
  free(fn->exprs);
  for (size_t i = 0; i < fn->num_symbols; ++i)
    free(fn->symbols[i].name);
  free(fn->symbols);
  for (size_t i = 0; i < fn->num_wheres; ++i) {
    free(fn->wheres[i].text);
    free(fn->wheres[i].reason);
  }
  free(fn->wheres);
  free(fn->splits);
  free(fn->local_dims);
}

/* Parses "split <arg|res> <index> <dim> <axis> [<axis> ...]" (after the
 * function's arg and res lines). */
static rlx_status_t parse_split(parser_t *p, const rlx_module_t *module,
                                rlx_function_t *fn) {
  const token_t *t = p->tokens;
  if (!module->has_mesh)
    return parse_error(p,
                       "'split' line of '%s' without a 'mesh' line (a "
                       "module that splits tensors declares its mesh after "
                       "the header)",
                       fn->name);
  if (p->num_tokens < 5)
    return parse_error(p, "expected 'split <arg|res> <index> <dim> <axis> "
                          "[<axis> ...]'");
  bool input = token_is(&t[1], "arg");
  if (!input && !token_is(&t[1], "res"))
    return parse_error(p,
                       "expected 'split arg' or 'split res', got 'split "
                       "%.*s'",
                       shown(&t[1]), t[1].text);
  const char *noun = input ? "input" : "output";
  size_t count = input ? fn->num_inputs : fn->num_outputs;
  uint64_t index = 0, dim = 0;
  rlx_status_t status = parse_uint(p, &t[2], "split index", UINT32_MAX, &index);
  if (!status)
    status = parse_uint(p, &t[3], "split dim", UINT32_MAX, &dim);
  if (status)
    return status;
  if (index >= count)
    return parse_error(p, "split of %s %" PRIu64 ": '%s' has %zu %s%s", noun,
                       index, fn->name, count, noun, count == 1 ? "" : "s");
  size_t arg = input ? (size_t)index : fn->num_inputs + (size_t)index;
  const rlx_tensor_type_t *type = &fn->types[arg];
  if (dim >= type->rank)
    return parse_error(p,
                       "split of dim %" PRIu64 " of %s %" PRIu64
                       " of '%s', which has rank %zu",
                       dim, noun, index, fn->name, type->rank);
  if (type->dims[dim] == RLX_DIM_DYNAMIC)
    return parse_error(
        p,
        "dim %" PRIu64 " of %s %" PRIu64 " of '%s' is "
        "symbolic ('%s'): only a static dim can be split",
        dim, noun, index, fn->name,
        fn->exprs[fn->dim_exprs[arg * RLX_MAX_RANK + dim] - 1].text);

  split_t split = {.arg = arg, .dim = (size_t)dim, .parts = 1};
  for (size_t i = 4; i < p->num_tokens; ++i) {
    uint64_t axis = 0;
    status = parse_uint(p, &t[i], "mesh axis", UINT32_MAX, &axis);
    if (status)
      return status;
    if (axis >= module->mesh.rank)
      return parse_error(p,
                         "mesh axis %" PRIu64 " is out of range: the mesh "
                         "has %zu ax%s",
                         axis, module->mesh.rank,
                         module->mesh.rank == 1 ? "is" : "es");
    bool repeated = false;
    for (size_t j = 0; j < split.num_axes; ++j)
      repeated |= split.axes[j] == axis;
    for (size_t k = 0; k < fn->num_splits; ++k)
      for (size_t j = 0; fn->splits[k].arg == arg && j < fn->splits[k].num_axes;
           ++j)
        repeated |= fn->splits[k].axes[j] == axis;
    if (repeated)
      return parse_error(p,
                         "mesh axis %" PRIu64 " splits %s %" PRIu64
                         " of '%s' twice (an axis splits a tensor once)",
                         axis, noun, index, fn->name);
    /* Each axis at most once, so at most RLX_MESH_MAX_RANK of them. */
    split.axes[split.num_axes++] = (size_t)axis;
    split.parts *= module->mesh.dims[axis];
  }
  for (size_t k = 0; k < fn->num_splits; ++k)
    if (fn->splits[k].arg == arg && fn->splits[k].dim == dim)
      return parse_error(p,
                         "dim %" PRIu64 " of %s %" PRIu64 " of '%s' is "
                         "split twice",
                         dim, noun, index, fn->name);
  if (type->dims[dim] % split.parts != 0)
    return parse_error(p,
                       "dim %" PRIu64 " of %s %" PRIu64 " of '%s' is %" PRId64
                       ", which does not split into %" PRId64 " equal blocks",
                       dim, noun, index, fn->name, type->dims[dim],
                       split.parts);

  size_t num_args = fn->num_inputs + fn->num_outputs;
  if (!fn->local_dims) {
    fn->local_dims = malloc(num_args * RLX_MAX_RANK * sizeof(*fn->local_dims));
    if (!fn->local_dims)
      return manifest_out_of_memory(p);
    memcpy(fn->local_dims, fn->dims,
           num_args * RLX_MAX_RANK * sizeof(*fn->local_dims));
  }
  split_t *grown =
      grow(fn->splits, &fn->splits_capacity, fn->num_splits, sizeof(*grown));
  if (!grown)
    return manifest_out_of_memory(p);
  fn->splits = grown;
  fn->splits[fn->num_splits++] = split;
  fn->local_dims[arg * RLX_MAX_RANK + dim] = type->dims[dim] / split.parts;
  fn->splits_inputs |= input;
  return NULL;
}

/* Parses the "func" line at the parser's position, its arg/res lines and
 * (version 2) its where and split lines. Leaves the parser on the line after
 * them, with `*found` false at the end of the manifest. */
static rlx_status_t parse_function(parser_t *p, const rlx_module_t *module,
                                   rlx_function_t *fn, bool *found) {
  const token_t *t = p->tokens;
  if (!token_is(&t[0], "func"))
    return parse_error(p, "expected a 'func' line, got '%.*s'", shown(&t[0]),
                       t[0].text);
  if (p->num_tokens != 4)
    return parse_error(p, "expected 'func <name> <num_inputs> <num_outputs>'");
  if (!is_identifier(&t[1]))
    return parse_error(p, "function name '%.*s' is not a C identifier",
                       shown(&t[1]), t[1].text);
  for (size_t i = 0; i < module->num_functions; ++i)
    if (token_is(&t[1], module->functions[i].name))
      return parse_error(p, "duplicate function '%s'",
                         module->functions[i].name);

  /* Each argument takes a line, which bounds the allocations below by the
   * manifest's size. */
  uint64_t num_inputs = 0, num_outputs = 0;
  rlx_status_t status =
      parse_uint(p, &t[2], "input count", p->lines_left, &num_inputs);
  if (!status)
    status = parse_uint(p, &t[3], "output count", p->lines_left - num_inputs,
                        &num_outputs);
  if (status)
    return status;

  fn->name = malloc(t[1].length + 1);
  size_t num_args = (size_t)(num_inputs + num_outputs);
  fn->types = calloc(num_args ? num_args : 1, sizeof(*fn->types));
  fn->dims = calloc(num_args ? num_args * RLX_MAX_RANK : 1, sizeof(*fn->dims));
  if (!fn->name || !fn->types || !fn->dims)
    return manifest_out_of_memory(p);
  memcpy(fn->name, t[1].text, t[1].length);
  fn->name[t[1].length] = '\0';
  fn->num_inputs = (size_t)num_inputs;
  fn->num_outputs = (size_t)num_outputs;

  for (size_t i = 0; i < num_args; ++i) {
    bool is_input = i < fn->num_inputs;
    size_t index = is_input ? i : i - fn->num_inputs;
    status = next_line(p, found);
    if (status)
      return status;
    if (!*found)
      return parse_error(p,
                         "manifest ends inside function '%s' (%s %zu of %zu "
                         "missing)",
                         fn->name, is_input ? "input" : "output", index,
                         is_input ? fn->num_inputs : fn->num_outputs);
    status = parse_type_line(p, is_input ? "arg" : "res", fn, index, i);
    if (status)
      return status;
    fn->descriptor_words += 3 + 2 * fn->types[i].rank;

    /* After the arg lines, every symbol must be bound: the res lines and
     * where clauses only use symbols. */
    for (size_t s = 0; i + 1 == fn->num_inputs && s < fn->num_symbols; ++s)
      if (!fn->symbols[s].bound)
        return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                               "malformed manifest in '%s': line %zu: symbol "
                               "'%.*s' of '%s' is not bound by any input",
                               p->path, fn->symbols[s].line,
                               fn->symbols[s].name_length > 64
                                   ? 64
                                   : (int)fn->symbols[s].name_length,
                               fn->symbols[s].name, fn->name);
  }

  for (;;) {
    status = next_line(p, found);
    if (status || !*found || p->version < 2)
      return status;
    if (token_is(&p->tokens[0], "where"))
      status = parse_where(p, fn);
    else if (token_is(&p->tokens[0], "split"))
      status = parse_split(p, module, fn);
    else
      return NULL;
    if (status)
      return status;
  }
}

/* Parses "target <cpu|cuda>", the line after the header if any. */
static rlx_status_t parse_target(parser_t *p, rlx_module_t *module) {
  if (p->num_tokens != 2)
    return parse_error(p, "expected 'target cpu' or 'target cuda'");
  const token_t *target = &p->tokens[1];
  if (!token_is(target, "cpu") && !token_is(target, "cuda"))
    return parse_error(p, "unknown target '%.*s' (expected cpu or cuda)",
                       shown(target), target->text);
  module->on_cuda = token_is(target, "cuda");
  return NULL;
}

/* Parses "mesh <rank> <d0> ...", the line after the header (and target
 * line) if any. */
static rlx_status_t parse_mesh(parser_t *p, rlx_module_t *module) {
  if (p->version < 2)
    return parse_error(p, "a 'mesh' line needs manifest version 2");
  if (module->on_cuda)
    return rlx_make_status(RLX_STATUS_UNIMPLEMENTED,
                           "module '%s': line %zu: a 'target cuda' module on "
                           "a mesh is not supported yet",
                           p->path, p->line);
  if (p->num_tokens < 3)
    return parse_error(p, "expected 'mesh <rank> <size> ...' (e.g. 'mesh 1 "
                          "2', 'mesh 2 2 4')");
  uint64_t rank = 0;
  rlx_status_t status =
      parse_uint(p, &p->tokens[1], "mesh rank", RLX_MESH_MAX_RANK, &rank);
  if (status)
    return status;
  if (rank == 0)
    return parse_error(p, "a mesh has 1 to %d axes, got rank 0",
                       RLX_MESH_MAX_RANK);
  if (p->num_tokens != 2 + rank)
    return parse_error(
        p, "a mesh of rank %" PRIu64 " needs %" PRIu64 " size%s, got %zu", rank,
        rank, rank == 1 ? "" : "s", p->num_tokens - 2);
  uint64_t processes = 1;
  for (size_t i = 0; i < rank; ++i) {
    uint64_t size = 0;
    status = parse_uint(p, &p->tokens[2 + i], "mesh size",
                        RLX_MESH_MAX_PROCESSES, &size);
    if (status)
      return status;
    if (size == 0)
      return parse_error(p, "mesh axis %zu has size 0 (at least 1)", i);
    /* At most 4 factors of at most 4096: no overflow. */
    processes *= size;
    module->mesh.dims[i] = (int64_t)size;
  }
  if (processes > RLX_MESH_MAX_PROCESSES)
    return parse_error(p,
                       "a mesh of %" PRIu64 " processes is too large (at "
                       "most %d)",
                       processes, RLX_MESH_MAX_PROCESSES);
  module->has_mesh = true;
  module->mesh.rank = (size_t)rank;
  module->mesh.num_processes = (size_t)processes;
  return NULL;
}

/* A "mesh" line anywhere but right after the header and target line. */
static rlx_status_t misplaced_mesh(const parser_t *p,
                                   const rlx_module_t *module) {
  if (module->has_mesh)
    return parse_error(p, "a second 'mesh' line (a module has one mesh)");
  return parse_error(p, "the 'mesh' line comes right after the header (and "
                        "the 'target' line), before 'custom' and 'func' "
                        "lines");
}

/* Parses a "custom <name>" line: a C function the module calls. Each line
 * is one allocation, which the manifest's size bounds. */
static rlx_status_t parse_custom(parser_t *p, rlx_module_t *module) {
  const token_t *name = &p->tokens[1];
  if (p->num_tokens != 2)
    return parse_error(p, "expected 'custom <name>'");
  if (!is_identifier(name))
    return parse_error(p, "custom function name '%.*s' is not a C identifier",
                       shown(name), name->text);
  for (size_t i = 0; i < module->num_custom_functions; ++i)
    if (token_is(name, module->custom_functions[i]))
      return parse_error(p, "duplicate custom function '%s'",
                         module->custom_functions[i]);
  char **grown = realloc(module->custom_functions,
                         (module->num_custom_functions + 1) * sizeof(*grown));
  if (!grown)
    return manifest_out_of_memory(p);
  module->custom_functions = grown;
  char *copy = malloc(name->length + 1);
  if (!copy)
    return manifest_out_of_memory(p);
  memcpy(copy, name->text, name->length);
  copy[name->length] = '\0';
  module->custom_functions[module->num_custom_functions++] = copy;
  return NULL;
}

static rlx_status_t parse_manifest(rlx_module_t *module, const char *text,
                                   size_t length) {
  parser_t p = {.path = module->path, .cursor = text, .end = text + length};
  p.lines_left = 1;
  for (size_t i = 0; i < length; ++i)
    p.lines_left += text[i] == '\n';

  bool found;
  rlx_status_t status = next_line(&p, &found);
  if (status)
    return status;
  if (!found)
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "malformed manifest in '%s': it is empty",
                           module->path);
  if (p.num_tokens != 2 || !token_is(&p.tokens[0], "rlx-module"))
    return parse_error(&p, "expected the header 'rlx-module 1' or "
                           "'rlx-module 2'");
  uint64_t version = 0;
  status = parse_uint(&p, &p.tokens[1], "version", UINT32_MAX, &version);
  if (status)
    return status;
  if (version != 1 && version != 2)
    return rlx_make_status(RLX_STATUS_UNIMPLEMENTED,
                           "module '%s' has manifest version %" PRIu64
                           "; this runtime reads versions 1 and 2",
                           module->path, version);
  p.version = version;

  status = next_line(&p, &found);
  if (!status && found && token_is(&p.tokens[0], "target")) {
    status = parse_target(&p, module);
    if (!status)
      status = next_line(&p, &found);
  }
  if (!status && found && token_is(&p.tokens[0], "mesh")) {
    status = parse_mesh(&p, module);
    if (!status)
      status = next_line(&p, &found);
  }
  while (!status && found && token_is(&p.tokens[0], "custom")) {
    status = parse_custom(&p, module);
    if (!status)
      status = next_line(&p, &found);
  }
  size_t capacity = 0;
  while (!status && found) {
    if (token_is(&p.tokens[0], "mesh"))
      return misplaced_mesh(&p, module);
    rlx_function_t *grown = grow(module->functions, &capacity,
                                 module->num_functions, sizeof(*grown));
    if (!grown)
      return manifest_out_of_memory(&p);
    module->functions = grown;
    rlx_function_t *fn = &module->functions[module->num_functions];
    memset(fn, 0, sizeof(*fn));
    status = parse_function(&p, module, fn, &found);
    if (status) {
      free_function_fields(fn);
      return status;
    }
    ++module->num_functions;
  }
  return status;
}

rlx_status_t rlx_module_parse_manifest(const char *path, const char *text,
                                       size_t length, rlx_module_t **out) {
  rlx_module_t *module = calloc(1, sizeof(*module));
  if (module)
    module->path = strdup(path);
  if (!module || !module->path) {
    free(module);
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "out of memory reading the manifest of '%s'", path);
  }
  rlx_status_t status = parse_manifest(module, text, length);
  if (status) {
    rlx_module_free(module);
    return status;
  }
  *out = module;
  return NULL;
}

/* ---- ELF check ------------------------------------------------------------ */

/* dlopen maps a file's segments as its headers describe them: a segment
 * past the end of the file (a truncated module) maps, and touching it then
 * raises SIGBUS. So the loader checks the headers against the file first. */

#if defined(__x86_64__)
#define RLX_HOST_ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define RLX_HOST_ELF_MACHINE EM_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define RLX_HOST_ELF_MACHINE EM_RISCV
#elif defined(__powerpc64__)
#define RLX_HOST_ELF_MACHINE EM_PPC64
#else
#error "the runtime needs the ELF machine number of this host"
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RLX_HOST_ELF_DATA ELFDATA2MSB
#else
#define RLX_HOST_ELF_DATA ELFDATA2LSB
#endif

static rlx_status_t elf_error(const char *path, const char *format, ...)
    RLX_PRINTF(2, 3);

static rlx_status_t elf_error(const char *path, const char *format, ...) {
  char detail[256];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof(detail), format, args);
  va_end(args);
  return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                         "cannot load module '%s': %s", path, detail);
}

/* Whether `count` entries of `entry_size` bytes from `offset` lie within a
 * file of `size` bytes. */
static bool table_fits(uint64_t offset, uint64_t count, uint64_t entry_size,
                       size_t size) {
  return offset <= size && (entry_size == 0 || count <= (size - offset) /
                                                            entry_size);
}

rlx_status_t rlx_check_elf_image(const char *path, const unsigned char *image,
                                 size_t size) {
  Elf64_Ehdr header;
  if (size < sizeof(header) || memcmp(image, ELFMAG, SELFMAG) != 0)
    return elf_error(path, "not an ELF file");
  memcpy(&header, image, sizeof(header));
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != RLX_HOST_ELF_DATA ||
      header.e_ident[EI_VERSION] != EV_CURRENT ||
      header.e_machine != RLX_HOST_ELF_MACHINE)
    return elf_error(path,
                     "an ELF file for another machine (class %u, data %u, "
                     "machine %u; this host has class %u, data %u, machine "
                     "%u)",
                     header.e_ident[EI_CLASS], header.e_ident[EI_DATA],
                     header.e_machine, ELFCLASS64, RLX_HOST_ELF_DATA,
                     RLX_HOST_ELF_MACHINE);
  if (header.e_type != ET_DYN)
    return elf_error(path, "not a shared object (ELF type %u)",
                     header.e_type);
  if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0 ||
      header.e_phnum == PN_XNUM)
    return elf_error(path,
                     "malformed ELF header: %u program headers of %u bytes",
                     header.e_phnum, header.e_phentsize);
  if (!table_fits(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr), size))
    return elf_error(path,
                     "truncated ELF file: the program headers end past its "
                     "%zu bytes",
                     size);

  /* Section headers: dlopen does not read them, but a table past the end
   * is the mark of a truncated file. Past 0xff00 sections the count is in
   * section 0's sh_size. */
  if (header.e_shoff != 0) {
    if (header.e_shentsize != sizeof(Elf64_Shdr))
      return elf_error(path, "malformed ELF header: sections of %u bytes",
                       header.e_shentsize);
    uint64_t sections = header.e_shnum;
    if (!table_fits(header.e_shoff, 1, sizeof(Elf64_Shdr), size))
      return elf_error(path,
                       "truncated ELF file: the section headers start past "
                       "its %zu bytes",
                       size);
    if (sections == 0) {
      Elf64_Shdr first;
      memcpy(&first, image + header.e_shoff, sizeof(first));
      sections = first.sh_size;
    }
    if (!table_fits(header.e_shoff, sections, sizeof(Elf64_Shdr), size))
      return elf_error(path,
                       "truncated ELF file: %" PRIu64 " section headers at "
                       "offset %" PRIu64 " end past its %zu bytes",
                       sections, (uint64_t)header.e_shoff, size);
  }

  size_t loads = 0;
  for (size_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    memcpy(&segment, image + header.e_phoff + i * sizeof(segment),
           sizeof(segment));
    if (!table_fits(segment.p_offset, segment.p_filesz, 1, size))
      return elf_error(path,
                       "truncated ELF file: segment %zu (type %#" PRIx32
                       ") covers bytes %" PRIu64 " to %" PRIu64
                       " of a file of %zu",
                       i, segment.p_type, (uint64_t)segment.p_offset,
                       (uint64_t)segment.p_offset + segment.p_filesz, size);
    if (segment.p_type != PT_LOAD)
      continue;
    ++loads;
    if (segment.p_filesz > segment.p_memsz)
      return elf_error(path,
                       "malformed ELF file: loadable segment %zu has %" PRIu64
                       " bytes in the file but %" PRIu64 " in memory",
                       i, (uint64_t)segment.p_filesz,
                       (uint64_t)segment.p_memsz);
  }
  if (loads == 0)
    return elf_error(path, "malformed ELF file: no loadable segment");
  return NULL;
}

/* Maps the file at `path` (a regular file) and checks it with
 * rlx_check_elf_image. */
static rlx_status_t check_elf_file(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    return rlx_make_status(error == ENOENT ? RLX_STATUS_NOT_FOUND
                                           : RLX_STATUS_IO_ERROR,
                           "cannot load module '%s': %s", path,
                           strerror(error));
  }
  struct stat st;
  rlx_status_t status = NULL;
  if (fstat(fd, &st) != 0)
    status = rlx_make_status(RLX_STATUS_IO_ERROR,
                             "cannot load module '%s': %s", path,
                             strerror(errno));
  else if (!S_ISREG(st.st_mode))
    status = rlx_make_status(RLX_STATUS_IO_ERROR,
                             "cannot load module '%s': %s", path,
                             S_ISDIR(st.st_mode) ? "it is a directory"
                                                 : "not a regular file");
  else if ((uint64_t)st.st_size < sizeof(Elf64_Ehdr))
    status = elf_error(path, "not an ELF file (%jd bytes)",
                       (intmax_t)st.st_size);
  if (status) {
    close(fd);
    return status;
  }
  size_t size = (size_t)st.st_size;
  void *image = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (image == MAP_FAILED)
    return rlx_make_status(RLX_STATUS_IO_ERROR,
                           "cannot load module '%s': cannot map it: %s", path,
                           strerror(errno));
  status = rlx_check_elf_image(path, image, size);
  munmap(image, size);
  return status;
}

/* ---- loading ------------------------------------------------------------- */

/* The manifest comes from the loaded object and is untrusted: bound the
 * search for its terminator by the symbol's size where the loader knows it. */
static rlx_status_t manifest_length(const rlx_module_t *module,
                                    const char *manifest, size_t *out) {
  size_t limit = SIZE_MAX;
#ifdef __GLIBC__
  Dl_info info;
  void *symbol = NULL;
  if (dladdr1(manifest, &info, &symbol, RTLD_DL_SYMENT) && symbol) {
    const ElfW(Sym) *entry = symbol;
    if (entry->st_size > 0)
      limit = (size_t)entry->st_size;
  }
#endif
  size_t length = strnlen(manifest, limit);
  if (length == limit)
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "malformed manifest in '%s': rlx_manifest is not "
                           "NUL-terminated",
                           module->path);
  *out = length;
  return NULL;
}

static rlx_status_t resolve_functions(rlx_module_t *module) {
  for (size_t i = 0; i < module->num_functions; ++i) {
    rlx_function_t *fn = &module->functions[i];
    const char prefix[] = "rlx_invoke_";
    size_t name_length = strlen(fn->name);
    char *symbol_name = malloc(sizeof(prefix) + name_length);
    if (!symbol_name)
      return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                             "out of memory loading '%s'", module->path);
    memcpy(symbol_name, prefix, sizeof(prefix) - 1);
    memcpy(symbol_name + sizeof(prefix) - 1, fn->name, name_length + 1);

    dlerror();
    void *symbol = dlsym(module->handle, symbol_name);
    if (!symbol) {
      const char *error = dlerror();
      rlx_status_t status = rlx_make_status(
          RLX_STATUS_NOT_FOUND,
          "module '%s' declares function '%s' but does not export %s: %s",
          module->path, fn->name, symbol_name,
          error ? error : "symbol is NULL");
      free(symbol_name);
      return status;
    }
    free(symbol_name);
    /* POSIX guarantees that dlsym results convert to function pointers. */
    _Static_assert(sizeof(symbol) == sizeof(fn->invoke),
                   "function pointers must fit a void *");
    memcpy(&fn->invoke, &symbol, sizeof(symbol));
  }

  /* A module with parallel loops depends on an OpenMP library; dlsym on the
   * module's handle searches its dependencies too. */
  dlerror();
  void *set_num_threads = dlsym(module->handle, "omp_set_num_threads");
  dlerror();
  for (size_t i = 0; set_num_threads && i < module->num_functions; ++i)
    memcpy(&module->functions[i].set_num_threads, &set_num_threads,
           sizeof(set_num_threads));
  return NULL;
}

/* Each custom function the manifest lists must be linked into the module:
 * its weak reference, `rlx_custom_<name>`, is then not null. */
static rlx_status_t check_custom_functions(rlx_module_t *module) {
  const char prefix[] = "rlx_custom_";
  for (size_t i = 0; i < module->num_custom_functions; ++i) {
    const char *name = module->custom_functions[i];
    size_t name_length = strlen(name);
    char *symbol_name = malloc(sizeof(prefix) + name_length);
    if (!symbol_name)
      return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                             "out of memory loading '%s'", module->path);
    memcpy(symbol_name, prefix, sizeof(prefix) - 1);
    memcpy(symbol_name + sizeof(prefix) - 1, name, name_length + 1);
    dlerror();
    void *const *address = dlsym(module->handle, symbol_name);
    free(symbol_name);
    if (!address)
      return rlx_make_status(
          RLX_STATUS_INVALID_FORMAT,
          "module '%s' lists the custom function '%s' but does not export "
          "rlx_custom_%s",
          module->path, name, name);
    if (!*address)
      return rlx_make_status(
          RLX_STATUS_NOT_FOUND,
          "module '%s' calls the C function '%s' (rlx.custom_call), which "
          "is not linked into it: compile it with rlx-compile --link=<an "
          "object or archive defining _mlir_ciface_%s>",
          module->path, name, name);
  }
  return NULL;
}

/* ---- meshes: MPI, process-wide ------------------------------------------ */

/* MPI runs once per process: the first mesh module loaded starts it
 * (rlx_mesh_start), the last one freed stops it (rlx_mesh_stop), and it
 * cannot start again. The modules share it: each links the same libmpi. */
static pthread_mutex_t mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static enum { MPI_NOT_STARTED, MPI_RUNNING, MPI_ENDED } mpi_state;
static size_t mpi_users; /* loaded mesh modules */
/* Why MPI has ended, for the modules that come after: "was stopped when
 * 'm.so' ...". */
static char mpi_ended[384];

/* Looks up the module's rlx_mesh_* functions. */
static rlx_status_t resolve_mesh(rlx_module_t *module) {
  static const char *const names[] = {"rlx_mesh_start", "rlx_mesh_rank",
                                      "rlx_mesh_size", "rlx_mesh_any",
                                      "rlx_mesh_stop"};
  void *symbols[5];
  for (size_t i = 0; i < 5; ++i) {
    dlerror();
    symbols[i] = dlsym(module->handle, names[i]);
    if (!symbols[i]) {
      const char *error = dlerror();
      return rlx_make_status(RLX_STATUS_NOT_FOUND,
                             "module '%s' has a 'mesh' line but does not "
                             "export %s: %s",
                             module->path, names[i],
                             error ? error : "symbol is NULL");
    }
  }
  mesh_t *mesh = &module->mesh;
  memcpy(&mesh->start, &symbols[0], sizeof(symbols[0]));
  memcpy(&mesh->world_rank, &symbols[1], sizeof(symbols[1]));
  memcpy(&mesh->world_size, &symbols[2], sizeof(symbols[2]));
  memcpy(&mesh->any, &symbols[3], sizeof(symbols[3]));
  memcpy(&mesh->stop, &symbols[4], sizeof(symbols[4]));
  return NULL;
}

/* Starts MPI if no module has, counts the module among its users, and
 * finds this process's place on the mesh. */
static rlx_status_t join_mesh(rlx_module_t *module) {
  rlx_status_t status = resolve_mesh(module);
  if (status)
    return status;
  mesh_t *mesh = &module->mesh;
  pthread_mutex_lock(&mpi_lock);
  if (mpi_state == MPI_NOT_STARTED) {
    int32_t error = mesh->start();
    if (error) {
      mpi_state = MPI_ENDED;
      snprintf(mpi_ended, sizeof(mpi_ended),
               "failed to start (rlx_mesh_start of '%s' returned %" PRId32 ")",
               module->path, error);
      status = rlx_make_status(RLX_STATUS_IO_ERROR,
                               "module '%s': starting MPI failed: "
                               "rlx_mesh_start returned %" PRId32,
                               module->path, error);
    } else {
      mpi_state = MPI_RUNNING;
    }
  } else if (mpi_state == MPI_ENDED) {
    status = rlx_make_status(RLX_STATUS_UNIMPLEMENTED,
                             "module '%s' runs on a mesh, but MPI %s, and it "
                             "cannot start again in the same process",
                             module->path, mpi_ended);
  }
  if (!status) {
    ++mpi_users;
    mesh->joined = true;
  }
  pthread_mutex_unlock(&mpi_lock);
  if (status)
    return status;

  int32_t size = mesh->world_size(), rank = mesh->world_rank();
  if (size < 0 || (size_t)size != mesh->num_processes)
    return rlx_make_status(
        RLX_STATUS_INVALID_ARGUMENT,
        "module '%s' runs on a mesh of %zu processes, but "
        "this process is one of %" PRId32 " (launch it with mpirun -np %zu)",
        module->path, mesh->num_processes, size, mesh->num_processes);
  if (rank < 0 || rank >= size)
    return rlx_make_status(RLX_STATUS_IO_ERROR,
                           "module '%s': rlx_mesh_rank returned %" PRId32
                           ", not a process of 0 to %" PRId32,
                           module->path, rank, size - 1);
  mesh->process = (size_t)rank;
  size_t rest = mesh->process;
  for (size_t axis = mesh->rank; axis-- > 0;) {
    mesh->coords[axis] = (int64_t)(rest % (size_t)mesh->dims[axis]);
    rest /= (size_t)mesh->dims[axis];
  }
  for (size_t i = 0; i < module->num_functions; ++i)
    module->functions[i].mesh = mesh;
  return NULL;
}

/* Uncounts the module; the last one stops MPI. */
static void leave_mesh(rlx_module_t *module) {
  if (!module->mesh.joined)
    return;
  pthread_mutex_lock(&mpi_lock);
  if (--mpi_users == 0) {
    int32_t error = module->mesh.stop();
    mpi_state = MPI_ENDED;
    snprintf(mpi_ended, sizeof(mpi_ended),
             "was stopped when '%s', the last mesh module loaded, was freed%s",
             module->path, error ? " (rlx_mesh_stop failed)" : "");
  }
  module->mesh.joined = false;
  pthread_mutex_unlock(&mpi_lock);
}

static rlx_status_t open_module(rlx_module_t *module) {
  /* dlopen searches the library path for names without a slash; a module
   * path always means a file. */
  const char *path = module->path;
  char *relative = NULL;
  if (!strchr(path, '/')) {
    relative = malloc(strlen(path) + 3);
    if (!relative)
      return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                             "out of memory loading '%s'", module->path);
    strcpy(relative, "./");
    strcat(relative, path);
    path = relative;
  }
  rlx_status_t checked = rlx_check_thread_environment();
  if (!checked)
    checked = check_elf_file(module->path);
  if (checked) {
    free(relative);
    return checked;
  }
  module->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  free(relative);
  if (!module->handle) {
    const char *error = dlerror();
    return rlx_make_status(access(module->path, F_OK) == 0
                               ? RLX_STATUS_IO_ERROR
                               : RLX_STATUS_NOT_FOUND,
                           "cannot load module '%s': %s", module->path,
                           error ? error : "unknown dlopen error");
  }

  dlerror();
  const char *manifest = dlsym(module->handle, "rlx_manifest");
  if (!manifest) {
    const char *error = dlerror();
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "'%s' is not an RLX module: %s", module->path,
                           error ? error : "rlx_manifest is NULL");
  }
  size_t length = 0;
  rlx_status_t status = manifest_length(module, manifest, &length);
  if (!status)
    status = parse_manifest(module, manifest, length);
  if (!status)
    status = resolve_functions(module);
  if (!status)
    status = check_custom_functions(module);
  /* Last, so that a module that fails its other checks never starts MPI.
   * A mesh module is never a CUDA one (the parser rejects it). */
  if (!status && module->has_mesh)
    return join_mesh(module);
  if (status || !module->on_cuda)
    return status;
  /* Each module has a context (and stream) of its own on device 0. */
  status = rlx_cuda_context_create(0, &module->cuda);
  for (size_t i = 0; !status && i < module->num_functions; ++i)
    module->functions[i].cuda = module->cuda;
  return status;
}

rlx_status_t rlx_module_load(const char *path, rlx_module_t **out) {
  if (!path || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_module_load: %s is NULL",
                           path ? "out" : "path");
  rlx_module_t *module = calloc(1, sizeof(*module));
  if (module)
    module->path = malloc(strlen(path) + 1);
  if (!module || !module->path) {
    free(module);
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "out of memory loading '%s'", path);
  }
  strcpy(module->path, path);

  rlx_status_t status = open_module(module);
  if (status) {
    rlx_module_free(module);
    return status;
  }
  *out = module;
  return NULL;
}

void rlx_module_free(rlx_module_t *module) {
  if (!module)
    return;
  for (size_t i = 0; i < module->num_functions; ++i)
    free_function_fields(&module->functions[i]);
  free(module->functions);
  for (size_t i = 0; i < module->num_custom_functions; ++i)
    free(module->custom_functions[i]);
  free(module->custom_functions);
  rlx_cuda_context_destroy(module->cuda);
  leave_mesh(module);
  if (module->handle)
    dlclose(module->handle);
  free(module->path);
  free(module);
}

/* ---- introspection ------------------------------------------------------- */

const char *rlx_module_path(const rlx_module_t *module) {
  return module ? module->path : NULL;
}

size_t rlx_module_function_count(const rlx_module_t *module) {
  return module ? module->num_functions : 0;
}

rlx_status_t rlx_module_function_at(const rlx_module_t *module, size_t index,
                                    const rlx_function_t **out) {
  if (!module || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_module_function_at: %s is NULL",
                           module ? "out" : "module");
  if (index >= module->num_functions)
    return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                           "function index %zu is out of range: module '%s' "
                           "has %zu functions",
                           index, module->path, module->num_functions);
  *out = &module->functions[index];
  return NULL;
}

rlx_status_t rlx_module_lookup(const rlx_module_t *module, const char *name,
                               const rlx_function_t **out) {
  if (!module || !name || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_module_lookup: %s is NULL",
                           !module ? "module"
                           : !name ? "name"
                                   : "out");
  size_t names_length = 1;
  for (size_t i = 0; i < module->num_functions; ++i) {
    if (strcmp(module->functions[i].name, name) == 0) {
      *out = &module->functions[i];
      return NULL;
    }
    names_length += strlen(module->functions[i].name) + 2;
  }

  char *names = malloc(names_length);
  if (!names)
    return rlx_make_status(RLX_STATUS_NOT_FOUND,
                           "module '%s' has no function '%s'", module->path,
                           name);
  names[0] = '\0';
  for (size_t i = 0; i < module->num_functions; ++i) {
    if (i > 0)
      strcat(names, ", ");
    strcat(names, module->functions[i].name);
  }
  rlx_status_t status = rlx_make_status(
      RLX_STATUS_NOT_FOUND, "module '%s' has no function '%s'; available: %s",
      module->path, name, names);
  free(names);
  return status;
}

const char *rlx_function_name(const rlx_function_t *fn) {
  return fn ? fn->name : NULL;
}

size_t rlx_function_num_inputs(const rlx_function_t *fn) {
  return fn ? fn->num_inputs : 0;
}

size_t rlx_function_num_outputs(const rlx_function_t *fn) {
  return fn ? fn->num_outputs : 0;
}

static rlx_status_t get_type(const char *api, const rlx_function_t *fn,
                             bool input, size_t index, rlx_tensor_type_t *out) {
  if (!fn || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: %s is NULL", api,
                           fn ? "out" : "fn");
  size_t count = input ? fn->num_inputs : fn->num_outputs;
  if (index >= count)
    return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                           "%s index %zu is out of range: '%s' has %zu %ss",
                           input ? "input" : "output", index, fn->name, count,
                           input ? "input" : "output");
  *out = fn->types[input ? index : fn->num_inputs + index];
  return NULL;
}

rlx_status_t rlx_function_input_type(const rlx_function_t *fn, size_t index,
                                     rlx_tensor_type_t *out) {
  return get_type("rlx_function_input_type", fn, true, index, out);
}

rlx_status_t rlx_function_output_type(const rlx_function_t *fn, size_t index,
                                      rlx_tensor_type_t *out) {
  return get_type("rlx_function_output_type", fn, false, index, out);
}

static const char *dim_expr_text(const rlx_function_t *fn, bool input,
                                 size_t index, size_t dim) {
  if (!fn || index >= (input ? fn->num_inputs : fn->num_outputs))
    return NULL;
  size_t arg = input ? index : fn->num_inputs + index;
  if (dim >= fn->types[arg].rank || !fn->dim_exprs)
    return NULL;
  size_t expr = fn->dim_exprs[arg * RLX_MAX_RANK + dim];
  return expr ? fn->exprs[expr - 1].text : NULL;
}

const char *rlx_function_input_dim_expr(const rlx_function_t *fn, size_t index,
                                        size_t dim) {
  return dim_expr_text(fn, true, index, dim);
}

const char *rlx_function_output_dim_expr(const rlx_function_t *fn, size_t index,
                                         size_t dim) {
  return dim_expr_text(fn, false, index, dim);
}

size_t rlx_function_num_symbols(const rlx_function_t *fn) {
  return fn ? fn->num_symbols : 0;
}

const char *rlx_function_symbol_name(const rlx_function_t *fn, size_t index) {
  return fn && index < fn->num_symbols ? fn->symbols[index].name : NULL;
}

size_t rlx_function_num_where_clauses(const rlx_function_t *fn) {
  return fn ? fn->num_wheres : 0;
}

const char *rlx_function_where_clause(const rlx_function_t *fn, size_t index) {
  return fn && index < fn->num_wheres ? fn->wheres[index].text : NULL;
}

rlx_status_t rlx_module_mesh(const rlx_module_t *module, rlx_mesh_t *out) {
  if (!module || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_module_mesh: %s is NULL",
                           module ? "out" : "module");
  const mesh_t *mesh = &module->mesh;
  memset(out, 0, sizeof(*out));
  out->rank = module->has_mesh ? mesh->rank : 0;
  out->dims = module->has_mesh ? mesh->dims : NULL;
  out->num_processes = module->has_mesh ? mesh->num_processes : 1;
  out->process = mesh->process;
  memcpy(out->coords, mesh->coords, sizeof(out->coords));
  return NULL;
}

static size_t get_split(const rlx_function_t *fn, bool input, size_t index,
                        size_t dim, size_t *axes) {
  if (!fn || index >= (input ? fn->num_inputs : fn->num_outputs))
    return 0;
  size_t arg = input ? index : fn->num_inputs + index;
  for (size_t k = 0; k < fn->num_splits; ++k) {
    const split_t *split = &fn->splits[k];
    if (split->arg != arg || split->dim != dim)
      continue;
    if (axes)
      memcpy(axes, split->axes, split->num_axes * sizeof(*axes));
    return split->num_axes;
  }
  return 0;
}

size_t rlx_function_input_split(const rlx_function_t *fn, size_t index,
                                size_t dim, size_t *axes) {
  return get_split(fn, true, index, dim, axes);
}

size_t rlx_function_output_split(const rlx_function_t *fn, size_t index,
                                 size_t dim, size_t *axes) {
  return get_split(fn, false, index, dim, axes);
}

rlx_status_t rlx_module_mesh_agree(const rlx_module_t *module, int failed,
                                   int *any_failed_out) {
  if (!module)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_module_mesh_agree: module is NULL");
  /* A module that was only parsed has no MPI to ask. */
  bool any =
      module->mesh.joined ? module->mesh.any(failed ? 1 : 0) != 0 : failed != 0;
  if (any_failed_out)
    *any_failed_out = any;
  return NULL;
}

/* ---- symbolic shapes ----------------------------------------------------- */

/* Whether a call must bind symbols or check where clauses. */
static bool has_symbolic_shapes(const rlx_function_t *fn) {
  return fn->num_symbols > 0 || fn->num_wheres > 0;
}

/* Symbol values of a call of a typical function fit on the stack. */
#define STACK_SYMBOLS 64

/* Room for the symbol values of a call of `fn`: `stack` (STACK_SYMBOLS
 * entries) or the heap; free with release_values. */
static rlx_status_t acquire_values(const rlx_function_t *fn, int64_t *stack,
                                   int64_t **out) {
  if (fn->num_symbols <= STACK_SYMBOLS) {
    *out = stack;
    return NULL;
  }
  *out = malloc(fn->num_symbols * sizeof(**out));
  return *out ? NULL
              : rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                                "out of memory binding the symbols of '%s'",
                                fn->name);
}

static void release_values(int64_t *values, const int64_t *stack) {
  if (values != stack)
    free(values);
}

/* "input 1 of 'f'" / "output 0 of 'f'" for argument `arg`. */
static void describe_arg(const rlx_function_t *fn, size_t arg, char *buffer,
                         size_t size) {
  bool input = arg < fn->num_inputs;
  snprintf(buffer, size, "%s %zu of '%s'", input ? "input" : "output",
           input ? arg : arg - fn->num_inputs, fn->name);
}

/* Appends snprintf-style to `buffer` at `*used`, truncating. */
static void append(char *buffer, size_t size, size_t *used, const char *format,
                   ...) RLX_PRINTF(4, 5);

static void append(char *buffer, size_t size, size_t *used, const char *format,
                   ...) {
  if (*used + 1 >= size)
    return;
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buffer + *used, size - *used, format, args);
  va_end(args);
  if (n > 0)
    *used = *used + (size_t)n < size ? *used + (size_t)n : size - 1;
}

/* " with S = 3, T = 4": the values of the symbols `exprs` read, each once;
 * empty if they read none. */
static void format_symbol_values(const rlx_function_t *fn,
                                 const rlx_expr_t *const *exprs, size_t count,
                                 const int64_t *values, char *buffer,
                                 size_t size) {
  size_t used = 0;
  buffer[0] = '\0';
  for (size_t e = 0; e < count; ++e) {
    size_t cursor = 0, symbol;
    while (rlx_expr_next_symbol(exprs[e], &cursor, &symbol)) {
      /* Shown already, earlier in this expression or another? */
      bool seen = false;
      for (size_t f = 0; f <= e && !seen; ++f) {
        size_t other_cursor = 0, other;
        while (!seen && rlx_expr_next_symbol(exprs[f], &other_cursor, &other) &&
               (f < e || other_cursor < cursor))
          seen = other == symbol;
      }
      if (!seen)
        append(buffer, size, &used, "%s%s = %" PRId64, used ? ", " : " with ",
               fn->symbols[symbol].name, values[symbol]);
    }
  }
}

/* The static dims of argument `arg` as this process has them: an output
 * split over the mesh is this process's block of it. Inputs are whole. */
static const int64_t *process_dims(const rlx_function_t *fn, size_t arg) {
  return fn->local_dims && arg >= fn->num_inputs
             ? &fn->local_dims[arg * RLX_MAX_RANK]
             : fn->types[arg].dims;
}

/* " (this process's block of ... split over the mesh)" for an output with
 * a split dim, for messages; else empty. */
static void describe_block(const rlx_function_t *fn, size_t arg, char *buffer,
                           size_t size) {
  buffer[0] = '\0';
  const int64_t *dims = process_dims(fn, arg);
  if (dims == fn->types[arg].dims)
    return;
  for (size_t d = 0; d < fn->types[arg].rank; ++d) {
    if (dims[d] == fn->types[arg].dims[d])
      continue;
    snprintf(buffer, size,
             " (this process's block: dim %zu of %" PRId64
             " is split over the mesh)",
             d, fn->types[arg].dims[d]);
    return;
  }
}

/* "[S,4]": the dims of argument `arg` as the manifest writes them (for a
 * split output, this process's block). */
static void format_signature_dims(const rlx_function_t *fn, size_t arg,
                                  char *buffer, size_t size) {
  size_t used = 0;
  buffer[0] = '\0';
  append(buffer, size, &used, "[");
  const rlx_tensor_type_t *type = &fn->types[arg];
  for (size_t d = 0; d < type->rank; ++d) {
    size_t expr = fn->dim_exprs ? fn->dim_exprs[arg * RLX_MAX_RANK + d] : 0;
    if (expr)
      append(buffer, size, &used, "%s%s", d ? "," : "",
             fn->exprs[expr - 1].text);
    else
      append(buffer, size, &used, d ? ",%" PRId64 : "%" PRId64,
             process_dims(fn, arg)[d]);
  }
  append(buffer, size, &used, "]");
}

/* Evaluates dim `d` of argument `arg` with the symbol values `values`. */
static rlx_status_t evaluate_dim(const rlx_function_t *fn, size_t arg, size_t d,
                                 const int64_t *values, int64_t *out) {
  size_t index = fn->dim_exprs ? fn->dim_exprs[arg * RLX_MAX_RANK + d] : 0;
  if (!index) {
    *out = process_dims(fn, arg)[d];
    return NULL;
  }
  const rlx_expr_t *expr = &fn->exprs[index - 1];
  rlx_expr_result_t result = rlx_expr_evaluate(expr, values, out);
  if (result == RLX_EXPR_OK)
    return NULL;
  char what[128], bindings[512];
  describe_arg(fn, arg, what, sizeof(what));
  format_symbol_values(fn, &expr, 1, values, bindings, sizeof(bindings));
  return rlx_make_status(
      RLX_STATUS_OUT_OF_RANGE, "%s: dim %zu = %s %s%s", what, d, expr->text,
      result == RLX_EXPR_OVERFLOW ? "overflows int64" : "divides by zero",
      bindings);
}

/* SHAPE_MISMATCH: dim `d` of argument `arg` is `actual`, not `expected`. */
static rlx_status_t dim_mismatch(const rlx_function_t *fn, size_t arg, size_t d,
                                 int64_t actual, int64_t expected,
                                 const int64_t *values) {
  char what[128];
  describe_arg(fn, arg, what, sizeof(what));
  size_t index = fn->dim_exprs ? fn->dim_exprs[arg * RLX_MAX_RANK + d] : 0;
  if (!index) {
    char block[160];
    describe_block(fn, arg, block, sizeof(block));
    return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                           "%s: dim %zu is %" PRId64 ", expected %" PRId64 "%s",
                           what, d, actual, expected, block);
  }
  const rlx_expr_t *expr = &fn->exprs[index - 1];
  if (expr->symbol != SIZE_MAX) {
    const symbol_t *symbol = &fn->symbols[expr->symbol];
    return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                           "%s: dim %zu is %" PRId64 ", expected %s = %" PRId64
                           " (bound by input %zu, dim %zu)",
                           what, d, actual, symbol->name, expected,
                           symbol->input, symbol->dim);
  }
  char bindings[512];
  format_symbol_values(fn, &expr, 1, values, bindings, sizeof(bindings));
  return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                         "%s: dim %zu is %" PRId64 ", expected %s = %" PRId64
                         "%s",
                         what, d, actual, expr->text, expected, bindings);
}

/* Checks that argument `arg` is a tensor of its dtype and rank. */
static rlx_status_t check_dtype_and_rank(const rlx_function_t *fn, size_t arg,
                                         const rlx_tensor_t *tensor) {
  const rlx_tensor_type_t *expected = &fn->types[arg];
  if (tensor && tensor->dtype == expected->dtype &&
      tensor->rank == expected->rank)
    return NULL;
  /* Messages are formatted only on failure: every call checks. */
  char what[128];
  describe_arg(fn, arg, what, sizeof(what));
  if (!tensor)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s is NULL", what);
  if (tensor->dtype != expected->dtype)
    return rlx_make_status(
        RLX_STATUS_DTYPE_MISMATCH, "%s: expected dtype %s, got %s", what,
        rlx_dtype_name(expected->dtype), rlx_dtype_name(tensor->dtype));
  char want[1024], got[RLX_DIMS_TEXT_SIZE];
  format_signature_dims(fn, arg, want, sizeof(want));
  rlx_format_dims(tensor->rank, tensor->dims, got, sizeof(got));
  return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                         "%s: expected rank %zu shape %s, got rank %zu shape "
                         "%s",
                         what, expected->rank, want, tensor->rank, got);
}

/* Checks the where clauses of `fn` with the symbol values `values`. */
static rlx_status_t check_where_clauses(const rlx_function_t *fn,
                                        const int64_t *values) {
  for (size_t i = 0; i < fn->num_wheres; ++i) {
    const where_clause_t *clause = &fn->wheres[i];
    const rlx_expr_t *sides[2] = {&fn->exprs[clause->lhs],
                                  &fn->exprs[clause->rhs]};
    int64_t lhs = 0, rhs = 0;
    rlx_expr_result_t result = rlx_expr_evaluate(sides[0], values, &lhs);
    const rlx_expr_t *failed = sides[0];
    if (result == RLX_EXPR_OK) {
      result = rlx_expr_evaluate(sides[1], values, &rhs);
      failed = sides[1];
    }
    bool holds = result == RLX_EXPR_OK &&
                 (clause->relation == RELATION_EQ   ? lhs == rhs
                  : clause->relation == RELATION_GE ? lhs >= rhs
                                                    : lhs <= rhs);
    if (holds)
      continue;
    char bindings[512];
    format_symbol_values(fn, sides, 2, values, bindings, sizeof(bindings));
    if (result != RLX_EXPR_OK)
      return rlx_make_status(RLX_STATUS_OUT_OF_RANGE, "'%s': where %s: %s %s%s",
                             fn->name, clause->text, failed->text,
                             result == RLX_EXPR_OVERFLOW ? "overflows int64"
                                                         : "divides by zero",
                             bindings);
    return rlx_make_status(
        RLX_STATUS_SHAPE_MISMATCH, "'%s': %s does not hold%s%s%s%s", fn->name,
        clause->text, bindings, clause->reason[0] ? " (" : "", clause->reason,
        clause->reason[0] ? ")" : "");
  }
  return NULL;
}

/* Checks the inputs of a call of `fn`, which has symbolic shapes: their
 * dtypes and ranks; then binds every symbol to the dim of the input that
 * binds it, checks every input dim against its expression and the where
 * clauses. Leaves the symbols' values in `values`. */
static rlx_status_t bind_inputs(const rlx_function_t *fn,
                                rlx_tensor_t *const *inputs, int64_t *values) {
  for (size_t i = 0; i < fn->num_inputs; ++i) {
    rlx_status_t status = check_dtype_and_rank(fn, i, inputs[i]);
    if (status)
      return status;
  }
  for (size_t s = 0; s < fn->num_symbols; ++s)
    values[s] = inputs[fn->symbols[s].input]->dims[fn->symbols[s].dim];
  for (size_t i = 0; i < fn->num_inputs; ++i) {
    for (size_t d = 0; d < fn->types[i].rank; ++d) {
      int64_t expected = 0;
      rlx_status_t status = evaluate_dim(fn, i, d, values, &expected);
      if (!status && inputs[i]->dims[d] != expected)
        status = dim_mismatch(fn, i, d, inputs[i]->dims[d], expected, values);
      if (status)
        return status;
    }
  }
  return check_where_clauses(fn, values);
}

/* Computes the dims of argument `arg` from the symbol values `values`:
 * SHAPE_MISMATCH for a negative dim, OUT_OF_RANGE for an expression or a
 * byte size that overflows. */
static rlx_status_t compute_dims(const rlx_function_t *fn, size_t arg,
                                 const int64_t *values, int64_t *dims) {
  const rlx_tensor_type_t *type = &fn->types[arg];
  char what[128];
  for (size_t d = 0; d < type->rank; ++d) {
    rlx_status_t status = evaluate_dim(fn, arg, d, values, &dims[d]);
    if (status)
      return status;
    size_t index = fn->dim_exprs ? fn->dim_exprs[arg * RLX_MAX_RANK + d] : 0;
    if (dims[d] < 0 && index) {
      const rlx_expr_t *expr = &fn->exprs[index - 1];
      char bindings[512];
      describe_arg(fn, arg, what, sizeof(what));
      format_symbol_values(fn, &expr, 1, values, bindings, sizeof(bindings));
      return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                             "%s: dim %zu = %s is negative (%" PRId64 ")%s",
                             what, d, expr->text, dims[d], bindings);
    }
  }
  size_t count, bytes;
  rlx_status_t status =
      rlx_check_shape("", type->dtype, type->rank, dims, &count, &bytes);
  if (!status)
    return NULL;
  /* Again with the argument named: naming it is a snprintf that the calls
   * that pass do without. */
  rlx_status_free(status);
  describe_arg(fn, arg, what, sizeof(what));
  return rlx_check_shape(what, type->dtype, type->rank, dims, &count, &bytes);
}

/* Checks a call's inputs and outputs against `fn`, which has symbolic
 * shapes: each output must have the shape the inputs give it. */
static rlx_status_t check_symbolic_call(const rlx_function_t *fn,
                                        rlx_tensor_t *const *inputs,
                                        rlx_tensor_t *const *outputs) {
  int64_t stack_values[STACK_SYMBOLS];
  int64_t *values = NULL;
  rlx_status_t status = acquire_values(fn, stack_values, &values);
  if (status)
    return status;
  status = bind_inputs(fn, inputs, values);
  for (size_t i = 0; !status && i < fn->num_outputs; ++i) {
    size_t arg = fn->num_inputs + i;
    status = check_dtype_and_rank(fn, arg, outputs[i]);
    int64_t dims[RLX_MAX_RANK];
    if (!status)
      status = compute_dims(fn, arg, values, dims);
    for (size_t d = 0; !status && d < fn->types[arg].rank; ++d)
      if (outputs[i]->dims[d] != dims[d])
        status = dim_mismatch(fn, arg, d, outputs[i]->dims[d], dims[d], values);
  }
  release_values(values, stack_values);
  return status;
}

rlx_status_t rlx_function_input_dims(const rlx_function_t *fn,
                                     const int64_t *symbols, size_t num_symbols,
                                     size_t index, int64_t *dims) {
  static const char api[] = "rlx_function_input_dims";
  if (!fn)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: fn is NULL", api);
  if (num_symbols != fn->num_symbols)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "'%s' has %zu symbol%s, got %zu value%s", fn->name,
                           fn->num_symbols, fn->num_symbols == 1 ? "" : "s",
                           num_symbols, num_symbols == 1 ? "" : "s");
  if (num_symbols > 0 && !symbols)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "%s: symbols is NULL but '%s' has %zu", api,
                           fn->name, num_symbols);
  if (index >= fn->num_inputs)
    return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                           "input index %zu is out of range: '%s' has %zu "
                           "inputs",
                           index, fn->name, fn->num_inputs);
  if (fn->types[index].rank > 0 && !dims)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: dims is NULL",
                           api);
  for (size_t s = 0; s < num_symbols; ++s)
    if (symbols[s] < 0)
      return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                             "symbol '%s' of '%s' is %" PRId64
                             ": a size is at least 0",
                             fn->symbols[s].name, fn->name, symbols[s]);
  int64_t computed[RLX_MAX_RANK];
  rlx_status_t status = compute_dims(fn, index, symbols, computed);
  if (!status && fn->types[index].rank > 0)
    memcpy(dims, computed, fn->types[index].rank * sizeof(*dims));
  return status;
}

/* ---- invocation ---------------------------------------------------------- */

static rlx_status_t check_count(const char *api, const rlx_function_t *fn,
                                bool input, const void *array, size_t got) {
  const char *noun = input ? "input" : "output";
  size_t expected = input ? fn->num_inputs : fn->num_outputs;
  if (got != expected)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "'%s' %s %zu %s%s, got %zu", fn->name,
                           input ? "takes" : "returns", expected, noun,
                           expected == 1 ? "" : "s", got);
  if (!array && got > 0)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "%s: the %ss array is NULL but '%s' has %zu", api,
                           noun, fn->name, got);
  return NULL;
}

static rlx_status_t check_tensor(const rlx_function_t *fn, bool input,
                                 size_t index, const rlx_tensor_t *tensor) {
  const char *noun = input ? "input" : "output";
  const rlx_tensor_type_t *expected =
      &fn->types[input ? index : fn->num_inputs + index];
  if (!tensor)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "%s %zu of '%s' is NULL", noun, index, fn->name);
  if (tensor->dtype != expected->dtype)
    return rlx_make_status(RLX_STATUS_DTYPE_MISMATCH,
                           "%s %zu of '%s': expected dtype %s, got %s", noun,
                           index, fn->name, rlx_dtype_name(expected->dtype),
                           rlx_dtype_name(tensor->dtype));

  size_t arg = input ? index : fn->num_inputs + index;
  const int64_t *dims = process_dims(fn, arg);
  bool same_shape = tensor->rank == expected->rank;
  for (size_t d = 0; same_shape && d < expected->rank; ++d)
    same_shape = tensor->dims[d] == dims[d];
  if (same_shape)
    return NULL;
  char want[RLX_DIMS_TEXT_SIZE], got[RLX_DIMS_TEXT_SIZE], block[160];
  rlx_format_dims(expected->rank, dims, want, sizeof(want));
  rlx_format_dims(tensor->rank, tensor->dims, got, sizeof(got));
  describe_block(fn, arg, block, sizeof(block));
  if (tensor->rank != expected->rank)
    return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                           "%s %zu of '%s': expected rank %zu shape %s, got "
                           "rank %zu shape %s%s",
                           noun, index, fn->name, expected->rank, want,
                           tensor->rank, got, block);
  return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                         "%s %zu of '%s': expected shape %s, got %s%s", noun,
                         index, fn->name, want, got, block);
}

static bool overlaps(const rlx_tensor_t *a, const rlx_tensor_t *b) {
  if (a->byte_size == 0 || b->byte_size == 0)
    return false;
  uintptr_t a_begin = (uintptr_t)a->data, b_begin = (uintptr_t)b->data;
  return a_begin < b_begin + b->byte_size && b_begin < a_begin + a->byte_size;
}

static rlx_status_t validate(const char *api, const rlx_function_t *fn,
                             rlx_tensor_t *const *inputs, size_t num_inputs,
                             rlx_tensor_t *const *outputs, size_t num_outputs) {
  if (!fn)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: fn is NULL", api);
  rlx_status_t status = check_count(api, fn, true, inputs, num_inputs);
  if (!status)
    status = check_count(api, fn, false, outputs, num_outputs);
  if (!status && has_symbolic_shapes(fn))
    status = check_symbolic_call(fn, inputs, outputs);
  for (size_t i = 0; !status && !has_symbolic_shapes(fn) && i < num_inputs; ++i)
    status = check_tensor(fn, true, i, inputs[i]);
  for (size_t i = 0; !status && !has_symbolic_shapes(fn) && i < num_outputs;
       ++i)
    status = check_tensor(fn, false, i, outputs[i]);
  /* Outputs are written while inputs are read; compiled code assumes no
   * aliasing. */
  for (size_t i = 0; !status && i < num_outputs; ++i) {
    for (size_t j = 0; !status && j < num_inputs; ++j)
      if (overlaps(outputs[i], inputs[j]))
        status = rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                                 "output %zu of '%s' overlaps input %zu", i,
                                 fn->name, j);
    for (size_t j = 0; !status && j < i; ++j)
      if (overlaps(outputs[i], outputs[j]))
        status = rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                                 "output %zu of '%s' overlaps output %zu", i,
                                 fn->name, j);
  }
  return status;
}

rlx_status_t rlx_function_output_dims(const rlx_function_t *fn,
                                      rlx_tensor_t *const *inputs,
                                      size_t num_inputs, size_t output,
                                      int64_t *dims) {
  static const char api[] = "rlx_function_output_dims";
  if (!fn)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: fn is NULL", api);
  rlx_status_t status = check_count(api, fn, true, inputs, num_inputs);
  if (status)
    return status;
  if (output >= fn->num_outputs)
    return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                           "output index %zu is out of range: '%s' has %zu "
                           "outputs",
                           output, fn->name, fn->num_outputs);
  size_t arg = fn->num_inputs + output;
  const rlx_tensor_type_t *type = &fn->types[arg];
  if (type->rank > 0 && !dims)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: dims is NULL",
                           api);
  int64_t computed[RLX_MAX_RANK];
  if (has_symbolic_shapes(fn)) {
    int64_t stack_values[STACK_SYMBOLS];
    int64_t *values = NULL;
    status = acquire_values(fn, stack_values, &values);
    if (status)
      return status;
    status = bind_inputs(fn, inputs, values);
    if (!status)
      status = compute_dims(fn, arg, values, computed);
    release_values(values, stack_values);
  } else {
    for (size_t i = 0; !status && i < num_inputs; ++i)
      status = check_tensor(fn, true, i, inputs[i]);
    if (type->rank > 0)
      memcpy(computed, process_dims(fn, arg), type->rank * sizeof(computed[0]));
  }
  if (!status && type->rank > 0)
    memcpy(dims, computed, type->rank * sizeof(dims[0]));
  return status;
}

/* Writes the memref descriptor of `tensor`, whose data is at `data`, at
 * `words`: {allocated, aligned, offset, sizes[rank], strides[rank]}. */
static size_t write_descriptor(int64_t *words, const rlx_tensor_t *tensor,
                               uint64_t data) {
  memcpy(&words[0], &data, sizeof(data));
  memcpy(&words[1], &data, sizeof(data));
  words[2] = 0;
  int64_t *sizes = &words[3];
  int64_t *strides = &words[3 + tensor->rank];
  int64_t stride = 1;
  for (size_t d = tensor->rank; d-- > 0;) {
    sizes[d] = tensor->dims[d];
    strides[d] = stride;
    stride *= tensor->dims[d];
  }
  return 3 + 2 * tensor->rank;
}

/* Arguments of typical functions fit these without touching the heap. */
#define STACK_ARGS 64
#define STACK_WORDS 1024

/* Runs `fn` of a CUDA module: copies the inputs into device buffers, runs
 * its host code with descriptors of device buffers (`args` and `words` have
 * room for them) and copies the outputs back. The buffers come from the
 * context's caching allocator and go back to it. */
static rlx_status_t invoke_on_device(const rlx_function_t *fn,
                                     rlx_tensor_t *const *inputs,
                                     rlx_tensor_t *const *outputs, void **args,
                                     int64_t *words) {
  const size_t num_args = fn->num_inputs + fn->num_outputs;
  rlx_cuda_buffer_t stack_buffers[STACK_ARGS];
  rlx_cuda_buffer_t *buffers =
      num_args > STACK_ARGS ? calloc(num_args, sizeof(*buffers))
                            : stack_buffers;
  if (!buffers)
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "out of memory invoking '%s'", fn->name);
  rlx_cuda_context_t cuda = fn->cuda;
  rlx_cuda_execution_begin(cuda);
  rlx_status_t status = NULL;
  size_t allocated = 0, used = 0;
  for (; !status && allocated < num_args; ++allocated) {
    bool input = allocated < fn->num_inputs;
    const rlx_tensor_t *tensor =
        input ? inputs[allocated] : outputs[allocated - fn->num_inputs];
    status = rlx_cuda_alloc(cuda, tensor->byte_size, &buffers[allocated]);
    if (status)
      break;
    if (input)
      status = rlx_cuda_copy_to_device(cuda, buffers[allocated], tensor->data,
                                       tensor->byte_size);
    args[allocated] = &words[used];
    used += write_descriptor(&words[used], tensor, buffers[allocated]);
  }
  if (!status) {
    rlx_cuda_execution_start_clock(cuda);
    fn->invoke(args);
    status = rlx_cuda_execution_finish(cuda);
  }
  for (size_t i = 0; !status && i < fn->num_outputs; ++i)
    status = rlx_cuda_copy_to_host(cuda, outputs[i]->data,
                                   buffers[fn->num_inputs + i],
                                   outputs[i]->byte_size);
  for (size_t i = 0; i < allocated; ++i) {
    rlx_status_t freed = rlx_cuda_free(cuda, buffers[i]);
    if (status)
      rlx_status_free(freed);
    else
      status = freed;
  }
  rlx_cuda_execution_end(cuda);
  if (buffers != stack_buffers)
    free(buffers);
  return status;
}

/* Runs `fn`, whose call `validate` accepted, on `inputs` and `outputs`. */
static rlx_status_t execute(const rlx_function_t *fn,
                            rlx_tensor_t *const *inputs,
                            rlx_tensor_t *const *outputs) {
  void *stack_args[STACK_ARGS];
  int64_t stack_words[STACK_WORDS];
  const size_t num_inputs = fn->num_inputs;
  const size_t num_args = num_inputs + fn->num_outputs;
  void **args = stack_args;
  int64_t *words = stack_words;
  if (num_args > STACK_ARGS || fn->descriptor_words > STACK_WORDS) {
    args = malloc(num_args * sizeof(*args));
    words = malloc(fn->descriptor_words * sizeof(*words));
    if (!args || !words) {
      free(args);
      free(words);
      return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                             "out of memory invoking '%s'", fn->name);
    }
  }

  /* OpenMP's thread count is a setting of the calling thread. */
  if (fn->set_num_threads)
    fn->set_num_threads((int)rlx_get_num_threads());
  rlx_status_t status = NULL;
  if (fn->cuda) {
    status = invoke_on_device(fn, inputs, outputs, args, words);
  } else {
    size_t used = 0;
    for (size_t i = 0; i < num_args; ++i) {
      const rlx_tensor_t *tensor =
          i < num_inputs ? inputs[i] : outputs[i - num_inputs];
      args[i] = &words[used];
      used += write_descriptor(&words[used], tensor,
                               (uint64_t)(uintptr_t)tensor->data);
    }
    fn->invoke(args);
  }

  if (args != stack_args) {
    free(args);
    free(words);
  }
  return status;
}

/* Makes `block` this process's block of `whole`, input `index` of a mesh
 * function with a split dim: a view into `whole` when the block is
 * contiguous in it (a split of the first dim larger than 1), else a copy
 * in 64-byte aligned memory that `block` owns. */
static rlx_status_t make_block(const rlx_function_t *fn, size_t index,
                               const rlx_tensor_t *whole, rlx_tensor_t *block) {
  const mesh_t *mesh = fn->mesh;
  const size_t rank = whole->rank;
  int64_t start[RLX_MAX_RANK], strides[RLX_MAX_RANK];
  memset(block, 0, sizeof(*block));
  block->dtype = whole->dtype;
  block->rank = rank;
  for (size_t d = 0; d < rank; ++d) {
    block->dims[d] = whole->dims[d];
    start[d] = 0;
  }
  for (size_t k = 0; k < fn->num_splits; ++k) {
    const split_t *split = &fn->splits[k];
    if (split->arg != index)
      continue;
    /* The block index: the process's coordinates along the axes, major to
     * minor. */
    int64_t position = 0;
    for (size_t a = 0; a < split->num_axes; ++a)
      position =
          position * mesh->dims[split->axes[a]] + mesh->coords[split->axes[a]];
    block->dims[split->dim] = whole->dims[split->dim] / split->parts;
    start[split->dim] = position * block->dims[split->dim];
  }
  size_t element_size = rlx_dtype_size(whole->dtype);
  block->element_count = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = d + 1 < rank ? strides[d + 1] * whole->dims[d + 1] : 1;
    block->element_count *= (size_t)block->dims[d];
  }
  block->byte_size = block->element_count * element_size;
  if (block->element_count == 0) {
    block->data = whole->data; /* never read */
    return NULL;
  }

  /* Past the last dim that is not whole the block is contiguous; it is a
   * view if it takes one index of every dim before. */
  size_t last = rank;
  for (size_t d = 0; d < rank; ++d)
    if (block->dims[d] != whole->dims[d])
      last = d;
  bool view = true;
  for (size_t d = 0; last < rank && d < last; ++d)
    view &= block->dims[d] == 1;
  int64_t offset = 0;
  for (size_t d = 0; d < rank; ++d)
    offset += start[d] * strides[d];
  if (view) {
    block->data = (char *)whole->data + (size_t)offset * element_size;
    return NULL;
  }

  size_t capacity = (block->byte_size + RLX_TENSOR_ALIGNMENT - 1) /
                    RLX_TENSOR_ALIGNMENT * RLX_TENSOR_ALIGNMENT;
  char *data = aligned_alloc(RLX_TENSOR_ALIGNMENT, capacity);
  if (!data)
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "out of memory making this process's block of "
                           "input %zu of '%s' (%zu bytes)",
                           index, fn->name, block->byte_size);
  block->data = data;
  block->owns_data = true;
  /* Runs of dims last.. (contiguous in `whole`), over the block's indices
   * of the dims before `last`. */
  size_t run = (size_t)(block->dims[last] * strides[last]) * element_size;
  size_t runs = block->element_count * element_size / run;
  int64_t counter[RLX_MAX_RANK] = {0};
  const char *source = whole->data;
  for (size_t r = 0; r < runs; ++r) {
    int64_t at = start[last] * strides[last];
    for (size_t d = 0; d < last; ++d)
      at += (start[d] + counter[d]) * strides[d];
    memcpy(data + r * run, source + (size_t)at * element_size, run);
    for (size_t d = last; d-- > 0;) {
      if (++counter[d] < block->dims[d])
        break;
      counter[d] = 0;
    }
  }
  return NULL;
}

/* The end of every call once `fn` is known: runs it if `status` (its
 * checks) is NULL. A mesh function first makes this process's blocks of
 * its split inputs, then agrees with the other processes, each reporting
 * whether its checks failed; it runs only if none did. Consumes
 * `status`. */
static rlx_status_t finish_call(const rlx_function_t *fn, rlx_status_t status,
                                rlx_tensor_t *const *inputs,
                                rlx_tensor_t *const *outputs) {
  if (!fn->mesh)
    return status ? status : execute(fn, inputs, outputs);

  rlx_tensor_t *blocks = NULL, **local = NULL;
  if (!status && fn->splits_inputs) {
    blocks = calloc(fn->num_inputs, sizeof(*blocks));
    local = calloc(fn->num_inputs, sizeof(*local));
    if (!blocks || !local)
      status = rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                               "out of memory invoking '%s'", fn->name);
    for (size_t i = 0; !status && i < fn->num_inputs; ++i) {
      bool split = false;
      for (size_t k = 0; k < fn->num_splits; ++k)
        split |= fn->splits[k].arg == i;
      local[i] = split ? &blocks[i] : inputs[i];
      if (split)
        status = make_block(fn, i, inputs[i], &blocks[i]);
    }
  }
  /* Exactly one agreement per call, whatever failed. */
  bool any_failed = fn->mesh->any(status ? 1 : 0) != 0;
  if (!status && any_failed)
    status = rlx_make_status(RLX_STATUS_PEER_FAILED,
                             "'%s': another process of the mesh failed this "
                             "call's checks (see its error); nothing ran",
                             fn->name);
  if (!status)
    status = execute(fn, local ? local : inputs, outputs);
  for (size_t i = 0; blocks && i < fn->num_inputs; ++i)
    if (blocks[i].owns_data)
      free(blocks[i].data);
  free(blocks);
  free(local);
  return status;
}

rlx_status_t rlx_function_invoke(const rlx_function_t *fn,
                                 rlx_tensor_t *const *inputs, size_t num_inputs,
                                 rlx_tensor_t *const *outputs,
                                 size_t num_outputs) {
  rlx_status_t status = validate("rlx_function_invoke", fn, inputs, num_inputs,
                                 outputs, num_outputs);
  return fn ? finish_call(fn, status, inputs, outputs) : status;
}

rlx_status_t rlx_function_device_time(const rlx_function_t *fn,
                                      double *ms_out) {
  if (!fn || !ms_out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_function_device_time: fn or ms_out is NULL");
  if (!fn->cuda)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "'%s' runs on the CPU: it has no device time",
                           fn->name);
  double ms;
  if (!rlx_cuda_last_work_time(fn->cuda, &ms))
    return rlx_make_status(RLX_STATUS_NOT_FOUND,
                           "no call of the module of '%s' has completed",
                           fn->name);
  *ms_out = ms;
  return NULL;
}

rlx_status_t rlx_function_call(const rlx_function_t *fn,
                               rlx_tensor_t *const *inputs, size_t num_inputs,
                               rlx_tensor_t **outputs_out, size_t num_outputs) {
  static const char api[] = "rlx_function_call";
  if (!fn)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: fn is NULL", api);
  rlx_status_t status = check_count(api, fn, true, inputs, num_inputs);
  if (!status)
    status = check_count(api, fn, false, outputs_out, num_outputs);
  if (status)
    return finish_call(fn, status, inputs, NULL);
  for (size_t i = 0; i < num_outputs; ++i)
    outputs_out[i] = NULL;

  /* Symbolic output shapes come from the inputs; rlx_function_invoke checks
   * them again, with everything else. */
  int64_t stack_values[STACK_SYMBOLS];
  int64_t *values = NULL;
  if (has_symbolic_shapes(fn)) {
    status = acquire_values(fn, stack_values, &values);
    if (!status)
      status = bind_inputs(fn, inputs, values);
  }
  for (size_t i = 0; !status && i < num_outputs; ++i) {
    size_t arg = fn->num_inputs + i;
    const rlx_tensor_type_t *type = &fn->types[arg];
    int64_t dims[RLX_MAX_RANK];
    if (values)
      status = compute_dims(fn, arg, values, dims);
    else if (type->rank > 0)
      memcpy(dims, process_dims(fn, arg), type->rank * sizeof(dims[0]));
    if (!status)
      status =
          rlx_tensor_create(type->dtype, type->rank, dims, &outputs_out[i]);
  }
  if (values)
    release_values(values, stack_values);
  /* Everything again, as rlx_function_invoke checks it; then one
   * agreement of a mesh function, whether or not the checks passed. */
  if (!status)
    status = validate(api, fn, inputs, num_inputs, outputs_out, num_outputs);
  status = finish_call(fn, status, inputs, outputs_out);
  if (status) {
    for (size_t i = 0; i < num_outputs; ++i) {
      rlx_tensor_free(outputs_out[i]);
      outputs_out[i] = NULL;
    }
  }
  return status;
}
