#include "mapping/InlinePtxMap.h"

#include <yaml-cpp/yaml.h>

#include <optional>

namespace cu2dcu {

namespace {

const std::set<std::string> EntryKeys = {"ptx", "hip", "note", "fix"};

std::string scalar(const YAML::Node &N, const char *Key) {
  YAML::Node V = N[Key];
  return V && V.IsScalar() ? V.Scalar() : std::string();
}

/// One idiom, or the error message about it.
std::optional<PtxIdiom> readIdiom(const YAML::Node &N, std::string &Error) {
  if (!N.IsMap()) {
    Error = "an entry is a mapping";
    return std::nullopt;
  }
  for (const auto &KV : N)
    if (std::string Key = KV.first.as<std::string>(); !EntryKeys.count(Key)) {
      Error = "unknown key '" + Key + "'";
      return std::nullopt;
    }
  PtxIdiom I;
  I.Ptx = scalar(N, "ptx");
  I.Hip = scalar(N, "hip");
  I.Note = scalar(N, "note");
  if (I.Ptx.empty()) {
    Error = "an entry needs a 'ptx' spelling";
    return std::nullopt;
  }
  if (I.Hip.empty() == I.Note.empty()) {
    Error = "'" + I.Ptx + "': an idiom gives 'hip' or 'note', one of them";
    return std::nullopt;
  }
  if (N["fix"] && !YAML::convert<bool>::decode(N["fix"], I.Fix)) {
    Error = "'" + I.Ptx + "': fix must be true or false";
    return std::nullopt;
  }
  if (I.Fix && (I.Hip.empty() || I.Ptx[0] != '%')) {
    Error = "'" + I.Ptx + "': fix is for a special register (%name) with a 'hip' replacement";
    return std::nullopt;
  }
  return I;
}

} // namespace

const std::set<std::string> &inlinePtxEntryKeys() { return EntryKeys; }

bool loadInlinePtx(const std::string &Text, const std::string &Path, std::vector<PtxIdiom> &Out,
                   std::vector<MapLoadIssue> &Issues) {
  auto Fail = [&](const YAML::Mark &At, std::string Message) {
    Issues.push_back({Path, unsigned(At.line + 1), unsigned(At.column + 1), std::move(Message)});
    return false;
  };
  try {
    YAML::Node Root = YAML::Load(Text);
    if (!Root.IsMap() || scalar(Root, "family") != "inline_ptx" || !Root["entries"] ||
        !Root["entries"].IsSequence())
      return Fail(Root.Mark(), "an inline_ptx file has 'family: inline_ptx' and 'entries'");
    for (const auto &KV : Root)
      if (std::string Key = KV.first.as<std::string>(); Key != "family" && Key != "entries")
        return Fail(KV.first.Mark(), "unknown top-level key '" + Key + "'");
    std::set<std::string> Seen;
    for (const YAML::Node &N : Root["entries"]) {
      std::string Error;
      std::optional<PtxIdiom> I = readIdiom(N, Error);
      if (I && !Seen.insert(I->Ptx).second)
        Error = "'" + I->Ptx + "' is listed twice";
      if (!Error.empty())
        return Fail(N.Mark(), Error);
      Out.push_back(std::move(*I));
    }
    return true;
  } catch (const YAML::Exception &E) {
    return Fail(E.mark, "malformed inline_ptx file: " + E.msg);
  }
}

} // namespace cu2dcu
