// `cu2dcu --explain NAME`: what the maps say about one CUDA name (an
// identifier or a header), at each HIP target. What a use becomes and which
// finding it raises come from translating a use of the name with the same
// code a run uses, so the answer cannot drift from the tool's behaviour.
#pragma once

#include "core/HipVersion.h"
#include "mapping/ApiMap.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

namespace cu2dcu {

/// Loads the maps for one target into Map; false when they have errors.
using MapLoader = std::function<bool(ApiMap &Map, const HipVersion &Target)>;

/// Prints the entry of Name at each of Targets; for an unknown name, the
/// closest known names. Returns 0 for a known name, 1 for an unknown one,
/// 2 when the maps do not load.
int explainName(const std::string &Name, const std::vector<HipVersion> &Targets,
                const MapLoader &Load, llvm::raw_ostream &OS);

} // namespace cu2dcu
