// llvm::json forms of what a translation unit finds (TranslationResult and
// its parts) and of a stage's time: the isolated parser processes send them
// to the driver through a pipe (driver/IsolatedParse.h). Every field is
// written; testsuite/unit/ResultJsonTest.cpp checks that each survives.
#pragma once

#include "core/StageTimes.h"
#include "core/TranslationResult.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace cu2dcu {

/// Source text may hold bytes that are not UTF-8 (a Latin-1 comment quoted
/// in an edit or a message), which a JSON string cannot: such text is written
/// as {"hex": "..."} so that it comes back byte for byte.
llvm::json::Value textToJSON(const std::string &Text);
bool textFromJSON(const llvm::json::Value &V, std::string &Text, llvm::json::Path P);
/// A list of texts (a vector or a set of strings), each as textToJSON.
template <typename Texts> llvm::json::Array textsToJSON(const Texts &List) {
  llvm::json::Array A;
  for (const std::string &T : List)
    A.push_back(textToJSON(T));
  return A;
}
/// The list of texts under Key of O.
bool textsFromJSON(const llvm::json::Object &O, llvm::StringRef Key, std::vector<std::string> &Texts,
                   llvm::json::Path P);

/// V as compact JSON text.
std::string jsonText(const llvm::json::Value &V);

llvm::json::Value toJSON(const Edit &E);
bool fromJSON(const llvm::json::Value &V, Edit &E, llvm::json::Path P);
llvm::json::Value toJSON(const FixIt &F);
bool fromJSON(const llvm::json::Value &V, FixIt &F, llvm::json::Path P);
llvm::json::Value toJSON(const RelatedLocation &R);
bool fromJSON(const llvm::json::Value &V, RelatedLocation &R, llvm::json::Path P);
llvm::json::Value toJSON(const Diagnostic &D);
bool fromJSON(const llvm::json::Value &V, Diagnostic &D, llvm::json::Path P);
llvm::json::Value toJSON(const ByteRange &R);
bool fromJSON(const llvm::json::Value &V, ByteRange &R, llvm::json::Path P);
llvm::json::Value toJSON(const TranslationResult &Result);
bool fromJSON(const llvm::json::Value &V, TranslationResult &Result, llvm::json::Path P);
llvm::json::Value toJSON(const StageTime &T);
bool fromJSON(const llvm::json::Value &V, StageTime &T, llvm::json::Path P);

} // namespace cu2dcu
