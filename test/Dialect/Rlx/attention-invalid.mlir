// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of rlx.attention. The rules are checked while
// inferring the result types, so each error is followed by the inference
// failure.

func.func @heads_divide(%q: tensor<1x4x6x8xf32>, %k: tensor<1x4x4x8xf32>) {
  // expected-error @+2 {{num_kv_heads must be positive and divide num_heads, got num_heads = 6 and num_kv_heads = 4}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bshd %q, %k, %k heads = 6 kv_heads = 4 mask = none : (tensor<1x4x6x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x6x8xf32>
  return
}

// -----

func.func @heads_positive(%q: tensor<1x4x2x8xf32>) {
  // expected-error @+2 {{num_kv_heads must be positive and divide num_heads, got num_heads = 2 and num_kv_heads = 0}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bshd %q, %q, %q heads = 2 kv_heads = 0 mask = none : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  return
}

// -----

func.func @single_head_layout(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{layout bsd has one head, got num_heads = 2 and num_kv_heads = 1}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 2 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @q_rank(%q: tensor<1x4x8xf32>, %k: tensor<1x4x1x8xf32>) {
  // expected-error @+2 {{q must be [B, S, H, D] for layout bshd, got [1, 4, 8]}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bshd %q, %k, %k heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @k_rank(%q: tensor<1x4x8xf32>, %k: tensor<1x1x4x8xf32>) {
  // expected-error @+2 {{k must be [B, S, D] for layout bsd, got [1, 1, 4, 8]}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %k, %q heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @v_rank(%q: tensor<1x2x4x8xf32>, %v: tensor<1x2x4xf32>) {
  // expected-error @+2 {{v must be [B, H, S, D] for layout bhsd, got [1, 2, 4]}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bhsd %q, %q, %v heads = 2 kv_heads = 2 mask = none : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4x8xf32>
  return
}

// -----

func.func @element_type(%q: tensor<1x4x8xf32>, %k: tensor<1x4x8xf16>) {
  // expected-error @+2 {{k must have the element type of q, 'f32', got 'f16'}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %k, %q heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x8xf16>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @integer_operand(%q: tensor<1x4x8xi32>) {
  // expected-error @+1 {{'rlx.attention' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<1x4x8xi32>'}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xi32>, tensor<1x4x8xi32>, tensor<1x4x8xi32>) -> tensor<1x4x8xi32>
  return
}

// -----

func.func @dynamic_head_dim(%q: tensor<1x4x?xf32>) {
  // expected-error @+2 {{q's head_dim must be static unless a scale is given}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = none : (tensor<1x4x?xf32>, tensor<1x4x?xf32>, tensor<1x4x?xf32>) -> tensor<1x4x?xf32>
  return
}

// -----

func.func @dynamic_backward_heads(%q: tensor<1x4x?x8xf32>, %l: tensor<1x2x?xf32>) {
  // expected-error @+2 {{logsumexp must be [B, H, S_q] in the computation type}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = rlx.attention_backward bhsd %q, %q, %q, %q, %q, %l heads = 4 kv_heads = 4 mask = none : (tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>, tensor<1x2x?xf32>) -> (tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>)
  return
}

// -----

func.func @empty(%q: tensor<1x0x8xf32>) {
  // expected-error @+2 {{q must not be empty, got [1, 0, 8]}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = none : (tensor<1x0x8xf32>, tensor<1x0x8xf32>, tensor<1x0x8xf32>) -> tensor<1x0x8xf32>
  return
}

// -----

func.func @q_heads(%q: tensor<1x4x2x8xf32>, %k: tensor<1x4x1x8xf32>) {
  // expected-error @+2 {{q has 2 heads on axis 2, but num_heads is 4}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bshd %q, %k, %k heads = 4 kv_heads = 1 mask = none : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  return
}

// -----

func.func @kv_heads(%q: tensor<1x4x4x8xf32>, %k: tensor<1x4x4x8xf32>) {
  // expected-error @+2 {{k has 4 heads on axis 1, but num_kv_heads is 2}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bhsd %q, %k, %k heads = 4 kv_heads = 2 mask = none : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----

func.func @v_heads(%q: tensor<1x4x4x8xf32>, %k: tensor<1x4x2x8xf32>, %v: tensor<1x4x4x8xf32>) {
  // expected-error @+2 {{v has 4 heads on axis 2, but num_kv_heads is 2}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bshd %q, %k, %v heads = 4 kv_heads = 2 mask = none : (tensor<1x4x4x8xf32>, tensor<1x4x2x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----

func.func @batch(%q: tensor<2x4x8xf32>, %k: tensor<3x4x8xf32>) {
  // expected-error @+2 {{q, k and v must have the same batch, got 2, 3 and 3}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %k, %k heads = 1 kv_heads = 1 mask = none : (tensor<2x4x8xf32>, tensor<3x4x8xf32>, tensor<3x4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @keys(%q: tensor<1x4x8xf32>, %k: tensor<1x5x8xf32>, %v: tensor<1x6x8xf32>) {
  // expected-error @+2 {{v must have the 5 keys of k, got 6}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %k, %v heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x5x8xf32>, tensor<1x6x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @head_dim(%q: tensor<1x4x8xf32>, %k: tensor<1x4x16xf32>) {
  // expected-error @+2 {{k must have the head_dim of q, 8, got 16}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %k, %k heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x16xf32>, tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return
}

// -----

func.func @result_type(%q: tensor<1x4x8xf32>, %v: tensor<1x4x16xf32>) {
  // expected-error @+2 {{'rlx.attention' op inferred type(s) 'tensor<1x4x16xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8xf32>'}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %v heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @logsumexp_type(%q: tensor<1x4x2x8xf16>) {
  // expected-error @+2 {{'rlx.attention' op inferred type(s) 'tensor<1x4x2x8xf16>', 'tensor<1x2x4xf32>' are incompatible with return type(s) of operation 'tensor<1x4x2x8xf16>', 'tensor<1x2x4xf16>'}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0:2 = rlx.attention bshd %q, %q, %q heads = 2 kv_heads = 2 mask = none with_logsumexp : (tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>) -> (tensor<1x4x2x8xf16>, tensor<1x2x4xf16>)
  return
}

// -----

func.func @scale(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{scale must be finite, got INF}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = none scale = 0x7FF0000000000000 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @softcap(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{softcap must be finite and positive, got 0.000000e+00}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = none softcap = 0.0 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @padding_needs_operand(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{mask = padding needs a mask operand}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = padding : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @bias_needs_operand(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{mask = bias needs a mask operand}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = bias : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @causal_takes_no_operand(%q: tensor<1x4x8xf32>, %m: tensor<1x4xi1>) {
  // expected-error @+2 {{mask = causal takes no mask operand}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q, %m heads = 1 kv_heads = 1 mask = causal : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4xi1>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @window_missing(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{mask = sliding_window needs a window}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = sliding_window : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @window_negative(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{window must be non-negative, got -1}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = sliding_window window = -1 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @window_without_sliding(%q: tensor<1x4x8xf32>) {
  // expected-error @+2 {{window is only accepted with mask = sliding_window, not causal}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q heads = 1 kv_heads = 1 mask = causal window = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @padding_shape(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %m: tensor<2x3xi1>) {
  // expected-error @+2 {{padding mask must be [B, S_k] = [2, 5], got [2, 3]}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %k, %k, %m heads = 1 kv_heads = 1 mask = padding : (tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x3xi1>) -> tensor<2x3x8xf32>
  return
}

// -----

func.func @bias_shape(%q: tensor<2x3x4x8xf32>, %k: tensor<2x5x2x8xf32>, %b: tensor<2x2x3x5xf32>) {
  // expected-error @+2 {{bias must be [B or 1, H or 1, S_q, S_k] with B = 2, H = 4, S_q = 3, S_k = 5, got [2, 2, 3, 5]}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bshd %q, %k, %k, %b heads = 4 kv_heads = 2 mask = bias : (tensor<2x3x4x8xf32>, tensor<2x5x2x8xf32>, tensor<2x5x2x8xf32>, tensor<2x2x3x5xf32>) -> tensor<2x3x4x8xf32>
  return
}

// -----

func.func @bias_rank(%q: tensor<2x3x8xf32>, %b: tensor<2x3x3xf32>) {
  // expected-error @+2 {{bias must be [B or 1, H or 1, S_q, S_k] with B = 2, H = 1, S_q = 3, S_k = 3, got [2, 3, 3]}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q, %b heads = 1 kv_heads = 1 mask = bias : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x3xf32>) -> tensor<2x3x8xf32>
  return
}

// -----

func.func @bias_element_type(%q: tensor<1x3x8xf32>, %b: tensor<1x1x3x3xf16>) {
  // expected-error @+2 {{bias must have the element type of q, 'f32', got 'f16'}}
  // expected-error @+1 {{'rlx.attention' op failed to infer returned types}}
  %0 = rlx.attention bsd %q, %q, %q, %b heads = 1 kv_heads = 1 mask = bias : (tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x1x3x3xf16>) -> tensor<1x3x8xf32>
  return
}

// -----

func.func @bad_layout(%q: tensor<1x3x8xf32>) {
  // expected-error @+1 {{custom op 'rlx.attention' expected string or keyword containing one of the following enum values for attribute 'layout' [bshd, bhsd, bsd]}}
  %0 = rlx.attention sbhd %q, %q, %q heads = 1 kv_heads = 1 mask = none : (tensor<1x3x8xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
  return
}

// -----

// rlx.attention_backward shares every rule above, and checks the forward
// values it is given.

func.func @backward_shared_rule(%q: tensor<1x4x3x8xf32>, %k: tensor<1x4x2x8xf32>, %lse: tensor<1x3x4xf32>) {
  // expected-error @+2 {{num_kv_heads must be positive and divide num_heads, got num_heads = 3 and num_kv_heads = 2}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = rlx.attention_backward bshd %q, %k, %k, %q, %q, %lse heads = 3 kv_heads = 2 mask = none : (tensor<1x4x3x8xf32>, tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>, tensor<1x4x3x8xf32>, tensor<1x4x3x8xf32>, tensor<1x3x4xf32>) -> (tensor<1x4x3x8xf32>, tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>)
  return
}

// -----

func.func @backward_out(%q: tensor<1x4x8xf32>, %v: tensor<1x4x6xf32>, %lse: tensor<1x1x4xf32>) {
  // expected-error @+2 {{out must have the type of the forward output, 'tensor<1x4x6xf32>', got 'tensor<1x4x8xf32>'}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = rlx.attention_backward bsd %q, %q, %v, %q, %v, %lse heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x6xf32>, tensor<1x4x8xf32>, tensor<1x4x6xf32>, tensor<1x1x4xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x6xf32>)
  return
}

// -----

func.func @backward_dout(%q: tensor<1x4x8xf32>, %d: tensor<1x4x8xf16>, %lse: tensor<1x1x4xf32>) {
  // expected-error @+2 {{dout must have the type of the forward output, 'tensor<1x4x8xf32>', got 'tensor<1x4x8xf16>'}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = rlx.attention_backward bsd %q, %q, %q, %q, %d, %lse heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf16>, tensor<1x1x4xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  return
}

// -----

func.func @backward_logsumexp(%q: tensor<1x4x2x8xf16>, %lse: tensor<1x2x4xf16>) {
  // expected-error @+2 {{logsumexp must be [B, H, S_q] in the computation type, 'tensor<1x2x4xf32>', got 'tensor<1x2x4xf16>'}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = rlx.attention_backward bshd %q, %q, %q, %q, %q, %lse heads = 2 kv_heads = 2 mask = causal : (tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>, tensor<1x2x4xf16>) -> (tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>, tensor<1x4x2x8xf16>)
  return
}

// -----

func.func @backward_bias_grad_without_bias(%q: tensor<1x4x8xf32>, %lse: tensor<1x1x4xf32>) {
  // expected-error @+2 {{with_bias_grad needs mask = bias, not causal}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = rlx.attention_backward bsd %q, %q, %q, %q, %q, %lse heads = 1 kv_heads = 1 mask = causal with_bias_grad : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x1x4xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  return
}

// -----

func.func @backward_result_types(%q: tensor<1x4x8xf32>, %v: tensor<1x4x6xf32>, %lse: tensor<1x1x4xf32>) {
  // expected-error @+2 {{'rlx.attention_backward' op inferred type(s) 'tensor<1x4x8xf32>', 'tensor<1x4x8xf32>', 'tensor<1x4x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8xf32>', 'tensor<1x4x8xf32>', 'tensor<1x4x8xf32>'}}
  // expected-error @+1 {{'rlx.attention_backward' op failed to infer returned types}}
  %0:3 = rlx.attention_backward bsd %q, %q, %v, %v, %v, %lse heads = 1 kv_heads = 1 mask = none : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x1x4xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  return
}
