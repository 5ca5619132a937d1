// Stage 1: find the inputs. Turns the command line (files, directories, a
// compilation database) into the list of files to translate or copy, each
// with its output path and compile flags.
#pragma once

#include "core/Backup.h"
#include "core/InputFile.h"
#include "parse/CompileFlags.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cu2dcu {

struct DiscoveryRequest {
  std::vector<std::string> Inputs;
  std::string Output;     // -o; may be empty for --dry-run / --diff
  std::string BuildPath;  // -p
  /// --root: the project root of -p without inputs (default: the common
  /// ancestor of the database's files and the project headers they reach).
  std::string Root;
  /// Folders whose headers are never the project's (the CUDA toolkit): -p
  /// does not port what the database's files include from there.
  std::vector<std::string> SystemRoots;
  std::vector<std::string> ExtraArgs; // after `--`
  /// nvcc's options, taken out of the database's commands before clang's
  /// option table reads them (empty without mappings/buildfiles).
  NvccOptionNames NvccOptions;
  /// --in-place: every file is its own output (Output = Source); backups
  /// (*.cu2dcu-orig) and leftover temporaries are not inputs.
  bool InPlace = false;
};

/// Something under an input directory that is neither translated nor copied,
/// with the reason (a FIFO, a socket, a link to a directory, a link loop).
struct SkippedInput {
  std::string Display;
  std::string Reason;
};

struct Discovery {
  std::string Root; // common input root (absolute); -p: the project root
  /// The folder the tree is written to (the root itself --in-place); empty
  /// for one file or without output.
  std::string OutputRoot;
  std::vector<InputFile> Files; // sorted by Display
  std::vector<SkippedInput> Skipped; // sorted by Display
};

/// Translated extensions: CUDA and C/C++ sources and headers.
bool isTranslatableName(const std::string &Path);
bool isHeaderName(const std::string &Path);

llvm::Expected<Discovery> discoverInputs(const DiscoveryRequest &Request);

/// Reads an input file whole. Anything but a regular file is refused (a FIFO
/// would block the run), and so is a file that changes type after discovery.
/// Honours the test-only CU2DCU_TEST_FAULT=read:... (core/FaultInjection.h).
llvm::Expected<std::string> readInputFile(const std::string &Path);

} // namespace cu2dcu
