// Findings produced by the match stage and consumed by every report format.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cu2dcu {

enum class Severity { Note, Warning, Error };

inline const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "?";
}

/// A suggested or applied source change attached to a finding.
struct FixIt {
  unsigned Offset = 0; // byte offset in the original file
  unsigned Length = 0;
  std::string Replacement;
  std::string Description;
  bool Applied = false;
};

/// Another place a finding concerns: a use of the constant the finding
/// defines (SARIF relatedLocations), or where a used constant is defined.
struct RelatedLocation {
  std::string File; // as Diagnostic::File
  unsigned Line = 0, Column = 0, Offset = 0;
  std::string CheckId; // a use: the check that reported it; empty for a definition
  std::string Message;
};

struct Diagnostic {
  std::string CheckId; // stable id, e.g. "CU2DCU-UNSUPPORTED" or "W64-MASK32"
  Severity Level = Severity::Warning;
  std::string File;    // path as given on the command line (input side)
  unsigned Line = 0;   // 1-based; 0 when the finding is about the whole file
  unsigned Column = 0; // 1-based byte column
  unsigned Offset = 0; // byte offset, for stable ordering and fingerprints
  std::string Message;
  std::vector<FixIt> Fixes;
  /// Found from the spelling alone (no AST): a guess a reviewer should check.
  bool LowConfidence = false;
  /// The uses folded into a finding at a definition (#define WARP_SIZE 32).
  std::vector<RelatedLocation> Related;
  /// A finding at a use of a named warp constant: where the constant is
  /// defined, when that is in a translated file. Such a finding is folded
  /// into the finding at the definition (see foldIntoDefinitions).
  std::optional<RelatedLocation> Definition;
  /// Why --fix-wave64 did not apply this finding's safe fixes: another finding
  /// of the same lane grouping has none (wave64/Wave64FixGroups.h).
  std::string FixWithheld;

  bool operator<(const Diagnostic &O) const {
    if (File != O.File)
      return File < O.File;
    if (Offset != O.Offset)
      return Offset < O.Offset;
    return CheckId < O.CheckId;
  }
  bool operator==(const Diagnostic &O) const {
    return File == O.File && Offset == O.Offset && CheckId == O.CheckId && Message == O.Message;
  }
};

} // namespace cu2dcu
