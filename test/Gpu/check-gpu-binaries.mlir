// RUN: rlx-opt %s --rlx-check-gpu-binaries --split-input-file --verify-diagnostics | FileCheck %s

// PTX that defines everything it calls passes.
// CHECK: gpu.binary @complete
gpu.binary @complete [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]

// -----

// A libdevice call left unresolved (no toolkit found) is an error naming it.
// expected-error @+1 {{kernel module 'unresolved' calls '__nv_erff', which is not linked: libdevice was not found}}
gpu.binary @unresolved [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.extern .func  (.param .b32 func_retval0) __nv_erff\0A(\0A\09.param .b32 __nv_erff_param_0\0A)\0A;\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]

// -----

// Stack of run-time size overruns what the driver gives a thread.
// expected-error @+1 {{kernel module 'dynamic_stack' allocates stack of run-time size (PTX `alloca`), which runs past the stack the driver sizes from the kernel's frame}}
gpu.binary @dynamic_stack [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry k(.param .u64 n)\0A{\0A\09.reg .b64 %rd<3>;\0A\09ld.param.u64 %rd1, [n];\0A\09alloca.u64 \09%rd2, %rd1, 64;\0A\09ret;\0A}\0A">]
