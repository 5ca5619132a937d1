// The lexical pass's side of CU2DCU-HIP-DECLARED: a definition of a function
// HIP declares on AMD, written where no AST sees it (an #ifdef __NVCC__
// branch, a file without an AST), is guarded as the AST mode guards it
// (translate/HipDeclaredGuard).
#pragma once

#include "lexical/LexicalContext.h"

namespace cu2dcu::lexical {

/// Code holds the range's tokens without its directives.
void guardHipDeclaredDefinitions(LexicalContext &C, const TokenList &Code);

} // namespace cu2dcu::lexical
