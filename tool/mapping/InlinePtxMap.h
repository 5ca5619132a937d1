// The PTX idioms of the W64-INLINE-PTX check (mappings/checks/inline_ptx.yaml,
// format in docs/mapping-schema.md, schema mappings/schema/inline_ptx.schema.json).
#pragma once

#include "mapping/ApiMap.h"

#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

/// Reads one inline_ptx file into Out, its idioms appended in file order (the
/// check's search order); a malformed file or entry is an issue (file, line,
/// column, message) and makes it return false.
bool loadInlinePtx(const std::string &Text, const std::string &Path, InlinePtxRules &Out,
                   std::vector<MapLoadIssue> &Issues);

/// The keys an inline_ptx file and its entries may have (the schema's, which
/// a unit test holds these to).
const std::set<std::string> &inlinePtxFileKeys();
const std::set<std::string> &inlinePtxEntryKeys();

} // namespace cu2dcu
