#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct rlx_status {
  rlx_status_code_t code;
  char message[];
};

/* Returned when a status itself cannot be allocated; never freed. */
static struct rlx_status oom_status = {RLX_STATUS_OUT_OF_MEMORY};

rlx_status_t rlx_make_status(rlx_status_code_t code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (length < 0)
    length = 0;

  rlx_status_t status = malloc(sizeof(*status) + (size_t)length + 1);
  if (!status)
    return &oom_status;
  status->code = code;
  va_start(args, format);
  vsnprintf(status->message, (size_t)length + 1, format, args);
  va_end(args);
  return status;
}

rlx_status_code_t rlx_status_code(rlx_status_t status) {
  return status ? status->code : RLX_STATUS_OK;
}

const char *rlx_status_message(rlx_status_t status) {
  if (!status)
    return "OK";
  if (status == &oom_status)
    return "out of memory";
  return status->message;
}

void rlx_status_free(rlx_status_t status) {
  if (status != &oom_status)
    free(status);
}

const char *rlx_status_code_name(rlx_status_code_t code) {
  switch (code) {
  case RLX_STATUS_OK:
    return "OK";
  case RLX_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case RLX_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case RLX_STATUS_OUT_OF_RANGE:
    return "OUT_OF_RANGE";
  case RLX_STATUS_SHAPE_MISMATCH:
    return "SHAPE_MISMATCH";
  case RLX_STATUS_DTYPE_MISMATCH:
    return "DTYPE_MISMATCH";
  case RLX_STATUS_INVALID_FORMAT:
    return "INVALID_FORMAT";
  case RLX_STATUS_IO_ERROR:
    return "IO_ERROR";
  case RLX_STATUS_OUT_OF_MEMORY:
    return "OUT_OF_MEMORY";
  case RLX_STATUS_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case RLX_STATUS_INTERNAL:
    return "INTERNAL";
  case RLX_STATUS_PEER_FAILED:
    return "PEER_FAILED";
  }
  return "UNKNOWN";
}
