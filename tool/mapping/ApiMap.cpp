#include "mapping/ApiMap.h"
#include "mapping/HipDeclared.h"
#include "mapping/InlinePtxMap.h"
#include "mapping/MapCache.h"
#include "mapping/MapKeys.h"
#include "mapping/WarpNamesMap.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

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

// The values of an entry's `warp` key: the vocabulary of the maps, each the
// snake_case of the CUDA function it describes (the reductions share one).
const std::pair<const char *, WarpFn> WarpFnNames[] = {
    {"shfl_sync", WarpFn::ShflSync},         {"shfl_up_sync", WarpFn::ShflUpSync},
    {"shfl_down_sync", WarpFn::ShflDownSync}, {"shfl_xor_sync", WarpFn::ShflXorSync},
    {"ballot_sync", WarpFn::BallotSync},     {"any_sync", WarpFn::AnySync},
    {"all_sync", WarpFn::AllSync},           {"uni_sync", WarpFn::UniSync},
    {"syncwarp", WarpFn::SyncWarp},          {"activemask", WarpFn::ActiveMask},
    {"match_any_sync", WarpFn::MatchAnySync}, {"match_all_sync", WarpFn::MatchAllSync},
    {"reduce_sync", WarpFn::ReduceSync},     {"shfl", WarpFn::Shfl},
    {"shfl_up", WarpFn::ShflUp},             {"shfl_down", WarpFn::ShflDown},
    {"shfl_xor", WarpFn::ShflXor},           {"ballot", WarpFn::Ballot},
    {"any", WarpFn::Any},                    {"all", WarpFn::All}};

// The keys and patterns of mappings/schema/maps.schema.json, which the unit
// tests hold these to (testsuite/unit/ApiMapSchemaTest.cpp).
const std::set<std::string> KnownEntryKeys = {
    "cuda",         "hip",          "kind",         "status",      "reason",
    "reason_id",    "note",         "hip_since",    "cuda_since",  "cuda_removed",
    "symbol_arg",   "function_arg", "hip_requires", "hip_defines",  "hip_archs",    "defined_only",
    "predefined",   "shim",         "hip_in_condition", "legacy_hip", "mask_shim",
    "hip_guard",    "hip_guard_until", "warp",       "link",        "hip_by_arity", "out_pointer_arg", "shim_by_param",
    "qualifier_casts", "missing_members", "default_args"};
const std::set<std::string> KnownFileKeys = {"family",  "cuda_headers", "hip_headers",
                                             "api_names", "reasons",     "entries"};
const char *const VersionPattern = "^[0-9]+\\.[0-9]+$";
const char *const GpuTargetPattern = "^gfx[0-9a-f]+$";
const char *const ReasonIdPattern = "^[a-z0-9]+(-[a-z0-9]+)*$";

bool matches(const char *Pattern, const std::string &Text) {
  return llvm::Regex(Pattern).match(Text);
}

} // namespace

const std::set<std::string> &mapEntryKeys() { return KnownEntryKeys; }
const std::set<std::string> &mapFileKeys() { return KnownFileKeys; }

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

bool isShuffleRole(WarpFn Fn) {
  switch (Fn) {
  case WarpFn::ShflSync:
  case WarpFn::ShflUpSync:
  case WarpFn::ShflDownSync:
  case WarpFn::ShflXorSync:
  case WarpFn::Shfl:
  case WarpFn::ShflUp:
  case WarpFn::ShflDown:
  case WarpFn::ShflXor:
    return true;
  default:
    return false;
  }
}

bool takesLaneMask(WarpFn Fn) {
  switch (Fn) {
  case WarpFn::ShflSync:
  case WarpFn::ShflUpSync:
  case WarpFn::ShflDownSync:
  case WarpFn::ShflXorSync:
  case WarpFn::BallotSync:
  case WarpFn::AnySync:
  case WarpFn::AllSync:
  case WarpFn::UniSync:
  case WarpFn::SyncWarp:
  case WarpFn::MatchAnySync:
  case WarpFn::MatchAllSync:
  case WarpFn::ReduceSync:
    return true;
  default:
    return false;
  }
}

const char *warpFnName(WarpFn Fn) {
  for (const auto &[Name, Value] : WarpFnNames)
    if (Value == Fn)
      return Name;
  return "?";
}

void MapIssues::addIssue(const std::string &File, unsigned Line, unsigned Col, std::string Msg,
                         bool IsError) {
  Issues.push_back({File, Line, Col, std::move(Msg), IsError});
}

ShimParameter shimParameter(llvm::StringRef Key) {
  auto [Index, Type] = Key.split(':');
  unsigned N = 0;
  if (!Type.empty() && !Type.starts_with(":") && !Index.getAsInteger(10, N))
    return {N, Type.trim()};
  return {0, Key};
}

bool MapIssues::hasErrors() const {
  return std::any_of(Issues.begin(), Issues.end(), [](const MapLoadIssue &I) { return I.IsError; });
}

bool MapIssues::loadFileText(const std::string &Path, const char *What,
                             llvm::function_ref<bool(const std::string &)> Load) {
  std::optional<std::string> Text = readMapFile(Path);
  if (!Text) {
    addIssue(Path, 0, 0, std::string("cannot read ") + What);
    return false;
  }
  return Load(*Text);
}

std::optional<std::vector<std::string>> MapIssues::mapFilesOf(const std::string &Dir,
                                                              const char *What) {
  auto Files = yamlFilesOf(Dir);
  if (!Files)
    addIssue(Dir, 0, 0, std::string("cannot open ") + What);
  return Files;
}

std::optional<std::string> readMapFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

bool ApiMap::loadFile(const std::string &Path) {
  return loadFileText(Path, "map file", [&](const std::string &Text) { return loadText(Text, Path); });
}

std::optional<std::vector<std::string>> yamlFilesOf(const std::string &Dir) {
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".yaml")
      Files.push_back(It->path());
  if (EC)
    return std::nullopt;
  std::sort(Files.begin(), Files.end());
  return Files;
}

bool ApiMap::loadDirectory(const std::string &Dir) {
  auto Files = mapFilesOf(Dir, "map directory");
  if (!Files)
    return false;
  bool Ok = true;
  llvm::SmallString<256> ShimDir(Dir);
  llvm::sys::path::append(ShimDir, "shims");
  for (const std::string &F : yamlFilesOf(std::string(ShimDir)).value_or(std::vector<std::string>()))
    Ok &= loadShimFile(F);
  Ok &= checkShimUses();
  for (const std::string &F : *Files)
    Ok &= loadFile(F);
  llvm::SmallString<256> CollisionDir(Dir);
  llvm::sys::path::append(CollisionDir, "collisions");
  for (const std::string &F :
       yamlFilesOf(std::string(CollisionDir)).value_or(std::vector<std::string>()))
    Ok &= loadFileText(F, "map file", [&](const std::string &Text) {
      return loadHipDeclared(Text, F, HipDeclared, Issues);
    });
  llvm::SmallString<256> CheckDir(Dir);
  llvm::sys::path::append(CheckDir, "checks");
  for (const std::string &F : yamlFilesOf(std::string(CheckDir)).value_or(std::vector<std::string>()))
    Ok &= loadFileText(F, "map file", [&](const std::string &Text) {
      llvm::StringRef Stem = llvm::sys::path::stem(F);
      if (Stem == "inline_ptx")
        return loadInlinePtx(Text, F, InlinePtx, Issues);
      if (Stem == "warp_names")
        return loadWarpNames(Text, F, Names, Issues);
      addIssue(F, 0, 0, "a checks/ file is inline_ptx.yaml or warp_names.yaml");
      return false;
    });
  return Ok;
}

bool ApiMap::loadShimFile(const std::string &Path) {
  std::optional<std::string> Text = readMapFile(Path);
  if (!Text) {
    addIssue(Path, 0, 0, "cannot read shim file");
    return false;
  }
  try {
    YAML::Node Root = YAML::Load(*Text);
    auto Fail = [&](const YAML::Node &N, const std::string &Msg) {
      addIssue(Path, N.Mark().line + 1, N.Mark().column + 1, Msg);
      return false;
    };
    if (!Root.IsMap())
      return Fail(Root, "a shim file is a mapping with 'shim', 'description' and 'code'");
    for (const auto &KV : Root)
      if (std::string Key = KV.first.as<std::string>();
          Key != "shim" && Key != "description" && Key != "includes" && Key != "uses" &&
          Key != "code")
        return Fail(KV.first, "unknown key '" + Key + "'");
    ShimDefinition Shim;
    Shim.Name = Root["shim"] && Root["shim"].IsScalar() ? Root["shim"].Scalar() : "";
    Shim.Description = Root["description"] ? Root["description"].as<std::string>() : "";
    Shim.Code = Root["code"] ? Root["code"].as<std::string>() : "";
    if (Root["includes"])
      Shim.Includes = Root["includes"].as<std::vector<std::string>>();
    if (Root["uses"])
      Shim.Uses = Root["uses"].as<std::vector<std::string>>();
    Shim.SourceFile = Path;
    if (Shim.Name.empty() || Shim.Description.empty() || Shim.Code.empty())
      return Fail(Root, "a shim needs 'shim', 'description' and 'code'");
    if (Shims.count(Shim.Name))
      return Fail(Root, "shim '" + Shim.Name + "' is defined twice");
    std::string Name = Shim.Name;
    Shims.emplace(std::move(Name), std::move(Shim));
    return true;
  } catch (const YAML::Exception &E) {
    addIssue(Path, E.mark.line + 1, E.mark.column + 1, "malformed shim: " + E.msg);
    return false;
  }
}

bool ApiMap::checkShimUses() {
  bool Ok = true;
  for (const auto &[Name, Shim] : Shims)
    for (const std::string &Used : Shim.Uses)
      if (!Shims.count(Used) || Used == Name) {
        addIssue(Shim.SourceFile, 0, 0, "shim '" + Name + "' uses '" + Used +
                                            "', which is not another shim of mappings/shims/");
        Ok = false;
      }
  return Ok;
}

bool ApiMap::looksLikeApiName(llvm::StringRef Name) const {
  // Most identifiers start with none of the patterns' literal prefixes: a
  // string compare spares them the regex (it was most of a warm run's CPU).
  if (!ApiNames || llvm::none_of(ApiNamePrefixes, [&](const std::string &Prefix) {
        return Name.starts_with(Prefix);
      }))
    return false;
  return ApiNames->match(Name);
}

namespace {

/// The text every match of an `api_names` pattern starts with: "cu" of
/// "^cu[A-Z][a-z]"; "" when the pattern is not anchored or has an
/// alternation.
std::string literalPrefix(llvm::StringRef Pattern) {
  if (!Pattern.consume_front("^") || Pattern.contains('|'))
    return "";
  size_t End = Pattern.find_first_of(".[]()*+?{}\\^$");
  std::string Prefix = Pattern.take_front(End).str();
  // A quantifier makes the character before it optional.
  if (End < Pattern.size() && llvm::StringRef("*?{").contains(Pattern[End]) && !Prefix.empty())
    Prefix.pop_back();
  return Prefix;
}

} // namespace

const ShimDefinition *ApiMap::lookupShim(const std::string &Name) const {
  auto It = Shims.find(Name);
  return It == Shims.end() ? nullptr : &It->second;
}

namespace {

/// Validates one map file; fills Out without touching any table.
class MapFileParser {
public:
  MapFileParser(const std::string &Origin, MapFileContents &Out) : Origin(Origin), Out(Out) {}

  void parse(const std::string &Text) {
    // yaml-cpp throws on a conversion the checks below did not foresee (a
    // key that is a list, a scalar of the wrong kind): a load error, never
    // an escaping exception (found by tool/fuzz/fuzz-maps).
    YAML::Node Root;
    try {
      Root = YAML::Load(Text);
    } catch (const YAML::Exception &E) {
      return fail(E.mark.line + 1, E.mark.column + 1, E.msg);
    }
    try {
      parseDocument(Root);
    } catch (const YAML::Exception &E) {
      fail(E.mark.line + 1, E.mark.column + 1, "malformed map: " + E.msg);
    }
  }

private:
  void fail(unsigned Line, unsigned Col, std::string Msg) {
    Out.Issues.push_back({Origin, Line, Col, std::move(Msg), true});
    Out.Ok = false;
  }
  void fail(const YAML::Node &N, std::string Msg) {
    YAML::Mark M = N.Mark();
    fail(M.line + 1, M.column + 1, std::move(Msg));
  }

  void parseDocument(const YAML::Node &Root) {
    if (!Root.IsMap())
      return fail(Root, "a map file must be a mapping with 'family' and 'entries'");
    for (const auto &KV : Root)
      if (std::string Key = KV.first.as<std::string>(); !KnownFileKeys.count(Key))
        return fail(KV.first, "unknown top-level key '" + Key + "'");
    if (!readReasons(Root["reasons"]) || !readApiNames(Root["api_names"]))
      return;
    Family = Root["family"] && Root["family"].IsScalar() ? Root["family"].as<std::string>() : "";
    if (Family.empty())
      return fail(Root, "missing 'family'");
    YAML::Node List = Root["entries"];
    if (!List || !List.IsSequence())
      return fail(Root, "missing 'entries' list");
    for (const YAML::Node &N : List)
      if (std::optional<ApiEntry> E = parseEntry(N))
        accept(std::move(*E), N);
  }

  /// The file's shared reason texts by id (`reasons:`), which entries name
  /// with reason_id.
  bool readReasons(const YAML::Node &Table) {
    if (!Table)
      return true;
    if (!Table.IsMap()) {
      fail(Table, "'reasons' maps reason ids to texts");
      return false;
    }
    for (const auto &KV : Table) {
      std::string Id = KV.first.as<std::string>();
      if (!matches(ReasonIdPattern, Id) || !KV.second.IsScalar() || KV.second.Scalar().empty()) {
        fail(KV.first, "reason '" + Id + "': an id is lower-case words joined by '-', its text "
                                         "a non-empty string");
        return false;
      }
      Reasons[Id] = KV.second.Scalar();
    }
    return true;
  }

  /// The family's name patterns (`api_names`), each a valid regular expression.
  bool readApiNames(const YAML::Node &List) {
    if (!List)
      return true;
    std::string Error;
    if (!List.IsSequence() ||
        !YAML::convert<std::vector<std::string>>::decode(List, Out.ApiNamePatterns)) {
      fail(List, "'api_names' is a list of regular expressions");
      return false;
    }
    for (const std::string &Pattern : Out.ApiNamePatterns)
      if (Pattern.empty() || !llvm::Regex(Pattern).isValid(Error)) {
        fail(List, "api_names: '" + Pattern + "' is no regular expression" +
                       (Error.empty() ? "" : ": " + Error));
        return false;
      }
    return true;
  }

  using Fields = std::vector<std::pair<std::string, YAML::Node>>;

  /// One pass over the entry's keys: yaml-cpp's map lookup by key is a
  /// linear search that converts every key it passes.
  std::optional<Fields> readFields(const YAML::Node &N) {
    Fields All;
    bool Ok = true;
    for (const auto &KV : N) {
      std::string Key = KV.first.as<std::string>(); // throws on a non-scalar key
      if (!KnownEntryKeys.count(Key)) {
        fail(N, "unknown key '" + Key + "'");
        Ok = false;
      }
      All.emplace_back(std::move(Key), KV.second);
    }
    return Ok ? std::optional<Fields>(std::move(All)) : std::nullopt;
  }

  static YAML::Node field(const Fields &All, const char *Key) {
    for (const auto &[Name, Value] : All)
      if (Name == Key)
        return Value;
    return YAML::Node(YAML::NodeType::Undefined);
  }
  static std::string text(const Fields &All, const char *Key) {
    YAML::Node V = field(All, Key);
    return V.IsDefined() && V.IsScalar() ? V.Scalar() : std::string();
  }

  std::optional<ApiEntry> parseEntry(const YAML::Node &N) {
    if (!N.IsMap()) {
      fail(N, "an entry must be a mapping");
      return std::nullopt;
    }
    std::optional<Fields> All = readFields(N);
    ApiEntry E;
    E.Cuda = All ? text(*All, "cuda") : std::string();
    if (!All)
      return std::nullopt;
    if (E.Cuda.empty()) {
      fail(N, "entry without 'cuda' name");
      return std::nullopt;
    }
    E.Hip = text(*All, "hip");
    E.Family = Family;
    if (!readReason(*All, N, E))
      return std::nullopt;
    E.Note = text(*All, "note");
    E.CudaSince = text(*All, "cuda_since");
    E.CudaRemoved = text(*All, "cuda_removed");
    E.HipRequires = text(*All, "hip_requires");
    E.Link = text(*All, "link");
    E.Shim = text(*All, "shim");
    E.HipInCondition = text(*All, "hip_in_condition");
    E.LegacyHip = text(*All, "legacy_hip");
    E.MaskShim = text(*All, "mask_shim");
    E.HipGuard = text(*All, "hip_guard");
    E.SourceFile = Origin;
    E.SourceLine = N.Mark().line + 1;
    E.SourceColumn = N.Mark().column + 1;
    if (!readKindAndStatus(*All, N, E))
      return std::nullopt;
    bool Ok = checkStatus(*All, N, E) & readOptionalFields(*All, N, E);
    return Ok ? std::optional<ApiEntry>(std::move(E)) : std::nullopt;
  }

  bool readReason(const Fields &All, const YAML::Node &N, ApiEntry &E) {
    E.Reason = text(All, "reason");
    std::string Id = text(All, "reason_id");
    if (Id.empty())
      return true;
    if (!E.Reason.empty()) {
      fail(N, "'" + E.Cuda + "': an entry gives 'reason' or 'reason_id', not both");
      return false;
    }
    auto Text = Reasons.find(Id);
    if (Text == Reasons.end()) {
      fail(N, "'" + E.Cuda + "': reason_id '" + Id + "' is not one of the file's reasons");
      return false;
    }
    E.Reason = Text->second;
    return true;
  }

  bool readKindAndStatus(const Fields &All, const YAML::Node &N, ApiEntry &E) {
    if (!readNamed(N, E, "kind", text(All, "kind"), KindNames, E.Kind))
      return false;
    std::string Status = text(All, "status");
    return Status.empty() || readNamed(N, E, "status", Status, StatusNames, E.Status);
  }

  /// Out = the value Names gives Name (the field Field of E); an issue when
  /// Names has no such name.
  template <typename NameTable, typename Value>
  bool readNamed(const YAML::Node &N, const ApiEntry &E, const char *Field, const std::string &Name,
                 const NameTable &Names, Value &Out) {
    auto It = std::find_if(std::begin(Names), std::end(Names),
                           [&](const auto &P) { return Name == P.first; });
    if (It == std::end(Names)) {
      fail(N, "'" + E.Cuda + "': unknown " + Field + " '" + Name + "'");
      return false;
    }
    Out = It->second;
    return true;
  }

  bool checkStatus(const Fields &All, const YAML::Node &N, const ApiEntry &E) {
    bool Ok = true;
    if (E.Status == EntryStatus::Unsupported && E.Reason.empty()) {
      fail(N, "'" + E.Cuda + "': unsupported entries need a 'reason' or a 'reason_id'");
      Ok = false;
    }
    if (E.Status == EntryStatus::Supported && !field(All, "hip").IsDefined()) {
      fail(N, "'" + E.Cuda + "': supported entries need a 'hip' name");
      Ok = false;
    }
    if (E.Status == EntryStatus::Unsupported && !E.Hip.empty() && text(All, "hip_since").empty()) {
      fail(N, "'" + E.Cuda + "': an unsupported entry's 'hip' name needs a 'hip_since' (the "
                             "HIP version it is translated from)");
      Ok = false;
    }
    if (E.Status == EntryStatus::Removed && text(All, "cuda_removed").empty()) {
      fail(N, "'" + E.Cuda + "': removed entries need 'cuda_removed'");
      Ok = false;
    }
    return Ok & checkKindOnlyFields(All, N, E);
  }

  /// Fields that only some kinds may have.
  bool checkKindOnlyFields(const Fields &All, const YAML::Node &N, const ApiEntry &E) {
    bool Ok = true;
    auto Require = [&](bool Holds, const char *Message) {
      if (!Holds)
        fail(N, "'" + E.Cuda + "': " + Message);
      Ok &= Holds;
    };
    bool Header = E.Kind == EntryKind::Header;
    Require(!field(All, "hip").IsDefined() || !E.Hip.empty() || Header,
            "an empty 'hip' name is for header entries (it removes the include)");
    Require(E.HipRequires.empty() || Header, "hip_requires is for header entries");
    Require(E.Link.empty() || Header, "link is for header entries");
    Require(!field(All, "hip_defines").IsDefined() || Header, "hip_defines is for header entries");
    Require(!field(All, "hip_archs").IsDefined() || Header, "hip_archs is for header entries");
    Require(E.HipInCondition.empty() || E.Kind == EntryKind::Macro,
            "defined_only and hip_in_condition are for macro entries");
    Require(!field(All, "warp").IsDefined() || E.Kind == EntryKind::Function,
            "warp is for function entries");
    Require(!field(All, "hip_by_arity").IsDefined() || E.Kind == EntryKind::Function,
            "hip_by_arity is for function entries");
    Require(!field(All, "shim_by_param").IsDefined() || E.Kind == EntryKind::Function,
            "shim_by_param is for function entries");
    Require(!field(All, "qualifier_casts").IsDefined() || E.Kind == EntryKind::Function,
            "qualifier_casts is for function entries");
    Require(!field(All, "default_args").IsDefined() || E.Kind == EntryKind::Function,
            "default_args is for function entries");
    Require(E.Kind != EntryKind::Namespace ||
                llvm::StringRef(E.Cuda).ends_with("::"),
            "namespace entries end with '::'");
    return Ok;
  }

  bool readOptionalFields(const Fields &All, const YAML::Node &N, ApiEntry &E) {
    bool Ok = true;
    for (const char *Key : {"hip_since", "cuda_since", "cuda_removed", "hip_guard_until"})
      if (YAML::Node V = field(All, Key); V.IsDefined() && !matches(VersionPattern, text(All, Key))) {
        fail(N, "'" + E.Cuda + "': " + Key + " must be MAJOR.MINOR, got '" +
                    (V.IsScalar() ? V.Scalar() : std::string("?")) + "'");
        Ok = false;
      }
    if (std::string Since = text(All, "hip_since"); !Since.empty() && Ok)
      E.HipSince = HipVersion::parse(Since);
    if (std::string Until = text(All, "hip_guard_until"); !Until.empty() && Ok)
      E.HipGuardUntil = HipVersion::parse(Until);
    for (const char *Flag : {"defined_only", "predefined"})
      Ok &= readMacroFlag(field(All, Flag), Flag, N, E);
    if (field(All, "warp").IsDefined())
      Ok &= readNamed(N, E, "warp role", text(All, "warp"), WarpFnNames, E.Warp);
    for (auto [Key, Slot, What] : {std::tuple{"hip_defines", &E.HipDefines, "macro names"},
                                   {"hip_archs", &E.HipArchs, "GPU targets"}})
      if (YAML::Node List = field(All, Key); List.IsDefined() &&
                                             !YAML::convert<std::vector<std::string>>::decode(List, *Slot)) {
        fail(N, "'" + E.Cuda + "': " + Key + " must be a list of " + What);
        Ok = false;
      }
    if (!llvm::all_of(E.HipArchs, [](const std::string &Arch) { return matches(GpuTargetPattern, Arch); })) {
      fail(N, "'" + E.Cuda + "': hip_archs must name AMD GPU targets (gfx906, gfx90a, ...)");
      Ok = false;
    }
    Ok &= readFormFields(All, N, E);
    Ok &= readMissingMembers(field(All, "missing_members"), N, E);
    for (auto [Key, Slot] : {std::pair{"symbol_arg", &E.SymbolArg}, {"function_arg", &E.FunctionArg},
                             {"out_pointer_arg", &E.OutPointerArg}}) {
      YAML::Node Arg = field(All, Key);
      unsigned Index = 0;
      if (!Arg.IsDefined())
        continue;
      if (YAML::convert<unsigned>::decode(Arg, Index)) {
        *Slot = Index;
      } else {
        fail(N, "'" + E.Cuda + "': " + Key + " must be an argument index");
        Ok = false;
      }
    }
    return Ok;
  }

  /// hip_by_arity and shim_by_param: mappings of a call's form (an argument
  /// count, a parameter type) to a name; qualifier_casts, of argument
  /// indexes to types.
  bool readFormFields(const Fields &All, const YAML::Node &N, ApiEntry &E) {
    bool Ok = true;
    for (auto [Key, What, Forms] :
         {std::tuple{"hip_by_arity", "argument counts to HIP names or null", &E.HipByArity},
          {"qualifier_casts", "argument indexes to HIP parameter types", &E.QualifierCasts},
          {"default_args", "argument indexes to default values", &E.DefaultArgs}})
      Ok &= readForms(
          field(All, Key), Key, What, N, E,
          [Forms = Forms](const std::string &Form, const std::string &Value) {
            unsigned Number = 0;
            if (!matches("^[0-9]+$", Form) || llvm::StringRef(Form).getAsInteger(10, Number))
              return false;
            (*Forms)[Number] = Value;
            return true;
          },
          /*NullAllowed=*/Forms == &E.HipByArity);
    return readForms(field(All, "shim_by_param"), "shim_by_param", "parameter types to shim names",
                     N, E, [&](const std::string &Form, const std::string &Name) {
                       E.ShimByParam[Form] = Name;
                       return !Form.empty();
                     }) && Ok;
  }

  /// missing_members: member names to a HIP version or null, on type entries.
  bool readMissingMembers(const YAML::Node &Members, const YAML::Node &N, ApiEntry &E) {
    if (!Members.IsDefined())
      return true;
    bool Ok = Members.IsMap() && E.Kind == EntryKind::Type;
    for (auto It = Members.begin(); Ok && It != Members.end(); ++It) {
      Ok = It->first.IsScalar() && matches("^[A-Za-z_][A-Za-z0-9_]*$", It->first.Scalar()) &&
           (It->second.IsNull() ||
            (It->second.IsScalar() && matches(VersionPattern, It->second.Scalar())));
      if (Ok)
        E.MissingMembers[It->first.Scalar()] =
            It->second.IsNull() ? std::nullopt : HipVersion::parse(It->second.Scalar());
    }
    if (!Ok)
      fail(N, "'" + E.Cuda + "': missing_members must map member names to a HIP version or null, "
                             "on a type entry");
    return Ok;
  }

  /// A mapping of scalars to non-empty scalars; Add takes each pair and says
  /// whether its form is valid.
  /// A form's value is a non-empty scalar, or null where NullAllowed (read
  /// as "": hip_by_arity's count that no HIP function takes).
  bool readForms(const YAML::Node &Forms, const char *Key, const char *What, const YAML::Node &N,
                 const ApiEntry &E, llvm::function_ref<bool(const std::string &, const std::string &)> Add,
                 bool NullAllowed = false) {
    if (!Forms.IsDefined())
      return true;
    bool Ok = Forms.IsMap();
    for (auto It = Forms.begin(); Ok && It != Forms.end(); ++It) {
      const bool Null = NullAllowed && It->second.IsNull();
      Ok = It->first.IsScalar() && (Null || (It->second.IsScalar() && !It->second.Scalar().empty())) &&
           Add(It->first.Scalar(), Null ? std::string() : It->second.Scalar());
    }
    if (!Ok)
      fail(N, "'" + E.Cuda + "': " + Key + " must map " + What);
    return Ok;
  }

  bool readMacroFlag(const YAML::Node &Value, const char *Flag, const YAML::Node &N,
                     ApiEntry &E) {
    if (!Value.IsDefined())
      return true;
    bool On = false;
    if (!YAML::convert<bool>::decode(Value, On)) {
      fail(N, "'" + E.Cuda + "': " + Flag + " must be true or false");
      return false;
    }
    bool Compiler = std::string(Flag) == "predefined" && E.Kind == EntryKind::Function;
    if (E.Kind != EntryKind::Macro && !Compiler) {
      fail(N, "'" + E.Cuda + "': " +
                  (std::string(Flag) == "predefined"
                       ? "predefined is for macro entries and compiler built-in functions"
                       : "defined_only and hip_in_condition are for macro entries"));
      return false;
    }
    if (std::string(Flag) == "defined_only")
      E.DefinedOnly = On;
    return true;
  }

  /// The checks that need the whole entry, then keeps it.
  void accept(ApiEntry E, const YAML::Node &N) {
    if (!SeenHere.insert(E.Cuda).second)
      return fail(N, "duplicate entry for '" + E.Cuda + "' in the same file");
    if (size_t Colons = E.Cuda.rfind("::");
        E.Kind != EntryKind::Namespace && E.Kind != EntryKind::Header &&
        Colons != std::string::npos && !E.Hip.empty() &&
        E.Hip.compare(0, Colons + 2, E.Cuda, 0, Colons + 2) != 0)
      // Uses are renamed by their last name only (the qualifier may be an alias).
      return fail(N, "'" + E.Cuda + "': a qualified entry's 'hip' name must keep the qualifier '" +
                         E.Cuda.substr(0, Colons + 2) +
                         "' (rename the namespace with a namespace entry)");
    Out.Entries.push_back(std::move(E));
  }

  const std::string &Origin;
  MapFileContents &Out;
  std::string Family;
  std::map<std::string, std::string> Reasons;
  std::set<std::string> SeenHere;
};

} // namespace

bool ApiMap::loadText(const std::string &Text, const std::string &Origin) {
  std::string Key = CacheDir.empty() ? std::string() : mapCacheKey(Text);
  if (!Key.empty())
    if (std::optional<MapFileContents> Cached = readCachedMap(CacheDir, Key, Origin))
      return merge(std::move(*Cached), Origin);
  MapFileContents Contents;
  MapFileParser(Origin, Contents).parse(Text);
  if (!Key.empty())
    writeCachedMap(CacheDir, Key, Contents);
  return merge(std::move(Contents), Origin);
}

bool ApiMap::merge(MapFileContents Contents, const std::string &Origin) {
  for (MapLoadIssue &Issue : Contents.Issues)
    Issues.push_back(std::move(Issue));
  if (!Contents.ApiNamePatterns.empty()) {
    ApiNamePatterns.insert(ApiNamePatterns.end(), Contents.ApiNamePatterns.begin(),
                           Contents.ApiNamePatterns.end());
    ApiNames = std::make_shared<const llvm::Regex>("(" + llvm::join(ApiNamePatterns, ")|(") + ")");
    for (const std::string &Pattern : Contents.ApiNamePatterns)
      ApiNamePrefixes.push_back(literalPrefix(Pattern));
  }
  for (ApiEntry &E : Contents.Entries) {
    std::string Missing;
    for (const std::string *Shim : {&E.Shim, &E.MaskShim})
      if (!Shim->empty() && !lookupShim(*Shim))
        Missing = *Shim;
    for (const auto &[Param, Shim] : E.ShimByParam)
      if (!lookupShim(Shim))
        Missing = Shim;
    if (!Missing.empty()) {
      addIssue(Origin, E.SourceLine, E.SourceColumn,
               "'" + E.Cuda + "': no shim '" + Missing + "' (mappings/shims/)");
      Contents.Ok = false;
      continue;
    }
    if (E.Status == EntryStatus::Unsupported && !E.Hip.empty() && E.HipSince &&
        !(TargetHip < *E.HipSince))
      E.Status = EntryStatus::Supported; // the target has the HIP name (hip_since)
    if (E.Kind == EntryKind::Namespace && E.Cuda != E.Hip)
      ++NamespaceCount;
    auto &Table = E.Kind == EntryKind::Header ? HeaderEntries : Entries;
    auto Existing = Table.find(E.Cuda);
    if (Existing == Table.end()) {
      std::string Key = E.Cuda;
      Table.emplace(std::move(Key), std::move(E));
      continue;
    }
    const ApiEntry &Old = Existing->second;
    addIssue(Origin, E.SourceLine, E.SourceColumn,
             "'" + E.Cuda + "' overrides the entry from " + Old.SourceFile + ":" +
                 std::to_string(Old.SourceLine) +
                 (Old.Hip != E.Hip ? " (HIP name '" + Old.Hip + "' -> '" + E.Hip + "')" : ""),
             /*IsError=*/false);
    Existing->second = std::move(E);
  }
  return Contents.Ok;
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
