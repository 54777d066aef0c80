// An rlx op that does not verify.
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = rlx.matmul %a, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
