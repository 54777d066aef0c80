# The two entry points of the README:
#   make demo   set up, build, compile and run examples/mlp.mlir and
#               examples/transformer_block.mlir, and train
#               examples/train_mlp.mlir for 50 steps with SGD and with Adam
#   make check  set up, build, run every test, and a short fuzzing smoke of
#               the compiler's pipelines under ASan and UBSan
#   make fuzz   fuzz the compiler's pipelines for FUZZ_SECONDS each
BUILD_DIR ?= build
LLVM_DIR ?= /usr/lib/llvm-22
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang -DCMAKE_CXX_COMPILER=$(LLVM_DIR)/bin/clang++ \
  -DLLVM_USE_LINKER=lld -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir

# The fuzzing build: every rlx library with ASan, UBSan, libFuzzer coverage
# and assertions (no NDEBUG: a cast<> to the wrong type is a finding, not
# silent memory reuse). The harness is tools/rlx-opt-fuzz, the driver
# scripts/fuzz-compiler.sh.
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 300
FUZZ_CMAKE_FLAGS ?= '-DLLVM_USE_SANITIZER=Address;Undefined' \
  '-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all' \
  -DLLVM_USE_SANITIZE_COVERAGE=ON '-DCMAKE_CXX_FLAGS_RELEASE=-O2'

.PHONY: setup configure build check demo clean fuzz-build check-fuzz fuzz

setup:
	scripts/setup.sh

$(BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

configure: setup $(BUILD_DIR)/build.ninja

build: configure
	ninja -C $(BUILD_DIR)

check: build
	ninja -C $(BUILD_DIR) check-rlx
	$(MAKE) check-fuzz

$(FUZZ_BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(FUZZ_BUILD_DIR) $(CMAKE_FLAGS) $(FUZZ_CMAKE_FLAGS)

fuzz-build: setup $(FUZZ_BUILD_DIR)/build.ninja
	ninja -C $(FUZZ_BUILD_DIR) rlx-opt-fuzz

check-fuzz: fuzz-build
	FUZZ_BUILD_DIR=$(FUZZ_BUILD_DIR) scripts/fuzz-compiler.sh smoke

fuzz: fuzz-build
	FUZZ_BUILD_DIR=$(FUZZ_BUILD_DIR) scripts/fuzz-compiler.sh run $(FUZZ_SECONDS)

demo: build
	$(BUILD_DIR)/bin/rlx-compile examples/mlp.mlir -o $(BUILD_DIR)/mlp.so
	$(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/mlp.so --list
	$(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/mlp.so --random 0 --bench 200
	$(BUILD_DIR)/bin/rlx-compile examples/transformer_block.mlir -o $(BUILD_DIR)/transformer_block.so
	$(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/transformer_block.so --list
	$(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/transformer_block.so --random 0 --bench 20
	$(BUILD_DIR)/bin/rlx-compile examples/train_mlp.mlir -o $(BUILD_DIR)/train_mlp.so
	/usr/bin/python3 examples/train_mlp.py $(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/train_mlp.so $(BUILD_DIR)/train_mlp
	/usr/bin/python3 examples/train_mlp.py $(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/train_mlp.so $(BUILD_DIR)/train_mlp --optimizer adam

clean:
	rm -rf $(BUILD_DIR) $(FUZZ_BUILD_DIR)
