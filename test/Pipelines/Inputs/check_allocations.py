"""Reads MLIR on stdin and checks every memref.alloc and memref.alloca.

Usage: check_allocations.py MAX_ELEMENTS
Fails (exit 1) when an allocation has a dynamic size, holds more than
MAX_ELEMENTS elements, or when there is no allocation at all (the IR did
not reach bufferization). Prints the allocations it saw, largest first.
"""
import re
import sys

limit = int(sys.argv[1])
allocations = re.findall(
    r"memref\.alloca?\(([^)]*)\)(?: \{[^}]*\})? : memref<([^>]*)>",
    sys.stdin.read())
if not allocations:
    sys.exit("no memref.alloc in the input")
sizes = []
for dynamic, type_text in allocations:
    dims = type_text.split(",")[0].split("x")[:-1]
    if dynamic.strip() or "?" in dims:
        sys.exit(f"dynamic allocation: memref<{type_text}>")
    count = 1
    for d in dims:
        count *= int(d)
    sizes.append((count, type_text))
for count, type_text in sorted(sizes, reverse=True):
    print(f"{count} memref<{type_text}>")
largest = max(sizes)
if largest[0] > limit:
    sys.exit(f"memref<{largest[1]}> holds {largest[0]} elements, "
             f"more than {limit}")
