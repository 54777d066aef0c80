// Kernels the GPU tests compile: each function is one case of the suite
// (gpu-pipeline.mlir checks the stages, gpu-ptx.test the PTX).

// An elementwise chain: one fused region, one kernel.
func.func @chain(%x: tensor<64x1000xf32>, %y: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %0 = rlx.add %x, %y : (tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %1 = rlx.gelu %0 : tensor<64x1000xf32>
  %2 = rlx.tanh %1 : tensor<64x1000xf32>
  return %2 : tensor<64x1000xf32>
}

// A broadcast add in f16.
func.func @broadcast_add(%x: tensor<8x128x64xf16>, %b: tensor<64xf16>) -> tensor<8x128x64xf16> {
  %0 = rlx.add %x, %b : (tensor<8x128x64xf16>, tensor<64xf16>) -> tensor<8x128x64xf16>
  return %0 : tensor<8x128x64xf16>
}

// Row regions.
func.func @softmax(%x: tensor<32x512xf32>) -> tensor<32x512xf32> {
  %0 = rlx.softmax %x axis = 1 : tensor<32x512xf32>
  return %0 : tensor<32x512xf32>
}

func.func @layer_norm(%x: tensor<16x256xbf16>, %g: tensor<256xbf16>, %b: tensor<256xbf16>) -> tensor<16x256xbf16> {
  %0 = rlx.layer_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<16x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) -> tensor<16x256xbf16>
  return %0 : tensor<16x256xbf16>
}

// A contraction with a bias epilogue.
func.func @matmul(%a: tensor<128x96xf32>, %w: tensor<96x64xf32>, %b: tensor<64xf32>) -> tensor<128x64xf32> {
  %0 = rlx.matmul %a, %w : (tensor<128x96xf32>, tensor<96x64xf32>) -> tensor<128x64xf32>
  %1 = rlx.add %0, %b : (tensor<128x64xf32>, tensor<64xf32>) -> tensor<128x64xf32>
  return %1 : tensor<128x64xf32>
}

// Matmuls tiled through shared memory: f16 and bf16 on tensor cores (their
// 64x64 C tiles divide C), bf16 and a batched f32 matmul with partial tiles
// on the SIMT kernel.
func.func @matmul_f16(%a: tensor<128x96xf16>, %w: tensor<96x64xf16>) -> tensor<128x64xf16> {
  %0 = rlx.matmul %a, %w : (tensor<128x96xf16>, tensor<96x64xf16>) -> tensor<128x64xf16>
  return %0 : tensor<128x64xf16>
}

func.func @matmul_bf16_mma(%a: tensor<128x96xbf16>, %w: tensor<96x64xbf16>) -> tensor<128x64xbf16> {
  %0 = rlx.matmul %a, %w : (tensor<128x96xbf16>, tensor<96x64xbf16>) -> tensor<128x64xbf16>
  return %0 : tensor<128x64xbf16>
}

func.func @matmul_bf16(%a: tensor<70x40xbf16>, %w: tensor<40x33xbf16>) -> tensor<70x33xbf16> {
  %0 = rlx.matmul %a, %w : (tensor<70x40xbf16>, tensor<40x33xbf16>) -> tensor<70x33xbf16>
  return %0 : tensor<70x33xbf16>
}

func.func @batch_matmul(%a: tensor<3x100x37xf32>, %w: tensor<3x37x70xf32>) -> tensor<3x100x70xf32> {
  %0 = rlx.matmul %a, %w : (tensor<3x100x37xf32>, tensor<3x37x70xf32>) -> tensor<3x100x70xf32>
  return %0 : tensor<3x100x70xf32>
}

// Convolutions as implicit GEMMs on the same kernels: f32 strided and
// padded (SIMT), f16 and bf16 with 64 filters and 8x8 outputs (tensor
// cores).
func.func @conv(%x: tensor<2x5x17x13xf32>, %w: tensor<70x5x3x2xf32>) -> tensor<2x70x9x7xf32> {
  %0 = rlx.conv %x, %w stride = [2, 2] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : (tensor<2x5x17x13xf32>, tensor<70x5x3x2xf32>) -> tensor<2x70x9x7xf32>
  return %0 : tensor<2x70x9x7xf32>
}

func.func @conv_f16(%x: tensor<2x16x10x10xf16>, %w: tensor<64x16x3x3xf16>) -> tensor<2x64x8x8xf16> {
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<2x16x10x10xf16>, tensor<64x16x3x3xf16>) -> tensor<2x64x8x8xf16>
  return %0 : tensor<2x64x8x8xf16>
}

func.func @conv_bf16(%x: tensor<2x16x10x10xbf16>, %w: tensor<64x16x3x3xbf16>) -> tensor<2x64x8x8xbf16> {
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<2x16x10x10xbf16>, tensor<64x16x3x3xbf16>) -> tensor<2x64x8x8xbf16>
  return %0 : tensor<2x64x8x8xbf16>
}

// Reductions: over rows, and of everything to a scalar.
func.func @reduce_rows(%x: tensor<64x300xf32>) -> tensor<64xf32> {
  %0 = rlx.reduce sum %x axes = [1] : tensor<64x300xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @reduce_all(%x: tensor<16x8xf32>) -> tensor<f32> {
  %0 = rlx.reduce max %x axes = [0, 1] : tensor<16x8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// A constant operand is copied to the device.
func.func @constant_scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = rlx.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = rlx.mul %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Row regions on one block per row: rows not a multiple of the warp size,
// rows longer than the block, a row too long for shared memory (its buffer
// in global scratch), two reductions in one stage, f64 rows (64-bit
// shuffles as two 32-bit ones).
func.func @rms_norm(%x: tensor<64x768xf16>, %g: tensor<768xf16>) -> tensor<64x768xf16> {
  %0 = rlx.rms_norm %x, %g axis = 1 eps = 1.0e-6 : (tensor<64x768xf16>, tensor<768xf16>) -> tensor<64x768xf16>
  return %0 : tensor<64x768xf16>
}

func.func @cross_entropy(%x: tensor<64x1000xf32>, %l: tensor<64xi64>) -> tensor<64xf32> {
  %0 = rlx.softmax_cross_entropy_with_labels %x, %l : (tensor<64x1000xf32>, tensor<64xi64>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @softmax_short_rows(%x: tensor<4x8x100xf32>) -> tensor<4x8x100xf32> {
  %0 = rlx.softmax %x axis = 2 : tensor<4x8x100xf32>
  return %0 : tensor<4x8x100xf32>
}

func.func @softmax_f64(%x: tensor<8x300xf64>) -> tensor<8x300xf64> {
  %0 = rlx.softmax %x axis = 1 : tensor<8x300xf64>
  return %0 : tensor<8x300xf64>
}

func.func @softmax_scratch(%x: tensor<2x20000xf32>) -> tensor<2x20000xf32> {
  %0 = rlx.softmax %x axis = 1 : tensor<2x20000xf32>
  return %0 : tensor<2x20000xf32>
}

// Elementwise: a size that is not a multiple of the vector width (a
// scalar remainder loop).
func.func @exp_remainder(%x: tensor<1030xf32>) -> tensor<1030xf32> {
  %0 = rlx.exp %x : tensor<1030xf32>
  return %0 : tensor<1030xf32>
}
