// RUN: rlx-opt %s --rlx-check-gpu-binaries --split-input-file --verify-diagnostics | FileCheck %s

// PTX that defines everything it calls passes.
// CHECK: gpu.binary @complete
gpu.binary @complete [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]

// -----

// A libdevice call left unresolved (no toolkit found) is an error naming it.
// expected-error @+1 {{kernel module 'unresolved' calls '__nv_erff', which is not linked: libdevice was not found}}
gpu.binary @unresolved [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.extern .func  (.param .b32 func_retval0) __nv_erff\0A(\0A\09.param .b32 __nv_erff_param_0\0A)\0A;\0A.visible .entry k()\0A{\0A\09ret;\0A}\0A">]
