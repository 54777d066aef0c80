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

struct rlx_function {
  char *name;
  size_t num_inputs;
  size_t num_outputs;
  rlx_tensor_type_t *types; /* inputs, then outputs */
  int64_t *dims;            /* storage behind types[i].dims */
  size_t descriptor_words;  /* 64-bit words of all argument descriptors */
  rlx_invoke_fn invoke;
  /* The module's omp_set_num_threads, or NULL if it has no OpenMP. */
  rlx_set_num_threads_fn set_num_threads;
  rlx_cuda_context_t cuda; /* the device its buffers live on, or NULL */
};

struct rlx_module {
  char *path;
  void *handle;
  bool on_cuda; /* the manifest says "target cuda" */
  rlx_cuda_context_t cuda;
  size_t num_functions;
  rlx_function_t *functions;
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
  size_t line;       /* 1-based number of the current line */
  size_t lines_left; /* upper bound on the lines after the current one */
  token_t tokens[MAX_TOKENS];
  size_t num_tokens;
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

/* Parses "<kind> <dtype> <rank> <d0> ..." into `type`, whose dims point at
 * `dims` (room for RLX_MAX_RANK). */
static rlx_status_t parse_type_line(parser_t *p, const char *kind,
                                    const char *fn_name, size_t index,
                                    rlx_tensor_type_t *type, int64_t *dims) {
  const token_t *t = p->tokens;
  if (!token_is(&t[0], kind))
    return parse_error(p, "expected '%s' line %zu of function '%s', got '%.*s'",
                       kind, index, fn_name, shown(&t[0]), t[0].text);
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
  for (size_t i = 0; i < rank; ++i) {
    uint64_t dim = 0;
    status = parse_uint(p, &t[3 + i], "dim", INT64_MAX, &dim);
    if (status)
      return status;
    dims[i] = (int64_t)dim;
  }
  type->rank = (size_t)rank;
  type->dims = rank > 0 ? dims : NULL;

  char what[96];
  snprintf(what, sizeof(what), "%s %zu of '%s'",
           token_is(&t[0], "arg") ? "input" : "output", index, fn_name);
  size_t count, bytes;
  status = rlx_check_shape(what, type->dtype, type->rank, dims, &count, &bytes);
  if (status) {
    rlx_status_t error = parse_error(p, "%s", rlx_status_message(status));
    rlx_status_free(status);
    return error;
  }
  return NULL;
}

static void free_function_fields(rlx_function_t *fn) {
  free(fn->name);
  free(fn->types);
  free(fn->dims);
}

/* Parses the "func" line at the parser's position and its arg/res lines. */
static rlx_status_t parse_function(parser_t *p, const rlx_module_t *module,
                                   rlx_function_t *fn) {
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
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "out of memory reading the manifest of '%s'",
                           p->path);
  memcpy(fn->name, t[1].text, t[1].length);
  fn->name[t[1].length] = '\0';
  fn->num_inputs = (size_t)num_inputs;
  fn->num_outputs = (size_t)num_outputs;

  for (size_t i = 0; i < num_args; ++i) {
    bool is_input = i < fn->num_inputs;
    size_t index = is_input ? i : i - fn->num_inputs;
    bool found;
    status = next_line(p, &found);
    if (status)
      return status;
    if (!found)
      return parse_error(p,
                         "manifest ends inside function '%s' (%s %zu of %zu "
                         "missing)",
                         fn->name, is_input ? "input" : "output", index,
                         is_input ? fn->num_inputs : fn->num_outputs);
    status = parse_type_line(p, is_input ? "arg" : "res", fn->name, index,
                             &fn->types[i], &fn->dims[i * RLX_MAX_RANK]);
    if (status)
      return status;
    fn->descriptor_words += 3 + 2 * fn->types[i].rank;
  }
  return NULL;
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
    return parse_error(&p, "expected the header 'rlx-module 1'");
  uint64_t version = 0;
  status = parse_uint(&p, &p.tokens[1], "version", UINT32_MAX, &version);
  if (status)
    return status;
  if (version != 1)
    return rlx_make_status(RLX_STATUS_UNIMPLEMENTED,
                           "module '%s' has manifest version %" PRIu64
                           "; this runtime reads version 1",
                           module->path, version);

  status = next_line(&p, &found);
  if (!status && found && token_is(&p.tokens[0], "target")) {
    status = parse_target(&p, module);
    if (!status)
      status = next_line(&p, &found);
  }
  size_t capacity = 0;
  for (; !status && found; status = next_line(&p, &found)) {
    if (module->num_functions == capacity) {
      size_t new_capacity = capacity ? 2 * capacity : 4;
      rlx_function_t *grown =
          realloc(module->functions, new_capacity * sizeof(*module->functions));
      if (!grown)
        return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                               "out of memory reading the manifest of '%s'",
                               module->path);
      module->functions = grown;
      capacity = new_capacity;
    }
    rlx_function_t *fn = &module->functions[module->num_functions];
    memset(fn, 0, sizeof(*fn));
    status = parse_function(&p, module, fn);
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
  rlx_cuda_context_destroy(module->cuda);
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

  bool same_shape = tensor->rank == expected->rank;
  for (size_t d = 0; same_shape && d < expected->rank; ++d)
    same_shape = tensor->dims[d] == expected->dims[d];
  if (same_shape)
    return NULL;
  char want[RLX_DIMS_TEXT_SIZE], got[RLX_DIMS_TEXT_SIZE];
  rlx_format_dims(expected->rank, expected->dims, want, sizeof(want));
  rlx_format_dims(tensor->rank, tensor->dims, got, sizeof(got));
  if (tensor->rank != expected->rank)
    return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                           "%s %zu of '%s': expected rank %zu shape %s, got "
                           "rank %zu shape %s",
                           noun, index, fn->name, expected->rank, want,
                           tensor->rank, got);
  return rlx_make_status(RLX_STATUS_SHAPE_MISMATCH,
                         "%s %zu of '%s': expected shape %s, got %s", noun,
                         index, fn->name, want, got);
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
  for (size_t i = 0; !status && i < num_inputs; ++i)
    status = check_tensor(fn, true, i, inputs[i]);
  for (size_t i = 0; !status && i < num_outputs; ++i)
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

rlx_status_t rlx_function_invoke(const rlx_function_t *fn,
                                 rlx_tensor_t *const *inputs, size_t num_inputs,
                                 rlx_tensor_t *const *outputs,
                                 size_t num_outputs) {
  rlx_status_t status = validate("rlx_function_invoke", fn, inputs, num_inputs,
                                 outputs, num_outputs);
  if (status)
    return status;

  void *stack_args[STACK_ARGS];
  int64_t stack_words[STACK_WORDS];
  const size_t num_args = num_inputs + num_outputs;
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
    return status;
  for (size_t i = 0; i < num_outputs; ++i)
    outputs_out[i] = NULL;

  for (size_t i = 0; !status && i < num_outputs; ++i) {
    const rlx_tensor_type_t *type = &fn->types[fn->num_inputs + i];
    status =
        rlx_tensor_create(type->dtype, type->rank, type->dims, &outputs_out[i]);
  }
  if (!status)
    status =
        rlx_function_invoke(fn, inputs, num_inputs, outputs_out, num_outputs);
  if (status) {
    for (size_t i = 0; i < num_outputs; ++i) {
      rlx_tensor_free(outputs_out[i]);
      outputs_out[i] = NULL;
    }
  }
  return status;
}
