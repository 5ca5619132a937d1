#include "translate/EntryTranslation.h"

#include "translate/RawTokens.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace cu2dcu {

void addFinding(FileFindings &Out, const std::string &Text, const std::string &Path,
                unsigned Offset, const char *CheckId, Severity Level, std::string Message) {
  Diagnostic D;
  D.CheckId = CheckId;
  D.Level = Level;
  D.File = Path;
  D.Offset = Offset;
  std::tie(D.Line, D.Column) = Out.lineColumnOf(Text, Offset);
  D.Message = std::move(Message);
  Out.Diagnostics.push_back(std::move(D));
}

/// The entry as it applies to the call whose name ends at NameEnd: where HIP
/// has another function for this argument count (hip_by_arity), that one,
/// whose note (about the entry's usual form) no longer applies; where HIP
/// has none (a null form), an unsupported entry saying so.
static std::optional<ApiEntry> formOfCall(const ApiEntry &Entry, const std::string &Text,
                                          unsigned NameEnd) {
  if (Entry.HipByArity.empty())
    return std::nullopt;
  std::optional<unsigned> Arity = callArity(Text, NameEnd);
  auto Form = Arity ? Entry.HipByArity.find(*Arity) : Entry.HipByArity.end();
  if (Form == Entry.HipByArity.end())
    return std::nullopt;
  ApiEntry Call = Entry;
  Call.Hip = Form->second;
  if (Call.Hip.empty()) {
    Call.Status = EntryStatus::Unsupported;
    Call.HipSince.reset();
    Call.Reason = "no declaration of '" + Entry.Hip + "' takes " + std::to_string(*Arity) +
                  " arguments, as this call passes" +
                  (Entry.Note.empty() ? "" : " (" + Entry.Note + ")");
  }
  Call.Note.clear();
  Call.HipByArity.clear();
  Call.DefaultArgs.clear(); // they are the usual form's
  return Call;
}

/// Appends the arguments that CUDA defaults and HIP does not (default_args)
/// to the call whose name ends at NameEnd, where it stops before them.
static void appendDefaultArgs(const ApiEntry &Entry, const std::string &Text, unsigned NameEnd,
                              FileFindings &Out) {
  if (Entry.DefaultArgs.empty())
    return;
  std::optional<CallShape> Call = callShape(Text, NameEnd);
  if (!Call)
    return;
  std::string Appended;
  for (unsigned Index = Call->Arity; Entry.DefaultArgs.count(Index); ++Index)
    Appended += (Index == 0 ? "" : ", ") + Entry.DefaultArgs.at(Index);
  if (!Appended.empty())
    Out.Edits.push_back({Call->Close, 0, Appended, "default-args", Entry.Cuda});
}

/// Where `struct cudaX` / `enum cudaX` / `union cudaX` begins, for a use of a
/// CUDA type at Offset; Offset itself for a plain use or a declaration of the
/// tag (`struct cudaX;`, `struct cudaX {`). The HIP name may be a typedef
/// (hipExternalMemoryHandleDesc, hipDeviceAttribute_t), which an elaborated
/// specifier cannot name, and C++ needs no keyword to name either.
static unsigned elaboratedKeywordAt(const std::string &Text, unsigned Offset, unsigned Length) {
  size_t After = Text.find_first_not_of(" \t\r\n", Offset + Length);
  if (After != std::string::npos && (Text[After] == ';' || Text[After] == '{'))
    return Offset;
  size_t End = Offset;
  while (End > 0 && std::isspace(static_cast<unsigned char>(Text[End - 1])))
    --End;
  for (llvm::StringRef Keyword : {"struct", "enum", "union"}) {
    if (End == Offset || End < Keyword.size() ||
        Text.compare(End - Keyword.size(), Keyword.size(), Keyword.str()) != 0)
      continue;
    size_t Begin = End - Keyword.size();
    if (Begin == 0 || !(std::isalnum(static_cast<unsigned char>(Text[Begin - 1])) || Text[Begin - 1] == '_'))
      return static_cast<unsigned>(Begin);
  }
  return Offset;
}

void translateUse(const ApiEntry &Entry, unsigned Offset, unsigned Length,
                  const std::string &Text, const std::string &Path,
                  const TranslationOptions &Options, FileFindings &Out) {
  if (std::optional<ApiEntry> Call = formOfCall(Entry, Text, Offset + Length))
    return translateUse(*Call, Offset, Length, Text, Path, Options, Out);
  if (Entry.usesShim(Options.TargetHip)) {
    // An overload's shim (shim_by_param) names the overload: HIP has the function.
    std::string Overload;
    if (Entry.ShimByParam.size() == 1 && Entry.ShimByParam.begin()->second == Entry.Shim) {
      ShimParameter Param = shimParameter(Entry.ShimByParam.begin()->first);
      Overload = " on '" + Param.Type.str() + "'" +
                 (Param.Index ? " (parameter " + std::to_string(Param.Index + 1) + ")" : "");
    }
    addFinding(Out, Text, Path, Offset, check_ids::Shim, Severity::Note,
               "'" + Entry.Cuda + "'" + Overload + " has no equivalent in HIP " + Options.TargetHip.str() +
                   (Entry.HipSince ? " ('" + (Entry.Hip.empty() ? Entry.Cuda : Entry.Hip) +
                                         "' is in HIP " + Entry.HipSince->str() + ")"
                                   : std::string()) +
                   ": translated to '" + Entry.Shim +
                   "', which cu2dcu defines in this file for both HIP platforms");
    Out.Edits.push_back({Offset, Length, Entry.Shim, ShimCategory, Entry.Cuda});
    return;
  }
  if (!Entry.isSupported()) {
    std::string Why = !Entry.Reason.empty() ? Entry.Reason
                      : "removed in CUDA " + Entry.CudaRemoved +
                            (Entry.Note.empty() ? "" : "; " + Entry.Note);
    if (Entry.HipSince && !Entry.Hip.empty()) // unsupported only before hip_since
      Why += " ('" + Entry.Hip + "' is in HIP " + Entry.HipSince->str() + ")";
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
                   (Entry.Hip == Entry.Cuda ? "; HIP declares it under the same name"
                                            : "; translated to '" + Entry.Hip + "'"));
  if (!Entry.Note.empty())
    addFinding(Out, Text, Path, Offset, check_ids::ApiNote, Severity::Note,
               "'" + Entry.Cuda + "' -> '" + Entry.Hip + "': " + Entry.Note);
  if (Entry.Hip != Entry.Cuda) {
    unsigned Keyword = Entry.Kind == EntryKind::Type ? elaboratedKeywordAt(Text, Offset, Length)
                                                     : Offset;
    Out.Edits.push_back({Keyword, Offset + Length - Keyword, Entry.Hip, Entry.Family, Entry.Cuda});
  }
  appendDefaultArgs(Entry, Text, Offset + Length, Out);
}

void translateLaunchBounds(const ApiMap &Map, const LaunchBoundsSpelling &Use,
                           const std::string &Text, const std::string &Path, FileFindings &Out) {
  const std::string CudaName = "__launch_bounds__";
  std::string MinBlocks = Text.substr(Use.MinBlocks.Begin, Use.MinBlocks.End - Use.MinBlocks.Begin);
  const std::string Why = "CUDA reads it as minimum blocks per SM, HIP on AMD as minimum waves per "
                          "execution unit, whose register cap can force spills";
  const ApiEntry *Entry = Map.lookup(CudaName);
  if (Entry && !Entry->Shim.empty() && Use.Name) {
    Out.Edits.push_back({Use.Name->Begin, Use.Name->End - Use.Name->Begin, Entry->Shim,
                         ShimCategory, CudaName});
    addFinding(Out, Text, Path, Use.MinBlocks.Begin, check_ids::LaunchBounds, Severity::Warning,
               "__launch_bounds__ argument '" + MinBlocks + "' kept for HIP's NVIDIA path and " +
                   "dropped on AMD ('" + Entry->Shim + "'): " + Why);
    return;
  }
  Out.Edits.push_back({Use.MaxThreadsEnd, Use.MinBlocks.End - Use.MaxThreadsEnd, "",
                       "launch-bounds", CudaName});
  addFinding(Out, Text, Path, Use.MinBlocks.Begin, check_ids::LaunchBounds, Severity::Warning,
             "removed __launch_bounds__ argument '" + MinBlocks + "': " + Why);
}

/// The file's line ending, from its first line.
static const char *lineEnding(const std::string &Text) {
  size_t Newline = Text.find('\n');
  return Newline != std::string::npos && Newline > 0 && Text[Newline - 1] == '\r' ? "\r\n" : "\n";
}

/// A shim's code as it is written into a file, under its include guard.
static std::string shimBlock(const ShimDefinition &Shim, const std::string &NL) {
  std::string Guard = "CU2DCU_SHIM_" + Shim.Name;
  std::string Code =
      "#ifndef " + Guard + NL + "#define " + Guard + NL + "// cu2dcu: " + Shim.Description + NL;
  for (const std::string &Header : Shim.Includes)
    Code += "#include <" + Header + ">" + NL;
  for (llvm::StringRef Line : llvm::split(llvm::StringRef(Shim.Code).rtrim(), '\n'))
    Code += Line.str() + NL;
  return Code + "#endif" + NL;
}

namespace {

/// The start of the text proper: after a byte order mark (UTF-8, or
/// UTF-16's bytes before ASCII text).
unsigned textStart(const std::string &Text) {
  if (Text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    return 3;
  return Text.compare(0, 2, "\xFE\xFF") == 0 || Text.compare(0, 2, "\xFF\xFE") == 0 ? 2 : 0;
}

/// A library without code for a target GPU still compiles and links; its
/// calls fail at run time there, which only a finding can tell the user.
void reportArchsWithoutCode(const ApiEntry &Entry, const TranslationOptions &Options,
                            const std::string &Text, const std::string &Path,
                            unsigned HeaderOffset, FileFindings &Out) {
  if (Entry.HipArchs.empty())
    return;
  std::vector<std::string> Missing;
  for (const std::string &Arch : Options.OffloadArchs)
    if (!llvm::is_contained(Entry.HipArchs, Arch))
      Missing.push_back(Arch);
  if (Missing.empty())
    return;
  addFinding(Out, Text, Path, HeaderOffset, check_ids::Arch, Severity::Warning,
             "header '" + Entry.Hip + "': the HIP library has no code for " +
                 llvm::join(Missing, ", ") + " (it has for " + llvm::join(Entry.HipArchs, ", ") +
                 "); the port compiles, but its calls fail at run time there. " + Entry.Note);
}

} // namespace

void translateInclude(const ApiMap &Map, const std::string &Header, unsigned HeaderOffset,
                      unsigned HeaderLength, unsigned LineBegin, unsigned LineEnd,
                      const std::string &Text, const std::string &Path,
                      const TranslationOptions &Options, FileFindings &Out,
                      std::set<std::string> &IncludedHip) {
  const ApiEntry *Entry = Map.lookupHeader(Header);
  if (!Entry)
    return;
  const ShimDefinition *Shim = Entry->Shim.empty() ? nullptr : Map.lookupShim(Entry->Shim);
  if (!Entry->isSupported() && Shim) {
    // Its names are shims of their own; the include gives way to the header's.
    Out.Edits.push_back({LineBegin, LineEnd - LineBegin, shimBlock(*Shim, lineEnding(Text)),
                         ShimCategory, Header});
    addFinding(Out, Text, Path, HeaderOffset, check_ids::Shim, Severity::Note,
               "header '" + Header + "' becomes shim " + Shim->Name + ": " + Shim->Description);
    return;
  }
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
  reportArchsWithoutCode(*Entry, Options, Text, Path, HeaderOffset, Out);
  const std::string LineEnding =
      LineEnd >= 2 && Text.compare(LineEnd - 2, 2, "\r\n") == 0 ? "\r\n" : "\n";
  std::string Above;
  if (!Entry->HipRequires.empty() && IncludedHip.insert(Entry->HipRequires).second)
    // The HIP header does not compile on its own (hip_cooperative_groups.h
    // needs hip_runtime.h), where nvcc's implicit cuda_runtime.h hid that.
    Above += "#include <" + Entry->HipRequires + ">" + LineEnding;
  // Written with the header, which is included once per file; a build that
  // defines the macro itself keeps its definition.
  for (const std::string &Macro : Entry->HipDefines)
    Above += "#ifndef " + Macro + LineEnding + "#define " + Macro + LineEnding + "#endif" +
             LineEnding;
  if (!Above.empty()) // after a byte order mark, which stays first
    Out.Edits.push_back({std::max(LineBegin, textStart(Text)), 0, Above, "include", Header});
  Out.Edits.push_back({HeaderOffset, HeaderLength, "<" + Entry->Hip + ">", "include", Header});
}

namespace {

/// The lines of Text's #include directives outside any #if: [start, end)
/// with the newline.
std::vector<ByteRange> topLevelIncludeLines(const std::string &Text) {
  std::vector<ByteRange> Lines;
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
      size_t Start = Text.rfind('\n', Tokens[I].Offset);
      size_t End = Text.find('\n', Tokens[I].Offset);
      Lines.push_back({Start == std::string::npos ? 0u : unsigned(Start + 1),
                       End == std::string::npos ? unsigned(Text.size()) : unsigned(End + 1)});
    }
  }
  return Lines;
}

} // namespace

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
  std::vector<ByteRange> Includes = topLevelIncludeLines(Text);
  unsigned Insert = Includes.empty() ? textStart(Text) : Includes.front().Begin;
  // What an #include of cuda_runtime.h brings with it (translateInclude).
  std::string Required =
      Runtime->HipRequires.empty() ? "" : "#include <" + Runtime->HipRequires + ">" + lineEnding(Text);
  return Edit{Insert, 0, Required + "#include <" + Hip + ">" + lineEnding(Text), "include",
              "cuda_runtime.h"};
}

Edit guardDefinition(const std::string &Text, const std::string &Macro) {
  const std::string NL = lineEnding(Text);
  return Edit{textStart(Text), 0,
              "#ifndef " + Macro + NL + "#define " + Macro + NL + "#endif" + NL,
              GuardDefineCategory, Macro};
}

std::string shimmedSyncWarpMessage(const std::string &MaskDescription, const HipVersion &Target,
                                   const std::string &Shim) {
  return "'__syncwarp' with lane mask " + MaskDescription + ": on AMD, HIP " + Target.str() +
         " has no __syncwarp and its shim '" + Shim +
         "' (a wavefront fence and barrier) synchronizes every active lane of the 64-lane "
         "wavefront; the mask is kept only on HIP's NVIDIA path. Check that every lane "
         "reaching this call is in the mask";
}

std::vector<ByteRange> shimBlocks(const std::string &Text) {
  std::vector<ByteRange> Blocks;
  if (Text.find("CU2DCU_SHIM_") == std::string::npos)
    return Blocks;
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  std::optional<unsigned> Begin;
  int Depth = 0;
  for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
    if (Tokens[I].Kind != clang::tok::hash || !Tokens[I].StartsLine)
      continue;
    std::string Word = cleanSpelling(Text, Tokens[I + 1]);
    if (!Begin && Word == "ifndef" && I + 2 < Tokens.size() &&
        llvm::StringRef(cleanSpelling(Text, Tokens[I + 2])).starts_with("CU2DCU_SHIM_")) {
      Begin = Tokens[I].Offset;
      Depth = 0;
    }
    if (!Begin)
      continue;
    if (llvm::StringRef(Word).starts_with("if"))
      ++Depth;
    else if (Word == "endif" && --Depth == 0) {
      Blocks.push_back({*Begin, Tokens[I + 1].Offset + Tokens[I + 1].Length});
      Begin.reset();
    }
  }
  return Blocks;
}

/// Shims in the order they are written: each after the shims it uses (those
/// not in the file already), each once.
static std::vector<const ShimDefinition *>
withUsedShims(const ApiMap &Map, const std::string &Text,
              const std::vector<const ShimDefinition *> &Used) {
  std::vector<const ShimDefinition *> Order;
  std::set<const ShimDefinition *> Placed;
  std::function<void(const ShimDefinition *)> Place = [&](const ShimDefinition *Shim) {
    if (!Placed.insert(Shim).second)
      return;
    for (const std::string &Name : Shim->Uses)
      if (const ShimDefinition *Dependency = Map.lookupShim(Name);
          Dependency && Text.find("CU2DCU_SHIM_" + Name) == std::string::npos)
        Place(Dependency);
    Order.push_back(Shim);
  };
  for (const ShimDefinition *Shim : Used)
    Place(Shim);
  return Order;
}

std::optional<Edit> shimDefinitions(const ApiMap &Map, const std::string &Text,
                                    const std::vector<Edit> &Edits) {
  // Each shim once, in the order of its first use in the file: the same for
  // every stage that renamed a use (the AST, the lexical fill-in).
  std::map<const ShimDefinition *, unsigned> FirstUseOf;
  unsigned FirstUse = unsigned(Text.size());
  for (const Edit &E : Edits) {
    // A use renamed to the shim, or an argument opened with it ("shim(").
    const ShimDefinition *Shim =
        E.Category == ShimCategory ? Map.lookupShim(llvm::StringRef(E.Text).rtrim('(').str())
                                   : nullptr;
    if (!Shim)
      continue;
    FirstUse = std::min(FirstUse, E.Offset);
    if (Text.find("CU2DCU_SHIM_" + Shim->Name) != std::string::npos) // written by an earlier run
      continue;
    unsigned &Offset = FirstUseOf.try_emplace(Shim, E.Offset).first->second;
    Offset = std::min(Offset, E.Offset);
  }
  if (FirstUseOf.empty())
    return std::nullopt;
  std::vector<const ShimDefinition *> Used;
  for (const auto &[Shim, Offset] : FirstUseOf)
    Used.push_back(Shim);
  llvm::sort(Used, [&](const ShimDefinition *A, const ShimDefinition *B) {
    return std::tie(FirstUseOf.at(A), A->Name) < std::tie(FirstUseOf.at(B), B->Name);
  });
  const std::string NL = lineEnding(Text);
  std::string Code;
  for (const ShimDefinition *Shim : withUsedShims(Map, Text, Used))
    Code += shimBlock(*Shim, NL);
  unsigned Insert = textStart(Text);
  for (const ByteRange &Line : topLevelIncludeLines(Text))
    if (Line.Begin < FirstUse)
      Insert = Line.End;
  if (Insert == Text.size() && Insert > 0 && Text.back() != '\n')
    Code = NL + Code; // after a last line without a newline
  return Edit{Insert, 0, std::move(Code), ShimCategory, ""};
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

} // namespace cu2dcu
