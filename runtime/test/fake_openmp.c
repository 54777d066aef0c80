/* Stands in for an OpenMP library (libomp) in the runtime's tests: like
 * OpenMP's nthreads-var, the thread count is a setting of each thread. */
#define EXPORT __attribute__((visibility("default")))

/* 0 until omp_set_num_threads is called on this thread. */
static _Thread_local int requested_threads;

EXPORT void omp_set_num_threads(int count) { requested_threads = count; }

EXPORT int omp_get_max_threads(void) { return requested_threads; }
