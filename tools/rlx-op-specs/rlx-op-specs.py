#!/usr/bin/env python3
"""Writes the rlx ops' specifications, as the Python graph builder reads
them, from the ODS records that `llvm-tblgen --dump-json` dumps.

    llvm-tblgen --dump-json -I include -I $MLIR_INCLUDE RlxOps.td -o records.json
    rlx-op-specs.py records.json -o rlx_ops.json

One entry per op of the rlx dialect: its operands (single, optional or
variadic), its attributes (kind, whether required, enum cases), its results,
and how many regions it has. (Whether an op infers its result types is
asked of the registered op at run time: ODS adds InferTypeOpInterface to ops
whose traits fix their result types, which the records do not say.) Built at
build time, so the Python API follows the op definitions with no list kept
by hand."""

import argparse
import json
import sys

# ODS attribute constraints the Python side converts, by record name; any
# other is given as MLIR attribute text.
ATTRIBUTE_KINDS = {
    "Rlx_I64Attr": "i64",
    "I64Attr": "i64",
    "I32Attr": "i32",
    "F64Attr": "f64",
    "F32Attr": "f32",
    "BoolAttr": "bool",
    "UnitAttr": "unit",
    "StrAttr": "string",
    "DenseI64ArrayAttr": "i64_array",
    "DenseI32ArrayAttr": "i32_array",
    "DenseBoolArrayAttr": "bool_array",
    "DenseF64ArrayAttr": "f64_array",
    "DenseF32ArrayAttr": "f32_array",
    "ElementsAttr": "elements",
    "TypedAttrInterface": "typed",
}

WRAPPERS = ("OptionalAttr", "DefaultValuedAttr", "DefaultValuedOptionalAttr",
            "ConfinedAttr")


def unwrap_attribute(records, name):
    """The attribute a chain of OptionalAttr/DefaultValuedAttr wraps."""
    record = records[name]
    while any(w in record["!superclasses"] for w in WRAPPERS) and \
            record.get("baseAttr"):
        name = record["baseAttr"]["def"]
        record = records[name]
    return name, record


def attribute_spec(records, name, arg_def):
    record = records[arg_def]
    base_name, base = unwrap_attribute(records, arg_def)
    spec = {"name": name}
    if "EnumAttrInfo" in base["!superclasses"]:
        spec["kind"] = "enum"
        spec["enum"] = base["className"]
        spec["bitwidth"] = base.get("bitwidth", 32)
        spec["cases"] = {}
        for case in base["enumerants"]:
            case_record = records[case["def"]]
            spec["cases"][case_record["str"]] = case_record["value"]
    else:
        spec["kind"] = ATTRIBUTE_KINDS.get(base_name, "text")
        if spec["kind"] == "text":
            spec["constraint"] = base_name
    optional = bool(record.get("isOptional"))
    default = record.get("defaultValue")
    spec["required"] = not optional and default is None and \
        spec["kind"] != "unit"
    if default is not None and spec["kind"] != "unit":
        spec["default"] = default
    return spec


def value_kind(records, arg_def):
    superclasses = records[arg_def]["!superclasses"]
    if "Variadic" in superclasses:
        return "variadic"
    if "Optional" in superclasses:
        return "optional"
    return "single"


def op_spec(records, op):
    record = records[op]
    traits = {t["def"] for t in record["traits"]}
    spec = {
        "name": record["opName"],
        "summary": record.get("summary", ""),
        "operands": [],
        "attributes": [],
        "results": [],
    }
    for arg, name in record["arguments"]["args"]:
        arg_def = arg["def"]
        if "Attr" in records[arg_def]["!superclasses"] or \
                "AttrConstraint" in records[arg_def]["!superclasses"]:
            spec["attributes"].append(attribute_spec(records, name, arg_def))
        else:
            spec["operands"].append(
                {"name": name, "kind": value_kind(records, arg_def)})
    for result, name in record["results"]["args"]:
        spec["results"].append(
            {"name": name, "kind": value_kind(records, result["def"])})
    spec["regions"] = len(record["regions"]["args"])
    spec["operand_segments"] = "AttrSizedOperandSegments" in traits
    spec["result_segments"] = "AttrSizedResultSegments" in traits
    return spec


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", help="llvm-tblgen --dump-json output")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--dialect", default="Rlx_Dialect",
                        help="record of the dialect whose ops to write")
    args = parser.parse_args()
    with open(args.records) as f:
        records = json.load(f)
    ops = [op for op in records["!instanceof"]["Op"]
           if records[op]["opDialect"]["def"] == args.dialect]
    if not ops:
        sys.exit(f"rlx-op-specs: no op of {args.dialect} in {args.records}")
    specs = sorted((op_spec(records, op) for op in ops),
                   key=lambda s: s["name"])
    with open(args.output, "w") as f:
        json.dump({"dialect": "rlx", "ops": specs}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
