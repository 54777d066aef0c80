/* The all-reduces of one data-parallel step by themselves, for
 * bench/distributed.py: under mpirun -np N,
 *
 *   allreduce_bench REPS COUNT...
 *
 * makes, REPS times, one MPI_Allreduce (sum) of COUNT floats for each
 * COUNT in order (the step's all-reduces, from the interposer's log), each
 * repetition starting after a barrier, so that no process waits for
 * another's computation; and times a memcpy of the same bytes. Rank 0
 * prints the medians:
 *
 *   allreduce_ns <median time of one repetition's all-reduces>
 *   copy_ns <median time of one memcpy of their bytes>
 *   bytes <their bytes>
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static long long median(long long *v, int n) {
  qsort(v, n, sizeof(*v), compare);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 3) {
    if (rank == 0)
      fprintf(stderr, "usage: allreduce_bench REPS COUNT...\n");
    MPI_Finalize();
    return 2;
  }
  int reps = atoi(argv[1]);
  int num = argc - 2;
  long long *counts = malloc(num * sizeof(*counts));
  long long total = 0;
  for (int i = 0; i < num; ++i)
    total += counts[i] = atoll(argv[i + 2]);
  float *send = malloc(total * sizeof(float));
  float *receive = malloc(total * sizeof(float));
  long long *times = malloc((reps + 1) * sizeof(*times));
  for (long long i = 0; i < total; ++i)
    send[i] = (float)(i % 7);
  memset(receive, 0, total * sizeof(float));
  /* Repetition 0 warms up (buffers, shared-memory segments). */
  for (int r = 0; r <= reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    long long start = now_ns();
    long long offset = 0;
    for (int i = 0; i < num; ++i) {
      MPI_Allreduce(send + offset, receive + offset, (int)counts[i], MPI_FLOAT,
                    MPI_SUM, MPI_COMM_WORLD);
      offset += counts[i];
    }
    times[r] = now_ns() - start;
  }
  long long allreduce = median(times + 1, reps);
  for (int r = 0; r <= reps; ++r) {
    long long start = now_ns();
    memcpy(receive, send, total * sizeof(float));
    times[r] = now_ns() - start;
    send[r % total] += receive[(r * 7) % total]; /* keep the copies */
  }
  long long copy = median(times + 1, reps);
  if (rank == 0)
    printf("allreduce_ns %lld\ncopy_ns %lld\nbytes %lld\n", allreduce, copy,
           total * (long long)sizeof(float));
  free(send);
  free(receive);
  free(times);
  free(counts);
  MPI_Finalize();
  return 0;
}
