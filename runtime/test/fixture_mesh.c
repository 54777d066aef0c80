/* A hand-written mesh module (SPMD: one process of an MPI job), as
 * rlx-compile emits it for a program on a mesh, with a fake MPI: its
 * rlx_mesh_* functions count their calls, and the process's rank, the
 * world's size and what the other processes contribute to an agreement come
 * from globals the test sets, or from the environment (RLX_FAKE_MESH_RANK,
 * RLX_FAKE_MESH_SIZE, RLX_FAKE_MESH_PEER_FAILED) for rlx-run's tests;
 * RLX_FAKE_MESH_TRACE=1 prints each call to stderr. Built twice: on a 1-D
 * mesh of 2 processes, and with RLX_FIXTURE_MESH_2D on a 2x2 mesh. Each
 * rlx_invoke_* records the descriptors it gets and fills its outputs with
 * 100 * rank + the element's index. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

#ifndef RLX_FIXTURE_MESH_2D
#define PROCESSES 2
EXPORT const char rlx_manifest[] =
    "rlx-module 2\n"
    "mesh 1 2\n"
    /* input 0 split by rows: each process gets a view of 2 rows; output 0
     * is replicated, output 1 split by rows */
    "func rows 2 2\n"
    "arg f32 2 4 3\n"
    "arg f32 1 3\n"
    "res f32 2 4 3\n"
    "res f32 2 4 3\n"
    "split arg 0 0 0\n"
    "split res 1 0 0\n"
    /* split by columns: each process gets a copy of 2 of the 4 */
    "func cols 1 1\n"
    "arg f32 2 3 4\n"
    "res f32 2 3 4\n"
    "split arg 0 1 0\n"
    "where 1 == 1\n"
    "split res 0 1 0\n"
    /* a symbolic dim stays whole next to a split static one */
    "func dynamic 1 1\n"
    "arg f32 2 S 4\n"
    "res f32 2 S 4\n"
    "split arg 0 1 0\n"
    "split res 0 1 0\n"
    "where S <= 8\n"
    /* nothing split: every process gets the whole tensors */
    "func plain 1 1\n"
    "arg i32 1 3\n"
    "res i32 1 3\n";
#else
#define PROCESSES 4
EXPORT const char rlx_manifest[] =
    "rlx-module 2\n"
    "mesh 2 2 2\n"
    /* input 0: dim 0 over both axes (4 blocks of 1 row: a view); input 1:
     * dim 1 over axes 1 then 0; input 2: dim 0 over axis 0 and dim 1 over
     * axis 1; the output like input 2, the other way round */
    "func grid 3 1\n"
    "arg f32 2 4 6\n"
    "arg f32 2 2 8\n"
    "arg f32 2 4 4\n"
    "res f32 2 4 4\n"
    "split arg 0 0 0 1\n"
    "split arg 1 1 1 0\n"
    "split arg 2 0 0\n"
    "where 4 >= 1\n"
    "split arg 2 1 1\n"
    "split res 0 0 1\n"
    "split res 0 1 0\n";
#endif

/* ---- fake MPI ------------------------------------------------------------ */

EXPORT int32_t rlx_fixture_rank;
EXPORT int32_t rlx_fixture_size = PROCESSES;
EXPORT int32_t rlx_fixture_peer_failed; /* the others' flag in an agreement */
EXPORT int32_t rlx_fixture_start_result;
EXPORT int rlx_fixture_start_calls;
EXPORT int rlx_fixture_stop_calls;
EXPORT int rlx_fixture_any_calls;
EXPORT int32_t rlx_fixture_any_last_flag = -1;

static int32_t from_environment(const char *name, int32_t fallback) {
  const char *value = getenv(name);
  return value && *value ? (int32_t)atoi(value) : fallback;
}

static void trace(const char *format, int32_t value) {
  if (from_environment("RLX_FAKE_MESH_TRACE", 0)) {
    fprintf(stderr, format, value);
    fputc('\n', stderr);
  }
}

EXPORT int32_t rlx_mesh_start(void) {
  ++rlx_fixture_start_calls;
  trace("fake mesh: start (%d)", rlx_fixture_start_calls);
  return rlx_fixture_start_result;
}

EXPORT int32_t rlx_mesh_rank(void) {
  return from_environment("RLX_FAKE_MESH_RANK", rlx_fixture_rank);
}

EXPORT int32_t rlx_mesh_size(void) {
  return from_environment("RLX_FAKE_MESH_SIZE", rlx_fixture_size);
}

EXPORT int32_t rlx_mesh_any(int32_t flag) {
  ++rlx_fixture_any_calls;
  rlx_fixture_any_last_flag = flag;
  trace("fake mesh: any(%d)", flag);
  int32_t others =
      from_environment("RLX_FAKE_MESH_PEER_FAILED", rlx_fixture_peer_failed);
  return flag > others ? flag : others;
}

EXPORT int32_t rlx_mesh_stop(void) {
  ++rlx_fixture_stop_calls;
  trace("fake mesh: stop (%d)", rlx_fixture_stop_calls);
  return 0;
}

/* ---- functions ----------------------------------------------------------- */

/* What the last call got, per argument (inputs, then outputs): the data
 * pointer, the descriptor's offset, sizes and strides, and the first 64
 * values of each input. */
#define MAX_ARGS 4
EXPORT int rlx_fixture_calls;
EXPORT const void *rlx_fixture_data[MAX_ARGS];
EXPORT int64_t rlx_fixture_offsets[MAX_ARGS];
EXPORT int64_t rlx_fixture_sizes[MAX_ARGS][2];
EXPORT int64_t rlx_fixture_strides[MAX_ARGS][2];
EXPORT float rlx_fixture_values[MAX_ARGS][64];

/* A memref descriptor of rank `rank` (1 or 2): {allocated, aligned, offset,
 * sizes[rank], strides[rank]}. */
static void record(void **args, int arg, int rank, int is_input) {
  const int64_t *words = args[arg];
  void *data;
  memcpy(&data, &words[1], sizeof(data));
  rlx_fixture_data[arg] = data;
  rlx_fixture_offsets[arg] = words[2];
  int64_t count = 1;
  for (int d = 0; d < 2; ++d) {
    rlx_fixture_sizes[arg][d] = d < rank ? words[3 + d] : 0;
    rlx_fixture_strides[arg][d] = d < rank ? words[3 + rank + d] : 0;
    count *= d < rank ? words[3 + d] : 1;
  }
  if (!is_input)
    return;
  memset(rlx_fixture_values[arg], 0, sizeof(rlx_fixture_values[arg]));
  if (count > 64)
    count = 64;
  if (count > 0)
    memcpy(rlx_fixture_values[arg], data, (size_t)count * sizeof(float));
}

/* Fills output `arg` (rank 1 or 2) with 100 * rank + index. */
static void fill(void **args, int arg, int rank, int is_float) {
  const int64_t *words = args[arg];
  void *data;
  memcpy(&data, &words[1], sizeof(data));
  int64_t count = 1;
  for (int d = 0; d < rank; ++d)
    count *= words[3 + d];
  int32_t base = 100 * rlx_mesh_rank();
  for (int64_t i = 0; i < count; ++i) {
    if (is_float)
      ((float *)data)[i] = (float)(base + i);
    else
      ((int32_t *)data)[i] = base + (int32_t)i;
  }
}

#ifndef RLX_FIXTURE_MESH_2D
EXPORT void rlx_invoke_rows(void **args) {
  ++rlx_fixture_calls;
  record(args, 0, 2, 1);
  record(args, 1, 1, 1);
  record(args, 2, 2, 0);
  record(args, 3, 2, 0);
  fill(args, 2, 2, 1);
  fill(args, 3, 2, 1);
}

EXPORT void rlx_invoke_cols(void **args) {
  ++rlx_fixture_calls;
  record(args, 0, 2, 1);
  record(args, 1, 2, 0);
  fill(args, 1, 2, 1);
}

EXPORT void rlx_invoke_dynamic(void **args) {
  ++rlx_fixture_calls;
  record(args, 0, 2, 1);
  record(args, 1, 2, 0);
  fill(args, 1, 2, 1);
}

EXPORT void rlx_invoke_plain(void **args) {
  ++rlx_fixture_calls;
  record(args, 0, 1, 0);
  record(args, 1, 1, 0);
  fill(args, 1, 1, 0);
}
#else
EXPORT void rlx_invoke_grid(void **args) {
  ++rlx_fixture_calls;
  for (int i = 0; i < 3; ++i)
    record(args, i, 2, 1);
  record(args, 3, 2, 0);
  fill(args, 3, 2, 1);
}
#endif
