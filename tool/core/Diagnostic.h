// Findings produced by the match stage and consumed by every report format.
#pragma once

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
