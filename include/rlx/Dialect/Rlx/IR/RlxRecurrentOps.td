//===- RlxRecurrentOps.td - LSTM, GRU, Elman RNN ----------*- tablegen -*-===//
//
// The recurrent layers of torch.nn (LSTM, GRU, RNN): several layers, one or
// two directions, optional initial states, sequence- or batch-first. Each
// is defined by its decomposition into rlx ops (DecomposableOpInterface):
// per layer and direction, the input projections of every time step as one
// matmul, then an rlx.scan whose body is the cell. `--rlx-decompose`
// expands them before fusion and lowering; `--rlx-autodiff` differentiates
// the expansion. Included by RlxOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXRECURRENTOPS_TD
#define RLX_DIALECT_RLX_IR_RLXRECURRENTOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

// What the three ops share, once for their descriptions.
defvar Rlx_RecurrentLayoutDoc = [{

    `input` is `[T, B, I]` (time, batch, features), or `[B, T, I]` with
    `batch_first`; T and B may be `?`, T may be 0. `weights` are the
    parameters in the order of torch's `_flat_weights`: for each layer `l`
    and each direction (forward, then reverse with `bidirectional`),
    `w_ih [G*H, in_l]`, `w_hh [G*H, H]`, then, unless the layer has no
    biases, `b_ih [G*H]` and `b_hh [G*H]`; `in_0` is `I` and later layers
    read the previous layer's output, `D*H` wide (`D` directions). `G` is
    the number of gates. The weights have static shapes and the input's
    element type. The initial states, when given, are `[L*D, B, H]`
    (layer-major, as torch orders them; zeros otherwise).

    Results: `output`, the last layer's hidden state at every step,
    `[T, B, D*H]` (`[B, T, D*H]` with `batch_first`; the reverse
    direction's features after the forward's), and the final states
    `[L*D, B, H]` (not affected by `batch_first`). The reverse direction
    reads the sequence from its last step; its final state is the one
    after step 0. Unbatched inputs, `proj_size` and dropout between layers
    are not modelled.

    The decomposition (DecomposableOpInterface): per layer and direction,
    the input projections of all T steps are one matmul `[T*B, in_l] x
    [in_l, G*H]` plus the biases, and an rlx.scan over the steps carries
    the state, each step one `[B, H] x [H, G*H]` matmul and the cell's
    elementwise gates. Its gradient is the scan's (the backward scan
    recomputes each step from the saved states); the weights' gradients
    of the input projections are one matmul over all steps.
}];

class Rlx_RecurrentOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, !listconcat([Pure, AttrSizedOperandSegments,
        InferTypeOpAdaptor, Rlx_ShapeRule,
        DeclareOpInterfaceMethods<Rlx_DecomposableOpInterface>], traits)> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of gates of the cell (`G`).
    static int64_t getNumGates();
  }];
}

def Rlx_LstmOp : Rlx_RecurrentOp<"lstm"> {
  let summary = "multi-layer LSTM (torch.nn.LSTM)";
  let description = !strconcat([{
    A long short-term memory layer stack, gate order i, f, g, o (G = 4),
    as `torch.nn.LSTM`. Each step of each layer and direction:

    ```
    z = x_t w_ih^T + b_ih + h w_hh^T + b_hh       # [B, 4H]
    i, f, o = sigmoid(z_i), sigmoid(z_f), sigmoid(z_o);  g = tanh(z_g)
    c' = f * c + i * g;   h' = o * tanh(c')
    ```

    `h0` and `c0` are given together or not at all; `c_n` is the final
    cell state.
  }], Rlx_RecurrentLayoutDoc, [{

    ```mlir
    %y, %h, %c = rlx.lstm %x weights(%wi, %wh, %bi, %bh
          : tensor<32x8xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32xf32>)
        : tensor<?x?x8xf32> -> tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$input,
                       Variadic<Rlx_FloatTensor>:$weights,
                       Optional<Rlx_FloatTensor>:$h0,
                       Optional<Rlx_FloatTensor>:$c0,
                       DefaultValuedAttr<Rlx_I64Attr, "1">:$num_layers,
                       UnitAttr:$bidirectional, UnitAttr:$batch_first);
  let results = (outs Rlx_FloatTensor:$output, Rlx_FloatTensor:$h_n,
                      Rlx_FloatTensor:$c_n);
  let assemblyFormat = [{
    $input `weights` `(` $weights `:` type($weights) `)`
    (`initial` `(` $h0^ `,` $c0 `:` type($h0) `,` type($c0) `)`)?
    (`layers` `=` $num_layers^)? (`bidirectional` $bidirectional^)?
    (`batch_first` $batch_first^)? attr-dict `:` type($input) `->`
    type($output) `,` type($h_n) `,` type($c_n)
  }];
}

def Rlx_GruOp : Rlx_RecurrentOp<"gru"> {
  let summary = "multi-layer GRU (torch.nn.GRU)";
  let description = !strconcat([{
    A gated recurrent unit layer stack, gate order r, z, n (G = 3), as
    `torch.nn.GRU`. Each step of each layer and direction:

    ```
    p = x_t w_ih^T + b_ih;   q = h w_hh^T + b_hh  # [B, 3H] each
    r = sigmoid(p_r + q_r);  z = sigmoid(p_z + q_z)
    n = tanh(p_n + r * q_n)
    h' = (1 - z) * n + z * h
    ```

    The reset gate scales the hidden term after its bias, so the two biases
    do not merge (they do for LSTM and RNN).
  }], Rlx_RecurrentLayoutDoc, [{

    ```mlir
    %y, %h = rlx.gru %x weights(%wi, %wh, %bi, %bh
          : tensor<24x8xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<24xf32>)
        initial(%h0 : tensor<1x4x8xf32>) batch_first
        : tensor<4x?x8xf32> -> tensor<4x?x8xf32>, tensor<1x4x8xf32>
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$input,
                       Variadic<Rlx_FloatTensor>:$weights,
                       Optional<Rlx_FloatTensor>:$h0,
                       DefaultValuedAttr<Rlx_I64Attr, "1">:$num_layers,
                       UnitAttr:$bidirectional, UnitAttr:$batch_first);
  let results = (outs Rlx_FloatTensor:$output, Rlx_FloatTensor:$h_n);
  let assemblyFormat = [{
    $input `weights` `(` $weights `:` type($weights) `)`
    (`initial` `(` $h0^ `:` type($h0) `)`)?
    (`layers` `=` $num_layers^)? (`bidirectional` $bidirectional^)?
    (`batch_first` $batch_first^)? attr-dict `:` type($input) `->`
    type($output) `,` type($h_n)
  }];
}

def Rlx_RnnOp : Rlx_RecurrentOp<"rnn"> {
  let summary = "multi-layer Elman RNN (torch.nn.RNN)";
  let description = !strconcat([{
    An Elman recurrent layer stack (G = 1), as `torch.nn.RNN`; `relu`
    selects `nonlinearity='relu'`, tanh otherwise:

    ```
    h' = tanh(x_t w_ih^T + b_ih + h w_hh^T + b_hh)
    ```
  }], Rlx_RecurrentLayoutDoc, [{

    ```mlir
    %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>)
        relu : tensor<?x?x3xf32> -> tensor<?x?x8xf32>, tensor<1x?x8xf32>
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$input,
                       Variadic<Rlx_FloatTensor>:$weights,
                       Optional<Rlx_FloatTensor>:$h0,
                       DefaultValuedAttr<Rlx_I64Attr, "1">:$num_layers,
                       UnitAttr:$bidirectional, UnitAttr:$batch_first,
                       UnitAttr:$relu);
  let results = (outs Rlx_FloatTensor:$output, Rlx_FloatTensor:$h_n);
  let assemblyFormat = [{
    $input `weights` `(` $weights `:` type($weights) `)`
    (`initial` `(` $h0^ `:` type($h0) `)`)?
    (`layers` `=` $num_layers^)? (`bidirectional` $bidirectional^)?
    (`batch_first` $batch_first^)? (`relu` $relu^)? attr-dict `:`
    type($input) `->` type($output) `,` type($h_n)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXRECURRENTOPS_TD
