// RUN: rlx-opt %s --rlx-export-abi=target=cuda -verify-diagnostics -o /dev/null

// expected-error @+1 {{a mesh module runs on CPUs for now: the cuda target has no collectives}}
shard.grid @mesh(shape = 2)
