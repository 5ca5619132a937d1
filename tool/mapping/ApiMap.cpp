#include "mapping/ApiMap.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>

namespace cu2dcu {

namespace {

const std::pair<const char *, EntryKind> KindNames[] = {
    {"function", EntryKind::Function},     {"type", EntryKind::Type},
    {"enumerator", EntryKind::Enumerator}, {"macro", EntryKind::Macro},
    {"header", EntryKind::Header},         {"namespace", EntryKind::Namespace},
    {"variable", EntryKind::Variable}};

const std::pair<const char *, EntryStatus> StatusNames[] = {
    {"supported", EntryStatus::Supported},
    {"unsupported", EntryStatus::Unsupported},
    {"removed", EntryStatus::Removed}};

const std::set<std::string> KnownEntryKeys = {
    "cuda", "hip", "kind", "status", "reason", "note", "hip_since",
    "cuda_since", "cuda_removed", "symbol_arg", "hip_requires", "defined_only", "predefined"};

} // namespace

const char *kindName(EntryKind K) {
  for (const auto &[Name, Kind] : KindNames)
    if (Kind == K)
      return Name;
  return "?";
}

const char *statusName(EntryStatus S) {
  for (const auto &[Name, Status] : StatusNames)
    if (Status == S)
      return Name;
  return "?";
}

std::optional<HipVersion> HipVersion::parse(const std::string &Text) {
  HipVersion V;
  char Dot = 0;
  std::istringstream In(Text);
  if (!(In >> V.Major >> Dot >> V.Minor) || Dot != '.' || V.Major < 0 || V.Minor < 0)
    return std::nullopt;
  In >> std::ws;
  if (!In.eof())
    return std::nullopt;
  return V;
}

std::string HipVersion::str() const {
  return std::to_string(Major) + "." + std::to_string(Minor);
}

void ApiMap::addIssue(const std::string &File, unsigned Line, unsigned Col, std::string Msg,
                      bool IsError) {
  Issues.push_back({File, Line, Col, std::move(Msg), IsError});
}

bool ApiMap::hasErrors() const {
  return std::any_of(Issues.begin(), Issues.end(), [](const MapLoadIssue &I) { return I.IsError; });
}

bool ApiMap::loadFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    addIssue(Path, 0, 0, "cannot read map file");
    return false;
  }
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  return loadText(Buffer.str(), Path);
}

bool ApiMap::loadDirectory(const std::string &Dir) {
  std::vector<std::string> Files;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string Name = E->d_name;
      if (Name.size() > 5 && Name.compare(Name.size() - 5, 5, ".yaml") == 0)
        Files.push_back(Dir + "/" + Name);
    }
    closedir(D);
  } else {
    addIssue(Dir, 0, 0, "cannot open map directory");
    return false;
  }
  std::sort(Files.begin(), Files.end());
  bool Ok = true;
  for (const std::string &F : Files)
    Ok &= loadFile(F);
  return Ok;
}

bool ApiMap::loadText(const std::string &Text, const std::string &Origin) {
  // yaml-cpp throws on a conversion the checks below did not foresee (a key
  // that is a list, a scalar of the wrong kind): a load error, never an
  // escaping exception (found by tool/fuzz/fuzz-maps).
  try {
    return loadYaml(Text, Origin);
  } catch (const YAML::Exception &E) {
    addIssue(Origin, E.mark.line + 1, E.mark.column + 1, "malformed map: " + E.msg);
    return false;
  }
}

bool ApiMap::loadYaml(const std::string &Text, const std::string &Origin) {
  YAML::Node Root;
  try {
    Root = YAML::Load(Text);
  } catch (const YAML::Exception &E) {
    addIssue(Origin, E.mark.line + 1, E.mark.column + 1, E.msg);
    return false;
  }
  auto Where = [](const YAML::Node &N) {
    YAML::Mark M = N.Mark();
    return std::make_pair(unsigned(M.line + 1), unsigned(M.column + 1));
  };
  if (!Root.IsMap()) {
    auto [L, C] = Where(Root);
    addIssue(Origin, L, C, "a map file must be a mapping with 'family' and 'entries'");
    return false;
  }
  std::string Family = Root["family"] && Root["family"].IsScalar() ? Root["family"].as<std::string>() : "";
  if (Family.empty()) {
    auto [L, C] = Where(Root);
    addIssue(Origin, L, C, "missing 'family'");
    return false;
  }
  YAML::Node List = Root["entries"];
  if (!List || !List.IsSequence()) {
    auto [L, C] = Where(Root);
    addIssue(Origin, L, C, "missing 'entries' list");
    return false;
  }

  bool Ok = true;
  std::set<std::string> SeenHere;
  for (const YAML::Node &N : List) {
    auto [Line, Col] = Where(N);
    auto Fail = [&](const std::string &Msg) {
      addIssue(Origin, Line, Col, Msg);
      Ok = false;
    };
    if (!N.IsMap()) {
      Fail("an entry must be a mapping");
      continue;
    }
    // One pass over the entry's keys: yaml-cpp's map lookup by key is a
    // linear search that converts every key it passes.
    std::vector<std::pair<std::string, YAML::Node>> Fields;
    bool EntryOk = true;
    for (const auto &KV : N) {
      std::string Key = KV.first.as<std::string>(); // throws on a non-scalar key
      if (!KnownEntryKeys.count(Key)) {
        Fail("unknown key '" + Key + "'");
        EntryOk = false;
      }
      Fields.emplace_back(std::move(Key), KV.second);
    }
    auto Field = [&](const char *Key) {
      for (const auto &[Name, Value] : Fields)
        if (Name == Key)
          return Value;
      return YAML::Node(YAML::NodeType::Undefined);
    };
    auto Str = [&](const char *Key) -> std::string {
      YAML::Node V = Field(Key);
      return V.IsDefined() && V.IsScalar() ? V.Scalar() : std::string();
    };
    ApiEntry E;
    E.Cuda = Str("cuda");
    E.Hip = Str("hip");
    E.Family = Family;
    E.Reason = Str("reason");
    E.Note = Str("note");
    E.CudaSince = Str("cuda_since");
    E.CudaRemoved = Str("cuda_removed");
    E.HipRequires = Str("hip_requires");
    E.SourceFile = Origin;
    E.SourceLine = Line;
    if (E.Cuda.empty()) {
      Fail("entry without 'cuda' name");
      continue;
    }
    std::string Kind = Str("kind");
    auto K = std::find_if(std::begin(KindNames), std::end(KindNames),
                          [&](const auto &P) { return Kind == P.first; });
    if (K == std::end(KindNames)) {
      Fail("'" + E.Cuda + "': unknown kind '" + Kind + "'");
      continue;
    }
    E.Kind = K->second;
    std::string Status = Str("status");
    if (!Status.empty()) {
      auto S = std::find_if(std::begin(StatusNames), std::end(StatusNames),
                            [&](const auto &P) { return Status == P.first; });
      if (S == std::end(StatusNames)) {
        Fail("'" + E.Cuda + "': unknown status '" + Status + "'");
        continue;
      }
      E.Status = S->second;
    }
    if (E.Status == EntryStatus::Unsupported && E.Reason.empty()) {
      Fail("'" + E.Cuda + "': unsupported entries need a 'reason'");
      EntryOk = false;
    }
    if (E.Status == EntryStatus::Supported && !Field("hip").IsDefined()) {
      Fail("'" + E.Cuda + "': supported entries need a 'hip' name");
      EntryOk = false;
    }
    if (std::string Since = Str("hip_since"); !Since.empty()) {
      E.HipSince = HipVersion::parse(Since);
      if (!E.HipSince) {
        Fail("'" + E.Cuda + "': hip_since must be MAJOR.MINOR, got '" + Since + "'");
        EntryOk = false;
      }
    }
    if (!E.HipRequires.empty() && E.Kind != EntryKind::Header) {
      Fail("'" + E.Cuda + "': hip_requires is for header entries");
      EntryOk = false;
    }
    for (const char *Flag : {"defined_only", "predefined"}) {
      if (!Field(Flag).IsDefined())
        continue;
      bool Value = false;
      if (!YAML::convert<bool>::decode(Field(Flag), Value)) {
        Fail("'" + E.Cuda + "': " + Flag + " must be true or false");
        EntryOk = false;
      } else if (E.Kind != EntryKind::Macro) {
        Fail("'" + E.Cuda + "': " + Flag + " is for macro entries");
        EntryOk = false;
      } else if (std::string(Flag) == "defined_only") {
        E.DefinedOnly = Value;
      }
    }
    if (Field("symbol_arg").IsDefined()) {
      try {
        E.SymbolArg = Field("symbol_arg").as<unsigned>();
      } catch (const YAML::Exception &) {
        Fail("'" + E.Cuda + "': symbol_arg must be an argument index");
        EntryOk = false;
      }
    }
    if (!EntryOk)
      continue;
    if (!SeenHere.insert(E.Cuda).second) {
      Fail("duplicate entry for '" + E.Cuda + "' in the same file");
      continue;
    }
    if (E.Kind == EntryKind::Namespace && E.Cuda.size() > 2 &&
        E.Cuda.compare(E.Cuda.size() - 2, 2, "::") != 0) {
      Fail("'" + E.Cuda + "': namespace entries end with '::'");
      continue;
    }
    if (size_t Colons = E.Cuda.rfind("::");
        E.Kind != EntryKind::Namespace && E.Kind != EntryKind::Header &&
        Colons != std::string::npos && !E.Hip.empty() &&
        E.Hip.compare(0, Colons + 2, E.Cuda, 0, Colons + 2) != 0) {
      // Uses are renamed by their last name only (the qualifier may be an alias).
      Fail("'" + E.Cuda + "': a qualified entry's 'hip' name must keep the qualifier '" +
           E.Cuda.substr(0, Colons + 2) + "' (rename the namespace with a namespace entry)");
      continue;
    }
    if (E.Kind == EntryKind::Namespace && E.Cuda != E.Hip)
      ++NamespaceCount;
    auto &Table = E.Kind == EntryKind::Header ? HeaderEntries : Entries;
    auto Existing = Table.find(E.Cuda);
    if (Existing != Table.end()) {
      const ApiEntry &Old = Existing->second;
      addIssue(Origin, Line, Col,
               "'" + E.Cuda + "' overrides the entry from " + Old.SourceFile + ":" +
                   std::to_string(Old.SourceLine) +
                   (Old.Hip != E.Hip ? " (HIP name '" + Old.Hip + "' -> '" + E.Hip + "')" : ""),
               /*IsError=*/false);
      Existing->second = std::move(E);
    } else {
      std::string Key = E.Cuda;
      Table.emplace(std::move(Key), std::move(E));
    }
  }
  return Ok;
}

const ApiEntry *ApiMap::lookup(const std::string &CudaName) const {
  auto It = Entries.find(CudaName);
  return It == Entries.end() ? nullptr : &It->second;
}

const ApiEntry *ApiMap::lookupHeader(const std::string &CudaHeader) const {
  auto It = HeaderEntries.find(CudaHeader);
  return It == HeaderEntries.end() ? nullptr : &It->second;
}

std::vector<const ApiEntry *> ApiMap::entries() const {
  std::vector<const ApiEntry *> All;
  for (const auto &Table : {&Entries, &HeaderEntries})
    for (const auto &[Name, E] : *Table)
      All.push_back(&E);
  std::sort(All.begin(), All.end(),
            [](const ApiEntry *A, const ApiEntry *B) { return A->Cuda < B->Cuda; });
  return All;
}

} // namespace cu2dcu
