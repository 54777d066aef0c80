// rlx.grouped_matmul for test/Pipelines/gpu-moe.test: top-1 routing of `?`
// f16 rows to 8 experts, and top-2 routing with gates in bf16.
func.func @moe_top1(%x: tensor<?x256xf16>, %w: tensor<8x256x128xf16>, %ids: tensor<?xi32>) -> tensor<?x128xf16> {
  %0 = rlx.grouped_matmul %x, %w, %ids
      : (tensor<?x256xf16>, tensor<8x256x128xf16>, tensor<?xi32>) -> tensor<?x128xf16>
  return %0 : tensor<?x128xf16>
}

func.func @moe_top2(%x: tensor<64x256xbf16>, %w: tensor<8x256x128xbf16>, %ids: tensor<64x2xi64>, %g: tensor<64x2xbf16>) -> tensor<64x128xbf16> {
  %0 = rlx.grouped_matmul %x, %w, %ids gates %g
      : (tensor<64x256xbf16>, tensor<8x256x128xbf16>, tensor<64x2xi64>, tensor<64x2xbf16>) -> tensor<64x128xbf16>
  return %0 : tensor<64x128xbf16>
}

// Int4 experts (groups of 32, f16 scales) with top-2 gates, and Q4_0
// experts with top-1 f16 rows: the expert's bytes are read and
// dequantized in the kernel.
func.func @moe_int4(%x: tensor<?x256xf32>, %w: tensor<8x128x128xi8>, %ids: tensor<?x2xi32>, %g: tensor<?x2xf32>, %s: tensor<8x128x8xf16>) -> tensor<?x128xf32> {
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids gates %g scales %s scheme = "int4"
      : (tensor<?x256xf32>, tensor<8x128x128xi8>, tensor<?x2xi32>, tensor<?x2xf32>, tensor<8x128x8xf16>) -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}

func.func @moe_q4_0(%x: tensor<64x256xf16>, %w: tensor<8x128x144xi8>, %ids: tensor<64xi64>) -> tensor<64x128xf16> {
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0"
      : (tensor<64x256xf16>, tensor<8x128x144xi8>, tensor<64xi64>) -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}
