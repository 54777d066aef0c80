/* A module whose manifest names a function it does not export. */
#define EXPORT __attribute__((visibility("default")))

EXPORT const char rlx_manifest[] = "rlx-module 1\n"
                                   "func present 0 1\n"
                                   "res f32 0\n"
                                   "func ghost 0 1\n"
                                   "res f32 0\n";

EXPORT void rlx_invoke_present(void **args) { (void)args; }
