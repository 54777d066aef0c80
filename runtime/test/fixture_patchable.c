/* A module with a writable manifest. The test dlopens it first, rewrites
 * rlx_manifest, and then loads it through the runtime, which gets the same
 * (reference-counted) mapping: one object covers every malformed-manifest
 * case. Invoke symbols exist for functions "f" and "g". */
#define EXPORT __attribute__((visibility("default")))

EXPORT char rlx_manifest[4096] = "rlx-module 1\n"
                                 "func f 0 1\n"
                                 "res f32 0\n";

EXPORT void rlx_invoke_f(void **args) { (void)args; }
EXPORT void rlx_invoke_g(void **args) { (void)args; }
