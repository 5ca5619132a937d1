#include "core/ResultJson.h"

#include "llvm/ADT/StringExtras.h"

namespace cu2dcu {

namespace json = llvm::json;

llvm::json::Value textToJSON(const std::string &Text) {
  if (json::isUTF8(Text))
    return Text;
  return json::Object{{"hex", llvm::toHex(Text)}};
}

bool textFromJSON(const json::Value &V, std::string &Text, json::Path P) {
  if (auto S = V.getAsString()) {
    Text = S->str();
    return true;
  }
  if (const json::Object *O = V.getAsObject())
    if (auto Hex = O->getString("hex"))
      if (llvm::tryGetFromHex(*Hex, Text))
        return true;
  P.report("expected text");
  return false;
}

std::string jsonText(const json::Value &V) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << V;
  return Text;
}

bool textsFromJSON(const json::Object &O, llvm::StringRef Key, std::vector<std::string> &Texts,
                   json::Path P) {
  const json::Array *A = O.getArray(Key);
  if (!A) {
    P.field(Key).report("expected an array");
    return false;
  }
  Texts.resize(A->size());
  for (size_t I = 0; I < A->size(); ++I)
    if (!textFromJSON((*A)[I], Texts[I], P.field(Key).index(unsigned(I))))
      return false;
  return true;
}

namespace {

/// The text field Key of the object V (which ObjectMapper has checked).
bool mapText(const json::Value &V, llvm::StringRef Key, std::string &Text, json::Path P) {
  const json::Value *Field = V.getAsObject()->get(Key);
  if (!Field) {
    P.field(Key).report("missing value");
    return false;
  }
  return textFromJSON(*Field, Text, P.field(Key));
}

/// An enumerator written as its number, checked against the last one.
template <typename Enum>
bool mapEnum(json::ObjectMapper &O, llvm::StringLiteral Key, Enum &Out, Enum Last) {
  int N = 0;
  if (!O.map(Key, N) || N < 0 || N > int(Last))
    return false;
  Out = Enum(N);
  return true;
}

} // namespace

json::Value toJSON(const Edit &E) {
  return json::Object{{"offset", E.Offset},
                      {"length", E.Length},
                      {"text", textToJSON(E.Text)},
                      {"category", textToJSON(E.Category)},
                      {"name", textToJSON(E.Name)}};
}

bool fromJSON(const json::Value &V, Edit &E, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("offset", E.Offset) && O.map("length", E.Length) &&
         mapText(V, "text", E.Text, P) && mapText(V, "category", E.Category, P) &&
         mapText(V, "name", E.Name, P);
}

json::Value toJSON(const FixIt &F) {
  return json::Object{{"offset", F.Offset},
                      {"length", F.Length},
                      {"replacement", textToJSON(F.Replacement)},
                      {"description", textToJSON(F.Description)},
                      {"applied", F.Applied}};
}

bool fromJSON(const json::Value &V, FixIt &F, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("offset", F.Offset) && O.map("length", F.Length) &&
         mapText(V, "replacement", F.Replacement, P) &&
         mapText(V, "description", F.Description, P) && O.map("applied", F.Applied);
}

json::Value toJSON(const RelatedLocation &R) {
  return json::Object{{"file", textToJSON(R.File)},     {"line", R.Line},
                      {"column", R.Column},             {"offset", R.Offset},
                      {"check", textToJSON(R.CheckId)}, {"message", textToJSON(R.Message)}};
}

bool fromJSON(const json::Value &V, RelatedLocation &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && mapText(V, "file", R.File, P) && O.map("line", R.Line) &&
         O.map("column", R.Column) && O.map("offset", R.Offset) &&
         mapText(V, "check", R.CheckId, P) && mapText(V, "message", R.Message, P);
}

json::Value toJSON(const Diagnostic &D) {
  json::Object O{{"check", textToJSON(D.CheckId)},
                 {"level", int(D.Level)},
                 {"file", textToJSON(D.File)},
                 {"line", D.Line},
                 {"column", D.Column},
                 {"offset", D.Offset},
                 {"message", textToJSON(D.Message)},
                 {"fixes", D.Fixes},
                 {"lowConfidence", D.LowConfidence},
                 {"related", D.Related}};
  if (D.Definition)
    O["definition"] = *D.Definition;
  if (!D.FixWithheld.empty())
    O["fixWithheld"] = D.FixWithheld;
  return O;
}

bool fromJSON(const json::Value &V, Diagnostic &D, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && mapText(V, "check", D.CheckId, P) &&
         mapEnum(O, "level", D.Level, Severity::Error) && mapText(V, "file", D.File, P) &&
         O.map("line", D.Line) && O.map("column", D.Column) && O.map("offset", D.Offset) &&
         mapText(V, "message", D.Message, P) && O.map("fixes", D.Fixes) &&
         O.map("lowConfidence", D.LowConfidence) && O.map("related", D.Related) &&
         O.map("definition", D.Definition) && O.mapOptional("fixWithheld", D.FixWithheld);
}

json::Value toJSON(const ByteRange &R) { return json::Array{R.Begin, R.End}; }

bool fromJSON(const json::Value &V, ByteRange &R, json::Path P) {
  const json::Array *A = V.getAsArray();
  if (!A || A->size() != 2) {
    P.report("expected [begin, end]");
    return false;
  }
  return fromJSON((*A)[0], R.Begin, P.index(0)) && fromJSON((*A)[1], R.End, P.index(1));
}

json::Value toJSON(const TranslationResult &Result) {
  // An array, not an object keyed by path: a path need not be UTF-8.
  json::Array Files;
  for (const auto &[Path, Findings] : Result.Files)
    Files.push_back(json::Object{{"path", textToJSON(Path)},
                                 {"edits", Findings.Edits},
                                 {"diagnostics", Findings.Diagnostics},
                                 {"recovered", Findings.RecoveredRanges}});
  return json::Object{{"files", std::move(Files)},
                      {"mode", int(Result.Mode)},
                      {"failure", int(Result.Failure)},
                      {"reason", textToJSON(Result.FallbackReason)}};
}

bool fromJSON(const json::Value &V, TranslationResult &Result, json::Path P) {
  json::ObjectMapper O(V, P);
  const json::Array *Files = O ? V.getAsObject()->getArray("files") : nullptr;
  if (!Files) {
    P.field("files").report("expected an array");
    return false;
  }
  json::Path FilesPath = P.field("files"); // a Path refers to its parent: keep it alive
  for (size_t I = 0; I < Files->size(); ++I) {
    const json::Value &File = (*Files)[I];
    json::Path FP = FilesPath.index(unsigned(I));
    json::ObjectMapper FO(File, FP);
    std::string Path;
    if (!FO || !mapText(File, "path", Path, FP))
      return false;
    FileFindings &Findings = Result.Files[Path];
    if (!FO.map("edits", Findings.Edits) || !FO.map("diagnostics", Findings.Diagnostics) ||
        !FO.map("recovered", Findings.RecoveredRanges))
      return false;
  }
  return mapEnum(O, "mode", Result.Mode, ParseMode::Build) &&
         mapEnum(O, "failure", Result.Failure, ParseFailure::Requested) &&
         mapText(V, "reason", Result.FallbackReason, P);
}

json::Value toJSON(const StageTime &T) {
  return json::Object{{"wall", T.Wall}, {"cpu", T.Cpu}, {"count", T.Count}};
}

bool fromJSON(const json::Value &V, StageTime &T, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("wall", T.Wall) && O.map("cpu", T.Cpu) && O.map("count", T.Count);
}

} // namespace cu2dcu
