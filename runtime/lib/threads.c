/* The thread count compiled modules run their parallel loops with.
 *
 * The runtime does not link an OpenMP library: a module whose loops run in
 * parallel depends on one (libomp) itself, and rlx_function_invoke passes
 * the count to that module's omp_set_num_threads (see module.c). */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* _SC_NPROCESSORS_ONLN */
#endif

#include "internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define ENVIRONMENT_VARIABLE "RLX_NUM_THREADS"

static pthread_once_t initialized = PTHREAD_ONCE_INIT;
/* Written once, by initialize(). */
static size_t online_cores;
static bool environment_invalid;
static char environment_text[64]; /* the invalid value, for the message */

/* 0 means all cores. */
static atomic_size_t configured_threads;
/* Whether rlx_set_num_threads was called: it overrides RLX_NUM_THREADS. */
static atomic_bool set_by_program;

/* A decimal integer in [0, INT_MAX], digits only: omp_set_num_threads
 * takes an int. */
static bool parse_thread_count(const char *text, size_t *out) {
  size_t value = 0;
  for (const char *c = text; *c; ++c) {
    if (*c < '0' || *c > '9')
      return false;
    value = value * 10 + (size_t)(*c - '0');
    if (value > INT_MAX)
      return false;
  }
  *out = value;
  return *text != '\0';
}

static void initialize(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  online_cores = cores > 0 ? (size_t)cores : 1;

  const char *text = getenv(ENVIRONMENT_VARIABLE);
  if (!text || !*text)
    return;
  size_t count;
  if (parse_thread_count(text, &count)) {
    atomic_store(&configured_threads, count);
  } else {
    environment_invalid = true;
    snprintf(environment_text, sizeof(environment_text), "%s", text);
  }
}

rlx_status_t rlx_set_num_threads(size_t count) {
  if (count > INT_MAX)
    return rlx_make_status(RLX_STATUS_OUT_OF_RANGE,
                           "rlx_set_num_threads: %zu threads is more than the "
                           "%d OpenMP supports",
                           count, INT_MAX);
  pthread_once(&initialized, initialize);
  atomic_store(&configured_threads, count);
  atomic_store(&set_by_program, true);
  return NULL;
}

size_t rlx_get_num_threads(void) {
  pthread_once(&initialized, initialize);
  size_t count = atomic_load(&configured_threads);
  return count ? count : online_cores;
}

rlx_status_t rlx_check_thread_environment(void) {
  pthread_once(&initialized, initialize);
  if (!environment_invalid || atomic_load(&set_by_program))
    return NULL;
  return rlx_make_status(
      RLX_STATUS_INVALID_ARGUMENT,
      "%s='%s' is not a thread count: expected a decimal integer from 0 "
      "(all cores) to %d, or unset it",
      ENVIRONMENT_VARIABLE, environment_text, INT_MAX);
}
