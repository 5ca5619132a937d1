// Stage 1: find the inputs. Turns the command line (files, directories, a
// compilation database) into the list of files to translate or copy, each
// with its output path and compile flags.
#pragma once

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cu2dcu {

enum class FileAction { Translate, Copy };

struct InputFile {
  std::string Source;  // absolute, symlinks resolved
  std::string Display; // as shown to the user: relative to the input root
  std::string Output;  // absolute output path; empty when not writing
  FileAction Action = FileAction::Copy;
  bool IsHeader = false;
  std::vector<std::string> CompileFlags; // portable flags from the database or `--`
};

struct DiscoveryRequest {
  std::vector<std::string> Inputs;
  std::string Output;     // -o; may be empty for --dry-run / --diff
  std::string BuildPath;  // -p
  std::vector<std::string> ExtraArgs; // after `--`
};

struct Discovery {
  std::string Root; // common input root (absolute)
  std::vector<InputFile> Files; // sorted by Display
};

/// Translated extensions: CUDA and C/C++ sources and headers.
bool isTranslatableName(const std::string &Path);
bool isHeaderName(const std::string &Path);

llvm::Expected<Discovery> discoverInputs(const DiscoveryRequest &Request);

} // namespace cu2dcu
