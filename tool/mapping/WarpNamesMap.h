// The names the wavefront-64 checks read as lane values, and the lexical
// scan's spelling patterns (mappings/checks/warp_names.yaml, format in
// docs/mapping-schema.md, schema mappings/schema/warp_names.schema.json).
#pragma once

#include "mapping/ApiMap.h"

#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

/// Reads one warp_names file into Out; a malformed file, or a pattern that is
/// not a valid regular expression, is an issue and makes it return false.
bool loadWarpNames(const std::string &Text, const std::string &Path, WarpNames &Out,
                   std::vector<MapLoadIssue> &Issues);

/// The keys a warp_names file and its bit functions may have (the schema's).
const std::set<std::string> &warpNamesFileKeys();
const std::set<std::string> &warpNamesBitFunctionKeys();

} // namespace cu2dcu
