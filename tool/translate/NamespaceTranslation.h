// Namespace renames (cub:: -> hipcub::, thrust::cuda:: -> thrust::hip::).
// Map entries of kind namespace are keyed "a::b::"; a qualifier in the code
// is matched token by token, longest entry first. Applied to whole files in
// both modes: a namespace prefix carries no type information to check.
#pragma once

#include "core/Options.h"
#include "core/TranslationResult.h"
#include "mapping/ApiMap.h"

#include <string>

namespace cu2dcu {

void translateNamespaces(const ApiMap &Map, const TranslationOptions &Options,
                         const std::string &Text, unsigned Begin, unsigned End,
                         const std::string &Path, FileFindings &Out);

} // namespace cu2dcu
