// Finds the CUDA installation and builds the clang arguments that parse a
// file as CUDA (host side, which still sees every kernel body).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cu2dcu {

struct CudaToolchain {
  std::string CudaPath; // empty when no CUDA headers were found
  std::string Why;      // how it was found, or why not

  /// --cuda-path, then $CUDA_PATH, then /usr/local/cuda; a path counts only
  /// when include/cuda_runtime.h exists under it.
  static CudaToolchain locate(const std::string &Explicit);
  bool found() const { return !CudaPath.empty(); }
};

/// Arguments for one file. UserArgs come from the compilation database
/// (portableCompileFlags: include paths, macros and the language standard)
/// or after `--`.
std::vector<std::string> cudaParseArgs(const CudaToolchain &Toolchain, const std::string &File,
                                       const std::vector<std::string> &UserArgs);

} // namespace cu2dcu
