/* NumPy .npy reader and writer (format versions 1.0, 2.0, 3.0). */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat, fdopen */

#include "rlx/npy.h"

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* Data is copied verbatim between files and memory. */
#error "npy I/O needs a little-endian host"
#endif

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* Far larger than any header this runtime writes or accepts (rank <= 32). */
#define MAX_HEADER_LENGTH (1u << 16)

/* "(d0, d1, ...)" with every dim at 19 digits, plus a 1-tuple's comma. */
#define SHAPE_TEXT_SIZE (4 + RLX_MAX_RANK * 21)

typedef struct descr_entry {
  const char *descr;
  rlx_dtype_t dtype;
} descr_entry_t;

static const descr_entry_t descr_table[] = {
    {"<f4", RLX_DTYPE_F32}, {"<f8", RLX_DTYPE_F64},   {"<f2", RLX_DTYPE_F16},
    {"|i1", RLX_DTYPE_I8},  {"<i1", RLX_DTYPE_I8},    {"<i2", RLX_DTYPE_I16},
    {"<i4", RLX_DTYPE_I32}, {"<i8", RLX_DTYPE_I64},   {"|b1", RLX_DTYPE_BOOL},
    {"<c8", RLX_DTYPE_C64}, {"<c16", RLX_DTYPE_C128},
};

/* ---- header parsing ------------------------------------------------------ */

/* The header is a Python dict literal such as
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * This parser accepts exactly the subset NumPy writes: string keys, a string,
 * a boolean and a tuple of non-negative integers. */
typedef struct header_parser {
  const char *path;
  const char *text;
  size_t pos;
  size_t length;
} header_parser_t;

typedef struct npy_header {
  char descr[16];
  bool fortran_order;
  size_t rank;
  int64_t dims[RLX_MAX_RANK];
} npy_header_t;

static rlx_status_t header_error(const header_parser_t *h, const char *what) {
  return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                         "'%s': malformed npy header at offset %zu: %s",
                         h->path, h->pos, what);
}

static void skip_space(header_parser_t *h) {
  while (h->pos < h->length &&
         (h->text[h->pos] == ' ' || h->text[h->pos] == '\t' ||
          h->text[h->pos] == '\n' || h->text[h->pos] == '\r'))
    ++h->pos;
}

static bool consume(header_parser_t *h, char c) {
  skip_space(h);
  if (h->pos < h->length && h->text[h->pos] == c) {
    ++h->pos;
    return true;
  }
  return false;
}

/* Reads a quoted string into `out`; strings longer than the buffer are
 * rejected since no valid key or descr is that long. */
static rlx_status_t parse_string(header_parser_t *h, char *out, size_t size) {
  skip_space(h);
  if (h->pos >= h->length ||
      (h->text[h->pos] != '\'' && h->text[h->pos] != '"'))
    return header_error(h, "expected a quoted string");
  char quote = h->text[h->pos++];
  size_t n = 0;
  while (h->pos < h->length && h->text[h->pos] != quote) {
    if (n + 1 >= size)
      return header_error(h, "string is too long");
    out[n++] = h->text[h->pos++];
  }
  if (h->pos >= h->length)
    return header_error(h, "unterminated string");
  ++h->pos;
  out[n] = '\0';
  return NULL;
}

static bool consume_word(header_parser_t *h, const char *word) {
  skip_space(h);
  size_t n = strlen(word);
  if (h->length - h->pos >= n && memcmp(h->text + h->pos, word, n) == 0) {
    h->pos += n;
    return true;
  }
  return false;
}

static rlx_status_t parse_shape(header_parser_t *h, npy_header_t *header) {
  if (!consume(h, '('))
    return header_error(h, "expected '(' starting the shape");
  header->rank = 0;
  for (;;) {
    if (consume(h, ')'))
      return NULL;
    if (header->rank == RLX_MAX_RANK)
      return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                             "'%s': shape has more than %d dims", h->path,
                             RLX_MAX_RANK);
    skip_space(h);
    size_t start = h->pos;
    uint64_t dim = 0;
    while (h->pos < h->length && h->text[h->pos] >= '0' &&
           h->text[h->pos] <= '9') {
      unsigned digit = (unsigned)(h->text[h->pos] - '0');
      if (dim > ((uint64_t)INT64_MAX - digit) / 10)
        return header_error(h, "dim is too large");
      dim = dim * 10 + digit;
      ++h->pos;
    }
    if (h->pos == start)
      return header_error(h, "expected a non-negative integer dim");
    header->dims[header->rank++] = (int64_t)dim;
    /* Python needs the comma of a 1-tuple, "(3,)"; "(3)" is just 3. */
    if (consume(h, ','))
      continue;
    if (header->rank == 1)
      return header_error(h, "a one-dim shape needs a trailing comma");
    if (!consume(h, ')'))
      return header_error(h, "expected ',' or ')' in the shape");
    return NULL;
  }
}

static rlx_status_t parse_header(header_parser_t *h, npy_header_t *header) {
  enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };
  unsigned seen = 0;
  if (!consume(h, '{'))
    return header_error(h, "expected '{'");
  while (!consume(h, '}')) {
    char key[32];
    rlx_status_t status = parse_string(h, key, sizeof(key));
    if (status)
      return status;
    if (!consume(h, ':'))
      return header_error(h, "expected ':' after a key");
    unsigned bit;
    if (strcmp(key, "descr") == 0) {
      bit = KEY_DESCR;
      status = parse_string(h, header->descr, sizeof(header->descr));
    } else if (strcmp(key, "fortran_order") == 0) {
      bit = KEY_FORTRAN;
      if (consume_word(h, "True"))
        header->fortran_order = true;
      else if (consume_word(h, "False"))
        header->fortran_order = false;
      else
        status = header_error(h, "fortran_order must be True or False");
    } else if (strcmp(key, "shape") == 0) {
      bit = KEY_SHAPE;
      status = parse_shape(h, header);
    } else {
      return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                             "'%s': unexpected key '%s' in the npy header",
                             h->path, key);
    }
    if (status)
      return status;
    if (seen & bit)
      return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                             "'%s': duplicate key '%s' in the npy header",
                             h->path, key);
    seen |= bit;
    if (!consume(h, ',')) {
      if (!consume(h, '}'))
        return header_error(h, "expected ',' or '}'");
      break;
    }
  }
  skip_space(h);
  if (h->pos != h->length)
    return header_error(h, "unexpected text after the header dict");
  if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE))
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "'%s': the npy header lacks %s", h->path,
                           !(seen & KEY_DESCR)     ? "'descr'"
                           : !(seen & KEY_FORTRAN) ? "'fortran_order'"
                                                   : "'shape'");
  return NULL;
}

static rlx_status_t dtype_from_descr(const char *path, const char *descr,
                                     rlx_dtype_t *out) {
  for (size_t i = 0; i < sizeof(descr_table) / sizeof(descr_table[0]); ++i) {
    if (strcmp(descr, descr_table[i].descr) == 0) {
      *out = descr_table[i].dtype;
      return NULL;
    }
  }
  return rlx_make_status(
      RLX_STATUS_UNIMPLEMENTED,
      "'%s': unsupported npy dtype '%s'%s (supported: <f2 <f4 <f8 |i1 <i2 "
      "<i4 <i8 |b1 <c8 <c16)",
      path, descr, descr[0] == '>' ? ", big-endian" : "");
}

/* ---- load ---------------------------------------------------------------- */

static rlx_status_t open_error(const char *path, const char *action) {
  int error = errno;
  return rlx_make_status(error == ENOENT ? RLX_STATUS_NOT_FOUND
                                         : RLX_STATUS_IO_ERROR,
                         "cannot %s '%s': %s", action, path, strerror(error));
}

/* Reports a read that returned less than asked: an I/O error if the stream
 * says so, else `truncated`, a description of the missing part. */
static rlx_status_t short_read(FILE *file, const char *path,
                               const char *truncated) {
  if (ferror(file))
    return rlx_make_status(RLX_STATUS_IO_ERROR, "cannot read '%s': %s", path,
                           strerror(errno));
  return rlx_make_status(RLX_STATUS_INVALID_FORMAT, "'%s': %s", path,
                         truncated);
}

/* Reads the preamble and the header dict; stores in `data_offset` where the
 * data starts. */
static rlx_status_t read_header(FILE *file, const char *path,
                                npy_header_t *header, uint64_t *data_offset) {
  unsigned char preamble[8];
  if (fread(preamble, 1, sizeof(preamble), file) != sizeof(preamble))
    return short_read(file, path, "truncated npy file (no complete preamble)");
  if (memcmp(preamble, npy_magic, sizeof(npy_magic)) != 0)
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "'%s': not an npy file (bad magic)", path);
  unsigned major = preamble[6], minor = preamble[7];
  if (major < 1 || major > 3 || minor != 0)
    return rlx_make_status(RLX_STATUS_UNIMPLEMENTED,
                           "'%s': unsupported npy format version %u.%u", path,
                           major, minor);

  unsigned char length_bytes[4] = {0, 0, 0, 0};
  size_t length_size = major == 1 ? 2 : 4;
  if (fread(length_bytes, 1, length_size, file) != length_size)
    return short_read(file, path, "truncated npy file (no header length)");
  uint32_t header_length =
      (uint32_t)length_bytes[0] | (uint32_t)length_bytes[1] << 8 |
      (uint32_t)length_bytes[2] << 16 | (uint32_t)length_bytes[3] << 24;
  if (header_length > MAX_HEADER_LENGTH)
    return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                           "'%s': npy header length %" PRIu32
                           " exceeds the limit of %u",
                           path, header_length, MAX_HEADER_LENGTH);

  char *text = malloc(header_length + 1);
  if (!text)
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "'%s': out of memory reading the npy header", path);
  size_t got = fread(text, 1, header_length, file);
  rlx_status_t status = NULL;
  if (got != header_length && ferror(file)) {
    status = short_read(file, path, "");
  } else if (got != header_length) {
    status =
        rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                        "'%s': truncated npy header (%zu of %" PRIu32 " bytes)",
                        path, got, header_length);
  } else {
    header_parser_t parser = {path, text, 0, header_length};
    status = parse_header(&parser, header);
    *data_offset = sizeof(preamble) + length_size + header_length;
  }
  free(text);
  return status;
}

static rlx_status_t truncated_data(const char *path,
                                   const npy_header_t *header, size_t expected,
                                   uint64_t got) {
  char text[RLX_DIMS_TEXT_SIZE];
  rlx_format_dims(header->rank, header->dims, text, sizeof(text));
  return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                         "'%s': npy data is truncated: shape %s of '%s' needs "
                         "%zu bytes, the file has %" PRIu64,
                         path, text, header->descr, expected, got);
}

static rlx_status_t extra_data(const char *path) {
  return rlx_make_status(RLX_STATUS_INVALID_FORMAT,
                         "'%s': npy file has bytes past the data its header "
                         "describes",
                         path);
}

/* Reads the data of a stream whose size is unknown (a pipe): `expected`
 * bytes, then end of file, into a new malloc'd buffer at `*out`. The buffer
 * grows with what arrives, so a header that claims more than the stream
 * holds allocates at most twice what it does hold. */
static rlx_status_t read_unsized_data(FILE *file, const char *path,
                                      const npy_header_t *header,
                                      size_t expected, unsigned char **out) {
  size_t capacity = 0, got = 0;
  unsigned char *buffer = NULL;
  rlx_status_t status = NULL;
  while (!status && got < expected) {
    if (got == capacity) {
      size_t grown = capacity ? capacity : 1u << 16;
      if (grown > expected - capacity)
        grown = expected;
      else
        grown += capacity;
      unsigned char *bigger = realloc(buffer, grown);
      if (!bigger) {
        status = rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                                 "'%s': out of memory reading %zu bytes of "
                                 "npy data",
                                 path, grown);
        break;
      }
      buffer = bigger;
      capacity = grown;
    }
    size_t n = fread(buffer + got, 1, capacity - got, file);
    got += n;
    if (n == 0)
      status = ferror(file) ? short_read(file, path, "")
                            : truncated_data(path, header, expected, got);
  }
  if (!status && fgetc(file) != EOF)
    status = extra_data(path);
  if (!status && ferror(file))
    status = short_read(file, path, "");
  if (status) {
    free(buffer);
    return status;
  }
  *out = buffer;
  return NULL;
}

rlx_status_t rlx_npy_read(FILE *file, const char *path, int64_t file_size,
                          rlx_tensor_t **out) {
  npy_header_t header;
  memset(&header, 0, sizeof(header));
  rlx_dtype_t dtype = RLX_DTYPE_F32;
  uint64_t data_offset = 0;
  rlx_status_t status = read_header(file, path, &header, &data_offset);
  if (!status)
    status = dtype_from_descr(path, header.descr, &dtype);
  if (!status && header.fortran_order)
    status = rlx_make_status(RLX_STATUS_UNIMPLEMENTED,
                             "'%s': Fortran-order arrays are not supported; "
                             "save a C-order array",
                             path);
  size_t count = 0, expected = 0;
  if (!status) {
    rlx_status_t shape_status = rlx_check_shape(
        "npy header", dtype, header.rank, header.dims, &count, &expected);
    if (shape_status) {
      status = rlx_make_status(rlx_status_code(shape_status), "'%s': %s", path,
                               rlx_status_message(shape_status));
      rlx_status_free(shape_status);
    }
  }
  /* The file must hold the data before any of it is allocated. */
  if (!status && file_size >= 0) {
    uint64_t available = (uint64_t)file_size > data_offset
                             ? (uint64_t)file_size - data_offset
                             : 0;
    if (available < expected)
      status = truncated_data(path, &header, expected, available);
    else if (available > expected)
      status = extra_data(path);
  }
  if (status)
    return status;

  unsigned char *unsized = NULL;
  if (file_size < 0) {
    status = read_unsized_data(file, path, &header, expected, &unsized);
    if (status)
      return status;
  }
  rlx_tensor_t *tensor = NULL;
  status = rlx_tensor_create(dtype, header.rank, header.dims, &tensor);
  if (status) {
    free(unsized);
    rlx_status_t located =
        rlx_make_status(rlx_status_code(status), "'%s': %s", path,
                        rlx_status_message(status));
    rlx_status_free(status);
    return located;
  }
  unsigned char *data = rlx_tensor_data(tensor);
  if (file_size < 0) {
    if (expected > 0)
      memcpy(data, unsized, expected);
    free(unsized);
  } else {
    size_t got = fread(data, 1, expected, file);
    if (got != expected && ferror(file))
      status = short_read(file, path, "");
    else if (got != expected) /* the file shrank since its size was taken */
      status = truncated_data(path, &header, expected, got);
    else if (fgetc(file) != EOF)
      status = extra_data(path);
    else if (ferror(file))
      status = short_read(file, path, "");
  }
  if (status) {
    rlx_tensor_free(tensor);
    return status;
  }
  if (dtype == RLX_DTYPE_BOOL)
    for (size_t i = 0; i < expected; ++i)
      data[i] = data[i] != 0;
  *out = tensor;
  return NULL;
}

rlx_status_t rlx_npy_load(const char *path, rlx_tensor_t **out) {
  if (!path || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_npy_load: %s is NULL", path ? "out" : "path");
  FILE *file = fopen(path, "rb");
  if (!file)
    return open_error(path, "open");
  struct stat st;
  int64_t size = fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode)
                     ? (int64_t)st.st_size
                     : -1;
  rlx_status_t status = rlx_npy_read(file, path, size, out);
  fclose(file);
  return status;
}

/* ---- save ---------------------------------------------------------------- */

static const char *descr_for(rlx_dtype_t dtype) {
  switch (dtype) {
  case RLX_DTYPE_F32:
  case RLX_DTYPE_BF16:
    return "<f4";
  case RLX_DTYPE_F16:
    return "<f2";
  case RLX_DTYPE_F64:
    return "<f8";
  case RLX_DTYPE_I8:
    return "|i1";
  case RLX_DTYPE_I16:
    return "<i2";
  case RLX_DTYPE_I32:
    return "<i4";
  case RLX_DTYPE_I64:
    return "<i8";
  case RLX_DTYPE_BOOL:
    return "|b1";
  case RLX_DTYPE_C64:
    return "<c8";
  case RLX_DTYPE_C128:
    return "<c16";
  }
  return NULL;
}

/* Builds the padded header (ending in '\n') that follows the 10-byte v1.0
 * preamble; returns its length. */
static size_t format_header(const rlx_tensor_t *tensor, char *buffer,
                            size_t size) {
  char shape[SHAPE_TEXT_SIZE];
  size_t rank = rlx_tensor_rank(tensor);
  const int64_t *dims = rlx_tensor_dims(tensor);
  size_t n = 0;
  shape[n++] = '(';
  for (size_t i = 0; i < rank; ++i)
    n += (size_t)snprintf(shape + n, sizeof(shape) - n,
                          i ? ", %" PRId64 : "%" PRId64, dims[i]);
  if (rank == 1)
    shape[n++] = ',';
  shape[n++] = ')';
  shape[n] = '\0';

  int length = snprintf(
      buffer, size, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
      descr_for(rlx_tensor_dtype(tensor)), shape);
  /* Pad with spaces so the data starts at a multiple of 64 bytes. */
  size_t total = 10 + (size_t)length + 1;
  size_t padded = (total + 63) / 64 * 64;
  size_t header_length = padded - 10;
  memset(buffer + length, ' ', header_length - 1 - (size_t)length);
  buffer[header_length - 1] = '\n';
  return header_length;
}

static bool write_data(FILE *file, const rlx_tensor_t *tensor) {
  const void *data = rlx_tensor_data(tensor);
  size_t count = rlx_tensor_element_count(tensor);
  if (rlx_tensor_dtype(tensor) != RLX_DTYPE_BF16)
    return fwrite(data, 1, rlx_tensor_byte_size(tensor), file) ==
           rlx_tensor_byte_size(tensor);

  /* bf16 widens to f32 exactly; convert through a bounded buffer. */
  float chunk[1024];
  const unsigned char *in = data;
  for (size_t done = 0; done < count;) {
    size_t n = count - done < 1024 ? count - done : 1024;
    rlx_status_t status =
        rlx_convert(RLX_DTYPE_BF16, in + 2 * done, RLX_DTYPE_F32, chunk, n);
    rlx_status_free(status);
    if (status || fwrite(chunk, sizeof(float), n, file) != n)
      return false;
    done += n;
  }
  return true;
}

rlx_status_t rlx_npy_save(const char *path, const rlx_tensor_t *tensor) {
  if (!path || !tensor)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_npy_save: %s is NULL",
                           path ? "tensor" : "path");

  /* The dict takes about 60 bytes besides the shape, padding at most 64. */
  char header[SHAPE_TEXT_SIZE + 128];
  size_t header_length = format_header(tensor, header, sizeof(header));
  unsigned char preamble[10];
  memcpy(preamble, npy_magic, sizeof(npy_magic));
  preamble[6] = 1;
  preamble[7] = 0;
  preamble[8] = (unsigned char)(header_length & 0xff);
  preamble[9] = (unsigned char)(header_length >> 8);

  /* A failed write removes the file only if this call created it: an
   * existing file (or a device such as /dev/full) is someone else's. The
   * existing file is overwritten in place, which keeps its inode, mode and
   * links, and a device stays a device (a temporary file renamed over the
   * path would replace either). */
  bool created = true;
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EEXIST) {
    created = false;
    fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  }
  FILE *file = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!file) {
    rlx_status_t status = open_error(path, "create");
    if (fd >= 0) {
      close(fd);
      if (created)
        unlink(path);
    }
    return status;
  }
  bool ok = fwrite(preamble, 1, sizeof(preamble), file) == sizeof(preamble) &&
            fwrite(header, 1, header_length, file) == header_length &&
            write_data(file, tensor);
  int saved_errno = errno;
  if (fclose(file) != 0 && ok) {
    ok = false;
    saved_errno = errno;
  }
  if (!ok) {
    if (created)
      unlink(path);
    return rlx_make_status(RLX_STATUS_IO_ERROR, "cannot write '%s': %s", path,
                           strerror(saved_errno));
  }
  return NULL;
}
