/* A PMPI interposer for bench/distributed.py: times every MPI_Allreduce of
 * a process and, at MPI_Finalize, writes one line per call to
 * $RLX_BENCH_ALLREDUCE_LOG.<rank>:
 *
 *   <datatype name> <count> <bytes> <nanoseconds>
 *
 * in call order. Built at bench time (mpicc -shared -fPIC) and loaded with
 * mpirun -x LD_PRELOAD=...: the module's calls of MPI_Allreduce (it links
 * libmpi) resolve here first, and the real call is PMPI_Allreduce. The
 * wall time of a call includes waiting for the other processes to reach
 * it. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  char type[24];
  long long count;
  long long bytes;
  long long ns;
} record_t;

static record_t *records;
static size_t num_records, capacity;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int MPI_Allreduce(const void *send, void *receive, int count,
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  long long start = now_ns();
  int rc = PMPI_Allreduce(send, receive, count, type, op, comm);
  long long elapsed = now_ns() - start;
  if (num_records == capacity) {
    size_t grown = capacity ? 2 * capacity : 4096;
    record_t *more = realloc(records, grown * sizeof(*records));
    if (!more)
      return rc;
    records = more;
    capacity = grown;
  }
  record_t *r = &records[num_records++];
  int size = 0, length = 0;
  PMPI_Type_size(type, &size);
  r->type[0] = '\0';
  PMPI_Type_get_name(type, r->type, &length);
  for (char *c = r->type; *c; ++c) /* one word per field */
    if (*c == ' ')
      *c = '_';
  if (!r->type[0])
    strcpy(r->type, "unnamed");
  r->count = count;
  r->bytes = (long long)count * size;
  r->ns = elapsed;
  return rc;
}

int MPI_Finalize(void) {
  const char *base = getenv("RLX_BENCH_ALLREDUCE_LOG");
  if (base) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096];
    snprintf(path, sizeof(path), "%s.%d", base, rank);
    FILE *f = fopen(path, "w");
    if (f) {
      for (size_t i = 0; i < num_records; ++i)
        fprintf(f, "%s %lld %lld %lld\n", records[i].type, records[i].count,
                records[i].bytes, records[i].ns);
      fclose(f);
    }
  }
  free(records);
  records = NULL;
  num_records = capacity = 0;
  return PMPI_Finalize();
}
