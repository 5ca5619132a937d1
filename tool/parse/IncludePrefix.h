// Finds the #include lines a translation unit starts with, so that units
// starting with the same ones can load those headers from one precompiled
// header (SharedPch.h) instead of parsing them again.
//
// The scan is lexical and conservative: it reads the unit's leading lines
// and stops at the first one that is not a comment, a blank line or an
// #include of a plain <name> or "name". A "name" found in the unit's
// directory or its -iquote/-I directories (as clang searches them) is a
// project header and is recorded by its real path; any other name is left to
// the compiler's search, as <name>. Nothing precedes these lines in the
// unit but the compiler's own predefines and -include files, which the PCH
// is built with too, so a PCH of exactly these #includes holds what the
// unit's first lines would have produced.
//
// Whether clang really resolves and skips these directives as assumed is
// checked while the unit is parsed with the PCH (PrefixCheck); when it does
// not, the unit is parsed again without it.
#pragma once

#include <string>
#include <vector>

namespace cu2dcu {

struct PrefixInclude {
  /// The operand for the PCH's header: "<name>", or "\"/path/as/found\"" for
  /// a project header.
  std::string Spelling;
  /// What units must agree on to share a PCH: "<name>", or the real path of
  /// a project header in quotes (one header may be found by several paths).
  std::string Key;
  unsigned Offset = 0; // of the line's '#' in the unit
};

struct IncludePrefix {
  std::vector<PrefixInclude> Includes; // in order
};

/// Scans MainFile (its real path; Text is its content). UserFlags are the
/// unit's compile flags (portableCompileFlags): their -iquote/-I directories
/// are searched after MainFile's own directory, as cudaParseArgs arranges.
/// Units whose flags hold -include get no prefix.
IncludePrefix scanIncludePrefix(const std::string &MainFile, const std::string &Text,
                                const std::vector<std::string> &UserFlags);

} // namespace cu2dcu
