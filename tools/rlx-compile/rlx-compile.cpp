//===- rlx-compile.cpp - Compile an rlx module to a shared object ---------===//
//
// rlx-compile IN.mlir -o OUT.so: runs the rlx CPU pipeline, translates to
// LLVM IR, optimizes and emits an object file in-process with LLVM, then
// links it into a shared object with the C driver found at configure time
// (clang-22 by default). The result exports `rlx_manifest` and one
// `rlx_invoke_<name>` per public function and nothing else: every other
// symbol is made internal before optimization, and the link's version
// script keeps even the linker's own symbols local (docs/runtime.md).
//
// With --target=cuda the GPU pipeline runs instead: kernels become PTX for
// --chip, embedded in the host module, which launches them through MLIR's
// mgpu* functions; the runtime provides those, so the shared object loads
// like a CPU module. --emit=ptx writes the PTX itself (docs/gpu.md).
//
//===----------------------------------------------------------------------===//
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "rlx/InitRlx.h"
#include "rlx/Pipelines/Pipelines.h"
#include "rlx/Transforms/Passes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class EmitKind { SharedObject, Object, LLVMIR, MLIR, PTX };
enum class Target { Cpu, Cuda };

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                               cl::Required);
cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                cl::value_desc("path"), cl::Required);
// -O2 by measurement (docs/benchmarks.md): the pipeline vectorizes and
// tiles before LLVM sees the code, and -O3 ran no row of `make bench`
// measurably faster while compiling a 12-layer transformer 5x slower.
cl::opt<unsigned> optLevel("O",
                           cl::desc("LLVM optimization level (0-3, default 2)"),
                           cl::Prefix, cl::init(2));
cl::opt<std::string> targetCpu(
    "mcpu", cl::desc("Target CPU (default: the host CPU)"),
    cl::init(""));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(EmitKind::SharedObject),
    cl::values(clEnumValN(EmitKind::SharedObject, "so", "shared object"),
               clEnumValN(EmitKind::Object, "obj", "object file"),
               clEnumValN(EmitKind::LLVMIR, "llvm", "optimized LLVM IR"),
               clEnumValN(EmitKind::MLIR, "mlir",
                          "the LLVM dialect after the pipeline"),
               clEnumValN(EmitKind::PTX, "ptx",
                          "the kernels' PTX (--target=cuda), each module "
                          "after a `//--- NAME.ptx` line")));
cl::opt<Target> target(
    "target", cl::desc("What the module runs on"), cl::init(Target::Cpu),
    cl::values(clEnumValN(Target::Cpu, "cpu", "the host CPU"),
               clEnumValN(Target::Cuda, "cuda",
                          "NVIDIA GPUs: PTX kernels launched by host code")));
cl::opt<std::string> chip("chip",
                          cl::desc("GPU architecture for --target=cuda"),
                          cl::init("sm_80"));
cl::opt<std::string> ptxFeatures(
    "ptx-features", cl::desc("NVPTX features for --target=cuda (PTX ISA)"),
    cl::init("+ptx80"));
cl::opt<std::string> cudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit whose libdevice kernels link (--target=cuda)"),
    cl::init(""));
cl::opt<int64_t> gpuBlockSize(
    "gpu-block-size", cl::desc("Threads per block for --target=cuda"),
    cl::init(256));
cl::opt<int64_t> gpuMaxBlocks(
    "gpu-max-blocks",
    cl::desc("Most blocks of an elementwise kernel for --target=cuda"),
    cl::init(1024));
cl::OptionCategory fusionCategory("Fusion stages (each on by default)");
cl::opt<bool> noFuse("no-fuse",
                     cl::desc("Disable every fusion stage below"),
                     cl::init(false), cl::cat(fusionCategory));
cl::opt<bool> noFusePatterns(
    "no-fuse-patterns",
    cl::desc("Keep named patterns as separate ops (no rlx-fuse-patterns)"),
    cl::init(false), cl::cat(fusionCategory));
cl::opt<bool> noFormRegions(
    "no-form-regions",
    cl::desc("Lower each rlx op on its own (no rlx-form-regions)"),
    cl::init(false), cl::cat(fusionCategory));
cl::opt<bool> noFuseElementwise(
    "no-fuse-elementwise",
    cl::desc("Keep producer/consumer linalg generics apart (no "
             "rlx-fuse-elementwise)"),
    cl::init(false), cl::cat(fusionCategory));
cl::opt<bool> noFuseEpilogues(
    "no-fuse-epilogues",
    cl::desc("Run contraction and reduction epilogues after the whole op, "
             "not per tile (rlx-tile-and-fuse=fuse-epilogues=false; CPU "
             "only)"),
    cl::init(false), cl::cat(fusionCategory));
cl::opt<bool> strictFp(
    "strict-fp",
    cl::desc("Round every multiply and add as written (no fused "
             "multiply-adds in elementwise code), so that fused and unfused "
             "code give the same bits; CPU only"),
    cl::init(false));
cl::opt<bool> noSplitReductions(
    "no-split-reductions",
    cl::desc("Sum float reductions sequentially (no rlx-split-reductions; "
             "CPU only)"),
    cl::init(false));
cl::opt<int64_t> attentionQueryTile(
    "attention-query-tile",
    cl::desc("Queries per rlx.attention tile (default: 64 on the CPU, 32 "
             "with --target=cuda)"),
    cl::init(64));
cl::opt<int64_t> attentionKeyTile(
    "attention-key-tile",
    cl::desc("Keys per rlx.attention tile (default: 64 on the CPU, 32 with "
             "--target=cuda)"),
    cl::init(64));
cl::opt<std::string> gpuBlocksOnCpu(
    "gpu-blocks-on-cpu",
    cl::desc("Test mode: run the GPU's block-per-tile kernels (attention) on "
             "the CPU, threads taking turns between barriers in this order: "
             "ascending or descending"),
    cl::init(""));
cl::opt<bool> gpuTilingOnCpu(
    "gpu-tiling-on-cpu",
    cl::desc("Test mode: run matmuls on the CPU tiled as for the GPU"),
    cl::init(false));
cl::list<std::string> specialize(
    "specialize",
    cl::desc("NAME=VALUE[,...]: compile with the `?` size the manifest names "
             "NAME fixed to VALUE (rlx-run --list shows the names)"),
    cl::CommaSeparated);
cl::list<std::string> linkFiles(
    "link",
    cl::desc("An object file, archive or shared library to link into the "
             "module: the C functions its rlx.custom_calls call"),
    cl::value_desc("path"));
cl::list<int64_t> mesh(
    "mesh",
    cl::desc("N[,M...]: compile one module that runs once per process of an "
             "N (x M ...) mesh, under mpirun (docs/distributed.md)"),
    cl::CommaSeparated);
cl::list<std::string> dataParallel(
    "data-parallel",
    cl::desc("FUNC:ARG[:ARG...]: split dimension 0 of those arguments of FUNC "
             "over the mesh (data parallelism); others stay whole"),
    cl::value_desc("spec"));
cl::opt<bool> kernelReport(
    "kernel-report",
    cl::desc("Remark how many loop nests each function has after fusion"),
    cl::init(false));
} // namespace

static int fail(const llvm::Twine &message) {
  llvm::errs() << "rlx-compile: error: " << message << "\n";
  return 1;
}

/// The symbols a module exports: the runtime's ABI (docs/runtime.md).
static bool isAbiSymbol(StringRef name) {
  return name == "rlx_manifest" || name.starts_with("rlx_invoke_") ||
         name.starts_with("rlx_mesh_") ||
         name.starts_with(mlir::rlx::kCustomCallSymbolPrefix);
}

/// The version script of the link: the ABI symbols global, all else local.
static constexpr StringLiteral kVersionScript =
    "{\n  global: rlx_manifest; rlx_invoke_*; rlx_custom_*; rlx_mesh_*;\n"
    "  local: *;\n};\n";

/// Checks a CPU (`cpuFlag`) and a feature list (`featuresFlag`, `+a,-b`)
/// against the tables of `triple`'s target before anything is compiled:
/// LLVM itself only warns about names it does not know, then ignores them or
/// fails in code generation.
static bool isKnownSubtarget(const llvm::Triple &triple, StringRef cpu,
                             StringRef cpuFlag, StringRef features,
                             StringRef featuresFlag, std::string &error) {
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, /*CPU=*/"", /*Features=*/""));
  if (!info) {
    error = "cannot describe the subtargets of " + triple.str();
    return false;
  }
  llvm::raw_string_ostream os(error);
  auto printKeys = [&](auto table) {
    llvm::interleaveComma(table, os, [&](const auto &kv) { os << kv.Key; });
  };
  if (!cpu.empty() && !info->isCPUStringValid(cpu)) {
    os << "unknown " << cpuFlag << " '" << cpu << "' for " << triple.str()
       << "; valid names are: ";
    printKeys(info->getAllProcessorDescriptions());
    return false;
  }
  SmallVector<StringRef> requested;
  features.split(requested, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef feature : requested) {
    StringRef name = feature.trim();
    if ((name.consume_front("+") || name.consume_front("-")) &&
        llvm::is_contained(
            llvm::map_range(info->getAllProcessorFeatures(),
                            [](const llvm::SubtargetFeatureKV &kv) {
                              return StringRef(kv.Key);
                            }),
            name))
      continue;
    os << "unknown " << featuresFlag << " entry '" << feature << "' for "
       << triple.str() << " (each is +NAME or -NAME); valid names are: ";
    printKeys(info->getAllProcessorFeatures());
    return false;
  }
  return true;
}

/// The width of the widest vector registers the target machine has, which
/// the codegen layer's register tiles are sized for.
static int64_t getVectorBits(const llvm::TargetMachine &machine) {
  const llvm::MCSubtargetInfo *info = machine.getMCSubtargetInfo();
  if (info->checkFeatures("+avx512f"))
    return 512;
  if (info->checkFeatures("+avx"))
    return 256;
  return 128;
}

static std::unique_ptr<llvm::TargetMachine>
createHostTargetMachine(std::string &error) {
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  std::string cpu = targetCpu.empty() ? llvm::sys::getHostCPUName().str()
                                      : targetCpu.getValue();
  llvm::SubtargetFeatures features;
  if (targetCpu.empty())
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features.AddFeature(feature.first(), feature.second);
  llvm::CodeGenOptLevel level = optLevel == 0   ? llvm::CodeGenOptLevel::None
                                : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                : optLevel == 2
                                    ? llvm::CodeGenOptLevel::Default
                                    : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features.getString(), llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    error = "cannot create a target machine for " + triple.str() + " / " + cpu;
  return machine;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // For checking --chip and --ptx-features; gpu-module-to-binary
  // initializes the rest of the NVPTX target itself.
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  // --mlir-print-ir-after=PASS and friends: the IR between stages, with the
  // passes known by name.
  registerAllPasses();
  rlx::registerRlxPasses();
  registerPassManagerCLOptions();
  // --mlir-disable-threading: the per-function IR dumps above come out in
  // the order of the functions only when passes run on one thread.
  registerMLIRContextCLOptions();
  // --mlir-timing: the pipeline's passes and the LLVM stages after it.
  registerDefaultTimingManagerCLOptions();
  cl::ParseCommandLineOptions(argc, argv, "rlx module compiler\n");
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel) + " is not in 0..3");
  if (std::string error;
      !isKnownSubtarget(llvm::Triple(llvm::sys::getDefaultTargetTriple()),
                        targetCpu, "--mcpu", "", "", error) ||
      (target == Target::Cuda &&
       !isKnownSubtarget(llvm::Triple("nvptx64-nvidia-cuda"), chip, "--chip",
                         ptxFeatures, "--ptx-features", error)))
    return fail(error);

  DialectRegistry registry;
  rlx::registerRlxDialects(registry);
  MLIRContext context(registry);
  // Diagnostics point at the user's source; a dump of the op in generic form
  // would only bury them.
  context.printOpOnDiagnostic(false);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  if (!linkFiles.empty() && emitKind != EmitKind::SharedObject)
    return fail("--link links a shared object (--emit=so)");
  if (emitKind == EmitKind::PTX && target != Target::Cuda)
    return fail("--emit=ptx needs --target=cuda");
  if (!gpuBlocksOnCpu.empty() && target == Target::Cuda)
    return fail("--gpu-blocks-on-cpu runs GPU kernels on the CPU: it needs "
                "--target=cpu");
  if (target == Target::Cuda && (!mesh.empty() || !dataParallel.empty()))
    return fail("--mesh and --data-parallel compile modules that run over "
                "MPI on CPUs: they need --target=cpu");
  if (!dataParallel.empty() && mesh.empty())
    return fail("--data-parallel splits arguments over a mesh: give its "
                "shape with --mesh");
  if (target == Target::Cuda && (noFuseEpilogues || noSplitReductions ||
                                 strictFp))
    return fail(llvm::Twine(noFuseEpilogues     ? "--no-fuse-epilogues"
                            : noSplitReductions ? "--no-split-reductions"
                                                : "--strict-fp") +
                " is a stage of the CPU pipeline only: it needs "
                "--target=cpu");
  // The host code's target, whose vector width the CPU pipeline tiles for.
  std::unique_ptr<llvm::TargetMachine> machine = createHostTargetMachine(error);
  if (!machine)
    return fail(error);
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTiming = timing.getRootScope();
  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return fail("invalid pass manager options");
  TimingScope pipelineTiming = rootTiming.nest("rlx pipeline");
  pm.enableTiming(pipelineTiming);
  if (target == Target::Cuda) {
    rlx::GpuPipelineOptions pipelineOptions;
    pipelineOptions.chip = chip;
    pipelineOptions.features = ptxFeatures;
    pipelineOptions.blockSize = gpuBlockSize;
    pipelineOptions.maxBlocks = gpuMaxBlocks;
    pipelineOptions.cudaPath = cudaPath;
    pipelineOptions.specialize = specialize;
    pipelineOptions.fusePatterns = !noFuse && !noFusePatterns;
    pipelineOptions.formRegions = !noFuse && !noFormRegions;
    pipelineOptions.fuseElementwise = !noFuse && !noFuseElementwise;
    // The tile sizes' defaults differ between the targets.
    if (attentionQueryTile.getNumOccurrences())
      pipelineOptions.attentionQueryTile = attentionQueryTile;
    if (attentionKeyTile.getNumOccurrences())
      pipelineOptions.attentionKeyTile = attentionKeyTile;
    rlx::buildGpuPipeline(pm, pipelineOptions);
  } else {
    rlx::CpuPipelineOptions pipelineOptions;
    pipelineOptions.vectorBits = getVectorBits(*machine);
    pipelineOptions.specialize = specialize;
    pipelineOptions.fusePatterns = !noFuse && !noFusePatterns;
    pipelineOptions.formRegions = !noFuse && !noFormRegions;
    pipelineOptions.fuseElementwise = !noFuse && !noFuseElementwise;
    pipelineOptions.fuseEpilogues = !noFuse && !noFuseEpilogues;
    pipelineOptions.splitReductions = !noSplitReductions;
    pipelineOptions.strictFp = strictFp;
    pipelineOptions.kernelReport = kernelReport;
    pipelineOptions.gpuTiledContractions = gpuTilingOnCpu;
    pipelineOptions.gpuBlocksOnCpu = gpuBlocksOnCpu;
    pipelineOptions.attentionQueryTile = attentionQueryTile;
    pipelineOptions.attentionKeyTile = attentionKeyTile;
    pipelineOptions.mesh = mesh;
    pipelineOptions.dataParallel = dataParallel;
    rlx::buildCpuPipeline(pm, pipelineOptions);
  }
  if (failed(pm.run(*module)))
    return 1;
  pipelineTiming.stop();
  // A mesh module calls MPI (rlx-emit-mesh-entry-points).
  bool callsMpi = module->lookupSymbol("rlx_mesh_start") != nullptr;
  if (callsMpi && StringRef(RLX_MPI_LIBRARY).empty() &&
      emitKind == EmitKind::SharedObject)
    return fail("the module runs on a mesh, but this rlx-compile was built "
                "without MPI to link it with (install libopenmpi-dev: make "
                "setup, then reconfigure)");

  auto writeOutput = [&](llvm::function_ref<void(llvm::raw_ostream &)> emit,
                         StringRef path) -> bool {
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
    if (!file)
      return false;
    emit(file->os());
    file->keep();
    return true;
  };
  if (emitKind == EmitKind::PTX)
    return writeOutput(
               [&](llvm::raw_ostream &os) {
                 module->walk([&](gpu::BinaryOp binary) {
                   for (Attribute attr : binary.getObjects()) {
                     auto object = cast<gpu::ObjectAttr>(attr);
                     os << "//--- " << binary.getSymName() << ".ptx\n"
                        << object.getObject().getValue().rtrim('\0');
                   }
                 });
               },
               outputFile)
               ? 0
               : fail(error);
  if (emitKind == EmitKind::MLIR)
    return writeOutput([&](llvm::raw_ostream &os) { module->print(os); },
                       outputFile)
               ? 0
               : fail(error);

  TimingScope translateTiming = rootTiming.nest("translate to LLVM IR");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, inputFile);
  translateTiming.stop();
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(machine->getTargetTriple());
  // A program's functions, the kernels' binaries and loaders are the
  // module's own: internal, so that no call in or out of the module binds
  // to a same-named symbol of the process (libc's `free`, the runtime's).
  llvm::internalizeModule(*llvmModule, [](const llvm::GlobalValue &value) {
    return isAbiSymbol(value.getName());
  });
  // The C functions of rlx.custom_calls: weak declarations
  // (rlx-emit-invoke-wrappers) that --link files define.
  SmallVector<std::string> customFunctions;
  for (const llvm::Function &function : *llvmModule)
    if (function.isDeclaration() && function.hasExternalWeakLinkage() &&
        function.getName().starts_with("_mlir_ciface_"))
      customFunctions.push_back(function.getName().str());
  TimingScope optimizeTiming = rootTiming.nest("LLVM optimization");
  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                            machine.get());
  if (llvm::Error err = optimize(llvmModule.get()))
    return fail("LLVM optimization failed: " +
                llvm::toString(std::move(err)));
  optimizeTiming.stop();
  if (emitKind == EmitKind::LLVMIR)
    return writeOutput([&](llvm::raw_ostream &os) { llvmModule->print(os, nullptr); },
                       outputFile)
               ? 0
               : fail(error);

  // Object file: the output itself, or a temporary to link.
  llvm::SmallString<128> objectPath(outputFile);
  if (emitKind == EmitKind::SharedObject) {
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "rlx-module", "o", fd, objectPath))
      return fail("cannot create a temporary object file: " + ec.message());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  llvm::FileRemover removeObject(
      objectPath, emitKind == EmitKind::SharedObject);
  {
    std::unique_ptr<llvm::ToolOutputFile> object =
        openOutputFile(objectPath, &error);
    if (!object)
      return fail(error);
    TimingScope codegenTiming = rootTiming.nest("LLVM code generation");
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, object->os(), nullptr,
                                     llvm::CodeGenFileType::ObjectFile))
      return fail("the target cannot emit object files");
    codegen.run(*llvmModule);
    object->keep();
  }
  if (emitKind == EmitKind::Object)
    return 0;

  llvm::SmallString<128> versionScriptPath;
  int versionScriptFd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "rlx-module", "map", versionScriptFd, versionScriptPath))
    return fail("cannot create a temporary version script: " + ec.message());
  llvm::FileRemover removeVersionScript(versionScriptPath);
  {
    llvm::raw_fd_ostream script(versionScriptFd, /*shouldClose=*/true);
    script << kVersionScript;
    script.close();
    if (std::error_code ec = script.error()) {
      script.clear_error();
      return fail(llvm::Twine("cannot write the version script ") +
                  versionScriptPath +
                  ": " + ec.message());
    }
  }
  std::string versionScriptFlag =
      (llvm::Twine("-Wl,--version-script=") + versionScriptPath).str();
  // libomp only when the module has OpenMP loops; compiler-rt's builtins
  // for the soft-float helpers (bf16 conversions) the host's libgcc may lack.
  SmallVector<std::string> linkArgStorage = {
      RLX_LINKER_DRIVER, "-shared", "-o", outputFile, objectPath.str().str()};
  // The custom functions' references are weak (a module linked without
  // them loads, and the runtime names what is missing), but a weak
  // reference does not pull a member out of an archive: with --link files,
  // --undefined makes it, and then the link must define them (below).
  if (!linkFiles.empty())
    for (StringRef function : customFunctions)
      linkArgStorage.push_back(("-Wl,--undefined=" + function).str());
  llvm::append_range(linkArgStorage, linkFiles);
  if (callsMpi)
    linkArgStorage.push_back(RLX_MPI_LIBRARY);
  linkArgStorage.append({RLX_COMPILER_RT_BUILTINS, "-Wl,--as-needed", "-lomp",
                         "-lm", versionScriptFlag});
  SmallVector<llvm::StringRef> linkArgs(linkArgStorage.begin(),
                                        linkArgStorage.end());
  std::string linkError;
  TimingScope linkTiming = rootTiming.nest("link");
  int status = llvm::sys::ExecuteAndWait(RLX_LINKER_DRIVER, linkArgs,
                                         std::nullopt, {}, 0, 0, &linkError);
  if (status != 0)
    return fail(llvm::Twine("linking with ") + RLX_LINKER_DRIVER +
                " failed" + (linkError.empty() ? "" : ": " + linkError));
  if (linkFiles.empty())
    return 0;
  llvm::Expected<llvm::object::OwningBinary<llvm::object::ObjectFile>> linked =
      llvm::object::ObjectFile::createObjectFile(outputFile);
  if (!linked)
    return fail("cannot read the linked module: " +
                llvm::toString(linked.takeError()));
  for (const llvm::object::SymbolRef &symbol : linked->getBinary()->symbols()) {
    llvm::Expected<StringRef> name = symbol.getName();
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    if (!name || !flags) {
      llvm::consumeError(name.takeError());
      llvm::consumeError(flags.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) &&
        llvm::is_contained(customFunctions, *name)) {
      llvm::sys::fs::remove(outputFile);
      return fail("the --link files do not define the C function '" +
                  name->drop_front(StringRef("_mlir_ciface_").size()) +
                  "' of an rlx.custom_call (" + *name + ")");
    }
  }
  return 0;
}
