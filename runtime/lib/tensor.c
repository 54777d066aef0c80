#include "internal.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies `text` (of length `length`) snprintf-style and returns `length`. */
static size_t copy_text(const char *text, size_t length, char *buffer,
                        size_t size) {
  if (buffer && size > 0) {
    size_t n = length < size - 1 ? length : size - 1;
    memcpy(buffer, text, n);
    buffer[n] = '\0';
  }
  return length;
}

static size_t dims_text(size_t rank, const int64_t *dims,
                        char text[RLX_DIMS_TEXT_SIZE]) {
  size_t n = 0;
  text[n++] = '[';
  for (size_t i = 0; i < rank && i < RLX_MAX_RANK; ++i) {
    if (i)
      text[n++] = ',';
    if (dims[i] == RLX_DIM_DYNAMIC)
      text[n++] = '?';
    else
      n += (size_t)snprintf(text + n, RLX_DIMS_TEXT_SIZE - n, "%" PRId64,
                            dims[i]);
  }
  text[n++] = ']';
  text[n] = '\0';
  return n;
}

size_t rlx_format_dims(size_t rank, const int64_t *dims, char *buffer,
                       size_t size) {
  char text[RLX_DIMS_TEXT_SIZE];
  return copy_text(text, dims_text(rank, dims, text), buffer, size);
}

size_t rlx_tensor_type_format(const rlx_tensor_type_t *type, char *buffer,
                              size_t size) {
  if (!type)
    return 0;
  const char *name = rlx_dtype_name(type->dtype);
  if (!name)
    name = "invalid";
  char text[16 + RLX_DIMS_TEXT_SIZE];
  size_t n = strlen(name);
  memcpy(text, name, n);
  n += dims_text(type->dims ? type->rank : 0, type->dims, text + n);
  return copy_text(text, n, buffer, size);
}

rlx_status_t rlx_check_shape(const char *what, rlx_dtype_t dtype, size_t rank,
                             const int64_t *dims, size_t *count_out,
                             size_t *bytes_out) {
  if (!rlx_dtype_is_valid(dtype))
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: invalid dtype %d",
                           what, (int)dtype);
  if (rank > RLX_MAX_RANK)
    return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                           "%s: rank %zu exceeds the maximum of %d", what, rank,
                           RLX_MAX_RANK);
  if (rank > 0 && !dims)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "%s: dims is NULL but rank is %zu", what, rank);
  for (size_t i = 0; i < rank; ++i)
    if (dims[i] < 0)
      return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                             "%s: dim %zu is negative (%" PRId64 ")", what, i,
                             dims[i]);

  /* Multiplying from the innermost dim checks every row-major stride too;
   * those must fit the int64_t fields of a memref descriptor. */
  const uint64_t element_size = rlx_dtype_size(dtype);
  const uint64_t limit = (uint64_t)INT64_MAX < (uint64_t)SIZE_MAX
                             ? (uint64_t)INT64_MAX
                             : (uint64_t)SIZE_MAX;
  uint64_t count = 1;
  bool overflow = false;
  for (size_t i = rank; i-- > 0;) {
    uint64_t dim = (uint64_t)dims[i];
    if (dim != 0 && count > limit / dim) {
      overflow = true;
      break;
    }
    count *= dim;
  }
  if (overflow || count > limit / element_size) {
    char text[RLX_DIMS_TEXT_SIZE];
    rlx_format_dims(rank, dims, text, sizeof(text));
    return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                           "%s: shape %s is too large (its size overflows)",
                           what, text);
  }
  *count_out = (size_t)count;
  *bytes_out = (size_t)(count * element_size);
  return NULL;
}

static rlx_tensor_t *new_tensor(rlx_dtype_t dtype, size_t rank,
                                const int64_t *dims, size_t count,
                                size_t bytes) {
  rlx_tensor_t *tensor = calloc(1, sizeof(*tensor));
  if (!tensor)
    return NULL;
  tensor->dtype = dtype;
  tensor->rank = rank;
  if (rank > 0)
    memcpy(tensor->dims, dims, rank * sizeof(dims[0]));
  tensor->element_count = count;
  tensor->byte_size = bytes;
  return tensor;
}

rlx_status_t rlx_tensor_create(rlx_dtype_t dtype, size_t rank,
                               const int64_t *dims, rlx_tensor_t **out) {
  if (!out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_tensor_create: out is NULL");
  size_t count, bytes;
  rlx_status_t status =
      rlx_check_shape("rlx_tensor_create", dtype, rank, dims, &count, &bytes);
  if (status)
    return status;

  rlx_tensor_t *tensor = new_tensor(dtype, rank, dims, count, bytes);
  /* aligned_alloc wants a non-zero multiple of the alignment. */
  size_t capacity = bytes == 0
                        ? RLX_TENSOR_ALIGNMENT
                        : (bytes + RLX_TENSOR_ALIGNMENT - 1) /
                              RLX_TENSOR_ALIGNMENT * RLX_TENSOR_ALIGNMENT;
  void *data = tensor ? aligned_alloc(RLX_TENSOR_ALIGNMENT, capacity) : NULL;
  if (!data) {
    free(tensor);
    char text[RLX_DIMS_TEXT_SIZE];
    rlx_format_dims(rank, dims, text, sizeof(text));
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "rlx_tensor_create: cannot allocate %zu bytes for "
                           "%s%s",
                           bytes, rlx_dtype_name(dtype), text);
  }
  memset(data, 0, capacity);
  tensor->data = data;
  tensor->owns_data = true;
  *out = tensor;
  return NULL;
}

rlx_status_t rlx_tensor_wrap(rlx_dtype_t dtype, size_t rank,
                             const int64_t *dims, void *data,
                             size_t byte_length, rlx_tensor_t **out) {
  if (!out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_tensor_wrap: out is NULL");
  size_t count, bytes;
  rlx_status_t status =
      rlx_check_shape("rlx_tensor_wrap", dtype, rank, dims, &count, &bytes);
  if (status)
    return status;

  char text[RLX_DIMS_TEXT_SIZE];
  rlx_format_dims(rank, dims, text, sizeof(text));
  if (byte_length != bytes)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_tensor_wrap: %s%s needs exactly %zu bytes, got "
                           "%zu",
                           rlx_dtype_name(dtype), text, bytes, byte_length);
  if (!data && bytes > 0)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_tensor_wrap: data is NULL for %s%s",
                           rlx_dtype_name(dtype), text);
  /* Compiled code may use aligned loads of the element type (of each part
   * of a complex one). */
  if ((uintptr_t)data % rlx_dtype_alignment(dtype) != 0)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_tensor_wrap: data %p is not %zu-byte aligned",
                           data, rlx_dtype_alignment(dtype));

  rlx_tensor_t *tensor = new_tensor(dtype, rank, dims, count, bytes);
  if (!tensor)
    return rlx_make_status(RLX_STATUS_OUT_OF_MEMORY,
                           "rlx_tensor_wrap: out of memory");
  tensor->data = data;
  *out = tensor;
  return NULL;
}

void rlx_tensor_free(rlx_tensor_t *tensor) {
  if (!tensor)
    return;
  if (tensor->owns_data)
    free(tensor->data);
  free(tensor);
}

rlx_dtype_t rlx_tensor_dtype(const rlx_tensor_t *tensor) {
  return tensor ? tensor->dtype : RLX_DTYPE_F32;
}

size_t rlx_tensor_rank(const rlx_tensor_t *tensor) {
  return tensor ? tensor->rank : 0;
}

const int64_t *rlx_tensor_dims(const rlx_tensor_t *tensor) {
  return tensor && tensor->rank > 0 ? tensor->dims : NULL;
}

void *rlx_tensor_data(const rlx_tensor_t *tensor) {
  return tensor ? tensor->data : NULL;
}

size_t rlx_tensor_byte_size(const rlx_tensor_t *tensor) {
  return tensor ? tensor->byte_size : 0;
}

size_t rlx_tensor_element_count(const rlx_tensor_t *tensor) {
  return tensor ? tensor->element_count : 0;
}

rlx_status_t rlx_tensor_get_type(const rlx_tensor_t *tensor,
                                 rlx_tensor_type_t *out) {
  if (!tensor || !out)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "rlx_tensor_get_type: %s is NULL",
                           tensor ? "out" : "tensor");
  out->dtype = tensor->dtype;
  out->rank = tensor->rank;
  out->dims = tensor->rank > 0 ? tensor->dims : NULL;
  return NULL;
}

/* Shared checks of rlx_tensor_copy_from / rlx_tensor_copy_to. */
static rlx_status_t check_copy(const char *what, const rlx_tensor_t *tensor,
                               rlx_dtype_t dtype, const void *buffer,
                               size_t byte_length) {
  if (!tensor)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: tensor is NULL",
                           what);
  if (!rlx_dtype_is_valid(dtype))
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: invalid dtype %d",
                           what, (int)dtype);
  const size_t element_size = rlx_dtype_size(dtype);
  const size_t count = tensor->element_count;
  if (count > SIZE_MAX / element_size || count * element_size != byte_length) {
    char text[RLX_DIMS_TEXT_SIZE];
    rlx_format_dims(tensor->rank, tensor->dims, text, sizeof(text));
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT,
                           "%s: %zu elements of %s (tensor %s%s) need %zu "
                           "bytes, got %zu",
                           what, count, rlx_dtype_name(dtype),
                           rlx_dtype_name(tensor->dtype), text,
                           count * element_size, byte_length);
  }
  if (!buffer && byte_length > 0)
    return rlx_make_status(RLX_STATUS_INVALID_ARGUMENT, "%s: buffer is NULL",
                           what);
  return NULL;
}

rlx_status_t rlx_tensor_copy_from(rlx_tensor_t *tensor, rlx_dtype_t src_dtype,
                                  const void *src, size_t src_byte_length) {
  rlx_status_t status = check_copy("rlx_tensor_copy_from", tensor, src_dtype,
                                   src, src_byte_length);
  if (status)
    return status;
  return rlx_convert(src_dtype, src, tensor->dtype, tensor->data,
                     tensor->element_count);
}

rlx_status_t rlx_tensor_copy_to(const rlx_tensor_t *tensor,
                                rlx_dtype_t dst_dtype, void *dst,
                                size_t dst_byte_length) {
  rlx_status_t status =
      check_copy("rlx_tensor_copy_to", tensor, dst_dtype, dst, dst_byte_length);
  if (status)
    return status;
  return rlx_convert(tensor->dtype, tensor->data, dst_dtype, dst,
                     tensor->element_count);
}
