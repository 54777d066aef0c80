// rlx.lora_matmul for test/Pipelines/gpu-lora.test.
func.func @lora(%x: tensor<64x256xf16>, %w: tensor<256x256xf16>, %a: tensor<256x16xf16>, %b: tensor<16x256xf16>) -> tensor<64x256xf16> {
  %0 = rlx.lora_matmul %x, %w, %a, %b scale = 2.0
      : (tensor<64x256xf16>, tensor<256x256xf16>, tensor<256x16xf16>, tensor<16x256xf16>) -> tensor<64x256xf16>
  return %0 : tensor<64x256xf16>
}
