// The state-space ops with static shapes for the GPU pipeline
// (test/Pipelines/gpu-state-space.test): Mamba-1's selective scan, Mamba-2
// and Gated DeltaNet with sequence lengths that pad their last chunk, and
// the gradient of a loss through the selective scan.
func.func @selective_scan(%u: tensor<2x8x20xf32>, %dt: tensor<2x8x20xf32>, %A: tensor<8x4xf32>, %B: tensor<2x2x4x20xf32>, %C: tensor<2x2x4x20xf32>, %D: tensor<8xf32>, %z: tensor<2x8x20xf32>, %bias: tensor<8xf32>) -> (tensor<2x8x20xf32>, tensor<2x8x4xf32>) {
  %y, %h = rlx.selective_scan %u, %dt, %A, %B, %C D(%D) z(%z) delta_bias(%bias) delta_softplus chunk = 8 : (tensor<2x8x20xf32>, tensor<2x8x20xf32>, tensor<8x4xf32>, tensor<2x2x4x20xf32>, tensor<2x2x4x20xf32>, tensor<8xf32>, tensor<2x8x20xf32>, tensor<8xf32>) -> (tensor<2x8x20xf32>, tensor<2x8x4xf32>)
  return %y, %h : tensor<2x8x20xf32>, tensor<2x8x4xf32>
}

func.func @mamba2(%x: tensor<2x20x4x8xf32>, %dt: tensor<2x20x4xf32>, %A: tensor<4xf32>, %B: tensor<2x20x1x16xf32>, %C: tensor<2x20x1x16xf32>, %D: tensor<4xf32>, %bias: tensor<4xf32>, %h0: tensor<2x4x8x16xf32>) -> (tensor<2x20x4x8xf32>, tensor<2x4x8x16xf32>) {
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %C D(%D) dt_bias(%bias) initial(%h0) dt_softplus chunk = 16 : (tensor<2x20x4x8xf32>, tensor<2x20x4xf32>, tensor<4xf32>, tensor<2x20x1x16xf32>, tensor<2x20x1x16xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4x8x16xf32>) -> (tensor<2x20x4x8xf32>, tensor<2x4x8x16xf32>)
  return %y, %h : tensor<2x20x4x8xf32>, tensor<2x4x8x16xf32>
}

func.func @gated_delta_net(%q: tensor<2x20x2x16xf32>, %k: tensor<2x20x2x16xf32>, %v: tensor<2x20x2x8xf32>, %g: tensor<2x20x2xf32>, %beta: tensor<2x20x2xf32>) -> (tensor<2x20x2x8xf32>, tensor<2x2x8x16xf32>) {
  %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %beta chunk = 16 : (tensor<2x20x2x16xf32>, tensor<2x20x2x16xf32>, tensor<2x20x2x8xf32>, tensor<2x20x2xf32>, tensor<2x20x2xf32>) -> (tensor<2x20x2x8xf32>, tensor<2x2x8x16xf32>)
  return %o, %s : tensor<2x20x2x8xf32>, tensor<2x2x8x16xf32>
}

func.func @selective_scan_loss(%u: tensor<2x8x20xf32>, %dt: tensor<2x8x20xf32>, %A: tensor<8x4xf32>, %B: tensor<2x4x20xf32>, %C: tensor<2x4x20xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4>} {
  %y, %h = rlx.selective_scan %u, %dt, %A, %B, %C delta_softplus chunk = 8 : (tensor<2x8x20xf32>, tensor<2x8x20xf32>, tensor<8x4xf32>, tensor<2x4x20xf32>, tensor<2x4x20xf32>) -> (tensor<2x8x20xf32>, tensor<2x8x4xf32>)
  %sq = rlx.mul %y, %y : (tensor<2x8x20xf32>, tensor<2x8x20xf32>) -> tensor<2x8x20xf32>
  %l = rlx.reduce sum %sq axes = [0, 1, 2] : tensor<2x8x20xf32> -> tensor<f32>
  return %l : tensor<f32>
}
