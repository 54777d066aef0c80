// The sort family for test/Pipelines/gpu-sort.test.
func.func @sort(%x: tensor<?x1000xf32>) -> (tensor<?x1000xf32>, tensor<?x1000xi64>) {
  %v, %i = rlx.sort %x axis = 1 descending : tensor<?x1000xf32> -> tensor<?x1000xf32>, tensor<?x1000xi64>
  return %v, %i : tensor<?x1000xf32>, tensor<?x1000xi64>
}

func.func @argsort(%x: tensor<?x8xf16>) -> tensor<?x8xi64> {
  %i = rlx.argsort %x axis = 0 : tensor<?x8xf16> -> tensor<?x8xi64>
  return %i : tensor<?x8xi64>
}

func.func @topk(%x: tensor<4x32000xf32>) -> (tensor<4x50xf32>, tensor<4x50xi64>) {
  %v, %i = rlx.topk %x k = 50 : tensor<4x32000xf32> -> tensor<4x50xf32>, tensor<4x50xi64>
  return %v, %i : tensor<4x50xf32>, tensor<4x50xi64>
}

func.func @cummax_indices(%x: tensor<16x?xbf16>) -> tensor<16x?xi64> {
  %i = rlx.cummax_indices %x axis = 1 : tensor<16x?xbf16> -> tensor<16x?xi64>
  return %i : tensor<16x?xi64>
}

func.func @histogram(%x: tensor<?x256xf32>) -> tensor<64xf32> {
  %h = rlx.histogram %x bins = 64 min = -4.0 max = 4.0 : tensor<?x256xf32> -> tensor<64xf32>
  return %h : tensor<64xf32>
}

// One line: a host loop over the merge widths, each pass a one-thread
// kernel (no host access to device memory).
func.func @sort_line(%x: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi64>) {
  %v, %i = rlx.sort %x axis = 0 : tensor<?xi32> -> tensor<?xi32>, tensor<?xi64>
  return %v, %i : tensor<?xi32>, tensor<?xi64>
}
