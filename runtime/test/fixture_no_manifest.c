/* A valid shared object that is not an RLX module: no rlx_manifest. */
#define EXPORT __attribute__((visibility("default")))

EXPORT void rlx_invoke_f(void **args) { (void)args; }
