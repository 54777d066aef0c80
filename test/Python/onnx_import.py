# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch, onnx
# rlx.onnx_import (issue 16): small models built with onnx.helper, imported,
# compiled and run against float64 references (numpy, and torch for the
# convolution): an MLP of Gemms, a conv net, a reshape/transpose/slice chain
# whose shape subgraph folds away, attention-like MatMul/Softmax with a `?`
# batch, weights as inputs, a transformer layer exported by torch.onnx with
# a `?` batch, LSTM, GRU and RNN nodes (against the ONNX equations in
# numpy), Det and DFT in float64 (against numpy: real, complex, inverse,
# onesided, dft_length, axes, opset 20's axis input, a `?` batch), the
# rlx-import-onnx command line through rlx-compile, and the errors a user
# meets, each naming the ONNX node.
import io
import os
import subprocess
import tempfile
import warnings

import numpy as np
import onnx
import onnx.numpy_helper
import torch
from onnx import TensorProto, helper

import rlx
from rlx.onnx_import import OnnxImportError, UnsupportedOnnxError, from_onnx
from rlx_testing.checks import check, finish

rng = np.random.default_rng(16)
CLI = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                   os.pardir, "tools", "rlx-import-onnx", "rlx-import-onnx")


def close(name, actual, expected, rtol=1e-4, atol=1e-5):
    actual = np.asarray(actual)
    if actual.shape != expected.shape:
        check(name, False, f"shape {actual.shape}, expected "
              f"{expected.shape}")
        return
    check(name, np.allclose(actual, expected, rtol=rtol, atol=atol),
          f"max error {np.max(np.abs(actual - expected)):.3g}")


def raises(name, fn, error_type, *fragments):
    try:
        fn()
    except error_type as e:
        check(name, all(f in str(e) for f in fragments), f"message: {e}")
        return
    except Exception as e:
        check(name, False, f"{type(e).__name__}: {e}")
        return
    check(name, False, "no error")


def weight(name, *shape):
    array = rng.standard_normal(shape).astype(np.float32) / np.sqrt(
        shape[-1])
    return onnx.numpy_helper.from_array(array, name)


def model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "test", inputs, outputs,
                              list(initializers))
    return helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", opset)])


def value(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def array_of(m, name):
    return next(onnx.numpy_helper.to_array(t).astype(np.float64)
                for t in m.graph.initializer if t.name == name)


def softmax(v, axis=-1):
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# -- an MLP of Gemms ----------------------------------------------------------

mlp = model(
    [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1",
                      transB=1),
     helper.make_node("Relu", ["h"], ["r"], name="relu"),
     helper.make_node("Gemm", ["r", "w2", "b2"], ["logits"], name="fc2",
                      alpha=0.5, beta=2.0),
     helper.make_node("Softmax", ["logits"], ["y"], name="softmax", axis=1)],
    [value("x", [4, 8])], [value("y", [4, 3])],
    [weight("w1", 16, 8), weight("b1", 16), weight("w2", 16, 3),
     weight("b2", 3)])
x = rng.standard_normal((4, 8)).astype(np.float32)


def mlp_reference(x64):
    h = np.maximum(x64 @ array_of(mlp, "w1").T + array_of(mlp, "b1"), 0)
    return softmax(0.5 * h @ array_of(mlp, "w2") + 2 * array_of(mlp, "b2"))


graph = from_onnx(mlp, name="mlp")
text = graph.mlir()
# transB of a constant weight and beta * C fold into the constants.
check("mlp_ops", [line.split()[2] for line in text.splitlines()
                  if " = rlx." in line and "constant" not in line] ==
      ["rlx.matmul", "rlx.add", "rlx.relu", "rlx.matmul", "rlx.mul",
       "rlx.add", "rlx.softmax"], text)
close("mlp", graph.compile()(x), mlp_reference(x.astype(np.float64)))

# Weights as inputs, after the model's own, by name.
graph = from_onnx(mlp, name="mlp_inputs", initializers="inputs")
check("mlp_inputs_names", graph.input_names == ["x", "w1", "b1", "w2",
                                                 "b2"], graph.input_names)
weights = {t.name: onnx.numpy_helper.to_array(t)
           for t in mlp.graph.initializer}
close("mlp_inputs", graph.compile()(x=x, **weights),
      mlp_reference(x.astype(np.float64)))

# -- a conv net ---------------------------------------------------------------

conv_net = model(
    [helper.make_node("Conv", ["image", "k1", "c1"], ["a"], name="conv1",
                      pads=[1, 1, 1, 1], strides=[2, 2]),
     helper.make_node("BatchNormalization", ["a", "gamma", "beta", "mean",
                                             "var"], ["n"], name="bn",
                      epsilon=1e-3),
     helper.make_node("Relu", ["n"], ["r"], name="relu"),
     helper.make_node("Conv", ["r", "k2"], ["d"], name="depthwise",
                      group=4, auto_pad="SAME_UPPER", kernel_shape=[3, 3]),
     helper.make_node("MaxPool", ["d"], ["p"], name="pool",
                      kernel_shape=[2, 2], strides=[2, 2]),
     helper.make_node("GlobalAveragePool", ["p"], ["g"], name="gap"),
     helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
     helper.make_node("Gemm", ["f", "w", "b"], ["y"], name="head")],
    [value("image", [2, 3, 16, 16])], [value("y", [2, 5])],
    [weight("k1", 4, 3, 3, 3), weight("c1", 4), weight("k2", 4, 1, 3, 3),
     onnx.numpy_helper.from_array(
         rng.uniform(0.5, 1.5, 4).astype(np.float32), "gamma"),
     weight("beta", 4), weight("mean", 4),
     onnx.numpy_helper.from_array(
         rng.uniform(0.5, 2, 4).astype(np.float32), "var"),
     weight("w", 4, 5), weight("b", 5)])
image = rng.standard_normal((2, 3, 16, 16)).astype(np.float32)


def conv_reference(image64):
    t = {name: torch.from_numpy(array_of(conv_net, name))
         for name in ("k1", "c1", "k2", "gamma", "beta", "mean", "var", "w",
                      "b")}
    F = torch.nn.functional
    v = F.conv2d(torch.from_numpy(image64), t["k1"], t["c1"], stride=2,
                 padding=1)
    v = F.batch_norm(v, t["mean"], t["var"], t["gamma"], t["beta"],
                     eps=1e-3)
    v = F.conv2d(F.relu(v), t["k2"], padding=1, groups=4)
    v = F.adaptive_avg_pool2d(F.max_pool2d(v, 2), 1).flatten(1)
    return (v @ t["w"] + t["b"]).numpy()


graph = from_onnx(conv_net, name="conv_net")
close("conv_net", graph.compile()(image),
      conv_reference(image.astype(np.float64)))

# -- a shape subgraph folded while importing ----------------------------------

ints = TensorProto.INT64
chain = model(
    [helper.make_node("Shape", ["x"], ["shape"], name="shape"),
     helper.make_node("Gather", ["shape", "first"], ["batch"], name="batch",
                      axis=0),
     helper.make_node("Unsqueeze", ["batch", "zero"], ["batch1"],
                      name="unsqueeze"),
     helper.make_node("Concat", ["batch1", "minus_one"], ["target"],
                      name="concat", axis=0),
     helper.make_node("Reshape", ["x", "target"], ["flat"], name="reshape"),
     helper.make_node("Transpose", ["flat"], ["t"], name="transpose",
                      perm=[1, 0]),
     helper.make_node("Slice", ["t", "starts", "ends", "axes", "steps"],
                      ["s"], name="slice"),
     helper.make_node("Mul", ["s", "s"], ["y"], name="square")],
    [value("x", [2, 3, 4, 5])], [value("y", [20, 2])],
    [helper.make_tensor("first", ints, [], [0]),
     helper.make_tensor("zero", ints, [1], [0]),
     helper.make_tensor("minus_one", ints, [1], [-1]),
     helper.make_tensor("starts", ints, [1], [-1]),
     helper.make_tensor("ends", ints, [1], [-1000]),
     helper.make_tensor("axes", ints, [1], [0]),
     helper.make_tensor("steps", ints, [1], [-3])])
x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
graph = from_onnx(chain, name="chain")
text = graph.mlir()
check("chain_folded", "rlx.gather" not in text and "rlx.concat" not in text
      and text.count("rlx.constant") == 0, text)
expected = x.astype(np.float64).reshape(2, -1).T[::-3] ** 2
close("chain", graph.compile()(x), expected)

# -- attention with a batch known at run time ---------------------------------

attention = model(
    [helper.make_node("Transpose", ["k"], ["kt"], name="k_t",
                      perm=[0, 1, 3, 2]),
     helper.make_node("MatMul", ["q", "kt"], ["scores"], name="qk"),
     helper.make_node("Mul", ["scores", "scale"], ["scaled"], name="scale"),
     helper.make_node("Add", ["scaled", "mask"], ["masked"], name="mask"),
     helper.make_node("Softmax", ["masked"], ["p"], name="softmax"),
     helper.make_node("MatMul", ["p", "v"], ["y"], name="pv")],
    [value(n, ["batch", 2, 8, 16]) for n in ("q", "k", "v")],
    [value("y", ["batch", 2, 8, 16])],
    [helper.make_tensor("scale", TensorProto.FLOAT, [], [0.25]),
     onnx.numpy_helper.from_array(
         np.triu(np.full((8, 8), -1e9, np.float32), 1), "mask")])
q, k, v = (rng.standard_normal((3, 2, 8, 16)).astype(np.float32)
           for _ in range(3))
graph = from_onnx(attention, name="attention")
check("attention_dynamic", graph.inputs[0].shape == (None, 2, 8, 16),
      graph.inputs[0].shape)
mask = np.triu(np.full((8, 8), -1e9), 1)
scores = q.astype(np.float64) @ k.astype(np.float64).transpose(0, 1, 3, 2)
attention_reference = softmax(scores * 0.25 + mask) @ v.astype(np.float64)
exe = graph.compile()
close("attention", exe(q, k, v), attention_reference)
close("attention_batch_1", exe(q[:1], k[:1], v[:1]), attention_reference[:1])
graph = from_onnx(attention, name="attention_static",
                  input_shapes={n: [3, 2, 8, 16] for n in "qkv"})
check("input_shapes", graph.inputs[0].shape == (3, 2, 8, 16),
      graph.inputs[0].shape)

# A `?` batch carried through Reshape's 0 and -1, and Flatten.
dynamic = model(
    [helper.make_node("Reshape", ["x", "target"], ["flat"], name="view"),
     helper.make_node("Unsqueeze", ["flat", "axes"], ["u"], name="grow"),
     helper.make_node("Flatten", ["u"], ["f"], name="flatten", axis=1),
     helper.make_node("Tanh", ["f"], ["y"], name="tanh")],
    [value("x", [None, 3, 4])], [value("y", [None, 12])],
    [helper.make_tensor("target", ints, [2], [0, -1]),
     helper.make_tensor("axes", ints, [1], [-1])])
graph = from_onnx(dynamic, name="dynamic")
check("dynamic_shape", graph.outputs[0].shape == (None, 12),
      graph.outputs[0].shape)
x = rng.standard_normal((5, 3, 4)).astype(np.float32)
close("dynamic", graph.compile()(x), np.tanh(x.astype(np.float64)).reshape(
    5, 12))

# LayerNormalization over a `?` batch; f16 and bf16 through constants of
# their type.
norm = model(
    [helper.make_node("LayerNormalization", ["x", "scale", "bias"], ["y"],
                      name="norm", epsilon=1e-3)],
    [value("x", [None, 8])], [value("y", [None, 8])],
    [weight("scale", 8), weight("bias", 8)])
x = rng.standard_normal((6, 8)).astype(np.float32)
x64 = x.astype(np.float64)
normalized = (x64 - x64.mean(-1, keepdims=True)) / np.sqrt(
    x64.var(-1, keepdims=True) + 1e-3)
close("layer_norm_dynamic", from_onnx(norm, name="norm").compile()(x),
      normalized * array_of(norm, "scale") + array_of(norm, "bias"))
for elem_type, dtype in ((TensorProto.FLOAT16, np.float16),
                         (TensorProto.BFLOAT16, np.float32)):
    low = model(
        [helper.make_node("HardSigmoid", ["x"], ["h"], name="hs",
                          alpha=0.3),
         helper.make_node("Cast", ["h"], ["y"], name="widen",
                          to=TensorProto.FLOAT)],
        [value("x", [16], elem_type)], [value("y", [16])])
    x = np.linspace(-4, 4, 16).astype(dtype)
    close(f"low_precision_{dtype.__name__}",
          from_onnx(low, name=f"low_{elem_type}").compile()(x),
          np.clip(0.3 * x.astype(np.float64) + 0.5, 0, 1), rtol=1e-2,
          atol=1e-2)

# -- a model exported by torch.onnx, with a `?` batch ----------------------
# The exporter computes the attention's head reshapes from Shape of the
# input: the run-time batch flows through Gather, Mul and Concat into the
# Reshape targets.
torch.manual_seed(16)
layer = torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True,
                                         activation="gelu").eval()
exported = io.BytesIO()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    torch.onnx.export(layer, (torch.randn(2, 5, 32),), exported,
                      opset_version=17, input_names=["x"],
                      dynamic_axes={"x": {0: "batch"}})
graph = from_onnx(onnx.load_from_string(exported.getvalue()),
                  name="encoder")
check("exported_dynamic", graph.inputs[0].shape == (None, 5, 32),
      graph.inputs[0].shape)
exe = graph.compile()
layer64 = layer.double()
for batch in (2, 7):
    x = rng.standard_normal((batch, 5, 32)).astype(np.float32)
    with torch.no_grad():
        reference = layer64(torch.from_numpy(x.astype(np.float64))).numpy()
    close(f"exported_batch_{batch}", exe(x), reference)

# -- the command line, then rlx-compile ---------------------------------------

with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "attention.onnx")
    onnx.save(attention, path)
    mlir_path = os.path.join(directory, "attention.mlir")
    run = subprocess.run(
        ["/usr/bin/python3", CLI, path, "-o", mlir_path, "--name", "attn",
         "--input-shape", "q=3,2,8,16", "--input-shape", "k=3,2,8,16",
         "--input-shape", "v=3,2,8,16"], capture_output=True, text=True)
    check("cli", run.returncode == 0, run.stderr)
    text = open(mlir_path).read() if run.returncode == 0 else ""
    check("cli_static", "@attn(%arg0: tensor<3x2x8x16xf32>" in text, text)
    so_path = os.path.join(directory, "attention.so")
    run = subprocess.run([rlx.compiler_path(), mlir_path, "-o", so_path],
                         capture_output=True, text=True)
    check("cli_compile", run.returncode == 0, run.stderr)
    if run.returncode == 0:
        close("cli_run", rlx.load(so_path).attn(q, k, v), attention_reference)

    onnx.save(model([helper.make_node("NonZero", ["x"], ["y"],
                                      name="find")],
                    [value("x", [4])], [value("y", [1, None], ints)]),
              path)
    run = subprocess.run(["/usr/bin/python3", CLI, path],
                         capture_output=True, text=True)
    check("cli_error", run.returncode == 1 and
          "node 'find' (NonZero): the op is not supported" in run.stderr,
          (run.returncode, run.stderr))
    run = subprocess.run(["/usr/bin/python3", CLI, path, "--input-shape",
                          "x=4,y"], capture_output=True, text=True)
    check("cli_bad_shape", run.returncode == 2 and
          "must be integers or ?" in run.stderr, run.stderr)

# -- recurrent layers: LSTM, GRU, RNN -----------------------------------------
# Each node becomes one rlx.lstm / rlx.gru / rlx.rnn with its weights' gate
# blocks reordered from ONNX's (i,o,f,c; z,r,h) to torch's (i,f,g,o; r,z,n).
# The reference is the ONNX operator's equations in float64 numpy, step by
# step, so it checks that reordering independently.


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def onnx_recurrent(op_type, x, w, r, b=None, h0=None, c0=None,
                   direction="forward", layout=0, relu=False):
    """ONNX's Y, Y_h, Y_c of `op_type` (GRU: linear_before_reset = 1)."""
    if layout:
        x = x.transpose(1, 0, 2)
        h0, c0 = [s.transpose(1, 0, 2) if s is not None else None
                  for s in (h0, c0)]
    steps, batch, _ = x.shape
    directions, rows, hidden = r.shape
    ys, hs, cs = [], [], []
    for d in range(directions):
        wb, rb = (b[d, :rows], b[d, rows:]) if b is not None else (0, 0)
        h = h0[d] if h0 is not None else np.zeros((batch, hidden))
        c = c0[d] if c0 is not None else np.zeros((batch, hidden))
        backward = direction == "reverse" or d == 1
        y = [None] * steps
        for t in (reversed(range(steps)) if backward else range(steps)):
            if op_type == "LSTM":
                i, o, f, g = np.split(x[t] @ w[d].T + h @ r[d].T + wb + rb,
                                      4, axis=1)
                c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
                h = sigmoid(o) * np.tanh(c)
            elif op_type == "GRU":
                xz, xr, xh = np.split(x[t] @ w[d].T + wb, 3, axis=1)
                hz, hr, hh = np.split(h @ r[d].T + rb, 3, axis=1)
                z = sigmoid(xz + hz)
                n = np.tanh(xh + sigmoid(xr + hr) * hh)
                h = (1 - z) * n + z * h
            else:
                a = x[t] @ w[d].T + h @ r[d].T + wb + rb
                h = np.maximum(a, 0) if relu else np.tanh(a)
            y[t] = h
        ys.append(np.stack(y) if steps else np.zeros((0, batch, hidden)))
        hs.append(h)
        cs.append(c)
    y, y_h, y_c = np.stack(ys, axis=1), np.stack(hs), np.stack(cs)
    if layout:
        y, y_h, y_c = (y.transpose(2, 0, 1, 3), y_h.transpose(1, 0, 2),
                       y_c.transpose(1, 0, 2))
    return y, y_h, y_c


GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}


def recurrent_model(op_type, name, steps, batch, features, hidden,
                    direction="forward", layout=0, bias=True, initial="",
                    shape=None, outputs=("y", "y_h", "y_c"), lengths=None,
                    peepholes=False, **attributes):
    """A model of one `op_type` node, weights as initializers; `initial`
    names the initial states given ("h", "hc", "c") as inputs; `shape`
    overrides X's declared shape (None entries: `?`); `lengths` is a
    sequence_lens initializer, `peepholes` adds a P initializer."""
    directions = 2 if direction == "bidirectional" else 1
    rows = GATES[op_type] * hidden
    weights = [weight("w", directions, rows, features),
               weight("r", directions, rows, hidden)]
    if bias:
        weights.append(weight("b", directions, 2 * rows))
    state_batch = batch if shape is None else None
    states = [directions, state_batch, hidden] if not layout else \
        [state_batch, directions, hidden]
    x_shape = [batch, steps, features] if layout else \
        [steps, batch, features]
    inputs = [value("x", shape or x_shape)]
    node_inputs = ["x", "w", "r", "b" if bias else "",
                   "lengths" if lengths is not None else ""]
    if lengths is not None:
        weights.append(helper.make_tensor("lengths", TensorProto.INT32,
                                          [batch], lengths))
    for state in "hc":
        if state in initial:
            inputs.append(value(f"{state}0", states))
        node_inputs.append(f"{state}0" if state in initial else "")
    if peepholes:
        node_inputs.append("p")
        weights.append(weight("p", directions, 3 * hidden))
    while not node_inputs[-1]:
        node_inputs.pop()
    if op_type != "LSTM":
        outputs = [o for o in outputs if o != "y_c"]
    if op_type == "GRU":
        attributes.setdefault("linear_before_reset", 1)
    node = helper.make_node(op_type, node_inputs, list(outputs), name=name,
                            hidden_size=hidden, direction=direction,
                            layout=layout, **attributes)
    return model([node], inputs, [value(o, None) for o in outputs if o],
                 weights)


def run_recurrent(name, m, op_type, batch, initial="", steps_list=(5,),
                  relu=False, batches=None, **kwargs):
    """Imports and compiles `m`, runs it on random inputs of each (steps,
    batch) and checks every output against onnx_recurrent."""
    node = m.graph.node[0]
    attributes = {a.name: helper.get_attribute_value(a)
                  for a in node.attribute}
    layout = attributes.get("layout", 0)
    direction = attributes["direction"].decode()
    directions = 2 if direction == "bidirectional" else 1
    w, r = array_of(m, "w"), array_of(m, "r")
    b = array_of(m, "b") if any(t.name == "b" for t in m.graph.initializer) \
        else None
    graph = from_onnx(m, name=name, **kwargs)
    exe = graph.compile()
    features, hidden = w.shape[2], r.shape[2]
    for steps in steps_list:
        for size in batches or [batch]:
            x = rng.standard_normal(
                (size, steps, features) if layout else
                (steps, size, features)).astype(np.float32)
            states = {s: rng.standard_normal(
                (size, directions, hidden) if layout else
                (directions, size, hidden)).astype(np.float32)
                for s in initial}
            feeds = {"x": x}
            feeds.update({f"{s}0": v for s, v in states.items()})
            if kwargs.get("initializers") == "inputs":
                feeds.update({t.name: onnx.numpy_helper.to_array(t)
                              for t in m.graph.initializer})
            expected = onnx_recurrent(
                op_type, x.astype(np.float64), w, r, b,
                *[states[s].astype(np.float64) if s in states else None
                  for s in "hc"], direction=direction, layout=layout,
                relu=relu)
            actual = exe(**feeds)
            actual = actual if isinstance(actual, (list, tuple)) \
                else [actual]
            wanted = [i for i, o in enumerate(node.output) if o]
            check(f"{name}_outputs", len(actual) == len(wanted),
                  len(actual))
            for i, got in zip(wanted, actual):
                close(f"{name}_{node.output[i]}_{steps}x{size}", got,
                      expected[i])
    return graph


lstm = recurrent_model("LSTM", "lstm", 5, 3, 4, 6, initial="hc")
graph = run_recurrent("lstm_forward", lstm, "LSTM", 3, initial="hc")
text = graph.mlir()
# The gate blocks are reordered in the constants: one rlx.lstm, no op
# moving weights.
check("lstm_one_op", text.count("rlx.lstm") == 1 and "rlx.narrow" not in
      text and "rlx.concat" not in text, text)
run_recurrent("lstm_bidirectional_batch_first",
              recurrent_model("LSTM", "lstm_bi", 5, 2, 3, 4,
                              direction="bidirectional", layout=1,
                              bias=False),
              "LSTM", 2)
# A lone reverse direction (the sequence reversed around a forward
# rlx.lstm), `?` steps and batch, initial_h alone (initial_c zeros).
graph = run_recurrent(
    "lstm_reverse_dynamic",
    recurrent_model("LSTM", "lstm_rev", 5, 2, 3, 4, direction="reverse",
                    initial="h", shape=[None, None, 3]),
    "LSTM", 2, initial="h", steps_list=(5, 1), batches=(2, 3))
check("lstm_reverse_ops", graph.mlir().count("rlx.reverse") == 2,
      graph.mlir())
run_recurrent("lstm_initial_c_batch_first",
              recurrent_model("LSTM", "lstm_c", 4, 3, 3, 5, layout=1,
                              initial="c", direction="bidirectional"),
              "LSTM", 3, initial="c", steps_list=(4,))
run_recurrent("gru_forward_batch_first",
              recurrent_model("GRU", "gru", 5, 3, 4, 6, layout=1,
                              initial="h"),
              "GRU", 3, initial="h")
run_recurrent("gru_bidirectional",
              recurrent_model("GRU", "gru_bi", 5, 2, 3, 4,
                              direction="bidirectional"),
              "GRU", 2)
run_recurrent("gru_reverse_batch_first",
              recurrent_model("GRU", "gru_rev", 5, 2, 3, 4, layout=1,
                              direction="reverse", bias=False, initial="h"),
              "GRU", 2, initial="h")
run_recurrent("rnn_tanh",
              recurrent_model("RNN", "rnn", 5, 3, 4, 6, bias=False,
                              initial="h"),
              "RNN", 3, initial="h")
run_recurrent("rnn_relu_bidirectional_batch_first",
              recurrent_model("RNN", "rnn_relu", 5, 2, 3, 4, layout=1,
                              direction="bidirectional", initial="h",
                              activations=["Relu", "Relu"]),
              "RNN", 2, initial="h", relu=True)
run_recurrent("rnn_tanh_reverse",
              recurrent_model("RNN", "rnn_rev", 5, 2, 3, 4,
                              direction="reverse", activations=["Tanh"]),
              "RNN", 2)
run_recurrent("rnn_relu_reverse_batch_first",
              recurrent_model("RNN", "rnn_relu_rev", 5, 2, 3, 4, layout=1,
                              direction="reverse", activations=["Relu"]),
              "RNN", 2, relu=True)
# Weights as graph inputs: their gate blocks reordered by rlx.narrow and
# rlx.concat; only Y_h asked for.
graph = run_recurrent(
    "gru_weights_as_inputs",
    recurrent_model("GRU", "gru_inputs", 4, 2, 3, 4,
                    direction="bidirectional", initial="h",
                    outputs=("", "y_h")),
    "GRU", 2, initial="h", steps_list=(4,), initializers="inputs")
check("gru_weights_as_inputs_names",
      graph.input_names == ["x", "h0", "w", "r", "b"], graph.input_names)
check("gru_weights_as_inputs_ops", "rlx.concat" in graph.mlir(),
      graph.mlir())
# sequence_lens of the full length everywhere is the op without it.
run_recurrent("rnn_full_lengths",
              recurrent_model("RNN", "rnn_lengths", 4, 2, 3, 4,
                              lengths=[4, 4]),
              "RNN", 2, steps_list=(4,))


def recurrent_error(name, m, *fragments):
    raises(name, lambda: from_onnx(m), UnsupportedOnnxError, *fragments)


recurrent_error("gru_linear_before_reset_0",
                recurrent_model("GRU", "gru0", 3, 2, 3, 4,
                                linear_before_reset=0),
                "node 'gru0' (GRU)", "linear_before_reset = 0")
recurrent_error("lstm_peepholes",
                recurrent_model("LSTM", "peep", 3, 2, 3, 4, initial="hc",
                                peepholes=True),
                "node 'peep' (LSTM)", "peepholes")
recurrent_error("lstm_sequence_lens",
                recurrent_model("LSTM", "ragged", 3, 2, 3, 4,
                                lengths=[3, 2]),
                "node 'ragged' (LSTM)", "sequence_lens")
recurrent_error("lstm_clip",
                recurrent_model("LSTM", "clipped", 3, 2, 3, 4, clip=3.0),
                "node 'clipped' (LSTM)", "clip = 3.0")
recurrent_error("lstm_input_forget",
                recurrent_model("LSTM", "coupled", 3, 2, 3, 4,
                                input_forget=1),
                "node 'coupled' (LSTM)", "input_forget = 1")
recurrent_error("lstm_activations",
                recurrent_model("LSTM", "hard", 3, 2, 3, 4,
                                activations=["HardSigmoid", "Tanh",
                                             "Tanh"]),
                "node 'hard' (LSTM)", "activations = ['HardSigmoid'")
recurrent_error("rnn_mixed_activations",
                recurrent_model("RNN", "mixed", 3, 2, 3, 4,
                                direction="bidirectional",
                                activations=["Tanh", "Relu"]),
                "node 'mixed' (RNN)", "activations = ['Tanh', 'Relu']")

# -- Det and DFT (float64, against numpy) ------------------------------------

doubles = TensorProto.DOUBLE
matrices = rng.standard_normal((2, 3, 3))
matrices[1] = -matrices[0]  # determinants of both signs
graph = from_onnx(model([helper.make_node("Det", ["a"], ["d"], name="det")],
                        [value("a", [2, 3, 3], doubles)],
                        [value("d", [2], doubles)]))
close("det", graph.compile()(matrices), np.linalg.det(matrices),
      rtol=1e-12, atol=1e-12)


def dft_model(shape, length=None, axis_input=None, opset=17, **attributes):
    """One DFT node (named "dft") on f64 input x of `shape`; dft_length and
    (opset 20) the axis as initializers."""
    names, initializers = ["x"], []
    if length is not None or axis_input is not None:
        names.append("n" if length is not None else "")
    if length is not None:
        initializers.append(helper.make_tensor("n", ints, [], [length]))
    if axis_input is not None:
        names.append("axis")
        initializers.append(helper.make_tensor("axis", ints, [],
                                               [axis_input]))
    return model([helper.make_node("DFT", names, ["y"], name="dft",
                                   **attributes)],
                 [value("x", shape, doubles)], [value("y", None, doubles)],
                 initializers, opset=opset)


def dft_reference(x, axis, length=None, inverse=False, onesided=False):
    """ONNX's DFT in numpy: the signal's parts in a last axis of 1 or 2."""
    signal = x[..., 0] if x.shape[-1] == 1 else x[..., 0] + 1j * x[..., 1]
    y = (np.fft.ifft if inverse else np.fft.fft)(signal, n=length,
                                                  axis=axis)
    if onesided:
        y = np.take(y, range(y.shape[axis] // 2 + 1), axis=axis)
    return np.stack([y.real, y.imag], -1)


dft_cases = [
    # name, input shape, {length, axis_input, opset, attributes},
    # the reference's axis
    ("dft_real", (2, 8, 1), {}, 1),
    ("dft_real_onesided", (2, 8, 1), {"onesided": 1}, 1),     # rfft
    ("dft_inverse", (3, 6, 2), {"inverse": 1}, 1),
    ("dft_axis_padded", (1, 4, 10, 2), {"axis": 2, "length": 12}, 2),
    ("dft_onesided_trimmed", (2, 10, 3, 2),
     {"axis": -3, "onesided": 1, "length": 7}, 1),             # Bluestein
    ("dft_inverse_axis0", (5, 3, 1), {"axis": 0, "inverse": 1}, 0),
    ("dft_opset20_axis", (2, 5, 6, 2), {"opset": 20, "axis_input": 1}, 1),
    ("dft_opset20_default", (2, 5, 6, 2), {"opset": 20}, 2),
]
for name, shape, options, axis in dft_cases:
    options = dict(options)
    length = options.pop("length", None)
    signal = rng.standard_normal(shape)
    graph = from_onnx(dft_model(shape, length=length,
                                axis_input=options.pop("axis_input", None),
                                opset=options.pop("opset", 17), **options))
    close(name, graph.compile()(signal), dft_reference(
        signal, axis, length, bool(options.get("inverse")),
        bool(options.get("onesided"))), rtol=1e-12, atol=1e-12)

# A batch known at run time.
graph = from_onnx(dft_model([None, 8, 2]), input_shapes={"x": [None, 8, 2]})
signal = rng.standard_normal((3, 8, 2))
close("dft_runtime_batch", graph.compile()(signal),
      dft_reference(signal, 1), rtol=1e-12, atol=1e-12)
raises("dft_inverse_onesided", lambda: from_onnx(dft_model(
    (2, 8, 2), inverse=1, onesided=1)), UnsupportedOnnxError,
    "node 'dft' (DFT)", "inverse = 1 with onesided = 1")
raises("dft_parts_axis", lambda: from_onnx(dft_model((2, 8, 2), axis=2)),
       UnsupportedOnnxError, "node 'dft' (DFT)", "axis = 2")

# -- errors name the node -----------------------------------------------------

raises("unsupported_op", lambda: from_onnx(model(
    [helper.make_node("Relu", ["x"], ["r"], name="act"),
     helper.make_node("NonZero", ["r"], ["y"], name="find")],
    [value("x", [4])], [value("y", [1, None], ints)])),
    UnsupportedOnnxError, "node 'find' (NonZero)", "not supported")
raises("unnamed_node", lambda: from_onnx(model(
    [helper.make_node("Relu", ["x"], ["r"]),
     helper.make_node("Unique", ["r"], ["y"])],
    [value("x", [4, 4])], [value("y", [None])])),
    UnsupportedOnnxError, "node 'Unique_1' (Unique)")
raises("unsupported_attribute", lambda: from_onnx(model(
    [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                      kernel_shape=[2, 2], dilations=[2, 2])],
    [value("x", [1, 1, 8, 8])], [value("y", [1, 1, 6, 6])])),
    UnsupportedOnnxError, "node 'pool' (MaxPool)", "dilations = [2, 2]")
raises("shape_error", lambda: from_onnx(model(
    [helper.make_node("MatMul", ["a", "b"], ["y"], name="product")],
    [value("a", [2, 3]), value("b", [4, 5])], [value("y", [2, 5])])),
    OnnxImportError, "node 'product' (MatMul)", "K = 3")
raises("unknown_input", lambda: from_onnx(model(
    [helper.make_node("Relu", ["missing"], ["y"], name="act")],
    [value("x", [4])], [value("y", [4])])),
    OnnxImportError, "node 'act' (Relu)", "input 'missing'")
raises("needs_known_value", lambda: from_onnx(model(
    [helper.make_node("Reshape", ["x", "shape"], ["y"], name="view")],
    [value("x", [4]), value("shape", [2], ints)], [value("y", [2, 2])])),
    UnsupportedOnnxError, "node 'view' (Reshape)", "must be known")
graph = from_onnx(model(
    [helper.make_node("Reshape", ["x", "shape"], ["y"], name="view")],
    [value("x", [4]), value("shape", [2], ints)], [value("y", [2, 2])]),
    constant_inputs={"shape": np.array([2, -1])})
check("constant_inputs", graph.outputs[0].shape == (2, 2) and
      graph.input_names == ["x"], (graph.outputs[0].shape,
                                   graph.input_names))
# Run-time sizes in a Reshape target must be the input's own, in order
# (rlx.reshape's rule), but for the last.
swap = model(
    [helper.make_node("Shape", ["x"], ["shape"], name="shape"),
     helper.make_node("Gather", ["shape", "order"], ["swapped"],
                      name="swap", axis=0),
     helper.make_node("Reshape", ["x", "swapped"], ["y"], name="view")],
    [value("x", [None, None, 4])], [value("y", [None, None, 4])],
    [helper.make_tensor("order", ints, [3], [1, 0, 2])])
raises("runtime_sizes_order", lambda: from_onnx(swap),
       UnsupportedOnnxError, "node 'view' (Reshape)", "in order")
raises("unsigned", lambda: from_onnx(model(
    [helper.make_node("Add", ["x", "x"], ["y"], name="add")],
    [value("x", [4], TensorProto.UINT8)],
    [value("y", [4], TensorProto.UINT8)])),
    UnsupportedOnnxError, "UINT8", "signless")
raises("initializers_value", lambda: from_onnx(mlp, initializers="weights"),
       ValueError, "initializers = 'weights'")

finish()
