// The keys a map file and its entries may have: those of
// mappings/schema/maps.schema.json, which the unit tests hold the loader to.
#pragma once

#include <set>
#include <string>

namespace cu2dcu {

const std::set<std::string> &mapEntryKeys();
const std::set<std::string> &mapFileKeys();

} // namespace cu2dcu
