// Functions HIP declares on AMD that CUDA does not (mappings/collisions/): a
// program's own definition of one collides with HIP's there.
#pragma once

#include "mapping/ApiMap.h"

#include <string>
#include <vector>

namespace cu2dcu {

/// Reads one hip_declared file into Out; a malformed file or entry is an
/// issue (File, line, column, message) and makes it return false.
bool loadHipDeclared(const std::string &Text, const std::string &Path,
                     std::vector<HipDeclaredFunction> &Out, std::vector<MapLoadIssue> &Issues);

} // namespace cu2dcu
