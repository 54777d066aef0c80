# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch, onnx
# rlx.onnx_import (issue 16): small models built with onnx.helper, imported,
# compiled and run against float64 references (numpy, and torch for the
# convolution): an MLP of Gemms, a conv net, a reshape/transpose/slice chain
# whose shape subgraph folds away, attention-like MatMul/Softmax with a `?`
# batch, weights as inputs, a transformer layer exported by torch.onnx with
# a `?` batch, the rlx-import-onnx command line through rlx-compile, and
# the errors a user meets, each naming the ONNX node.
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

# -- errors name the node -----------------------------------------------------

raises("unsupported_op", lambda: from_onnx(model(
    [helper.make_node("Relu", ["x"], ["r"], name="act"),
     helper.make_node("NonZero", ["r"], ["y"], name="find")],
    [value("x", [4])], [value("y", [1, None], ints)])),
    UnsupportedOnnxError, "node 'find' (NonZero)", "not supported")
raises("unnamed_node", lambda: from_onnx(model(
    [helper.make_node("Relu", ["x"], ["r"]),
     helper.make_node("Det", ["r"], ["y"])],
    [value("x", [4, 4])], [value("y", [])])),
    UnsupportedOnnxError, "node 'Det_1' (Det)")
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
