// Word-level translation of nvcc command lines, shared by the Makefile and
// CMake translators: the caller splits its text into words, this decides
// which runs of words become which HIP words, and the caller edits its text.
#pragma once

#include "buildfiles/BuildFlagMap.h"
#include "buildfiles/BuildTranslation.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cu2dcu {

/// Replace words [First, First + Count) by Words (none: remove them).
struct WordEdit {
  size_t First = 0;
  size_t Count = 1;
  std::vector<std::string> Words;
};

/// A finding about one word.
struct WordNote {
  size_t Word = 0;
  Severity Level = Severity::Warning;
  std::string Message;
};

struct WordTranslation {
  std::vector<WordEdit> Edits; // ascending, non-overlapping
  std::vector<WordNote> Notes;
};

class NvccFlagTranslator {
public:
  NvccFlagTranslator(const BuildFlagMap &Map, const BuildOptions &Opts) : Map(Map), Opts(Opts) {}

  /// Translates the nvcc flags, -l libraries and CUDA toolkit paths among
  /// Words. Only the first GPU-target flag becomes --offload-arch options;
  /// later ones are dropped (ArchDone carries that across calls).
  WordTranslation translate(const std::vector<std::string> &Words, bool &ArchDone) const;

  /// The HIP driver for a compiler word (nvcc, /usr/local/cuda/bin/nvcc,
  /// $(CUDA_PATH)/bin/nvcc), or null when the word is not a CUDA compiler.
  const std::string *hipCompiler(llvm::StringRef Word) const;
  /// Whether Words hold a flag only nvcc has (-arch=..., -Xcompiler, ...).
  bool hasDistinctiveFlag(const std::vector<std::string> &Words) const;
  /// A library rule for a plain name (cublas) or its -l form.
  const NameRule *libraryRule(llvm::StringRef Word) const;
  /// HIP words that a link line needs once a compile line has them (-fgpu-rdc).
  const std::vector<std::string> &linkRequires() const { return Map.linkRequires(); }
  /// The --offload-arch words for the options' targets.
  std::vector<std::string> offloadArchFlags() const;

private:
  struct FlagUse {
    const NvccFlagRule *Rule = nullptr;
    std::string Value;
    std::string Spelling; // the flag word as written
    size_t Count = 1; // words the flag and its value take
  };
  FlagUse parseFlag(const std::vector<std::string> &Words, size_t I) const;
  void applyFlag(const FlagUse &U, size_t I, bool &ArchDone, WordTranslation &Out) const;
  bool translatePath(llvm::StringRef Word, size_t I, WordTranslation &Out) const;
  /// The part of a path after a CUDA toolkit root, or none.
  std::optional<llvm::StringRef> underToolkitRoot(llvm::StringRef Path) const;

  const BuildFlagMap &Map;
  const BuildOptions &Opts;
};

/// Words after the translation's edits.
std::vector<std::string> applyWordTranslation(const std::vector<std::string> &Words,
                                              const WordTranslation &T);

/// Splits a comma-separated -Xcompiler value into words, dropping quotes.
std::vector<std::string> splitHostOptions(llvm::StringRef Value);

} // namespace cu2dcu
