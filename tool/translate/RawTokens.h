// A file's raw token stream (no preprocessing), with byte offsets.
#pragma once

#include "core/TranslationResult.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/TokenKinds.h"

#include <optional>
#include <string>
#include <vector>

namespace cu2dcu {

struct RawToken {
  clang::tok::TokenKind Kind;
  unsigned Offset;
  unsigned Length;
  bool StartsLine;   // first token of a physical line (comments count as space)
  bool NeedsCleaning; // spelled with a line continuation (or trigraph) inside
};

/// Language options for lexing CUDA/HIP source: C++17 with the <<< >>> tokens.
const clang::LangOptions &cudaLangOptions();

/// Lexes Text[Begin, End) in raw mode; comments are skipped, literals
/// (including raw strings) kept as single tokens. StartsLine of the first
/// tokens is true only when they really start a line of Text.
std::vector<RawToken> lexRaw(const std::string &Text, unsigned Begin, unsigned End);

/// When Text[Backslash] is the backslash of a line continuation (then
/// optional spaces and tabs, and a newline), the offset just past that
/// newline; else 0.
size_t continuationEnd(const std::string &Text, size_t Backslash);

/// The number of arguments of the call whose callee name ends at NameEnd:
/// the '(' that follows it, split at commas outside brackets. Nothing when no
/// '(' follows or the parentheses do not close within the file.
std::optional<unsigned> callArity(const std::string &Text, unsigned NameEnd);

/// callArity's call: its argument count and the offset of its ')'.
struct CallShape {
  unsigned Arity = 0;
  unsigned Close = 0;
};
std::optional<CallShape> callShape(const std::string &Text, unsigned NameEnd);

/// The spelling of a token as the compiler sees it: line continuations
/// (backslash, optional spaces, newline) removed.
std::string cleanSpelling(const std::string &Text, const RawToken &T);

/// The explicit instantiations of Text (`template void f<float>(cudaStream_t);`,
/// `extern template ...`), from `template` to their `;`. Clang keeps no
/// declaration for those of function templates, so no AST pass sees the
/// types written there.
std::vector<ByteRange> explicitInstantiationRanges(const std::string &Text);

} // namespace cu2dcu
