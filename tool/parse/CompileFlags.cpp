#include "parse/CompileFlags.h"

#include "clang/Options/Options.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/Path.h"

#include <optional>

namespace cu2dcu {

namespace {

namespace opts = clang::options;

/// The words of CommandLine after argv[0], without nvcc's options and their
/// values (joined with '=' or the next word). An nvcc option that clang
/// keeps as portable (-std) stays.
std::vector<std::string> withoutNvccOptions(llvm::ArrayRef<std::string> CommandLine,
                                            const NvccOptionNames &Nvcc) {
  std::vector<std::string> Kept;
  for (size_t I = 1; I < CommandLine.size(); ++I) {
    llvm::StringRef Word = CommandLine[I];
    auto [Name, Value] = Word.ltrim('-').split('=');
    auto Option = Nvcc.find(Name);
    if (!Word.starts_with("-") || Option == Nvcc.end() || Name == "std") {
      Kept.push_back(Word.str());
      continue;
    }
    if (Option->second && !Word.contains('='))
      ++I; // the value is the next word
  }
  return Kept;
}

std::string absoluteIn(llvm::StringRef Directory, llvm::StringRef Path) {
  if (llvm::sys::path::is_absolute(Path) || Directory.empty())
    return Path.str();
  llvm::SmallString<256> Joined(Directory);
  llvm::sys::path::append(Joined, Path);
  return Joined.str().str();
}

/// Words read with clang's driver option table; the arguments point into
/// Words, which must outlive them.
llvm::opt::InputArgList parsedAsClang(llvm::ArrayRef<std::string> Words) {
  std::vector<const char *> Argv;
  for (const std::string &W : Words)
    Argv.push_back(W.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  return clang::getDriverOptTable().ParseArgs(Argv, MissingIndex, MissingCount,
                                              llvm::opt::Visibility(opts::ClangOption));
}

std::optional<PathFlag> pathFlagOf(const llvm::opt::Option &O) {
  switch (O.getID()) {
  case opts::OPT_I:
    return PathFlag::Include;
  case opts::OPT_isystem:
    return PathFlag::System;
  case opts::OPT_iquote:
    return PathFlag::Quote;
  case opts::OPT_include:
    return PathFlag::Forced;
  default:
    return std::nullopt;
  }
}

bool olderThanCxx17(llvm::StringRef Standard) {
  for (const char *Old : {"98", "03", "0x", "11", "1y", "14"})
    if (Standard.ends_with(Old))
      return true;
  return !Standard.contains("++");
}

} // namespace

std::vector<std::string> portableCompileFlags(llvm::ArrayRef<std::string> CommandLine,
                                              llvm::StringRef Directory,
                                              const NvccOptionNames &Nvcc) {
  std::vector<std::string> Words = withoutNvccOptions(CommandLine, Nvcc);
  llvm::opt::InputArgList Args = parsedAsClang(Words);
  std::vector<std::string> Flags;
  for (const llvm::opt::Arg *A : Args) {
    llvm::StringRef Value = A->getNumValues() ? A->getValue() : "";
    switch (A->getOption().getID()) {
    case opts::OPT_I:
      Flags.push_back("-I" + absoluteIn(Directory, Value));
      break;
    case opts::OPT_D:
      Flags.push_back(("-D" + Value).str());
      break;
    case opts::OPT_U:
      Flags.push_back(("-U" + Value).str());
      break;
    case opts::OPT_std_EQ:
      Flags.push_back(olderThanCxx17(Value) ? "-std=c++17" : ("-std=" + Value).str());
      break;
    case opts::OPT_include:
    case opts::OPT_isystem:
    case opts::OPT_iquote:
      // The option's own name: an alias (--include=) reads as the option.
      Flags.push_back(("-" + A->getOption().getName()).str());
      Flags.push_back(absoluteIn(Directory, Value));
      break;
    default:
      break;
    }
  }
  return Flags;
}

void forEachPathFlag(llvm::ArrayRef<std::string> Flags,
                     llvm::function_ref<void(PathFlag, llvm::StringRef)> Visit) {
  llvm::opt::InputArgList Args = parsedAsClang(Flags);
  for (const llvm::opt::Arg *A : Args)
    if (std::optional<PathFlag> Kind = pathFlagOf(A->getOption()); Kind && A->getNumValues() == 1)
      Visit(*Kind, A->getValue());
}

} // namespace cu2dcu
