// RUN: rlx-opt %s --rlx-form-regions --rlx-to-linalg --rlx-kernel-report -verify-diagnostics -o /dev/null
// RUN: rlx-opt %s --rlx-form-regions --rlx-to-linalg --rlx-kernel-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGIONS
// RUN: rlx-opt %s --rlx-to-linalg --rlx-kernel-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: rlx-compile %s --kernel-report -o %t.so 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: rlx-compile %s --no-fuse --kernel-report -o %t.so 2>&1 | FileCheck %s --check-prefix=NOFUSE

// --rlx-kernel-report remarks how many loop nests (linalg ops) each function
// has. Counts, by what each op lowers to:
// - an elementwise op, or a whole rlx.region: one linalg.generic;
// - a row op (rlx.softmax, rlx.layer_norm, ...), or a whole row region:
//   one rlx.rows (a loop over rows once tiled);
// - rlx.matmul: two (linalg.fill of the accumulator + linalg.matmul).
// rlx-compile additionally runs linalg elementwise fusion unless --no-fuse;
// it merges a generic into its consumer only when that is its one use.

// A 4-op elementwise chain: one region, one loop nest; four unfused.
// expected-remark @below {{'chain' has 1 loop nest}}
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.mul %1, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = rlx.exp %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
// REGIONS: remark: 'chain' has 1 loop nest
// OPS:     remark: 'chain' has 4 loop nests
// FUSED:   remark: 'chain' has 1 loop nest
// NOFUSE:  remark: 'chain' has 4 loop nests

// Two 2-op chains around a softmax: one row region with regions; 2 + 1 + 2
// = 5 without.
// expected-remark @below {{'softmax_in_middle' has 1 loop nest}}
func.func @softmax_in_middle(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.exp %x : tensor<4x8xf32>
  %1 = rlx.neg %0 : tensor<4x8xf32>
  %2 = rlx.softmax %1 axis = -1 : tensor<4x8xf32>
  %3 = rlx.abs %2 : tensor<4x8xf32>
  %4 = rlx.sqrt %3 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}
// REGIONS: remark: 'softmax_in_middle' has 1 loop nest
// OPS:     remark: 'softmax_in_middle' has 5 loop nests
// FUSED:   remark: 'softmax_in_middle' has 1 loop nest
// NOFUSE:  remark: 'softmax_in_middle' has 5 loop nests

// A pre-norm residual: add + layer_norm is one row region returning the
// normalized rows and the residual sum; 2 without regions.
// expected-remark @below {{'residual_layer_norm' has 1 loop nest}}
func.func @residual_layer_norm(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %h = rlx.add %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = rlx.layer_norm %h, %g, %b axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %n, %h : tensor<4x8xf32>, tensor<4x8xf32>
}
// REGIONS: remark: 'residual_layer_norm' has 1 loop nest
// OPS:     remark: 'residual_layer_norm' has 2 loop nests
// FUSED:   remark: 'residual_layer_norm' has 1 loop nest
// NOFUSE:  remark: 'residual_layer_norm' has 2 loop nests

// A mean squared error: one reduction region, lowered to the accumulator's
// fill, one generic and the mean's division = 3; 5 without regions (sub,
// mul, fill, reduction, division). rlx-compile's rlx-split-reductions
// sums the 128 elements (its two reduction loops collapsed into one) in 16
// lanes and then the lanes: one more loop nest each way.
// expected-remark @below {{'mse' has 3 loop nests}}
func.func @mse(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> tensor<f32> {
  %d = rlx.sub %a, %b : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %q = rlx.mul %d, %d : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = rlx.reduce mean %q axes = [0, 1] : tensor<16x8xf32> -> tensor<f32>
  return %m : tensor<f32>
}
// REGIONS: remark: 'mse' has 3 loop nests
// OPS:     remark: 'mse' has 5 loop nests
// FUSED:   remark: 'mse' has 4 loop nests
// NOFUSE:  remark: 'mse' has 6 loop nests

// matmul + bias + gelu: one contraction region, lowered to fill + matmul +
// epilogue = 3; 4 unfused. In rlx-compile --rlx-fuse-patterns first makes it
// one rlx.matmul_bias_act (fill, matmul, one epilogue) and the CPU pipeline
// then computes all three per thread tile (rlx-tile-and-fuse): 1.
// Unfused, the matmul's thread tiles still initialize their own results:
// 3.
// expected-remark @below {{'linear_gelu' has 3 loop nests}}
func.func @linear_gelu(%x: tensor<32x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %h = rlx.matmul %x, %w : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %hb = rlx.add %h, %b : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = rlx.gelu %hb : tensor<32x128xf32>
  return %a : tensor<32x128xf32>
}
// REGIONS: remark: 'linear_gelu' has 3 loop nests
// OPS:     remark: 'linear_gelu' has 4 loop nests
// FUSED:   remark: 'linear_gelu' has 1 loop nest
// NOFUSE:  remark: 'linear_gelu' has 3 loop nests

// The fused contractions: fill + contraction + one epilogue = 3; the CPU
// pipeline fuses all three into the epilogue's row-block loop: 1, as many
// as a bare f16 matmul (whose rounding generic is its epilogue) and fewer
// than a bare f32 one (fill + matmul, nothing to fuse into). Unfused, the
// fill is computed per thread tile of the matmul or convolution: 2.
// expected-remark @below {{'matmul_f16' has 3 loop nests}}
func.func @matmul_f16(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>) -> tensor<32x128xf16> {
  %h = rlx.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  return %h : tensor<32x128xf16>
}
// REGIONS: remark: 'matmul_f16' has 3 loop nests
// OPS:     remark: 'matmul_f16' has 3 loop nests
// FUSED:   remark: 'matmul_f16' has 1 loop nest
// NOFUSE:  remark: 'matmul_f16' has 2 loop nests

// expected-remark @below {{'matmul_bias_act_f16' has 3 loop nests}}
func.func @matmul_bias_act_f16(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>) -> tensor<32x128xf16> {
  %a = rlx.matmul_bias_act %x, %w, %b activation = gelu
      : (tensor<32x64xf16>, tensor<64x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  return %a : tensor<32x128xf16>
}
// REGIONS: remark: 'matmul_bias_act_f16' has 3 loop nests
// OPS:     remark: 'matmul_bias_act_f16' has 3 loop nests
// FUSED:   remark: 'matmul_bias_act_f16' has 1 loop nest
// NOFUSE:  remark: 'matmul_bias_act_f16' has 2 loop nests

// expected-remark @below {{'conv_bias_act' has 3 loop nests}}
func.func @conv_bias_act(%x: tensor<2x3x16x16xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>,
                         %r: tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32> {
  %a = rlx.conv_bias_act %x, %w, %b, %r stride = [1, 1] padding = [1, 1, 1, 1]
      dilation = [1, 1] groups = 1 activation = relu
      : (tensor<2x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<2x8x16x16xf32>) -> tensor<2x8x16x16xf32>
  return %a : tensor<2x8x16x16xf32>
}
// REGIONS: remark: 'conv_bias_act' has 3 loop nests
// OPS:     remark: 'conv_bias_act' has 3 loop nests
// FUSED:   remark: 'conv_bias_act' has 1 loop nest
// NOFUSE:  remark: 'conv_bias_act' has 2 loop nests

// A single elementwise op: one loop nest either way.
// expected-remark @below {{'single' has 1 loop nest}}
func.func @single(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// REGIONS: remark: 'single' has 1 loop nest
// OPS:     remark: 'single' has 1 loop nest
// FUSED:   remark: 'single' has 1 loop nest
// NOFUSE:  remark: 'single' has 1 loop nest

// A declaration has no code and gets no remark (-verify-diagnostics fails
// on an unexpected one).
func.func private @declared(tensor<2xf32>) -> tensor<2xf32>
