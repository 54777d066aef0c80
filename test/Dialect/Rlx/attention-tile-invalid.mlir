// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of attention's tile ops (shared rules on
// rlx.online_attention).

func.func @bsd(%q: tensor<1x8x16xf32>, %acc: tensor<1x8x16xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{takes layout bshd or bhsd (bsd is bshd with one head)}}
  %0:3 = rlx.online_attention bsd ins(%q, %q, %q : tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%acc, %m, %m : tensor<1x8x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @element_types(%q: tensor<1x8x1x16xf32>, %k: tensor<1x8x1x16xf16>, %acc: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{q, k and v must have one float element type}}
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf16>, tensor<1x8x1x16xf16>) outs(%acc, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @head_dims(%q: tensor<1x8x1x16xf32>, %k: tensor<1x8x1x12xf32>, %acc: tensor<1x8x1x12xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{k and v must match q's batch, and each other's heads and keys, and k q's head dimension; got q [1, 8, 1, 16], k [1, 8, 1, 12], v [1, 8, 1, 12]}}
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x8x1x16xf32>, tensor<1x8x1x12xf32>, tensor<1x8x1x12xf32>) outs(%acc, %m, %m : tensor<1x8x1x12xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x12xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @groups(%q: tensor<1x8x3x16xf32>, %k: tensor<1x8x2x16xf32>, %acc: tensor<1x8x3x16xf32>, %m: tensor<1x3x8xf32>) {
  // expected-error @+1 {{the kv heads (2) must divide the query heads (3)}}
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x8x3x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) outs(%acc, %m, %m : tensor<1x8x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>
  return
}

// -----

func.func @state_type(%q: tensor<1x8x1x16xf16>, %acc: tensor<1x8x1x16xf16>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{acc must have the element type 'f32', got 'f16'}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf16>, tensor<1x8x1x16xf16>, tensor<1x8x1x16xf16>) outs(%acc, %m, %m : tensor<1x8x1x16xf16>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf16>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @row_shape(%q: tensor<1x8x1x16xf32>, %m: tensor<1x8x1xf32>) {
  // expected-error @+1 {{max must be [1, 1, 8], got [1, 8, 1]}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x8x1xf32>, tensor<1x8x1xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x8x1xf32>, tensor<1x8x1xf32>
  return
}

// -----

func.func @diagonal_without_mask(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>, %d: index) {
  // expected-error @+1 {{a diagonal goes with mask_kind causal or sliding_window, and only with them}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) diagonal(%d) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @causal_without_diagonal(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{a diagonal goes with mask_kind causal or sliding_window, and only with them}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = causal scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @window(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>, %d: index) {
  // expected-error @+1 {{a window goes with mask_kind sliding_window, and only with it}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) diagonal(%d) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = causal window = 2 scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @padding_operand(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{mask_kind = padding needs mask operand}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = padding scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @padding_shape(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>, %p: tensor<1x7xi1>) {
  // expected-error @+1 {{padding mask must be [B, S_k], got [1, 7]}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) mask(%p : tensor<1x7xi1>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = padding scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @bias_shape(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>, %b: tensor<2x1x8x8xf32>) {
  // expected-error @+1 {{bias must be [B or 1, H or 1, S_q, S_k] of q's element type, got 'tensor<2x1x8x8xf32>'}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) mask(%b : tensor<2x1x8x8xf32>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = bias scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @softcap(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{softcap must be positive}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 softcap = -2.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return
}

// -----

func.func @result_types(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{results must have the types of acc, max and sum}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x8x1xf32>
  return
}

// -----

func.func @dq_dout(%q: tensor<1x8x1x16xf32>, %dout: tensor<1x8x1x12xf32>, %m: tensor<1x1x8xf32>) {
  // expected-error @+1 {{dout must be [1, 8, 1, 16], got [1, 8, 1, 12]}}
  %0 = rlx.attention_dq bshd ins(%q, %q, %q, %dout, %m, %m : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x12xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) outs(%q : tensor<1x8x1x16xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf32>
  return
}

// -----

func.func @dq_delta(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>, %delta: tensor<1x1x7xf32>) {
  // expected-error @+1 {{delta must be [1, 1, 8], got [1, 1, 7]}}
  %0 = rlx.attention_dq bshd ins(%q, %q, %q, %q, %m, %delta : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x7xf32>) outs(%q : tensor<1x8x1x16xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf32>
  return
}

// -----

func.func @dq_dbias_without_bias(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>, %db: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{a dbias init goes with mask_kind bias}}
  %0:2 = rlx.attention_dq bshd ins(%q, %q, %q, %q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) outs(%q : tensor<1x8x1x16xf32>) dbias(%db : tensor<1x1x8x8xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf32>, tensor<1x1x8x8xf32>
  return
}

// -----

func.func @dkdv_dk(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>, %dk: tensor<1x8x1x16xf16>) {
  // expected-error @+1 {{dk must have the element type 'f32', got 'f16'}}
  %0:2 = rlx.attention_dkdv bshd ins(%q, %q, %q, %q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) outs(%dk, %q : tensor<1x8x1x16xf16>, tensor<1x8x1x16xf32>) mask_kind = none scale = 1.0 -> tensor<1x8x1x16xf16>, tensor<1x8x1x16xf32>
  return
}
