#include "parse/CudaToolchain.h"
#include "core/Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace cu2dcu {

CudaToolchain CudaToolchain::locate(const std::string &Explicit) {
  auto HasHeaders = [](const std::string &Root) {
    llvm::SmallString<256> Header(Root);
    llvm::sys::path::append(Header, "include", "cuda_runtime.h");
    return llvm::sys::fs::exists(Header);
  };
  std::vector<std::pair<std::string, std::string>> Candidates;
  if (!Explicit.empty())
    Candidates.push_back({Explicit, "--cuda-path"});
  else {
    if (const char *Env = std::getenv("CUDA_PATH"))
      Candidates.push_back({Env, "CUDA_PATH"});
    else
      Candidates.push_back({"/usr/local/cuda", "default location"});
  }
  CudaToolchain T;
  for (const auto &[Path, Source] : Candidates) {
    if (HasHeaders(Path)) {
      T.CudaPath = Path;
      T.Why = Source + " " + Path;
      return T;
    }
    T.Why = "no CUDA headers under " + Path + " (" + Source + ")";
  }
  return T;
}

std::vector<std::string> cudaParseArgs(const CudaToolchain &Toolchain, const std::string &File,
                                       const std::vector<std::string> &UserArgs) {
  // argv[0] must be the installed clang++: the driver derives the resource
  // directory from it, and without lib/clang/22/include/cuda_wrappers CUDA
  // code that uses placement new (Thrust, CUB) does not parse.
  // -fno-caret-diagnostics: clang prints "N errors generated" to stderr after
  // a failed parse unless carets are off; the errors are reported our way.
  // -fno-spell-checking: a name CUDA no longer declares (cusparseScsrmv) must
  // stay unresolved, not become a call of the closest declared name
  // (cusparseScsr2bsr) that the AST would then translate.
  std::vector<std::string> Args = {CU2DCU_CLANG_EXECUTABLE, "-fsyntax-only", "-x", "cuda",
                                   "--cuda-host-only", "-nocudalib", "--cuda-gpu-arch=sm_90",
                                   "-std=c++17", "-Wno-unknown-cuda-version", "-ferror-limit=0",
                                   // nvcc accepts C++17's removed 'register' (it is removed
                                   // in the output: RegisterKeywordTranslator).
                                   "-Wno-register",
                                   "-w", "-fno-caret-diagnostics", "-fno-spell-checking"};
  if (Toolchain.found()) {
    Args.push_back("--cuda-path=" + Toolchain.CudaPath);
    // CUDA 13 moved CUB/Thrust/libcu++ here.
    Args.push_back("-isystem");
    Args.push_back(joinPath(Toolchain.CudaPath, "include/cccl"));
  }
  Args.push_back("-I" + llvm::sys::path::parent_path(File).str());
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());
  Args.push_back(File);
  return Args;
}

} // namespace cu2dcu
