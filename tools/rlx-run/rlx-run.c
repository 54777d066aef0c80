/* rlx-run: runs a function of a compiled RLX module (or of an .mlir file,
 * compiled on the fly by the rlx-compile next to this executable) on .npy or
 * random inputs, and prints, saves or benchmarks its outputs. A mesh module
 * runs once per process of an MPI job (mpirun -np N rlx-run ...): rank 0
 * prints, and each rank saves its block of a split output. */
#define _POSIX_C_SOURCE 200809L

#include "rlx/npy.h"
#include "rlx/runtime.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { EXIT_ERROR = 1, EXIT_USAGE = 2 };

/* Values shown per output before "...". */
#define SHOWN_VALUES 8

static const char usage_text[] =
    "usage: rlx-run MODULE [-f FN] [-i IN.npy]... [--random SEED]\n"
    "               [--dim NAME=VALUE]... [-o OUTDIR] [--bench N]\n"
    "               [--threads N] [--list]\n"
    "\n"
    "Runs a function of a compiled RLX module and prints its outputs.\n"
    "\n"
    "  MODULE         a module built by rlx-compile (.so), or an .mlir file\n"
    "                 that is compiled with the rlx-compile next to rlx-run\n"
    "  -f FN          function to run (default: the only one, else 'main')\n"
    "  -i IN.npy      an input, in order; repeat once per input. An f32 file\n"
    "                 feeds a bf16 input (NumPy has no bfloat16)\n"
    "  --random SEED  fill every input with deterministic random data:\n"
    "                 floats uniform in [-1,1), integers in [0,4), random "
    "bools,\n"
    "                 complex numbers with both parts uniform in [-1,1)\n"
    "  --dim NAME=VALUE\n"
    "                 with --random: the size of the inputs' symbolic dim\n"
    "                 NAME; a function with symbolic shapes needs one per\n"
    "                 symbol (--list shows them)\n"
    "  -o OUTDIR      write the outputs to OUTDIR/out0.npy, out1.npy, ...\n"
    "  --bench N      after the run, time N more runs and print the median;\n"
    "                 for a CUDA module also the median time on the device\n"
    "                 (CUDA events around the function's kernels: the copies\n"
    "                 of inputs and outputs are counted in the first, not\n"
    "                 the second)\n"
    "  --threads N    threads for the module's parallel loops (default: the\n"
    "                 RLX_NUM_THREADS environment variable, else all cores;\n"
    "                 0 means all cores)\n"
    "  --list         print the module's function signatures (symbolic dims\n"
    "                 as written, and their where clauses) and exit\n"
    "  -h, --help     print this help and exit\n"
    "\n"
    "A mesh module (compiled for N processes) runs under mpirun -np N, every\n"
    "rank on the same inputs: rank 0 prints; with -o rank 0 writes the\n"
    "replicated outputs and each rank r its block of a split output i as\n"
    "OUTDIR/out<i>.rank<r>.npy. Errors name the rank.\n";

typedef struct options {
  char *module_path;
  const char *function;
  const char **inputs;
  size_t num_inputs;
  bool random;
  uint64_t seed;
  /* --dim NAME=VALUE: NAME is dim_names[i] up to its '=' */
  const char **dim_names;
  int64_t *dim_values;
  size_t num_dims;
  const char *output_dir;
  uint64_t bench_runs;
  bool threads_given;
  uint64_t threads;
  bool list;
} options_t;

/* Of a mesh module: this process's rank, which prefixes its errors, and
 * whether it is rank 0, the one that prints. */
static long mesh_rank = -1;
static bool prints = true;

/* "rlx-run: error: ", or "rlx-run: rank 1: error: " for a mesh module. */
static void print_error_prefix(void) {
  if (mesh_rank >= 0)
    fprintf(stderr, "rlx-run: rank %ld: error: ", mesh_rank);
  else
    fputs("rlx-run: error: ", stderr);
}

static void print_error(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

static void print_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  print_error_prefix();
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

/* Prints the status's message and frees it; returns EXIT_ERROR. */
static int fail_with(rlx_status_t status) {
  print_error("%s", rlx_status_message(status));
  rlx_status_free(status);
  return EXIT_ERROR;
}

/* ---- command line -------------------------------------------------------- */

static bool parse_u64(const char *text, uint64_t *out) {
  if (!*text)
    return false;
  uint64_t value = 0;
  for (const char *c = text; *c; ++c) {
    if (*c < '0' || *c > '9')
      return false;
    unsigned digit = (unsigned)(*c - '0');
    if (value > (UINT64_MAX - digit) / 10)
      return false;
    value = value * 10 + digit;
  }
  *out = value;
  return true;
}

/* Length of the NAME of a --dim NAME=VALUE. */
static size_t dim_name_length(const char *name) {
  return (size_t)(strchr(name, '=') - name);
}

/* Parses the value of --dim into opts; returns 0 or EXIT_USAGE. */
static int parse_dim(const char *value, options_t *opts) {
  const char *equals = strchr(value, '=');
  bool name_ok =
      equals && equals != value && !(value[0] >= '0' && value[0] <= '9');
  for (const char *c = value; name_ok && c < equals; ++c)
    name_ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '_';
  uint64_t size = 0;
  if (!name_ok || !parse_u64(equals + 1, &size) || size > INT64_MAX) {
    print_error("--dim needs NAME=VALUE, a symbol and a size from 0 to %" PRId64
                ", got '%s'",
                INT64_MAX, value);
    return EXIT_USAGE;
  }
  size_t length = (size_t)(equals - value);
  for (size_t i = 0; i < opts->num_dims; ++i) {
    if (dim_name_length(opts->dim_names[i]) == length &&
        memcmp(opts->dim_names[i], value, length) == 0) {
      print_error("--dim gives '%.*s' more than once", (int)length, value);
      return EXIT_USAGE;
    }
  }
  opts->dim_names[opts->num_dims] = value;
  opts->dim_values[opts->num_dims++] = (int64_t)size;
  return 0;
}

/* Returns 0 and fills `opts`, or the exit code after reporting. */
static int parse_args(int argc, char **argv, options_t *opts) {
  opts->inputs = calloc((size_t)argc, sizeof(*opts->inputs));
  opts->dim_names = calloc((size_t)argc, sizeof(*opts->dim_names));
  opts->dim_values = calloc((size_t)argc, sizeof(*opts->dim_values));
  if (!opts->inputs || !opts->dim_names || !opts->dim_values) {
    print_error("out of memory");
    return EXIT_ERROR;
  }
  bool seen_f = false, seen_o = false, seen_bench = false;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage_text, stdout);
      exit(0);
    }
    if (strcmp(arg, "--list") == 0) {
      opts->list = true;
      continue;
    }
    bool takes_value = strcmp(arg, "-f") == 0 || strcmp(arg, "-i") == 0 ||
                       strcmp(arg, "-o") == 0 || strcmp(arg, "--random") == 0 ||
                       strcmp(arg, "--bench") == 0 ||
                       strcmp(arg, "--threads") == 0 ||
                       strcmp(arg, "--dim") == 0;
    if (!takes_value) {
      if (arg[0] == '-' && arg[1] != '\0') {
        print_error("unknown option '%s' (see --help)", arg);
        return EXIT_USAGE;
      }
      if (opts->module_path) {
        print_error("unexpected argument '%s': only one MODULE is allowed",
                    arg);
        return EXIT_USAGE;
      }
      opts->module_path = argv[i];
      continue;
    }
    if (i + 1 == argc) {
      print_error("option '%s' needs a value", arg);
      return EXIT_USAGE;
    }
    const char *value = argv[++i];
    bool *seen = NULL;
    if (strcmp(arg, "-i") == 0) {
      opts->inputs[opts->num_inputs++] = value;
    } else if (strcmp(arg, "--dim") == 0) {
      int rc = parse_dim(value, opts);
      if (rc)
        return rc;
    } else if (strcmp(arg, "-f") == 0) {
      seen = &seen_f;
      opts->function = value;
    } else if (strcmp(arg, "-o") == 0) {
      seen = &seen_o;
      if (!*value) {
        print_error("-o needs a directory, got an empty path");
        return EXIT_USAGE;
      }
      opts->output_dir = value;
    } else if (strcmp(arg, "--random") == 0) {
      seen = &opts->random;
      if (!parse_u64(value, &opts->seed)) {
        print_error("--random needs a non-negative integer seed, got '%s'",
                    value);
        return EXIT_USAGE;
      }
    } else if (strcmp(arg, "--threads") == 0) {
      seen = &opts->threads_given;
      if (!parse_u64(value, &opts->threads) || opts->threads > INT_MAX) {
        print_error("--threads needs a thread count from 0 (all cores) to %d, "
                    "got '%s'",
                    INT_MAX, value);
        return EXIT_USAGE;
      }
    } else {
      seen = &seen_bench;
      if (!parse_u64(value, &opts->bench_runs) || opts->bench_runs == 0 ||
          opts->bench_runs > INT_MAX) {
        print_error("--bench needs a positive number of runs, got '%s'", value);
        return EXIT_USAGE;
      }
    }
    if (seen && *seen) {
      print_error("option '%s' is given more than once", arg);
      return EXIT_USAGE;
    }
    if (seen)
      *seen = true;
  }
  if (!opts->module_path) {
    print_error("no MODULE given (see --help)");
    return EXIT_USAGE;
  }
  if (opts->random && opts->num_inputs > 0) {
    print_error("-i and --random cannot be combined");
    return EXIT_USAGE;
  }
  if (opts->num_dims > 0 && !opts->random) {
    print_error("--dim sets the sizes of --random inputs (-i files carry "
                "their own shapes)");
    return EXIT_USAGE;
  }
  return 0;
}

/* ---- loading ------------------------------------------------------------- */

static bool ends_with(const char *text, const char *suffix) {
  size_t n = strlen(text), m = strlen(suffix);
  return n >= m && strcmp(text + n - m, suffix) == 0;
}

/* Path of the rlx-compile installed next to this executable. */
static int find_compiler(char *out, size_t size) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n < 0) {
    print_error("cannot locate rlx-run itself: /proc/self/exe: %s",
                strerror(errno));
    return EXIT_ERROR;
  }
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (slash)
    *slash = '\0';
  if ((size_t)snprintf(out, size, "%s/rlx-compile", self) >= size ||
      access(out, X_OK) != 0) {
    print_error("cannot compile: no executable rlx-compile next to rlx-run "
                "(looked for %s)",
                out);
    return EXIT_ERROR;
  }
  return 0;
}

/* Runs `rlx-compile mlir_path -o so_path`, letting its diagnostics through
 * to our stderr. */
static int run_compiler(char *compiler, char *mlir_path, char *so_path) {
  char dash_o[] = "-o";
  char *args[] = {compiler, mlir_path, dash_o, so_path, NULL};
  pid_t pid;
  int error = posix_spawn(&pid, compiler, NULL, NULL, args, environ);
  if (error) {
    print_error("cannot run %s: %s", compiler, strerror(error));
    return EXIT_ERROR;
  }
  int wait_status;
  while (waitpid(pid, &wait_status, 0) < 0) {
    if (errno != EINTR) {
      print_error("cannot wait for rlx-compile: %s", strerror(errno));
      return EXIT_ERROR;
    }
  }
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0)
    return 0;
  if (WIFSIGNALED(wait_status))
    print_error("rlx-compile was killed by signal %d while compiling '%s'",
                WTERMSIG(wait_status), mlir_path);
  else
    print_error("rlx-compile failed on '%s' (exit status %d)", mlir_path,
                WEXITSTATUS(wait_status));
  return EXIT_ERROR;
}

/* Compiles an .mlir file into a private temporary directory and loads it.
 * The directory is removed right after loading: the mapping outlives the
 * file. */
static int compile_and_load(char *mlir_path, rlx_module_t **module) {
  char compiler[PATH_MAX];
  int rc = find_compiler(compiler, sizeof(compiler));
  if (rc)
    return rc;

  const char *tmp = getenv("TMPDIR");
  char dir[PATH_MAX], so_path[PATH_MAX + 16];
  if ((size_t)snprintf(dir, sizeof(dir), "%s/rlx-run-XXXXXX",
                       tmp && *tmp ? tmp : "/tmp") >= sizeof(dir) ||
      !mkdtemp(dir)) {
    print_error("cannot create a temporary directory in %s: %s",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
    return EXIT_ERROR;
  }
  snprintf(so_path, sizeof(so_path), "%s/module.so", dir);

  rc = run_compiler(compiler, mlir_path, so_path);
  if (!rc) {
    rlx_status_t status = rlx_module_load(so_path, module);
    if (status)
      rc = fail_with(status);
  }
  unlink(so_path);
  rmdir(dir);
  return rc;
}

/* ---- signatures ---------------------------------------------------------- */

static void print_type(FILE *out, const rlx_tensor_type_t *type) {
  char text[1024];
  rlx_tensor_type_format(type, text, sizeof(text));
  fputs(text, out);
}

/* Prints the type of an input or output of `fn` as the manifest writes it:
 * "f32[S,4]". */
static void print_signature_type(const rlx_function_t *fn, bool input,
                                 size_t index) {
  rlx_tensor_type_t type;
  rlx_status_t status = input ? rlx_function_input_type(fn, index, &type)
                              : rlx_function_output_type(fn, index, &type);
  if (status) {
    rlx_status_free(status);
    fputs("?", stdout);
    return;
  }
  printf("%s[", rlx_dtype_name(type.dtype));
  for (size_t d = 0; d < type.rank; ++d) {
    const char *expr = input ? rlx_function_input_dim_expr(fn, index, d)
                             : rlx_function_output_dim_expr(fn, index, d);
    fputs(d ? "," : "", stdout);
    if (expr)
      fputs(expr, stdout);
    else
      printf("%" PRId64, type.dims[d]);
  }
  putchar(']');
}

static void print_signature(const rlx_function_t *fn) {
  printf("%s(", rlx_function_name(fn));
  for (size_t i = 0; i < rlx_function_num_inputs(fn); ++i) {
    fputs(i ? ", " : "", stdout);
    print_signature_type(fn, true, i);
  }
  printf(") -> (");
  for (size_t i = 0; i < rlx_function_num_outputs(fn); ++i) {
    fputs(i ? ", " : "", stdout);
    print_signature_type(fn, false, i);
  }
  putchar(')');
  for (size_t i = 0; i < rlx_function_num_where_clauses(fn); ++i)
    printf("%s%s", i ? ", " : " where ", rlx_function_where_clause(fn, i));
  putchar('\n');
  /* Tensors split over the mesh: "  split input 0: dim 0 over axes [0,1]" */
  for (size_t arg = 0;
       arg < rlx_function_num_inputs(fn) + rlx_function_num_outputs(fn);
       ++arg) {
    bool input = arg < rlx_function_num_inputs(fn);
    size_t index = input ? arg : arg - rlx_function_num_inputs(fn);
    rlx_tensor_type_t type;
    rlx_status_t status = input ? rlx_function_input_type(fn, index, &type)
                                : rlx_function_output_type(fn, index, &type);
    if (status) {
      rlx_status_free(status);
      continue;
    }
    const char *separator = "";
    for (size_t d = 0; d < type.rank; ++d) {
      size_t axes[RLX_MESH_MAX_RANK];
      size_t count = input ? rlx_function_input_split(fn, index, d, axes)
                           : rlx_function_output_split(fn, index, d, axes);
      if (!count)
        continue;
      if (!*separator)
        printf("  split %s %zu:", input ? "input" : "output", index);
      printf("%s dim %zu over mesh axes [", separator, d);
      for (size_t a = 0; a < count; ++a)
        printf(a ? ",%zu" : "%zu", axes[a]);
      putchar(']');
      separator = ",";
    }
    if (*separator)
      putchar('\n');
  }
}

/* Whether output `index` of `fn` is split over the mesh: each process then
 * has its block of it. */
static bool output_is_split(const rlx_function_t *fn, size_t index) {
  rlx_tensor_type_t type;
  rlx_status_t status = rlx_function_output_type(fn, index, &type);
  if (status) {
    rlx_status_free(status);
    return false;
  }
  for (size_t d = 0; d < type.rank; ++d)
    if (rlx_function_output_split(fn, index, d, NULL))
      return true;
  return false;
}

/* Comma-separated function names, for error messages; NULL if out of
 * memory. */
static char *function_names(const rlx_module_t *module) {
  size_t count = rlx_module_function_count(module), length = 1;
  const rlx_function_t *fn;
  for (size_t i = 0; i < count; ++i) {
    rlx_status_free(rlx_module_function_at(module, i, &fn));
    length += strlen(rlx_function_name(fn)) + 2;
  }
  char *names = malloc(length);
  if (!names)
    return NULL;
  names[0] = '\0';
  for (size_t i = 0; i < count; ++i) {
    rlx_status_free(rlx_module_function_at(module, i, &fn));
    if (i)
      strcat(names, ", ");
    strcat(names, rlx_function_name(fn));
  }
  return names;
}

/* Picks the function named `name`, or by default the only function or
 * 'main'. Messages name the module as the user gave it. */
static int select_function(const rlx_module_t *module, const char *shown_path,
                           const char *name, const rlx_function_t **out) {
  size_t count = rlx_module_function_count(module);
  if (count == 0) {
    print_error("module '%s' exports no functions", shown_path);
    return EXIT_ERROR;
  }
  const char *wanted = name ? name : "main";
  for (size_t i = 0; i < count; ++i) {
    const rlx_function_t *fn;
    rlx_status_free(rlx_module_function_at(module, i, &fn));
    if (strcmp(rlx_function_name(fn), wanted) == 0 || (!name && count == 1)) {
      *out = fn;
      return 0;
    }
  }
  char *names = function_names(module);
  if (name)
    print_error("module '%s' has no function '%s'; available: %s", shown_path,
                name, names ? names : "?");
  else
    print_error("module '%s' has %zu functions and none is 'main'; choose "
                "one with -f: %s",
                shown_path, count, names ? names : "?");
  free(names);
  return EXIT_ERROR;
}

/* ---- inputs -------------------------------------------------------------- */

/* SplitMix64: tiny, seedable, and identical on every platform. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static bool is_float(rlx_dtype_t dtype) {
  return dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
         dtype == RLX_DTYPE_BF16 || dtype == RLX_DTYPE_F64;
}

static bool is_complex(rlx_dtype_t dtype) {
  return dtype == RLX_DTYPE_C64 || dtype == RLX_DTYPE_C128;
}

/* The dtype rlx-run generates and prints `dtype`'s values in: f64 for
 * floats, c128 (pairs of f64) for complex numbers, i64 for integers and
 * bools. */
static rlx_dtype_t wide_dtype(rlx_dtype_t dtype) {
  return is_float(dtype)     ? RLX_DTYPE_F64
         : is_complex(dtype) ? RLX_DTYPE_C128
                             : RLX_DTYPE_I64;
}

/* Fills `tensor` from `state`: floats uniform in [-1, 1) before rounding to
 * the dtype, complex numbers with a real, then an imaginary part drawn that
 * way, integers in [0, 4), bools 0/1. Values are generated as f64, c128 or
 * i64 and stored through the runtime's conversion. */
static int fill_random(rlx_tensor_t *tensor, uint64_t *state) {
  size_t count = rlx_tensor_element_count(tensor);
  rlx_dtype_t dtype = rlx_tensor_dtype(tensor);
  rlx_dtype_t wide = wide_dtype(dtype);
  size_t bytes = count * rlx_dtype_size(wide);
  void *values = count <= SIZE_MAX / rlx_dtype_size(wide)
                     ? malloc(count ? bytes : 1)
                     : NULL;
  if (!values) {
    print_error("out of memory for %zu random values", count);
    return EXIT_ERROR;
  }
  size_t words = wide == RLX_DTYPE_C128 ? 2 * count : count;
  for (size_t i = 0; i < words; ++i) {
    uint64_t bits = next_random(state);
    if (wide != RLX_DTYPE_I64)
      ((double *)values)[i] = (double)(bits >> 11) * 0x1p-52 - 1.0;
    else if (dtype == RLX_DTYPE_BOOL)
      ((int64_t *)values)[i] = (int64_t)(bits >> 63);
    else
      ((int64_t *)values)[i] = (int64_t)(bits >> 62);
  }
  rlx_status_t status = rlx_tensor_copy_from(tensor, wide, values, bytes);
  free(values);
  return status ? fail_with(status) : 0;
}

/* Loads input `index` from an .npy file. NumPy has no bfloat16, so an f32
 * array feeds a bf16 input of the same shape. */
static rlx_status_t load_input(const rlx_function_t *fn, size_t index,
                               const char *path, rlx_tensor_t **out) {
  rlx_tensor_t *loaded = NULL;
  rlx_status_t status = rlx_npy_load(path, &loaded);
  if (status)
    return status;
  rlx_tensor_type_t want;
  if (index < rlx_function_num_inputs(fn) &&
      !rlx_function_input_type(fn, index, &want) &&
      want.dtype == RLX_DTYPE_BF16 &&
      rlx_tensor_dtype(loaded) == RLX_DTYPE_F32) {
    rlx_tensor_t *narrowed = NULL;
    status = rlx_tensor_create(RLX_DTYPE_BF16, rlx_tensor_rank(loaded),
                               rlx_tensor_dims(loaded), &narrowed);
    if (!status)
      status =
          rlx_tensor_copy_from(narrowed, RLX_DTYPE_F32, rlx_tensor_data(loaded),
                               rlx_tensor_byte_size(loaded));
    rlx_tensor_free(loaded);
    if (status) {
      rlx_tensor_free(narrowed);
      return status;
    }
    loaded = narrowed;
  }
  *out = loaded;
  return NULL;
}

/* Prints the names of `fn`'s symbols, comma-separated, to stderr: those
 * with `only[s]` set, or all when `only` is NULL. */
static void print_symbols(const rlx_function_t *fn, const bool *only) {
  const char *separator = "";
  for (size_t s = 0; s < rlx_function_num_symbols(fn); ++s) {
    if (only && !only[s])
      continue;
    fprintf(stderr, "%s%s", separator, rlx_function_symbol_name(fn, s));
    separator = ", ";
  }
}

/* Stores the --dim value of each symbol of `fn` in `values`, in symbol
 * order. Every symbol needs one, and every --dim must name a symbol. */
static int symbol_values(const options_t *opts, const rlx_function_t *fn,
                         int64_t *values) {
  size_t num_symbols = rlx_function_num_symbols(fn);
  bool *missing = malloc((num_symbols + 1) * sizeof(*missing));
  if (!missing) {
    print_error("out of memory");
    return EXIT_ERROR;
  }
  for (size_t s = 0; s < num_symbols; ++s)
    missing[s] = true;
  int rc = 0;
  for (size_t i = 0; !rc && i < opts->num_dims; ++i) {
    const char *name = opts->dim_names[i];
    int length = (int)dim_name_length(name);
    size_t s = 0;
    while (
        s < num_symbols &&
        !(strlen(rlx_function_symbol_name(fn, s)) == (size_t)length &&
          memcmp(rlx_function_symbol_name(fn, s), name, (size_t)length) == 0))
      ++s;
    if (s < num_symbols) {
      values[s] = opts->dim_values[i];
      missing[s] = false;
      continue;
    }
    rc = EXIT_ERROR;
    if (num_symbols == 0) {
      print_error("--dim %.*s: the shapes of '%s' are static", length, name,
                  rlx_function_name(fn));
    } else {
      print_error_prefix();
      fprintf(stderr,
              "--dim %.*s: '%s' has no symbol '%.*s'; its symbols: ", length,
              name, rlx_function_name(fn), length, name);
      print_symbols(fn, NULL);
      fputc('\n', stderr);
    }
  }
  bool any_missing = false;
  for (size_t s = 0; s < num_symbols; ++s)
    any_missing |= missing[s];
  if (!rc && any_missing) {
    print_error_prefix();
    fprintf(stderr,
            "'%s' has symbolic input dims: give each size with --dim "
            "NAME=VALUE; missing: ",
            rlx_function_name(fn));
    print_symbols(fn, missing);
    fputc('\n', stderr);
    rc = EXIT_ERROR;
  }
  free(missing);
  return rc;
}

static int prepare_inputs(const options_t *opts, const rlx_function_t *fn,
                          rlx_tensor_t **inputs, size_t *num_inputs) {
  size_t wanted = rlx_function_num_inputs(fn);
  if (opts->random) {
    size_t num_symbols = rlx_function_num_symbols(fn);
    int64_t *values = calloc(num_symbols + 1, sizeof(*values));
    if (!values) {
      print_error("out of memory");
      return EXIT_ERROR;
    }
    int rc = symbol_values(opts, fn, values);
    uint64_t state = opts->seed;
    for (size_t i = 0; !rc && i < wanted; ++i) {
      rlx_tensor_type_t type;
      int64_t dims[RLX_MAX_RANK];
      rlx_status_t status = rlx_function_input_type(fn, i, &type);
      if (!status)
        status = rlx_function_input_dims(fn, values, num_symbols, i, dims);
      if (!status)
        status = rlx_tensor_create(type.dtype, type.rank, dims, &inputs[i]);
      if (status) {
        rc = fail_with(status);
        break;
      }
      *num_inputs = i + 1;
      rc = fill_random(inputs[i], &state);
    }
    free(values);
    return rc;
  }
  if (opts->num_inputs == 0 && wanted > 0) {
    print_error("'%s' takes %zu input%s; pass them with -i FILE.npy or fill "
                "them with --random SEED",
                rlx_function_name(fn), wanted, wanted == 1 ? "" : "s");
    return EXIT_ERROR;
  }
  for (size_t i = 0; i < opts->num_inputs; ++i) {
    rlx_status_t status = load_input(fn, i, opts->inputs[i], &inputs[i]);
    if (status)
      return fail_with(status);
    *num_inputs = i + 1;
  }
  return 0;
}

/* ---- outputs ------------------------------------------------------------- */

/* Prints value `i` of `values` (in wide_dtype(dtype)): "%.6g" for floats,
 * "1.5-2j" for complex numbers (Python's notation without its
 * parentheses), integers as such, "true"/"false". */
static void print_value(rlx_dtype_t dtype, const void *values, size_t i) {
  if (is_float(dtype))
    printf("%.6g", ((const double *)values)[i]);
  else if (is_complex(dtype))
    printf("%.6g%+.6gj", ((const double *)values)[2 * i],
           ((const double *)values)[2 * i + 1]);
  else if (dtype == RLX_DTYPE_BOOL)
    fputs(((const int64_t *)values)[i] ? "true" : "false", stdout);
  else
    printf("%" PRId64, ((const int64_t *)values)[i]);
}

/* Prints "output N: TYPE = [v0, v1, ...]" and a line of statistics. A
 * block of a split output (`whole` is then the whole output's type) prints
 * as "output N: TYPE (rank 0's block of WHOLE) = [...]". */
static int print_output(size_t index, const rlx_tensor_t *tensor,
                        const rlx_tensor_type_t *whole) {
  rlx_tensor_type_t type;
  rlx_status_free(rlx_tensor_get_type(tensor, &type));
  size_t count = rlx_tensor_element_count(tensor);
  bool floats = is_float(type.dtype);
  rlx_dtype_t wide = wide_dtype(type.dtype);
  size_t bytes = count * rlx_dtype_size(wide);
  void *values = count <= SIZE_MAX / rlx_dtype_size(wide)
                     ? malloc(count ? bytes : 1)
                     : NULL;
  if (!values) {
    print_error("out of memory printing output %zu", index);
    return EXIT_ERROR;
  }
  rlx_status_t status = rlx_tensor_copy_to(tensor, wide, values, bytes);
  if (status) {
    free(values);
    return fail_with(status);
  }

  printf("output %zu: ", index);
  print_type(stdout, &type);
  if (whole) {
    printf(" (rank %ld's block of ", mesh_rank);
    print_type(stdout, whole);
    putchar(')');
  }
  printf(" = ");
  if (type.rank == 0) {
    print_value(type.dtype, values, 0);
  } else {
    putchar('[');
    for (size_t i = 0; i < count && i < SHOWN_VALUES; ++i) {
      fputs(i ? ", " : "", stdout);
      print_value(type.dtype, values, i);
    }
    fputs(count > SHOWN_VALUES ? ", ...]" : "]", stdout);
  }
  putchar('\n');

  if (count > 0 && floats) {
    const double *v = values;
    double min = INFINITY, max = -INFINITY, sum = 0;
    size_t nans = 0;
    for (size_t i = 0; i < count; ++i) {
      if (isnan(v[i])) {
        ++nans;
        continue;
      }
      min = v[i] < min ? v[i] : min;
      max = v[i] > max ? v[i] : max;
      sum += v[i];
    }
    if (nans == count)
      printf("  min nan, max nan, mean nan");
    else
      printf("  min %.6g, max %.6g, mean %.6g", min, max,
             sum / (double)(count - nans));
    if (nans)
      printf(", %zu NaN", nans);
    putchar('\n');
  } else if (count > 0 && wide == RLX_DTYPE_C128) {
    /* Complex numbers have no order: the range of their magnitudes, and
     * the mean of each part. A NaN in either part leaves the element out. */
    const double *v = values;
    double min = INFINITY, max = -INFINITY, re = 0, im = 0;
    size_t nans = 0;
    for (size_t i = 0; i < count; ++i) {
      if (isnan(v[2 * i]) || isnan(v[2 * i + 1])) {
        ++nans;
        continue;
      }
      double magnitude = hypot(v[2 * i], v[2 * i + 1]);
      min = magnitude < min ? magnitude : min;
      max = magnitude > max ? magnitude : max;
      re += v[2 * i];
      im += v[2 * i + 1];
    }
    if (nans == count)
      printf("  min |z| nan, max |z| nan, mean nan");
    else
      printf("  min |z| %.6g, max |z| %.6g, mean %.6g%+.6gj", min, max,
             re / (double)(count - nans), im / (double)(count - nans));
    if (nans)
      printf(", %zu NaN", nans);
    putchar('\n');
  } else if (count > 0) {
    const int64_t *v = values;
    int64_t min = INT64_MAX, max = INT64_MIN;
    double sum = 0;
    for (size_t i = 0; i < count; ++i) {
      min = v[i] < min ? v[i] : min;
      max = v[i] > max ? v[i] : max;
      sum += (double)v[i];
    }
    printf("  min %" PRId64 ", max %" PRId64 ", mean %.6g\n", min, max,
           sum / (double)count);
  }
  free(values);
  return 0;
}

/* mkdir -p */
static int make_directories(const char *path) {
  char *copy = malloc(strlen(path) + 1);
  if (!copy) {
    print_error("out of memory");
    return EXIT_ERROR;
  }
  strcpy(copy, path);
  int rc = 0;
  /* Creates each prefix that ends before a '/' (but not the root's empty
   * one), then the whole path. */
  for (char *p = copy; !rc; ++p) {
    bool end = *p == '\0';
    if ((*p != '/' || p == copy) && !end)
      continue;
    *p = '\0';
    struct stat st;
    if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
      print_error("cannot create directory '%s': %s", copy, strerror(errno));
      rc = EXIT_ERROR;
    } else if (stat(copy, &st) != 0 || !S_ISDIR(st.st_mode)) {
      print_error("cannot create directory '%s': it exists and is not a "
                  "directory",
                  copy);
      rc = EXIT_ERROR;
    }
    if (end)
      break;
    *p = '/';
  }
  free(copy);
  return rc;
}

/* Writes OUTDIR/out<i>.npy. Of a mesh module, rank 0 writes the replicated
 * outputs, and every rank its block of a split one: out<i>.rank<r>.npy. */
static int save_outputs(const char *dir, const rlx_function_t *fn,
                        size_t num_processes, rlx_tensor_t **outputs,
                        size_t count) {
  for (size_t i = 0; i < count; ++i) {
    bool split = output_is_split(fn, i);
    if (!split && !prints)
      continue;
    char path[PATH_MAX];
    int length = split ? snprintf(path, sizeof(path), "%s/out%zu.rank%ld.npy",
                                  dir, i, mesh_rank)
                       : snprintf(path, sizeof(path), "%s/out%zu.npy", dir, i);
    if (length < 0 || (size_t)length >= sizeof(path)) {
      print_error("output path in '%s' is too long", dir);
      return EXIT_ERROR;
    }
    rlx_status_t status = rlx_npy_save(path, outputs[i]);
    if (status)
      return fail_with(status);
    if (prints && split)
      printf("wrote %s/out%zu.rank<r>.npy, one per rank (r = 0 to %zu)\n", dir,
             i, num_processes - 1);
    else if (prints)
      printf("wrote %s\n", path);
  }
  return 0;
}

/* ---- benchmark ----------------------------------------------------------- */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Sorts `times` and returns their median. */
static double median(double *times, size_t count) {
  qsort(times, count, sizeof(*times), compare_doubles);
  return count % 2 ? times[count / 2]
                   : (times[count / 2 - 1] + times[count / 2]) / 2;
}

/* The run that produced the printed outputs served as the warm-up. */
static int bench(const rlx_function_t *fn, rlx_tensor_t **inputs,
                 size_t num_inputs, rlx_tensor_t **outputs, size_t num_outputs,
                 size_t runs) {
  double *times = malloc(2 * runs * sizeof(*times));
  if (!times) {
    print_error("out of memory for %zu benchmark runs", runs);
    return EXIT_ERROR;
  }
  double *device_times = times + runs;
  rlx_status_t no_device_time = NULL;
  for (size_t i = 0; i < runs; ++i) {
    double start = now_ms();
    rlx_status_t status =
        rlx_function_invoke(fn, inputs, num_inputs, outputs, num_outputs);
    times[i] = now_ms() - start;
    if (status) {
      free(times);
      rlx_status_free(no_device_time);
      return fail_with(status);
    }
    if (!no_device_time)
      no_device_time = rlx_function_device_time(fn, &device_times[i]);
  }
  if (prints)
    printf("median: %.3f ms over %zu runs\n", median(times, runs), runs);
  if (prints && !no_device_time)
    printf("device median: %.3f ms over %zu runs\n",
           median(device_times, runs), runs);
  rlx_status_free(no_device_time);
  free(times);
  return 0;
}

/* ---- main ---------------------------------------------------------------- */

static int load_module(char *path, rlx_module_t **module) {
  if (!ends_with(path, ".mlir")) {
    rlx_status_t status = rlx_module_load(path, module);
    return status ? fail_with(status) : 0;
  }
  if (access(path, R_OK) != 0) {
    print_error("cannot read '%s': %s", path, strerror(errno));
    return EXIT_ERROR;
  }
  return compile_and_load(path, module);
}

static int run_function(const options_t *opts, const rlx_module_t *module,
                        const rlx_function_t *fn) {
  rlx_mesh_t mesh;
  rlx_status_t mesh_status = rlx_module_mesh(module, &mesh);
  if (mesh_status)
    return fail_with(mesh_status);
  size_t max_inputs = opts->num_inputs + rlx_function_num_inputs(fn);
  size_t num_outputs = rlx_function_num_outputs(fn);
  size_t num_inputs = 0;
  rlx_tensor_t **inputs = calloc(max_inputs + 1, sizeof(*inputs));
  rlx_tensor_t **outputs = calloc(num_outputs + 1, sizeof(*outputs));
  int rc = 0;
  if (!inputs || !outputs) {
    print_error("out of memory");
    rc = EXIT_ERROR;
  }
  /* Before running, so that a bad OUTDIR costs no run. */
  if (!rc && opts->output_dir)
    rc = make_directories(opts->output_dir);
  if (!rc)
    rc = prepare_inputs(opts, fn, inputs, &num_inputs);
  if (!rc) {
    rlx_status_t status =
        rlx_function_call(fn, inputs, num_inputs, outputs, num_outputs);
    if (status)
      rc = fail_with(status);
  } else if (mesh.rank > 0) {
    /* The other processes are in the call's agreement: fail it there, so
     * that none of them waits for this one. */
    rlx_status_free(rlx_module_mesh_agree(module, 1, NULL));
  }
  bool call_failed = rc != 0;
  for (size_t i = 0; !rc && prints && i < num_outputs; ++i) {
    rlx_tensor_type_t whole;
    rlx_status_t status = rlx_function_output_type(fn, i, &whole);
    if (status)
      rc = fail_with(status);
    else
      rc = print_output(i, outputs[i], output_is_split(fn, i) ? &whole : NULL);
  }
  if (!rc && opts->output_dir)
    rc = save_outputs(opts->output_dir, fn, mesh.num_processes, outputs,
                      num_outputs);
  /* The benchmark's calls are collectives of a mesh module: every process
   * makes them, or none. */
  if (!call_failed && opts->bench_runs && mesh.rank > 0) {
    int any_failed = 0;
    rlx_status_free(rlx_module_mesh_agree(module, rc != 0, &any_failed));
    if (!rc && any_failed) {
      print_error("another process of the mesh failed to print or save its "
                  "outputs (see its error); no benchmark");
      rc = EXIT_ERROR;
    }
  }
  if (!rc && opts->bench_runs)
    rc = bench(fn, inputs, num_inputs, outputs, num_outputs,
               (size_t)opts->bench_runs);

  for (size_t i = 0; inputs && i < num_inputs; ++i)
    rlx_tensor_free(inputs[i]);
  for (size_t i = 0; outputs && i < num_outputs; ++i)
    rlx_tensor_free(outputs[i]);
  free(inputs);
  free(outputs);
  return rc;
}

static int run(const options_t *opts) {
  if (opts->threads_given) {
    rlx_status_t status = rlx_set_num_threads((size_t)opts->threads);
    if (status)
      return fail_with(status);
  }
  rlx_module_t *module = NULL;
  int rc = load_module(opts->module_path, &module);
  if (rc)
    return rc;
  rlx_mesh_t mesh;
  rlx_status_t status = rlx_module_mesh(module, &mesh);
  if (status) {
    rlx_module_free(module);
    return fail_with(status);
  }
  if (mesh.rank > 0) {
    mesh_rank = (long)mesh.process;
    prints = mesh.process == 0;
  }
  if (opts->list && prints) {
    if (mesh.rank > 0) {
      printf("mesh [");
      for (size_t a = 0; a < mesh.rank; ++a)
        printf(a ? ",%" PRId64 : "%" PRId64, mesh.dims[a]);
      printf("]: %zu processes\n", mesh.num_processes);
    }
    for (size_t i = 0; i < rlx_module_function_count(module); ++i) {
      const rlx_function_t *fn;
      rlx_status_free(rlx_module_function_at(module, i, &fn));
      print_signature(fn);
    }
  } else if (!opts->list) {
    const rlx_function_t *fn = NULL;
    rc = select_function(module, opts->module_path, opts->function, &fn);
    if (!rc)
      rc = run_function(opts, module, fn);
  }
  rlx_module_free(module);
  return rc;
}

int main(int argc, char **argv) {
  options_t opts;
  memset(&opts, 0, sizeof(opts));
  int rc = parse_args(argc, argv, &opts);
  if (!rc)
    rc = run(&opts);
  free(opts.inputs);
  free(opts.dim_names);
  free(opts.dim_values);
  fflush(stdout);
  return rc;
}
