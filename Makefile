# The two entry points of the README:
#   make demo   set up, build, compile and run examples/mlp.mlir and
#               examples/transformer_block.mlir, and train
#               examples/train_mlp.mlir for 50 steps with SGD and with Adam,
#               and data-parallel on 2 MPI processes (rlx-compile --mesh=2,
#               mpirun; docs/distributed.md),
#               decode 32 tokens with examples/decode_loop.mlir (one
#               decoder layer, a KV cache of run-time length), and import a
#               PyTorch model from Python and train it for 20 steps
#               (examples/train_torch.py), and run an int4 MoE decoder
#               layer with top-p sampling (examples/quantized_decoder.mlir),
#               and train an LSTM and a Mamba language model for 20 steps
#               each against PyTorch (examples/lstm_lm.mlir,
#               examples/mamba_block.mlir), and fit a Gaussian process's
#               hyperparameters for 30 Adam steps through its Cholesky
#               factorization, against PyTorch in float64
#               (examples/gaussian_process.mlir), and train an audio
#               classifier for 20 SGD steps through its log-mel front end
#               (rlx.log_mel: FFT, mel filterbank, log) against PyTorch's
#               torch.stft (examples/audio_frontend.mlir)
#   make check  set up, build, run every test: lit (check-rlx), the
#               runtime and rlx-run under ASan+UBSan (check-sanitize), and a
#               fuzzing smoke of the release compiler (check-fuzz-release)
#   make check-fuzz  the same smoke in the sanitized fuzzing build
#   make fuzz   fuzz the compiler's pipelines and the runtime's readers for
#               FUZZ_SECONDS each (fuzz-compiler, fuzz-runtime)
#   make install PREFIX=P  install the headers, libraries, tools, the
#               mlir-opt plugin, the Python package and the CMake package
#               (find_package(RLX)) into P (docs/embedding.md)
#   make bench  the CPU benchmarks (bench/cpu.py): the "CPU (issue 14)"
#               section of docs/benchmarks.md and the plots in docs/bench/;
#               then the data-parallel step on 1 and 2 MPI processes
#               (bench/distributed.py, its own section);
#               BENCH_FLAGS=--quick for a small subset
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

.PHONY: setup configure build check demo clean install check-sanitize check-fuzz \
  check-fuzz-release bench \
  fuzz fuzz-build fuzz-compiler fuzz-runtime

setup:
	scripts/setup.sh

$(BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

configure: setup $(BUILD_DIR)/build.ninja

build: configure
	ninja -C $(BUILD_DIR)

PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

check: build
	ninja -C $(BUILD_DIR) check-rlx
	$(MAKE) check-sanitize check-fuzz-release

# The fuzzing smoke on the release build's harness (seconds): every seed
# through every pipeline, then 300 mutants each, fixed seed. The sanitized
# build (check-fuzz) takes 15 minutes to build on 2 cores, too long for CI.
check-fuzz-release: build
	FUZZ_BUILD_DIR=$(BUILD_DIR) scripts/fuzz-compiler.sh smoke

$(FUZZ_BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(FUZZ_BUILD_DIR) $(CMAKE_FLAGS) $(FUZZ_CMAKE_FLAGS)

fuzz-build: setup $(FUZZ_BUILD_DIR)/build.ninja
	ninja -C $(FUZZ_BUILD_DIR) rlx-opt-fuzz

check-fuzz: fuzz-build
	FUZZ_BUILD_DIR=$(FUZZ_BUILD_DIR) scripts/fuzz-compiler.sh smoke

fuzz-compiler: fuzz-build
	FUZZ_BUILD_DIR=$(FUZZ_BUILD_DIR) scripts/fuzz-compiler.sh run $(FUZZ_SECONDS)

fuzz: fuzz-compiler fuzz-runtime

# The runtime configured on its own (runtime/CMakeLists.txt), with rlx-run
# and the fuzzers, every C file instrumented. Its lit tests run the
# sanitized rlx-run, test binaries and fixtures (lit param rlx_runtime_dir);
# modules are compiled by the release rlx-compile of $(BUILD_DIR), which the
# sanitized rlx-run finds next to itself.
SANITIZE_DIR ?= build-asan
SANITIZE_FLAGS ?= -fsanitize=address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer -g -O1
# LSan stays on: a leak fails the run. Reports abort, so that they also fail
# the tests that expect rlx-run to fail (`not` passes an exit status, not a
# signal). Allocations too large for ASan return NULL, as malloc does, so
# the runtime's out-of-memory paths run.
SANITIZE_ENV ?= \
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1
# The lit tests that run rlx-run or the runtime's test binaries themselves
# (cuda-harness.test runs the release rlx-run from Python).
SANITIZE_LIT_TESTS = Runtime/runtime.test Runtime/rlx-run.test \
  Runtime/cuda-run.test Runtime/cuda-errors.test Tools/rlx-run.test \
  Tools/symbol-names.test
RUNTIME_FUZZERS = npy manifest elf

# OpenBLAS reads its tuning variables when it loads; the benchmarks run
# without this machine's OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE.
BENCH_FLAGS ?=
bench: build
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/cpu.py \
	  --build $(BUILD_DIR) --write docs/benchmarks.md --plots docs/bench \
	  --json docs/bench/cpu.json $(BENCH_FLAGS)
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/distributed.py \
	  --build $(BUILD_DIR) --write docs/benchmarks.md \
	  --json docs/bench/distributed.json $(BENCH_FLAGS)

$(SANITIZE_DIR)/build.ninja:
	cmake -G Ninja -S runtime -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang -DRLX_RUNTIME_FUZZERS=ON \
	  -DCMAKE_C_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCMAKE_SHARED_LINKER_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCMAKE_MODULE_LINKER_FLAGS="$(SANITIZE_FLAGS)"

check-sanitize: build $(SANITIZE_DIR)/build.ninja
	ninja -C $(SANITIZE_DIR)
	ln -sf $(abspath $(BUILD_DIR))/bin/rlx-compile $(SANITIZE_DIR)/bin/rlx-compile
	cd $(SANITIZE_DIR) && $(SANITIZE_ENV) ctest --output-on-failure
	$(SANITIZE_ENV) $(LLVM_DIR)/bin/lit -sv \
	  --param rlx_runtime_dir=$(abspath $(SANITIZE_DIR)) \
	  $(SANITIZE_LIT_TESTS:%=$(BUILD_DIR)/test/%)

fuzz-runtime: $(SANITIZE_DIR)/build.ninja
	ninja -C $(SANITIZE_DIR) $(RUNTIME_FUZZERS:%=rlx-fuzz-%)
	for f in $(RUNTIME_FUZZERS); do \
	  mkdir -p $(SANITIZE_DIR)/fuzz/$$f $(SANITIZE_DIR)/fuzz/artifacts && \
	  $(SANITIZE_ENV) $(SANITIZE_DIR)/bin/rlx-fuzz-$$f \
	    -max_total_time=$(FUZZ_SECONDS) \
	    -dict=runtime/fuzz/$$f.dict \
	    -artifact_prefix=$(SANITIZE_DIR)/fuzz/artifacts/$$f- \
	    $(SANITIZE_DIR)/fuzz/$$f runtime/fuzz/corpus/$$f || exit 1; \
	done

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
	$(BUILD_DIR)/bin/rlx-compile examples/train_mlp.mlir --mesh=2 --data-parallel=train_step:4:5 -o $(BUILD_DIR)/train_mlp_mesh2.so
	/usr/bin/python3 examples/train_mlp.py $(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/train_mlp_mesh2.so $(BUILD_DIR)/train_mlp_mesh2 --processes 2 --check
	$(BUILD_DIR)/bin/rlx-compile examples/decode_loop.mlir -o $(BUILD_DIR)/decode_loop.so
	$(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/decode_loop.so --list
	/usr/bin/python3 examples/decode_loop.py $(BUILD_DIR)/bin/rlx-run $(BUILD_DIR)/decode_loop.so $(BUILD_DIR)/decode_loop --check
	RLX_BUILD_DIR=$(abspath $(BUILD_DIR)) PYTHONPATH=python /usr/bin/python3 examples/train_torch.py --steps 20
	RLX_BUILD_DIR=$(abspath $(BUILD_DIR)) /usr/bin/python3 examples/quantized_decoder.py --check
	RLX_BUILD_DIR=$(abspath $(BUILD_DIR)) /usr/bin/python3 examples/lstm_lm.py --check
	RLX_BUILD_DIR=$(abspath $(BUILD_DIR)) /usr/bin/python3 examples/mamba_block.py --check
	RLX_BUILD_DIR=$(abspath $(BUILD_DIR)) /usr/bin/python3 examples/gaussian_process.py --check
	RLX_BUILD_DIR=$(abspath $(BUILD_DIR)) /usr/bin/python3 examples/audio_frontend.py --check

clean:
	rm -rf $(BUILD_DIR) $(FUZZ_BUILD_DIR) $(SANITIZE_DIR)
