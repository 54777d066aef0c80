// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @grouped_matmul_input_rank(%x: tensor<2x6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<2xi32>) {
  // expected-error @+2 {{grouped_matmul needs a [T, K] input and an [E, K, N] weight, got ranks 3 and 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<2x6x8xf32>, tensor<4x8x5xf32>, tensor<2xi32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @grouped_matmul_weight_rank(%x: tensor<6x8xf32>, %w: tensor<8x5xf32>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{grouped_matmul needs a [T, K] input and an [E, K, N] weight, got ranks 2 and 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<8x5xf32>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_depth(%x: tensor<6x8xf32>, %w: tensor<4x7x5xf32>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{grouped_matmul's weight [4, 7, 5] does not fit the input [6, 8]: needs [E, K, N] for a [T, K] input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<4x7x5xf32>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_element_types(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf16>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{grouped_matmul's weight element type 'f16' differs from the input's 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<4x8x5xf16>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_ids_rows(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<5xi32>) {
  // expected-error @+2 {{grouped_matmul's expert_ids [5] do not have one row per input row [6, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<5xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_ids_rank(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<6x2xi32>) {
  // expected-error @+2 {{grouped_matmul's expert_ids must be [T] without gates, got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6x2xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_gated_ids_rank(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<6xi32>, %g: tensor<6xf32>) {
  // expected-error @+2 {{grouped_matmul's expert_ids must be [T, k] with gates, got rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids gates %g : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6xi32>, tensor<6xf32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_gates_shape(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<6x2xi32>, %g: tensor<6x3xf32>) {
  // expected-error @+2 {{grouped_matmul's gates [6, 3] differ from the expert_ids' shape [6, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids gates %g : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6x2xi32>, tensor<6x3xf32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_gates_element_type(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<6x2xi32>, %g: tensor<6x2xf16>) {
  // expected-error @+2 {{grouped_matmul's gates element type 'f16' differs from the input's 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids gates %g : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6x2xi32>, tensor<6x2xf16>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_no_experts(%x: tensor<6x8xf32>, %w: tensor<0x8x5xf32>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{cannot gather 6 indices from axis 0 of size 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<0x8x5xf32>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_result_type(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{'rlx.grouped_matmul' op inferred type(s) 'tensor<6x5xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6xi32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @grouped_matmul_ids_type(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand #2 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6xf32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @grouped_matmul_integer_input(%x: tensor<6x8xi32>, %w: tensor<4x8x5xi32>, %ids: tensor<6xi32>) {
  // expected-error @+1 {{'rlx.grouped_matmul' op operand #0 must be ranked tensor of}}
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xi32>, tensor<4x8x5xi32>, tensor<6xi32>) -> tensor<6x5xi32>
  return
}

// -----

func.func @dequant_grouped_matmul_input_rank(%x: tensor<2x6x64xf32>, %w: tensor<4x5x32xi8>, %ids: tensor<2xi32>, %s: tensor<4x5x2xf32>) {
  // expected-error @+2 {{dequant_grouped_matmul needs a [T, K] input, got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scales %s scheme = "int4" : (tensor<2x6x64xf32>, tensor<4x5x32xi8>, tensor<2xi32>, tensor<4x5x2xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_weight_rank(%x: tensor<6x64xf32>, %w: tensor<5x32xi8>, %ids: tensor<6xi32>, %s: tensor<5x2xf32>) {
  // expected-error @+2 {{weight must be [E, N, bytes per row] with static sizes, got [5, 32]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scales %s scheme = "int4" : (tensor<6x64xf32>, tensor<5x32xi8>, tensor<6xi32>, tensor<5x2xf32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_dynamic_experts(%x: tensor<6x64xf32>, %w: tensor<?x5x36xi8>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{weight must be [E, N, bytes per row] with static sizes, got [?, 5, 36]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0" : (tensor<6x64xf32>, tensor<?x5x36xi8>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_depth(%x: tensor<6x32xf32>, %w: tensor<4x5x36xi8>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{input has K = 32 but the q4_0 experts [4, 5, 36] hold rows of K = 64}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0" : (tensor<6x32xf32>, tensor<4x5x36xi8>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_scales(%x: tensor<6x64xf32>, %w: tensor<4x5x32xi8>, %ids: tensor<6xi32>, %s: tensor<5x2xf32>) {
  // expected-error @+2 {{scales must be [E, N, K / group_size] = [4, 5, 2], got [5, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scales %s scheme = "int4" : (tensor<6x64xf32>, tensor<4x5x32xi8>, tensor<6xi32>, tensor<5x2xf32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_zero_points(%x: tensor<6x64xf32>, %w: tensor<4x5x32xi8>, %ids: tensor<6xi32>, %s: tensor<4x5x2xf32>, %z: tensor<4x5x1xi8>) {
  // expected-error @+2 {{zero_points must be [E, N, K / group_size] = [4, 5, 2], got [4, 5, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scales %s zero_points %z scheme = "int4" : (tensor<6x64xf32>, tensor<4x5x32xi8>, tensor<6xi32>, tensor<4x5x2xf32>, tensor<4x5x1xi8>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_scheme(%x: tensor<6x64xf32>, %w: tensor<4x5x32xi8>, %ids: tensor<6xi32>, %s: tensor<4x5x2xf32>) {
  // expected-error @+1 {{scheme must be "int8", "int4", "q8_0" or "q4_0", got "int2"}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scales %s scheme = "int2" : (tensor<6x64xf32>, tensor<4x5x32xi8>, tensor<6xi32>, tensor<4x5x2xf32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_missing_scales(%x: tensor<6x64xf32>, %w: tensor<4x5x32xi8>, %ids: tensor<6xi32>) {
  // expected-error @+1 {{the int4 scheme needs a scales operand}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "int4" : (tensor<6x64xf32>, tensor<4x5x32xi8>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_gguf_scales(%x: tensor<6x64xf32>, %w: tensor<4x5x36xi8>, %ids: tensor<6xi32>, %s: tensor<4x5x2xf32>) {
  // expected-error @+1 {{the GGUF scheme q4_0 stores its scales in the weight's blocks: no scales or zero_points operand}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scales %s scheme = "q4_0" : (tensor<6x64xf32>, tensor<4x5x36xi8>, tensor<6xi32>, tensor<4x5x2xf32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_ids_rank(%x: tensor<6x64xf32>, %w: tensor<4x5x36xi8>, %ids: tensor<6x2xi32>) {
  // expected-error @+2 {{dequant_grouped_matmul's expert_ids must be [T] without gates, got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0" : (tensor<6x64xf32>, tensor<4x5x36xi8>, tensor<6x2xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_gates(%x: tensor<6x64xf32>, %w: tensor<4x5x36xi8>, %ids: tensor<6x2xi32>, %g: tensor<6x2xf16>) {
  // expected-error @+2 {{dequant_grouped_matmul's gates element type 'f16' differs from the input's 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids gates %g scheme = "q4_0" : (tensor<6x64xf32>, tensor<4x5x36xi8>, tensor<6x2xi32>, tensor<6x2xf16>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_no_experts(%x: tensor<6x64xf32>, %w: tensor<0x5x36xi8>, %ids: tensor<6xi32>) {
  // expected-error @+2 {{cannot gather 6 indices from axis 0 of size 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0" : (tensor<6x64xf32>, tensor<0x5x36xi8>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}

// -----

func.func @dequant_grouped_matmul_float_weight(%x: tensor<6x64xf32>, %w: tensor<4x5x36xf32>, %ids: tensor<6xi32>) {
  // expected-error @+1 {{'rlx.dequant_grouped_matmul' op operand #1 must be ranked tensor of 8-bit signless integer values}}
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0" : (tensor<6x64xf32>, tensor<4x5x36xf32>, tensor<6xi32>) -> tensor<6x5xf32>
  return
}
