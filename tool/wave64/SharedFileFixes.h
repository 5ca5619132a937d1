// --fix-wave64 across translation units. Each unit decides its lane groupings
// alone (Wave64FixGroups.h), but a header several units include is one file:
// fixing its helper for one unit changes it for every other, whose own 32-lane
// math may stay. So a wave64 edit in a file is kept only when every unit that
// translated the file makes it; a unit with an edit another unit does not make
// keeps none of its wave64 edits (its groupings may span the header and its
// own files), and the rule is applied again until no unit loses more.
#pragma once

#include "core/Diagnostic.h"
#include "core/Edit.h"
#include "core/TranslationResult.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cu2dcu {

class SharedFileFixes {
public:
  /// Records one unit's result (every file it translated, with its edits);
  /// Main is the unit's main file.
  void addUnit(const std::string &Main, const TranslationResult &Result);

  /// Drops the wave64 edits of every unit that disagrees with another on a
  /// file they share, from EditsByFile (edits of all units, keyed by source
  /// path), and marks the findings whose fix was one of them: not applied,
  /// with the reason (Diagnostic::FixWithheld). DisplayOf maps a source path
  /// to the path findings carry.
  void apply(std::map<std::string, std::vector<Edit>> &EditsByFile,
             std::vector<Diagnostic> &Diagnostics,
             const std::function<std::string(const std::string &)> &DisplayOf) const;

private:
  struct Unit {
    std::string Name; // its main file
    std::map<std::string, std::vector<Edit>> Wave64Edits;
    std::vector<std::string> Files;
  };
  /// Units whose wave64 edits must go, with the file and unit that vetoed them.
  std::map<size_t, std::pair<std::string, std::string>> vetoed() const;

  std::vector<Unit> Units;
};

} // namespace cu2dcu
