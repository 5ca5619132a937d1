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

/// The SARIF log of one run: rules, artifacts and results, which refer to
/// each other by index.
class SarifWriter {
public:
  explicit SarifWriter(const ReportContext &C) : C(C), Run(*C.Run), States(*C.States) {}

  llvm::json::Value log() {
    llvm::json::Array RuleArray = rules();
    llvm::json::Array Artifacts = artifacts();
    llvm::json::Array Results;
    for (size_t I = 0; I < Run.Diagnostics.size(); ++I)
      Results.push_back(result(I));
    llvm::json::Object TheRun{
        {"tool", llvm::json::Object{{"driver",
                                     llvm::json::Object{{"name", "cu2dcu"},
                                                        {"version", C.ToolVersion},
                                                        {"semanticVersion", C.ToolVersion},
                                                        {"informationUri", C.DocsBase + "reports.md"},
                                                        {"rules", std::move(RuleArray)}}}}},
        {"invocations", llvm::json::Array{invocation()}},
        {"originalUriBaseIds", llvm::json::Object{{"SRCROOT", srcRoot()}}},
        {"artifacts", std::move(Artifacts)},
        {"columnKind", "unicodeCodePoints"},
        {"results", std::move(Results)}};
    return llvm::json::Object{
        {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
        {"version", "2.1.0"},
        {"runs", llvm::json::Array{std::move(TheRun)}}};
  }

private:
  /// Every documented check, then any other id the run reported.
  llvm::json::Array rules() {
    std::vector<CheckInfo> Rules = documentedChecks();
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
    return RuleArray;
  }

  /// Every input file, addressed relative to %SRCROOT%.
  llvm::json::Array artifacts() {
    llvm::json::Array Artifacts;
    for (const FileReport &F : Run.Files) {
      ByDisplay[F.Input.Display] = &F;
      llvm::json::Object A{{"location", locationOf(F.Input.Display)},
                           {"length", static_cast<int64_t>(F.Original.size())}};
      if (F.Input.Action == FileAction::Translate)
        A["sourceLanguage"] = "cuda";
      ArtifactIndex[F.Input.Display] = Artifacts.size();
      Artifacts.push_back(std::move(A));
    }
    return Artifacts;
  }

  llvm::json::Object locationOf(const std::string &File) const {
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
  }

  llvm::json::Object result(size_t I) {
    const Diagnostic &D = Run.Diagnostics[I];
    auto FileIt = ByDisplay.find(D.File);
    const std::string *Text = FileIt != ByDisplay.end() ? &FileIt->second->Original : nullptr;
    llvm::json::Object Physical{{"artifactLocation", locationOf(D.File)}};
    if (D.Line && Text) {
      // The region is the token the finding points at.
      llvm::json::Object Region =
          regionOf(*Text, Lines.of(*Text), D.Offset, tokenEnd(*Text, D.Offset));
      Region["snippet"] = message(lineAt(*Text, D.Offset));
      Physical["region"] = std::move(Region);
    } else if (D.Line) {
      Physical["region"] = llvm::json::Object{{"startLine", D.Line}, {"startColumn", D.Column}};
    }
    llvm::json::Object Result{
        {"ruleId", D.CheckId},
        {"ruleIndex", static_cast<int64_t>(RuleIndex[D.CheckId])},
        {"level", severityName(D.Level)},
        {"message", message(D.Message)},
        {"locations", llvm::json::Array{llvm::json::Object{{"physicalLocation",
                                                            std::move(Physical)}}}},
        {"partialFingerprints", llvm::json::Object{{"cu2dcu/v1", States.Fingerprints[I]}}}};
    if (Text && !D.Fixes.empty())
      Result["fixes"] = fixesOf(D, *Text);
    if (!D.Related.empty())
      Result["relatedLocations"] = relatedOf(D);
    if (D.LowConfidence) // SARIF's rank: 0-100, how sure the tool is
      Result["rank"] = 30.0;
    if (States.HasBaseline)
      Result["baselineState"] = States.Baselined[I] ? "unchanged" : "new";
    return Result;
  }

  llvm::json::Array fixesOf(const Diagnostic &D, const std::string &Text) {
    llvm::json::Array Fixes;
    for (const FixIt &Fix : D.Fixes) {
      llvm::json::Object Replacement{
          {"deletedRegion", regionOf(Text, Lines.of(Text), Fix.Offset, Fix.Offset + Fix.Length)},
          {"insertedContent", message(Fix.Replacement)}};
      Fixes.push_back(llvm::json::Object{
          {"description", message(Fix.Description + (Fix.Applied ? " (applied)" : ""))},
          {"artifactChanges",
           llvm::json::Array{llvm::json::Object{
               {"artifactLocation", locationOf(D.File)},
               {"replacements", llvm::json::Array{std::move(Replacement)}}}}}});
    }
    return Fixes;
  }

  /// The uses folded into a definition (or the definition of a use), numbered
  /// within the result as SARIF asks.
  llvm::json::Array relatedOf(const Diagnostic &D) const {
    llvm::json::Array Related;
    for (const RelatedLocation &R : D.Related) {
      auto It = ByDisplay.find(R.File);
      unsigned Column = It != ByDisplay.end() ? codePointColumn(It->second->Original, R.Offset)
                                              : R.Column;
      llvm::json::Object Physical{
          {"artifactLocation", locationOf(R.File)},
          {"region", llvm::json::Object{{"startLine", R.Line}, {"startColumn", Column}}}};
      Related.push_back(llvm::json::Object{{"id", static_cast<int64_t>(Related.size())},
                                           {"physicalLocation", std::move(Physical)},
                                           {"message", message(R.CheckId.empty()
                                                                   ? R.Message
                                                                   : R.CheckId + ": " + R.Message)}});
    }
    return Related;
  }

  llvm::json::Object invocation() const {
    llvm::json::Array Arguments;
    for (const std::string &A : C.Arguments)
      Arguments.push_back(A);
    bool Failed = std::any_of(Run.Files.begin(), Run.Files.end(),
                              [](const FileReport &F) { return F.Status == FileStatus::Failed; });
    return llvm::json::Object{{"executionSuccessful", !Failed},
                              {"arguments", std::move(Arguments)}};
  }

  llvm::json::Object srcRoot() const {
    std::string Root = C.InputRoot;
    if (Root.empty() || Root.back() != '/')
      Root += '/';
    return llvm::json::Object{{"uri", "file://" + uriEncodePath(Root)}};
  }

  const ReportContext &C;
  const RunResult &Run;
  const FindingStates &States;
  std::map<std::string, size_t> RuleIndex;
  std::map<std::string, const FileReport *> ByDisplay;
  std::map<std::string, size_t> ArtifactIndex;
  LineIndexes Lines;
};

} // namespace

llvm::json::Value buildSarifReport(const ReportContext &C) { return SarifWriter(C).log(); }

} // namespace cu2dcu
