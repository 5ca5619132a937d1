// A warp size or lane mask written once as a named constant (#define
// WARP_SIZE 32, constexpr int kWarpSize = 32) is one line to change, however
// many lines use it. The checks report each use with where the constant is
// defined (Diagnostic::Definition); this folds them into the finding at the
// definition, so a reviewer reads the definition once with its uses listed
// (JSON "related", SARIF relatedLocations, grouped in the HTML report).
#pragma once

#include "core/Diagnostic.h"

#include <vector>

namespace cu2dcu {

/// Moves every W64 finding at a use (Diagnostic::Definition set) into the
/// related locations of the W64 finding on its definition's line; where that
/// line has none, the first use is moved there to become it. Diagnostics come
/// out sorted.
void foldIntoDefinitions(std::vector<Diagnostic> &Diagnostics);

} // namespace cu2dcu
