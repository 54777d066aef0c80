# The two entry points of the README:
#   make demo   set up, build, compile and run examples/mlp.mlir and
#               examples/transformer_block.mlir, and train
#               examples/train_mlp.mlir for 50 steps with SGD and with Adam
#   make check  set up, build, run every test
BUILD_DIR ?= build
LLVM_DIR ?= /usr/lib/llvm-22
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang -DCMAKE_CXX_COMPILER=$(LLVM_DIR)/bin/clang++ \
  -DLLVM_USE_LINKER=lld -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir

.PHONY: setup configure build check demo clean

setup:
	scripts/setup.sh

$(BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

configure: setup $(BUILD_DIR)/build.ninja

build: configure
	ninja -C $(BUILD_DIR)

check: build
	ninja -C $(BUILD_DIR) check-rlx

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
	rm -rf $(BUILD_DIR)
