/* A module whose manifest gives a rank-2 argument only one dim. */
#define EXPORT __attribute__((visibility("default")))

EXPORT const char rlx_manifest[] = "rlx-module 1\n"
                                   "func f 1 1\n"
                                   "arg f32 2 4\n"
                                   "res f32 0\n";

EXPORT void rlx_invoke_f(void **args) { (void)args; }
