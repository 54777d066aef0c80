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
