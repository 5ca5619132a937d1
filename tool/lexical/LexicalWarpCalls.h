// The lexical form of wave64/WarpIntrinsicTranslator for lane masks written
// as literals: before the map entry's hip_since a full mask is dropped with
// the *_sync suffix (its legacy_hip form), __activemask() becomes its
// legacy_hip form; from then on a full 32-bit mask is widened to 64 bits.
// The AST mode also follows masks through macros and variables; any other
// mask is left (and reported by the map's hip_since).
#pragma once

#include "lexical/LexicalContext.h"

namespace cu2dcu::lexical {

/// Translates the warp call named Name at T[I] where its mask allows;
/// true when the call's name was translated here too, false when the name
/// is left to the map (C.SkipUntil then covers a mask already edited).
bool translateWarpCall(LexicalContext &C, const TokenList &T, size_t I, const std::string &Name);

} // namespace cu2dcu::lexical
