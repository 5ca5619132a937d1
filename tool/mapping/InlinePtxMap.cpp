#include "mapping/InlinePtxMap.h"

#include "mapping/FamilyFile.h"

#include "llvm/ADT/STLExtras.h"

#include <optional>

namespace cu2dcu {

namespace {

const std::set<std::string> EntryKeys = {"ptx", "hip", "note", "fix", "lane_level", "yields"};
const std::set<std::string> FileKeys = {"family", "ptx_markers", "nvidia_only_macros", "entries"};

bool readFlag(const YAML::Node &N, const char *Key, bool &Out, const PtxIdiom &I,
              std::string &Error) {
  if (N[Key] && !YAML::convert<bool>::decode(N[Key], Out))
    Error = "'" + I.Ptx + "': " + Key + " must be true or false";
  return Error.empty();
}

bool readYields(const YAML::Node &N, PtxIdiom &I, std::string &Error) {
  std::string Yields = yamlScalar(N, "yields");
  if (Yields == "lane_index")
    I.Yields = LaneValue::LaneIndex;
  else if (Yields == "lane_mask")
    I.Yields = LaneValue::LaneMask;
  else if (N["yields"])
    Error = "'" + I.Ptx + "': yields is lane_index or lane_mask";
  return Error.empty();
}

/// One idiom, or the error message about it.
std::optional<PtxIdiom> readIdiom(const YAML::Node &N, std::string &Error) {
  if (!N.IsMap()) {
    Error = "an entry is a mapping";
    return std::nullopt;
  }
  if (!knownKeys(N, EntryKeys, Error))
    return std::nullopt;
  PtxIdiom I;
  I.Ptx = yamlScalar(N, "ptx");
  I.Hip = yamlScalar(N, "hip");
  I.Note = yamlScalar(N, "note");
  if (I.Ptx.empty())
    Error = "an entry needs a 'ptx' spelling";
  else if (I.Hip.empty() == I.Note.empty())
    Error = "'" + I.Ptx + "': an idiom gives 'hip' or 'note', one of them";
  if (!Error.empty() || !readFlag(N, "fix", I.Fix, I, Error) ||
      !readFlag(N, "lane_level", I.LaneLevel, I, Error) || !readYields(N, I, Error))
    return std::nullopt;
  if (I.Fix && (I.Hip.empty() || I.Ptx[0] != '%')) {
    Error = "'" + I.Ptx + "': fix is for a special register (%name) with a 'hip' replacement";
    return std::nullopt;
  }
  return I;
}

} // namespace

bool InlinePtxRules::looksLikePtx(const std::string &Asm) const {
  return llvm::any_of(PtxMarkers,
                      [&](const std::string &M) { return Asm.find(M) != std::string::npos; });
}

std::string InlinePtxRules::adviceFor(const std::string &Asm) const {
  std::string Advice;
  std::string Unmatched = Asm;
  for (const PtxIdiom &I : Idioms) {
    size_t At = Unmatched.find(I.Ptx);
    if (At == std::string::npos)
      continue;
    Unmatched.replace(At, I.Ptx.size(), I.Ptx.size(), ' ');
    Advice += (Advice.empty() ? "HIP replacement: '" : "; '") + I.Ptx + "' -> " +
              (I.Hip.empty() ? I.Note : I.Hip);
  }
  return Advice.empty() ? "rewrite it with HIP intrinsics or plain C++" : Advice;
}

const std::set<std::string> &inlinePtxEntryKeys() { return EntryKeys; }
const std::set<std::string> &inlinePtxFileKeys() { return FileKeys; }

bool loadInlinePtx(const std::string &Text, const std::string &Path, InlinePtxRules &Out,
                   std::vector<MapLoadIssue> &Issues) {
  FamilyFileReader Reader(Path, Issues);
  return Reader.read(Text, "inline_ptx", FileKeys, [&](const YAML::Node &Root) {
    if (!Root["entries"] || !Root["entries"].IsSequence())
      return Reader.fail(Root.Mark(), "an inline_ptx file has a list of 'entries'");
    if (!Reader.strings(Root, "ptx_markers", Out.PtxMarkers) ||
        !Reader.strings(Root, "nvidia_only_macros", Out.NvidiaOnlyMacros))
      return false;
    std::set<std::string> Seen;
    for (const YAML::Node &N : Root["entries"]) {
      std::string Error;
      std::optional<PtxIdiom> I = readIdiom(N, Error);
      if (I && !Seen.insert(I->Ptx).second)
        Error = "'" + I->Ptx + "' is listed twice";
      if (!Error.empty())
        return Reader.fail(N.Mark(), Error);
      Out.Idioms.push_back(std::move(*I));
    }
    return true;
  });
}

} // namespace cu2dcu
