// --sarif: SARIF 2.1.0 (OASIS), for code-scanning services and IDEs.
//
// Emitted with llvm::json rather than clang::SarifDocumentWriter
// (clang/Basic/Sarif.h): that writer needs a SourceManager with a FileEntry
// per artifact (the report stage has only the texts in the RunResult), its
// rules carry a single description (SARIF tools show shortDescription), and
// it cannot express results without a region, fixes, partialFingerprints or
// baselineState, all of which this report needs.
#include "report/CheckCatalog.h"
#include "report/Reports.h"
#include "core/SourceText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

#include <map>

namespace cu2dcu {

namespace {

llvm::json::Object message(const std::string &Text) { return llvm::json::Object{{"text", Text}}; }

/// A region in code points, from a byte range of Text.
llvm::json::Object regionOf(const std::string &Text, const LineIndex &Lines, size_t Begin,
                            size_t End) {
  unsigned StartLine = Lines.lineColumn(Begin).first;
  unsigned EndLine = Lines.lineColumn(End).first;
  return llvm::json::Object{{"startLine", StartLine},
                            {"startColumn", codePointColumn(Text, Begin)},
                            {"endLine", EndLine},
                            {"endColumn", codePointColumn(Text, End)}};
}

} // namespace

llvm::json::Value buildSarifReport(const ReportContext &C) {
  const RunResult &Run = *C.Run;
  const FindingStates &States = *C.States;

  // Rules: every documented check, then any other id the run reported.
  std::vector<CheckInfo> Rules = documentedChecks();
  std::map<std::string, size_t> RuleIndex;
  for (size_t I = 0; I < Rules.size(); ++I)
    RuleIndex[Rules[I].Id] = I;
  for (const Diagnostic &D : Run.Diagnostics)
    if (!RuleIndex.count(D.CheckId)) {
      RuleIndex[D.CheckId] = Rules.size();
      Rules.push_back(describeCheck(D.CheckId));
    }
  llvm::json::Array RuleArray;
  for (const CheckInfo &R : Rules)
    RuleArray.push_back(llvm::json::Object{{"id", R.Id},
                                           {"name", R.Id},
                                           {"shortDescription", message(R.ShortDescription)},
                                           {"fullDescription", message(R.FullDescription)},
                                           {"helpUri", helpUri(C.DocsBase, R.Id)}});

  // Artifacts: every input file, addressed relative to %SRCROOT%.
  std::map<std::string, const FileReport *> ByDisplay;
  std::map<std::string, size_t> ArtifactIndex;
  llvm::json::Array Artifacts;
  auto LocationOf = [&](const std::string &File) {
    llvm::json::Object L;
    if (llvm::StringRef(File).starts_with("/"))
      L["uri"] = "file://" + uriEncodePath(File);
    else {
      L["uri"] = uriEncodePath(File);
      L["uriBaseId"] = "SRCROOT";
    }
    auto It = ArtifactIndex.find(File);
    if (It != ArtifactIndex.end())
      L["index"] = static_cast<int64_t>(It->second);
    return L;
  };
  for (const FileReport &F : Run.Files) {
    ByDisplay[F.Input.Display] = &F;
    llvm::json::Object A{{"location", LocationOf(F.Input.Display)},
                         {"length", static_cast<int64_t>(F.Original.size())}};
    if (F.Input.Action == FileAction::Translate)
      A["sourceLanguage"] = "cuda";
    ArtifactIndex[F.Input.Display] = Artifacts.size();
    Artifacts.push_back(std::move(A));
  }

  // The uses folded into a definition (or the definition of a use), numbered
  // within the result as SARIF asks.
  auto RelatedOf = [&](const Diagnostic &D) {
    llvm::json::Array Related;
    for (const RelatedLocation &R : D.Related) {
      auto It = ByDisplay.find(R.File);
      unsigned Column = It != ByDisplay.end() ? codePointColumn(It->second->Original, R.Offset)
                                              : R.Column;
      llvm::json::Object Physical{
          {"artifactLocation", LocationOf(R.File)},
          {"region", llvm::json::Object{{"startLine", R.Line}, {"startColumn", Column}}}};
      Related.push_back(llvm::json::Object{{"id", static_cast<int64_t>(Related.size())},
                                           {"physicalLocation", std::move(Physical)},
                                           {"message", message(R.CheckId.empty()
                                                                   ? R.Message
                                                                   : R.CheckId + ": " + R.Message)}});
    }
    return Related;
  };

  llvm::json::Array Results;
  LineIndexes Lines;
  for (size_t I = 0; I < Run.Diagnostics.size(); ++I) {
    const Diagnostic &D = Run.Diagnostics[I];
    auto FileIt = ByDisplay.find(D.File);
    const std::string *Text = FileIt != ByDisplay.end() ? &FileIt->second->Original : nullptr;

    llvm::json::Object Physical{{"artifactLocation", LocationOf(D.File)}};
    if (D.Line && Text) {
      // The region is the token the finding points at.
      llvm::json::Object Region =
          regionOf(*Text, Lines.of(*Text), D.Offset, tokenEnd(*Text, D.Offset));
      Region["snippet"] = message(lineAt(*Text, D.Offset));
      Physical["region"] = std::move(Region);
    } else if (D.Line) {
      Physical["region"] = llvm::json::Object{{"startLine", D.Line}, {"startColumn", D.Column}};
    }

    llvm::json::Array Fixes;
    for (const FixIt &Fix : D.Fixes) {
      if (!Text)
        break;
      llvm::json::Object Replacement{
          {"deletedRegion",
           regionOf(*Text, Lines.of(*Text), Fix.Offset, Fix.Offset + Fix.Length)},
          {"insertedContent", message(Fix.Replacement)}};
      Fixes.push_back(llvm::json::Object{
          {"description", message(Fix.Description + (Fix.Applied ? " (applied)" : ""))},
          {"artifactChanges",
           llvm::json::Array{llvm::json::Object{
               {"artifactLocation", LocationOf(D.File)},
               {"replacements", llvm::json::Array{std::move(Replacement)}}}}}});
    }

    llvm::json::Object Result{
        {"ruleId", D.CheckId},
        {"ruleIndex", static_cast<int64_t>(RuleIndex[D.CheckId])},
        {"level", severityName(D.Level)},
        {"message", message(D.Message)},
        {"locations", llvm::json::Array{llvm::json::Object{{"physicalLocation",
                                                            std::move(Physical)}}}},
        {"partialFingerprints", llvm::json::Object{{"cu2dcu/v1", States.Fingerprints[I]}}}};
    if (!Fixes.empty())
      Result["fixes"] = std::move(Fixes);
    if (!D.Related.empty())
      Result["relatedLocations"] = RelatedOf(D);
    if (D.LowConfidence) // SARIF's rank: 0-100, how sure the tool is
      Result["rank"] = 30.0;
    if (States.HasBaseline)
      Result["baselineState"] = States.Baselined[I] ? "unchanged" : "new";
    Results.push_back(std::move(Result));
  }

  std::string Root = C.InputRoot;
  if (Root.empty() || Root.back() != '/')
    Root += '/';
  llvm::json::Array Arguments;
  for (const std::string &A : C.Arguments)
    Arguments.push_back(A);

  llvm::json::Object TheRun{
      {"tool", llvm::json::Object{{"driver",
                                   llvm::json::Object{{"name", "cu2dcu"},
                                                      {"version", C.ToolVersion},
                                                      {"semanticVersion", C.ToolVersion},
                                                      {"informationUri", C.DocsBase + "reports.md"},
                                                      {"rules", std::move(RuleArray)}}}}},
      {"invocations", llvm::json::Array{llvm::json::Object{
                          {"executionSuccessful", Run.Files.end() ==
                                                      std::find_if(Run.Files.begin(), Run.Files.end(),
                                                                   [](const FileReport &F) {
                                                                     return F.Status ==
                                                                            FileStatus::Failed;
                                                                   })},
                          {"arguments", std::move(Arguments)}}}},
      {"originalUriBaseIds",
       llvm::json::Object{{"SRCROOT", llvm::json::Object{{"uri", "file://" + uriEncodePath(Root)}}}}},
      {"artifacts", std::move(Artifacts)},
      {"columnKind", "unicodeCodePoints"},
      {"results", std::move(Results)}};

  return llvm::json::Object{
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", llvm::json::Array{std::move(TheRun)}}};
}

} // namespace cu2dcu
