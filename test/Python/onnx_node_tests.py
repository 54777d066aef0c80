# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: onnx
# The ONNX backend node tests (Debian's libonnx-testdata, ONNX 1.12) through
# rlx.onnx_import: every test whose ops the importer supports is imported,
# compiled and run on its recorded inputs, and its outputs compared with the
# recorded ones. Prints a table of passes, failures and tests the importer
# refuses (an UnsupportedOnnxError: an attribute value or element type it
# does not map) per op, then fails if an op passes fewer tests than
# RECORDED_PASSES says it did (docs/onnx.md has the table).
#
# Node tests give shapes, axes, pads and the like as graph inputs. Where the
# importer refuses a test because such a value must be known while
# importing, the test is imported again with the inputs that feed an op
# past its first operand fixed to their recorded values (constant_inputs),
# as a model would carry them as initializers.
#
# Compiling one module per test would take ~0.5 s each: the tests are
# imported as functions of one module per batch, and a batch that does not
# compile is split in halves until the failing tests are found.
#
# Run directly with --update to print the RECORDED_PASSES of this run, and
# with --verbose for each failure's message.
import collections
import os
import sys
import time

import numpy as np
import onnx
import onnx.numpy_helper

import rlx
from rlx.onnx_import import SUPPORTED_OPS, UnsupportedOnnxError, from_onnx

NODE_TESTS = "/usr/share/libonnx-testdata/data/node"
BATCH_SIZE = 48
# (rtol, atol) by output dtype; integers and bools compare exactly.
TOLERANCES = {np.float32: (1e-4, 1e-5), np.float64: (1e-7, 1e-9),
              np.float16: (1e-2, 1e-3)}
BF16_TOLERANCE = (1e-2, 1e-2)
EXPANDED = "(expanded: several ops)"

# Passes per row at the last update: a row that passes fewer fails the test.
RECORDED_PASSES = {
    "(expanded: several ops)": 93,
    "Abs": 1,
    "Acos": 2,
    "Acosh": 2,
    "Add": 2,
    "And": 8,
    "ArgMax": 16,
    "ArgMin": 16,
    "Asin": 2,
    "Asinh": 2,
    "Atan": 2,
    "Atanh": 2,
    "AveragePool": 13,
    "BatchNormalization": 2,
    "Cast": 16,
    "CastLike": 8,
    "Ceil": 2,
    "Celu": 1,
    "Clip": 11,
    "Concat": 12,
    "ConstantOfShape": 3,
    "Conv": 6,
    "ConvTranspose": 10,
    "Cos": 2,
    "Cosh": 2,
    "CumSum": 7,
    "DFT": 3,
    "DepthToSpace": 4,
    "Det": 2,
    "Div": 3,
    "Dropout": 6,
    "Einsum": 4,
    "Elu": 3,
    "Equal": 2,
    "Erf": 1,
    "Exp": 2,
    "Expand": 2,
    "EyeLike": 3,
    "Flatten": 9,
    "Floor": 2,
    "Gather": 4,
    "GatherElements": 3,
    "GatherND": 3,
    "Gemm": 11,
    "GlobalAveragePool": 2,
    "GlobalMaxPool": 2,
    "Greater": 2,
    "GreaterOrEqual": 2,
    "HardSigmoid": 3,
    "HardSwish": 1,
    "Hardmax": 7,
    "Identity": 1,
    "InstanceNormalization": 2,
    "IsInf": 3,
    "IsNaN": 1,
    "LRN": 2,
    "LSTM": 3,
    "LayerNormalization": 19,
    "LeakyRelu": 3,
    "Less": 2,
    "LessOrEqual": 2,
    "Log": 2,
    "LogSoftmax": 7,
    "MatMul": 3,
    "Max": 10,
    "MaxPool": 11,
    "Mean": 3,
    "MeanVarianceNormalization": 1,
    "Min": 10,
    "Mod": 9,
    "Mul": 3,
    "Neg": 2,
    "NegativeLogLikelihoodLoss": 18,
    "Not": 3,
    "OneHot": 4,
    "Or": 8,
    "PRelu": 2,
    "Pad": 3,
    "Pow": 12,
    "RNN": 4,
    "Range": 2,
    "Reciprocal": 2,
    "ReduceL1": 8,
    "ReduceL2": 8,
    "ReduceLogSum": 5,
    "ReduceLogSumExp": 8,
    "ReduceMax": 8,
    "ReduceMean": 8,
    "ReduceMin": 8,
    "ReduceProd": 8,
    "ReduceSum": 10,
    "ReduceSumSquare": 8,
    "Relu": 1,
    "Reshape": 10,
    "Resize": 22,
    "Round": 1,
    "Scatter": 2,
    "ScatterElements": 4,
    "ScatterND": 3,
    "Selu": 3,
    "Shape": 10,
    "Shrink": 2,
    "Sigmoid": 2,
    "Sign": 1,
    "Sin": 2,
    "Sinh": 2,
    "Size": 2,
    "Slice": 8,
    "Softmax": 7,
    "SoftmaxCrossEntropyLoss": 34,
    "Softplus": 2,
    "Softsign": 2,
    "SpaceToDepth": 2,
    "Split": 7,
    "Sqrt": 2,
    "Squeeze": 2,
    "Sub": 3,
    "Sum": 3,
    "Tan": 2,
    "Tanh": 2,
    "ThresholdedRelu": 3,
    "Tile": 2,
    "TopK": 3,
    "Transpose": 7,
    "Trilu": 18,
    "Unsqueeze": 8,
    "Upsample": 1,
    "Where": 2,
    "Xor": 8,
}


def row_name(model):
    """The op a test exercises: its one op type besides Constant, or
    EXPANDED for a function's expansion into several ops."""
    ops = sorted({n.op_type for n in model.graph.node} - {"Constant"})
    return ops[0] if len(ops) == 1 else EXPANDED


def load_tensors(directory, prefix, value_infos):
    """The recorded tensors of `value_infos` (the graph's inputs or
    outputs), bf16 ones (stored as their uint16 bits) as the float32 arrays
    that rlx takes and gives for bf16, and a flag per tensor saying which
    are bf16."""
    tensors, bf16 = [], []
    for i, value_info in enumerate(value_infos):
        tensor = onnx.TensorProto()
        with open(os.path.join(directory, f"{prefix}_{i}.pb"), "rb") as f:
            tensor.ParseFromString(f.read())
        array = onnx.numpy_helper.to_array(tensor)
        is_bf16 = value_info.type.tensor_type.elem_type == \
            onnx.TensorProto.BFLOAT16
        if is_bf16:
            array = (array.astype(np.uint32) << 16).view(np.float32)
        tensors.append(array)
        bf16.append(is_bf16)
    return tensors, bf16


class NodeTest:
    def __init__(self, name, model, data_dir):
        self.name = name
        self.model = model
        self.data_dir = data_dir
        self.row = row_name(model)
        self.function = None   # the function's name once imported
        self.text = None       # its func.func
        self.constants = {}    # inputs fixed to their recorded values

    def recorded_inputs(self):
        """{graph input name: recorded value}."""
        inputs = [i for i in self.model.graph.input
                  if i.name not in {t.name for t in
                                    self.model.graph.initializer}]
        if not all(i.type.HasField("tensor_type") for i in inputs):
            return {}  # sequences and optionals: the importer refuses them
        return dict(zip([i.name for i in inputs],
                        load_tensors(self.data_dir, "input", inputs)[0]))

    def operand_inputs(self):
        """The recorded values of the graph inputs that feed some op past
        its first operand (shapes, axes, pads, K)."""
        recorded = self.recorded_inputs()
        names = {name for node in self.model.graph.node
                 for name in node.input[1:] if name in recorded}
        return {name: recorded[name] for name in names}

    def import_text(self):
        """The test's func.func; refusals raise UnsupportedOnnxError."""
        # The recorded shapes: a few tests declare others.
        shapes = {name: value.shape
                  for name, value in self.recorded_inputs().items()}
        # Inputs fixed in turn: none, the operands past the first, all (for
        # ops such as ConstantOfShape and Range, folded whole).
        attempts = [dict, self.operand_inputs, self.recorded_inputs]
        for attempt, constants in enumerate(attempts):
            self.constants = constants()
            try:
                graph = from_onnx(self.model, name=self.function,
                                  input_shapes=shapes,
                                  constant_inputs=self.constants)
                break
            except UnsupportedOnnxError as error:
                if "must be known while importing" not in str(error) or \
                        attempt == len(attempts) - 1:
                    raise
        text = graph.mlir().strip()
        assert text.startswith("module {") and text.endswith("}")
        return text[len("module {"):-1]

    def run(self, module):
        """Why the outputs differ from the recorded ones, or None."""
        inputs = [v for name, v in self.recorded_inputs().items()
                  if name not in self.constants]
        expected, bf16 = load_tensors(self.data_dir, "output",
                                      self.model.graph.output)
        actual = module[self.function](*inputs)
        if not isinstance(actual, tuple):
            actual = (actual,)
        problems = [f"output {i}: {problem}" for i, problem in enumerate(
            compare(*args) for args in zip(expected, actual, bf16))
            if problem]
        if len(actual) != len(expected):
            problems.append(f"{len(actual)} outputs, expected "
                            f"{len(expected)}")
        return "; ".join(problems) or None


def compare(expected, actual, bf16):
    """None if `actual` matches `expected`, else why not."""
    actual = np.asarray(actual)
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    if bf16 or expected.dtype.type in TOLERANCES:
        rtol, atol = BF16_TOLERANCE if bf16 else \
            TOLERANCES[expected.dtype.type]
        if np.allclose(actual, expected, rtol=rtol, atol=atol,
                       equal_nan=True):
            return None
        error = np.nanmax(np.abs(actual.astype(np.float64) -
                                 expected.astype(np.float64)))
        return f"max abs error {error:.3g}"
    if np.array_equal(actual, expected):
        return None
    return f"{np.count_nonzero(actual != expected)} elements differ"


def module_text(tests):
    return "module {\n" + "".join(test.text for test in tests) + "}\n"


def compile_batches(tests, failures):
    """{test name: its module}, compiling `tests` in batches and isolating
    the tests of a batch that does not compile."""
    modules = {}
    pending = [tests[i:i + BATCH_SIZE]
               for i in range(0, len(tests), BATCH_SIZE)]
    while pending:
        batch = pending.pop()
        try:
            module = rlx.compile(module_text(batch))
        except rlx.Error as error:
            if len(batch) == 1:
                lines = str(error).splitlines()
                failures[batch[0].name] = "compile: " + next(
                    (line for line in lines if "error:" in line),
                    lines[0])[:300]
                continue
            middle = len(batch) // 2
            pending += [batch[:middle], batch[middle:]]
            continue
        for test in batch:
            modules[test.name] = module
    return modules


def main():
    verbose = "--verbose" in sys.argv
    start = time.perf_counter()
    counts = collections.defaultdict(collections.Counter)
    failures, refusals, imported = {}, {}, []
    for index, name in enumerate(sorted(os.listdir(NODE_TESTS))):
        directory = os.path.join(NODE_TESTS, name)
        model = onnx.load(os.path.join(directory, "model.onnx"))
        test = NodeTest(name, model, os.path.join(directory,
                                                  "test_data_set_0"))
        ops = {n.op_type for n in model.graph.node}
        if not ops <= SUPPORTED_OPS:
            counts[test.row]["unsupported"] += 1
            continue
        test.function = f"t{index}"
        try:
            test.text = test.import_text()
        except UnsupportedOnnxError as error:
            counts[test.row]["refused"] += 1
            refusals[name] = str(error)
            continue
        except Exception as error:  # an importer bug: a failure to report
            failures[name] = f"import: {type(error).__name__}: {error}"
            counts[test.row]["fail"] += 1
            continue
        imported.append(test)
    import_time = time.perf_counter() - start

    modules = compile_batches(imported, failures)
    compile_time = time.perf_counter() - start - import_time
    for test in imported:
        if test.name in failures:
            counts[test.row]["fail"] += 1
            continue
        try:
            problem = test.run(modules[test.name])
        except rlx.Error as error:
            problem = f"run: {error}"
        if problem:
            failures[test.name] = problem
            counts[test.row]["fail"] += 1
        else:
            counts[test.row]["pass"] += 1
    total_time = time.perf_counter() - start

    print("| op | tests | pass | fail | refused | unsupported op |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    totals = collections.Counter()
    for row in sorted(counts, key=lambda r: (r == EXPANDED, r)):
        c = counts[row]
        if not (c["pass"] or c["fail"] or c["refused"]):
            continue
        totals.update(c)
        print(f"| {row} | {sum(c.values())} | {c['pass']} | {c['fail']} | "
              f"{c['refused']} | {c['unsupported']} |")
    unsupported_rows = sorted(r for r in counts if not (
        counts[r]["pass"] or counts[r]["fail"] or counts[r]["refused"]))
    totals["unsupported"] = sum(counts[r]["unsupported"] for r in counts)
    print(f"| total | {sum(totals.values())} | {totals['pass']} | "
          f"{totals['fail']} | {totals['refused']} | "
          f"{totals['unsupported']} |")
    print(f"ops with no supported test: {', '.join(unsupported_rows)}")
    print(f"time: import {import_time:.1f} s, compile {compile_time:.1f} s, "
          f"total {total_time:.1f} s")
    if verbose:
        for name, message in sorted(failures.items()):
            print(f"FAIL {name}: {message}")
        for name, message in sorted(refusals.items()):
            print(f"REFUSED {name}: {message}")

    if "--update" in sys.argv:
        print("RECORDED_PASSES = {")
        for row in sorted(counts):
            if counts[row]["pass"]:
                print(f'    "{row}": {counts[row]["pass"]},')
        print("}")
        return 0
    regressions = [f"{row}: {counts[row]['pass']} passes, recorded {n}"
                   for row, n in RECORDED_PASSES.items()
                   if counts[row]["pass"] < n]
    for regression in regressions:
        print(f"REGRESSION {regression}")
    print(f"{len(RECORDED_PASSES) - len(regressions)} passed, "
          f"{len(regressions)} failed")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
