#include "report/Baseline.h"

#include "core/SourceText.h"
#include "report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <tuple>

namespace cu2dcu {

namespace {
constexpr int BaselineVersion = 1;
} // namespace

std::vector<std::string> fingerprintDiagnostics(const RunResult &Run) {
  std::map<std::string, const FileReport *> ByDisplay;
  for (const FileReport &F : Run.Files)
    ByDisplay[F.Input.Display] = &F;
  // Diagnostics are sorted by file and offset, so the occurrence index
  // counts from the top of the file.
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> Seen;
  std::vector<std::string> Out;
  Out.reserve(Run.Diagnostics.size());
  for (const Diagnostic &D : Run.Diagnostics) {
    std::string Line;
    auto It = ByDisplay.find(D.File);
    if (D.Line && It != ByDisplay.end())
      Line = collapseBlanks(lineAt(It->second->Original, D.Offset));
    unsigned Index = Seen[{D.CheckId, D.File, Line}]++;
    std::string Key = "cu2dcu-fingerprint-v1";
    for (const std::string *Part : {&D.CheckId, &D.File, static_cast<const std::string *>(&Line)}) {
      Key += '\0';
      Key += *Part;
    }
    Key += '\0';
    Key += std::to_string(Index);
    auto Hash = llvm::SHA256::hash(llvm::arrayRefFromStringRef(Key));
    Out.push_back(llvm::toHex(llvm::ArrayRef<uint8_t>(Hash).take_front(16), /*LowerCase=*/true));
  }
  return Out;
}

llvm::Expected<Baseline> readBaseline(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read baseline '%s': %s",
                                   Path.c_str(), Buffer.getError().message().c_str());
  auto Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline '%s' is not JSON: %s", Path.c_str(),
                                   llvm::toString(Parsed.takeError()).c_str());
  auto Fail = [&](const char *Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "baseline '%s': %s",
                                   Path.c_str(), Why);
  };
  const llvm::json::Object *Root = Parsed->getAsObject();
  if (!Root || Root->getString("format") != "cu2dcu-baseline")
    return Fail("not a cu2dcu baseline (\"format\": \"cu2dcu-baseline\" missing)");
  if (Root->getInteger("version") != BaselineVersion)
    return Fail("unsupported version (this cu2dcu reads version 1)");
  const llvm::json::Array *Findings = Root->getArray("findings");
  if (!Findings)
    return Fail("\"findings\" must be an array");
  Baseline B;
  for (const llvm::json::Value &V : *Findings) {
    const llvm::json::Object *F = V.getAsObject();
    auto Fp = F ? F->getString("fingerprint") : std::nullopt;
    if (!Fp)
      return Fail("every finding needs a \"fingerprint\" string");
    B.Fingerprints.insert(Fp->str());
  }
  return B;
}

FindingStates classifyFindings(const RunResult &Run, const Baseline *Known) {
  FindingStates S;
  S.Fingerprints = fingerprintDiagnostics(Run);
  S.Baselined.assign(Run.Diagnostics.size(), false);
  S.HasBaseline = Known != nullptr;
  std::set<std::string> Matched;
  for (size_t I = 0; I < Run.Diagnostics.size(); ++I) {
    if (Known && Known->Fingerprints.count(S.Fingerprints[I])) {
      S.Baselined[I] = true;
      ++S.BaselinedCount;
      Matched.insert(S.Fingerprints[I]);
      continue;
    }
    switch (Run.Diagnostics[I].Level) {
    case Severity::Error:
      ++S.NewErrors;
      break;
    case Severity::Warning:
      ++S.NewWarnings;
      break;
    case Severity::Note:
      ++S.NewNotes;
      break;
    }
  }
  if (Known)
    S.StaleEntries = Known->Fingerprints.size() - Matched.size();
  return S;
}

llvm::Error writeBaseline(const std::string &Path, const RunResult &Run,
                          const FindingStates &States, const std::string &ToolVersion) {
  llvm::json::Array Findings;
  for (size_t I = 0; I < Run.Diagnostics.size(); ++I) {
    const Diagnostic &D = Run.Diagnostics[I];
    // Only the fingerprint is read back; the rest helps a reviewer of the file.
    Findings.push_back(llvm::json::Object{{"fingerprint", States.Fingerprints[I]},
                                          {"id", D.CheckId},
                                          {"severity", severityName(D.Level)},
                                          {"file", D.File},
                                          {"line", D.Line},
                                          {"message", D.Message}});
  }
  llvm::json::Object Root{{"format", "cu2dcu-baseline"},
                          {"version", BaselineVersion},
                          {"tool", "cu2dcu " + ToolVersion},
                          {"findings", std::move(Findings)}};
  llvm::json::Value Document(std::move(Root));
  std::string Error;
  auto Write = [&](llvm::raw_ostream &OS) { OS << llvm::formatv("{0:2}", Document) << "\n"; };
  if (!writeReportFile(Path, Write, Error))
    return llvm::createStringError(std::errc::io_error, "%s", Error.c_str());
  return llvm::Error::success();
}

} // namespace cu2dcu
