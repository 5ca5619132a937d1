#include "lexical/EntryTranslation.h"

#include "lexical/RawTokens.h"

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
                      : "removed in CUDA " + Entry.CudaRemoved +
                            (Entry.Note.empty() ? "" : "; " + Entry.Note);
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
  if (!Entry.Note.empty())
    addFinding(Out, Text, Path, Offset, check_ids::ApiNote, Severity::Note,
               "'" + Entry.Cuda + "' -> '" + Entry.Hip + "': " + Entry.Note);
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
  if (!Entry->HipRequires.empty() && IncludedHip.insert(Entry->HipRequires).second) {
    // The HIP header does not compile on its own (hip_cooperative_groups.h
    // needs hip_runtime.h), where nvcc's implicit cuda_runtime.h hid that.
    const char *LineEnding =
        LineEnd >= 2 && Text.compare(LineEnd - 2, 2, "\r\n") == 0 ? "\r\n" : "\n";
    Out.Edits.push_back(
        {LineBegin, 0, "#include <" + Entry->HipRequires + ">" + LineEnding, "include", Header});
  }
  Out.Edits.push_back({HeaderOffset, HeaderLength, "<" + Entry->Hip + ">", "include", Header});
}

std::optional<Edit> implicitRuntimeInclude(const ApiMap &Map, const std::string &Path,
                                           const std::string &Text,
                                           const std::vector<Edit> &Edits) {
  const ApiEntry *Runtime = Map.lookupHeader("cuda_runtime.h");
  if (!Runtime || Runtime->Hip.empty() || !llvm::StringRef(Path).ends_with_insensitive(".cu"))
    return std::nullopt;
  const std::string &Hip = Runtime->Hip;
  if (Text.find(Hip) != std::string::npos ||
      llvm::any_of(Edits, [&](const Edit &E) { return E.Text.find(Hip) != std::string::npos; }))
    return std::nullopt;
  // After a byte order mark (UTF-8, or UTF-16's bytes before ASCII text).
  unsigned Insert = Text.compare(0, 3, "\xEF\xBB\xBF") == 0                                  ? 3
                    : Text.compare(0, 2, "\xFE\xFF") == 0 || Text.compare(0, 2, "\xFF\xFE") == 0 ? 2
                                                                                             : 0;
  // Before the first #include outside any #if.
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  int Depth = 0;
  for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
    if (Tokens[I].Kind != clang::tok::hash || !Tokens[I].StartsLine)
      continue;
    std::string Word = cleanSpelling(Text, Tokens[I + 1]);
    if (llvm::StringRef(Word).starts_with("if"))
      ++Depth;
    else if (Word == "endif")
      --Depth;
    else if (Word == "include" && Depth == 0) {
      size_t LineStart = Text.rfind('\n', Tokens[I].Offset);
      Insert = LineStart == std::string::npos ? Insert : unsigned(LineStart + 1);
      break;
    }
  }
  size_t Newline = Text.find('\n');
  bool Crlf = Newline != std::string::npos && Newline > 0 && Text[Newline - 1] == '\r';
  return Edit{Insert, 0, "#include <" + Hip + ">" + (Crlf ? "\r\n" : "\n"), "include",
              "cuda_runtime.h"};
}

std::optional<Edit> registerKeywordRemoval(const std::string &Text, unsigned Begin, unsigned End) {
  for (const RawToken &T : lexRaw(Text, Begin, std::min<size_t>(End, Text.size()))) {
    if (T.Kind != clang::tok::raw_identifier || cleanSpelling(Text, T) != "register")
      continue;
    unsigned Stop = T.Offset + T.Length;
    while (Stop < Text.size() && (Text[Stop] == ' ' || Text[Stop] == '\t'))
      ++Stop;
    return Edit{T.Offset, Stop - T.Offset, "", "keyword", "register"};
  }
  return std::nullopt;
}

bool looksLikeCudaName(const std::string &Name) {
  auto StartsWith = [&](const char *P) { return Name.rfind(P, 0) == 0; };
  auto UpperAt = [&](size_t I) { return Name.size() > I && isupper((unsigned char)Name[I]); };
  // cudaMalloc, cuMemAlloc, cublasCreate...: mixed-case API spellings. All-caps
  // names (CUDA_CHECK, CU_SAFE_CALL) are far more often the user's own macros.
  if (StartsWith("cuda") && UpperAt(4))
    return true;
  if (StartsWith("cu") && UpperAt(2) && Name.size() > 3 && islower((unsigned char)Name[3]))
    return true;
  static const char *const LibraryPrefixes[] = {"cublas", "cufft", "curand", "cusparse",
                                                "cusolver", "cudnn", "nccl"};
  for (const char *P : LibraryPrefixes)
    if (StartsWith(P) && UpperAt(std::string(P).size()))
      return true;
  return false;
}

} // namespace cu2dcu
