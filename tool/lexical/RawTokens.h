// A file's raw token stream (no preprocessing), with byte offsets.
#pragma once

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/TokenKinds.h"

#include <string>
#include <vector>

namespace cu2dcu {

struct RawToken {
  clang::tok::TokenKind Kind;
  unsigned Offset;
  unsigned Length;
  bool StartsLine;
};

/// Language options for lexing CUDA/HIP source: C++17 with the <<< >>> tokens.
const clang::LangOptions &cudaLangOptions();

/// Lexes Text[Begin, End) in raw mode; comments are skipped, literals kept
/// as single tokens.
std::vector<RawToken> lexRaw(const std::string &Text, unsigned Begin, unsigned End);

} // namespace cu2dcu
