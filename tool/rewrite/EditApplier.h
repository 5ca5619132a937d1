// Stage 4: merges the edits that several translation units made to one file
// and applies them with clang's tooling::Replacements, which rejects overlaps.
#pragma once

#include "core/Diagnostic.h"
#include "core/Edit.h"

#include <string>
#include <vector>

namespace cu2dcu {

struct AppliedEdits {
  std::string Text;
  std::vector<Edit> Applied;     // after de-duplication, in offset order
  std::vector<Edit> Conflicting; // edits dropped because they overlap others
};

/// Edits are taken in the order given (earlier translation units win a
/// conflict); identical edits collapse into one.
AppliedEdits applyEdits(const std::string &Path, const std::string &Original,
                        const std::vector<Edit> &Edits);

/// Number of lines that differ between two texts (changed, added or removed
/// lines of the original), for statistics.
unsigned countChangedLines(const std::string &Original, const std::vector<Edit> &Applied);

} // namespace cu2dcu
