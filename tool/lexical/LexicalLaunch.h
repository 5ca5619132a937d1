// The lexical form of match/KernelLaunchTranslator: kernel<<<...>>>(...)
// launches found in raw tokens, the kernel expression read backwards from
// '<<<' (qualifiers, template arguments, (*pointer), kernels[i]) and the
// configuration up to the '>>>' the call's '(' follows.
#pragma once

#include "lexical/LexicalContext.h"

namespace cu2dcu::lexical {

/// Rewrites the launch whose '<<<' is T[I] to hipLaunchKernelGGL when it
/// stands as a statement (translate/LaunchRewrite); a launch used as a value
/// is kept and noted, one not recognised is kept with a warning.
void translateLaunch(LexicalContext &C, const TokenList &T, size_t I);

} // namespace cu2dcu::lexical
