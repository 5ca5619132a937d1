#include "Explain.h"

#include "rewrite/EditApplier.h"
#include "translate/EntryTranslation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <set>

namespace cu2dcu {

namespace {

constexpr const char *ProbePath = "explain.cu";

/// A use of Name as a run would see it: the identifier alone, or an
/// #include line for a header entry.
std::string probeText(const ApiEntry &E) {
  return E.Kind == EntryKind::Header ? "#include <" + E.Cuda + ">\n" : E.Cuda;
}

/// What the probe use of E becomes at the map's target, and its findings.
FileFindings translateProbe(const ApiMap &Map, const ApiEntry &E, const HipVersion &Target) {
  TranslationOptions Options;
  Options.TargetHip = Target;
  FileFindings Out;
  const std::string Text = probeText(E);
  if (E.Kind == EntryKind::Header) {
    std::set<std::string> IncludedHip;
    translateInclude(Map, E.Cuda, unsigned(Text.find('<')), unsigned(E.Cuda.size() + 2), 0,
                     unsigned(Text.size()), Text, ProbePath, Options, Out, IncludedHip);
  } else {
    translateUse(E, 0, unsigned(Text.size()), Text, ProbePath, Options, Out);
  }
  return Out;
}

void printEntryFacts(const ApiEntry &E, llvm::raw_ostream &OS) {
  OS << E.Cuda << ": " << kindName(E.Kind);
  if (!E.Family.empty())
    OS << " of the " << E.Family << " family";
  OS << " (" << E.SourceFile << ":" << E.SourceLine << ")\n";
  if (!E.CudaSince.empty())
    OS << "  CUDA since " << E.CudaSince << "\n";
  if (!E.CudaRemoved.empty())
    OS << "  removed from CUDA in " << E.CudaRemoved << "\n";
  if (!E.Note.empty())
    OS << "  note: " << E.Note << "\n";
  if (!E.Link.empty())
    OS << "  link: -l" << E.Link << " (build files gain it)\n";
  if (!E.HipArchs.empty())
    OS << "  the HIP library has code for " << llvm::join(E.HipArchs, ", ")
       << " only (other --offload-arch targets: CU2DCU-ARCH)\n";
  if (!E.MissingMembers.empty()) {
    std::vector<std::string> Members;
    for (const auto &[Member, Since] : E.MissingMembers)
      Members.push_back(Member + (Since ? " (from HIP " + Since->str() + ")" : ""));
    OS << "  members " << E.Hip << " lacks (an access is a CU2DCU-MEMBER error): "
       << llvm::join(Members, ", ") << "\n";
  }
  for (const auto &[Arity, Hip] : E.HipByArity)
    OS << "  a call with " << Arity << " argument" << (Arity == 1 ? "" : "s")
       << (Hip.empty() ? " has no HIP equivalent (CU2DCU-UNSUPPORTED)" : " becomes " + Hip + " instead")
       << "\n";
  for (const auto &[Index, Value] : E.DefaultArgs)
    OS << "  argument " << Index + 1 << ", which CUDA defaults and HIP does not, is appended as "
       << Value << " when a call leaves it out\n";
}

void printShim(const ApiMap &Map, const std::string &Name, const char *Role,
               llvm::raw_ostream &OS) {
  const ShimDefinition *Shim = Map.lookupShim(Name);
  if (!Shim)
    return;
  OS << "    " << Role << " shim " << Shim->Name << " (" << Shim->SourceFile << "):\n      "
     << llvm::join(llvm::split(llvm::StringRef(Shim->Code).rtrim(), '\n'), "\n      ") << "\n";
}

void printTarget(const ApiMap &Map, const ApiEntry &E, const HipVersion &Target,
                 llvm::raw_ostream &OS) {
  FileFindings Out = translateProbe(Map, E, Target);
  const std::string Text = probeText(E);
  const std::string After = applyEdits(ProbePath, Text, Out.Edits).Text;
  llvm::StringRef Shown = llvm::StringRef(After).rtrim();
  OS << "  HIP " << Target.str() << ": ";
  if (After == Text)
    OS << "left as written";
  else if (Shown.empty())
    OS << "removed";
  else if (Shown.contains('\n'))
    OS << "becomes\n      " << llvm::join(llvm::split(Shown, '\n'), "\n      ");
  else
    OS << "becomes " << Shown;
  OS << "\n";
  if (E.HipSince)
    OS << "    the HIP name is declared from HIP " << E.HipSince->str() << "\n";
  if (!E.LegacyHip.empty() && E.HipSince && Target < *E.HipSince)
    OS << "    a call becomes " << E.LegacyHip << " (its lane mask dropped), as before HIP "
       << E.HipSince->str() << "\n";
  if (!E.HipGuard.empty() && E.HipSince && !(Target < *E.HipSince) &&
      (!E.HipGuardUntil || Target < *E.HipGuardUntil))
    OS << "    the HIP headers declare it only under " << E.HipGuard
       << ": cu2dcu defines that in the file\n";
  for (const Diagnostic &D : Out.Diagnostics)
    OS << "    " << severityName(D.Level) << " [" << D.CheckId << "]: " << D.Message << "\n";
  if (!E.Shim.empty() && Shown.contains(E.Shim))
    printShim(Map, E.Shim, "uses", OS);
  if (!E.MaskShim.empty() && !(E.HipSince && Target < *E.HipSince))
    printShim(Map, E.MaskShim, "a 32-bit lane mask argument goes through", OS);
}

/// The known names closest to Name by edit distance, at most Count.
std::vector<std::string> closestNames(const ApiMap &Map, const std::string &Name,
                                      size_t Count = 5) {
  std::vector<std::pair<unsigned, std::string>> Scored;
  const std::string Lower = llvm::StringRef(Name).lower();
  const unsigned Limit = std::max<unsigned>(3, unsigned(Name.size() / 3));
  for (const ApiEntry *E : Map.entries()) {
    unsigned Distance = llvm::StringRef(E->Cuda).lower() == Lower
                            ? 0
                            : llvm::StringRef(Lower).edit_distance(llvm::StringRef(E->Cuda).lower(),
                                                                   true, Limit + 1);
    if (Distance <= Limit)
      Scored.push_back({Distance, E->Cuda});
  }
  llvm::sort(Scored);
  std::vector<std::string> Names;
  for (const auto &[Distance, Known] : Scored)
    if (Names.size() < Count && !llvm::is_contained(Names, Known))
      Names.push_back(Known);
  return Names;
}

} // namespace

int explainName(const std::string &Name, const std::vector<HipVersion> &Targets,
                const MapLoader &Load, llvm::raw_ostream &OS) {
  bool PrintedFacts = false;
  for (const HipVersion &Target : Targets) {
    ApiMap Map;
    if (!Load(Map, Target))
      return 2;
    const ApiEntry *E = Map.lookup(Name);
    if (!E)
      E = Map.lookupHeader(Name);
    if (!E) {
      std::vector<std::string> Closest = closestNames(Map, Name);
      llvm::errs() << "cu2dcu: '" << Name << "' is not in the maps";
      if (!Closest.empty())
        llvm::errs() << "; the closest known names: " << llvm::join(Closest, ", ");
      llvm::errs() << "\n";
      return 1;
    }
    if (!PrintedFacts)
      printEntryFacts(*E, OS);
    PrintedFacts = true;
    printTarget(Map, *E, Target, OS);
  }
  return 0;
}

} // namespace cu2dcu
