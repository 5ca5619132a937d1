#include "lexical/EntryTranslation.h"

namespace cu2dcu {

void addFinding(FileFindings &Out, const std::string &Text, const std::string &Path,
                unsigned Offset, const char *CheckId, Severity Level, std::string Message) {
  Diagnostic D;
  D.CheckId = CheckId;
  D.Level = Level;
  D.File = Path;
  D.Offset = Offset;
  std::tie(D.Line, D.Column) = lineColumnOf(Text, Offset);
  D.Message = std::move(Message);
  Out.Diagnostics.push_back(std::move(D));
}

void translateUse(const ApiEntry &Entry, unsigned Offset, unsigned Length,
                  const std::string &Text, const std::string &Path,
                  const TranslationOptions &Options, FileFindings &Out) {
  if (!Entry.isSupported()) {
    std::string Why = !Entry.Reason.empty() ? Entry.Reason
                      : "removed in CUDA " + Entry.CudaRemoved;
    addFinding(Out, Text, Path, Offset, check_ids::Unsupported, Severity::Error,
               "'" + Entry.Cuda + "' has no HIP equivalent: " + Why);
    return;
  }
  if (Entry.HipSince && Options.TargetHip < *Entry.HipSince)
    addFinding(Out, Text, Path, Offset, check_ids::HipVersion, Severity::Error,
               "'" + Entry.Hip + "'" + (Entry.Hip != Entry.Cuda ? " (for '" + Entry.Cuda + "')" : "") +
                   " needs HIP " +
                   Entry.HipSince->str() + "; the target is HIP " + Options.TargetHip.str());
  if (Entry.Status == EntryStatus::Removed)
    addFinding(Out, Text, Path, Offset, check_ids::Removed, Severity::Note,
               "'" + Entry.Cuda + "' was removed in CUDA " + Entry.CudaRemoved +
                   "; translated to '" + Entry.Hip + "'");
  if (Entry.Hip != Entry.Cuda)
    Out.Edits.push_back({Offset, Length, Entry.Hip, Entry.Family, Entry.Cuda});
}

void translateInclude(const ApiMap &Map, const std::string &Header, unsigned HeaderOffset,
                      unsigned HeaderLength, unsigned LineBegin, unsigned LineEnd,
                      const std::string &Text, const std::string &Path,
                      const TranslationOptions &Options, FileFindings &Out,
                      std::set<std::string> &IncludedHip) {
  const ApiEntry *Entry = Map.lookupHeader(Header);
  if (!Entry)
    return;
  if (!Entry->isSupported() && Entry->Status == EntryStatus::Unsupported) {
    addFinding(Out, Text, Path, HeaderOffset, check_ids::Unsupported, Severity::Error,
               "header '" + Header + "' has no HIP equivalent: " + Entry->Reason);
    return;
  }
  if (Entry->Hip.empty() || !IncludedHip.insert(Entry->Hip).second) {
    // Provided by (or duplicate of) a HIP header already included above.
    Out.Edits.push_back({LineBegin, LineEnd - LineBegin, "", "include", Header});
    return;
  }
  if (Entry->HipSince && Options.TargetHip < *Entry->HipSince)
    addFinding(Out, Text, Path, HeaderOffset, check_ids::HipVersion, Severity::Error,
               "header '" + Entry->Hip + "' needs HIP " + Entry->HipSince->str() +
                   "; the target is HIP " + Options.TargetHip.str());
  Out.Edits.push_back({HeaderOffset, HeaderLength, "<" + Entry->Hip + ">", "include", Header});
}

bool looksLikeCudaName(const std::string &Name) {
  auto StartsWith = [&](const char *P) { return Name.rfind(P, 0) == 0; };
  if (StartsWith("cuda") && Name.size() > 4 && (isupper(Name[4]) || Name[4] == '_'))
    return true;
  if (StartsWith("CUDA") && Name.size() > 4 && Name[4] == '_')
    return true;
  if (StartsWith("CU") && Name.size() > 2 && (isupper(Name[2]) || Name[2] == '_'))
    return true;
  static const char *const LibraryPrefixes[] = {"cublas", "cufft", "curand", "cusparse",
                                                "cusolver", "cudnn", "nccl", "cuDevice",
                                                "cuCtx", "cuMem", "cuModule", "cuLaunch",
                                                "cuStream", "cuEvent", "cuInit"};
  for (const char *P : LibraryPrefixes)
    if (StartsWith(P))
      return true;
  return false;
}

} // namespace cu2dcu
