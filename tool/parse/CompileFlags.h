// The flags of a compile command that mean the same to clang's CUDA parse:
// include paths, macros, forced includes and the language standard. The
// command is read with clang's driver option table, after nvcc's own options
// are taken out: clang does not know them, or reads them otherwise (`-G` is
// a MIPS option there that takes the next word as its value).
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace cu2dcu {

/// nvcc's options by spelling without dashes ("G", "arch", "Xcompiler"):
/// whether each takes a value (mappings/buildfiles/nvcc-flags.yaml).
using NvccOptionNames = std::map<std::string, bool, std::less<>>;

/// -I/-D/-U/-std/-include/-isystem/-iquote of CommandLine (argv[0] is the
/// compiler), in order, each as one word ("-I/abs/inc", "-DX=1") except
/// -include/-isystem/-iquote and their path; relative paths are made
/// absolute against Directory. Standards older than C++17 become C++17
/// (CUDA 13's CCCL headers need it).
std::vector<std::string> portableCompileFlags(llvm::ArrayRef<std::string> CommandLine,
                                              llvm::StringRef Directory,
                                              const NvccOptionNames &Nvcc);

/// The path options of a command, as the compiler reads them.
enum class PathFlag { Include /* -I */, System /* -isystem */, Quote /* -iquote */,
                      Forced /* -include */ };

/// Calls Visit(Kind, Value) for each path option of Flags, joined (-Iinc) or
/// separate (-I inc), as clang's driver option table reads them.
void forEachPathFlag(llvm::ArrayRef<std::string> Flags,
                     llvm::function_ref<void(PathFlag, llvm::StringRef)> Visit);

} // namespace cu2dcu
