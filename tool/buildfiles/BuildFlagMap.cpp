#include "buildfiles/BuildFlagMap.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

namespace cu2dcu {

/// Reads the sections of one map file into a BuildFlagMap, reporting every
/// problem with the file, line and column of the node it is about.
class BuildMapReader {
public:
  BuildMapReader(BuildFlagMap &Map, std::string Origin) : Map(Map), Origin(std::move(Origin)) {}

  bool read(const YAML::Node &Root) {
    if (!Root.IsMap())
      return fail(Root, "a build map file must be a mapping with 'family' and its sections");
    if (!Root["family"] || !Root["family"].IsScalar())
      return fail(Root, "missing 'family'");
    for (const auto &KV : Root) {
      std::string Key = KV.first.as<std::string>();
      if (Key != "family")
        readSection(Key, KV.second);
    }
    return Ok;
  }

private:
  using Fields = std::map<std::string, YAML::Node>;

  /// The field's node; an absent key is an undefined node (a Fields lookup
  /// with [] would insert a null one).
  static YAML::Node get(const Fields &F, const char *Key) {
    auto It = F.find(Key);
    return It == F.end() ? YAML::Node(YAML::NodeType::Undefined) : It->second;
  }

  void readSection(const std::string &Key, const YAML::Node &N) {
    if (Key == "flags")
      return each(N, [&](const YAML::Node &E) { readFlag(E); });
    if (Key == "compilers")
      return each(N, [&](const YAML::Node &E) {
        if (auto F = fields(E, {"cuda", "hip"}))
          Map.Compilers[str(*F, "cuda")] = str(*F, "hip");
      });
    if (Key == "path_flags")
      return each(N, [&](const YAML::Node &E) { readPathFlag(E); });
    if (Key == "toolkit_roots")
      return readToolkitRoots(N);
    if (Key == "keyword_values")
      return each(N, [&](const YAML::Node &E) {
        if (auto F = fields(E, {"command", "keyword", "cuda", "hip"}))
          Map.KeywordValues.push_back(
              {str(*F, "command"), str(*F, "keyword"), str(*F, "cuda"), str(*F, "hip")});
      });
    if (std::map<std::string, NameRule> *Table = nameTable(Key))
      return each(N, [&](const YAML::Node &E) { readNameRule(E, *Table); });
    if (std::vector<std::string> *List = wordList(Key)) {
      *List = strings(N);
      return;
    }
    fail(N, "unknown section '" + Key + "'");
  }

  std::map<std::string, NameRule> *nameTable(const std::string &Key) {
    std::map<std::string, std::map<std::string, NameRule> *> Tables = {
        {"libraries", &Map.Libraries},   {"languages", &Map.Languages},
        {"source_languages", &Map.SourceLanguages},
        {"variables", &Map.Variables},   {"references", &Map.References},
        {"properties", &Map.Properties}, {"packages", &Map.Packages},
        {"targets", &Map.Targets},       {"commands", &Map.Commands},
        {"compile_features", &Map.CompileFeatures}};
    auto It = Tables.find(Key);
    return It == Tables.end() ? nullptr : It->second;
  }

  std::vector<std::string> *wordList(const std::string &Key) {
    std::map<std::string, std::vector<std::string> *> Lists = {
        {"flag_commands", &Map.FlagCommands},       {"flag_keywords", &Map.FlagKeywords},
        {"library_commands", &Map.LibraryCommands}, {"library_keywords", &Map.LibraryKeywords},
        {"source_commands", &Map.SourceCommands},
        {"cuda_source_extensions", &Map.CudaSourceExtensions},
        {"link_requires", &Map.LinkRequires},
        {"input_path_flags", &Map.InputPathFlags},
        {"output_path_flags", &Map.OutputPathFlags}};
    auto It = Lists.find(Key);
    return It == Lists.end() ? nullptr : It->second;
  }

  void readFlag(const YAML::Node &E) {
    auto F = fields(E, {"names", "value", "action", "hip", "values", "distinctive",
                        "distinctive_values", "level", "reason"});
    if (!F)
      return;
    NvccFlagRule R;
    R.Names = strings(get(*F, "names"));
    R.Origin = where(E);
    if (R.Names.empty())
      return (void)fail(E, "a flag needs 'names'");
    std::string Value = str(*F, "value", "none");
    if (Value != "none" && Value != "required")
      return (void)fail(E, "'value' must be none or required, got '" + Value + "'");
    R.TakesValue = Value == "required";
    static const std::map<std::string, FlagAction> Actions = {
        {"replace", FlagAction::Replace},
        {"offload-arch", FlagAction::OffloadArch},
        {"host-options", FlagAction::HostOptions},
        {"linker-options", FlagAction::LinkerOptions},
        {"unsupported", FlagAction::Unsupported}};
    auto A = Actions.find(str(*F, "action", "replace"));
    if (A == Actions.end())
      return (void)fail(E, "unknown action '" + str(*F, "action") + "'");
    R.Action = A->second;
    R.Hip = strings(get(*F, "hip"));
    if (YAML::Node V = get(*F, "values"); V.IsDefined()) {
      if (!V.IsMap())
        return (void)fail(V, "'values' must map a value to a list of words");
      for (const auto &KV : V)
        R.ByValue[KV.first.as<std::string>()] = strings(KV.second);
    }
    if (R.Action == FlagAction::Replace && !get(*F, "hip").IsDefined() && R.ByValue.empty())
      return (void)fail(E, "'" + R.Names[0] + "': a replace rule needs 'hip' or 'values'");
    if (R.Action == FlagAction::Unsupported && str(*F, "reason").empty())
      return (void)fail(E, "'" + R.Names[0] + "': unsupported flags need a 'reason'");
    R.Distinctive = boolean(*F, "distinctive");
    R.DistinctiveValues = strings(get(*F, "distinctive_values"));
    if (!R.DistinctiveValues.empty() && !R.TakesValue)
      return (void)fail(E, "'" + R.Names[0] + "': distinctive_values needs value: required");
    if (!level(*F, R.Level))
      return;
    R.Reason = str(*F, "reason");
    for (const std::string &Name : R.Names)
      if (!Map.FlagByName.emplace(Name, Map.Flags.size()).second)
        return (void)fail(E, "flag '" + Name + "' is listed twice");
    Map.Flags.push_back(std::move(R));
  }

  void readNameRule(const YAML::Node &E, std::map<std::string, NameRule> &Table) {
    auto F = fields(E, {"cuda", "hip", "action", "value", "package", "options", "level", "reason"});
    if (!F)
      return;
    NameRule R;
    R.Cuda = str(*F, "cuda");
    R.Hip = str(*F, "hip");
    R.Value = str(*F, "value");
    R.Package = str(*F, "package");
    R.Options = str(*F, "options");
    R.Reason = str(*F, "reason");
    R.Origin = where(E);
    std::string Action = str(*F, "action", "rename");
    if (Action == "drop")
      R.Action = RuleAction::Drop;
    else if (Action == "unsupported")
      R.Action = RuleAction::Unsupported;
    else if (Action == "rdc")
      R.Value = "rdc"; // a rename whose value becomes -fgpu-rdc options
    else if (Action != "rename")
      return (void)fail(E, "unknown action '" + Action + "'");
    if (R.Cuda.empty())
      return (void)fail(E, "entry without 'cuda' name");
    if (Action == "rename" && !get(*F, "hip").IsDefined())
      return (void)fail(E, "'" + R.Cuda + "': a rename needs a 'hip' name");
    if (R.Action == RuleAction::Unsupported && R.Reason.empty())
      return (void)fail(E, "'" + R.Cuda + "': unsupported entries need a 'reason'");
    if (!level(*F, R.Level))
      return;
    if (!Table.emplace(R.Cuda, R).second)
      fail(E, "duplicate entry for '" + R.Cuda + "'");
  }

  void readPathFlag(const YAML::Node &E) {
    auto F = fields(E, {"flag", "subdirs", "action"});
    if (!F)
      return;
    PathFlagRule R;
    R.Flag = str(*F, "flag");
    R.Subdirs = strings(get(*F, "subdirs"));
    std::string Action = str(*F, "action", "drop");
    if (Action != "drop" && Action != "unsupported")
      return (void)fail(E, "path flags are 'drop' or 'unsupported', got '" + Action + "'");
    R.Action = Action == "drop" ? RuleAction::Drop : RuleAction::Unsupported;
    if (R.Flag.empty() || R.Subdirs.empty())
      return (void)fail(E, "a path flag needs 'flag' and 'subdirs'");
    Map.PathFlags.push_back(std::move(R));
  }

  void readToolkitRoots(const YAML::Node &N) {
    if (auto F = fields(N, {"variables", "prefixes"})) {
      for (std::string &V : strings(get(*F, "variables")))
        Map.ToolkitVariables.push_back(std::move(V));
      for (std::string &P : strings(get(*F, "prefixes")))
        Map.ToolkitPrefixes.push_back(std::move(P));
    }
  }

  // --- node helpers ---------------------------------------------------------

  template <typename Fn> void each(const YAML::Node &N, Fn Read) {
    if (!N.IsSequence())
      return (void)fail(N, "expected a list");
    for (const YAML::Node &E : N)
      Read(E);
  }

  /// The entry's fields by name, or nothing (and an error) when it is not a
  /// mapping or has a key outside Known.
  std::optional<Fields> fields(const YAML::Node &E, std::set<std::string> Known) {
    if (!E.IsMap())
      return fail(E, "an entry must be a mapping"), std::nullopt;
    Fields F;
    for (const auto &KV : E) {
      std::string Key = KV.first.as<std::string>();
      if (!Known.count(Key))
        return fail(KV.first, "unknown key '" + Key + "'"), std::nullopt;
      F[Key] = KV.second;
    }
    return F;
  }

  std::vector<std::string> strings(const YAML::Node &N) {
    std::vector<std::string> Out;
    if (!N.IsDefined() || N.IsNull())
      return Out;
    if (!N.IsSequence()) {
      fail(N, "expected a list of words");
      return Out;
    }
    for (const YAML::Node &W : N) {
      if (!W.IsScalar())
        fail(W, "expected a word");
      else
        Out.push_back(W.Scalar());
    }
    return Out;
  }

  std::string str(Fields &F, const char *Key, const char *Default = "") {
    YAML::Node N = get(F, Key);
    if (!N.IsDefined())
      return Default;
    if (!N.IsScalar())
      return fail(N, std::string("'") + Key + "' must be a word"), Default;
    return N.Scalar();
  }

  bool boolean(Fields &F, const char *Key) {
    bool Value = false;
    YAML::Node N = get(F, Key);
    if (N.IsDefined() && !YAML::convert<bool>::decode(N, Value))
      fail(N, std::string("'") + Key + "' must be true or false");
    return Value;
  }

  bool level(Fields &F, std::optional<Severity> &Out) {
    std::string L = str(F, "level");
    for (Severity S : {Severity::Note, Severity::Warning, Severity::Error})
      if (L == severityName(S))
        Out = S;
    if (!L.empty() && !Out)
      return fail(get(F, "level"), "'level' must be note, warning or error, got '" + L + "'");
    return true;
  }

  std::string where(const YAML::Node &N) {
    return Origin + ":" + std::to_string(N.Mark().line + 1);
  }

  bool fail(const YAML::Node &N, const std::string &Msg) {
    YAML::Mark M = N.Mark();
    Map.addIssue(Origin, M.line + 1, M.column + 1, Msg);
    Ok = false;
    return false;
  }

  BuildFlagMap &Map;
  std::string Origin;
  bool Ok = true;
};

bool BuildFlagMap::loadFile(const std::string &Path) {
  return loadFileText(Path, "build map file",
                      [&](const std::string &Text) { return loadText(Text, Path); });
}

bool BuildFlagMap::loadDirectory(const std::string &Dir) {
  auto Files = mapFilesOf(Dir, "build map directory");
  if (!Files)
    return false;
  bool Ok = true;
  for (const std::string &F : *Files)
    Ok &= loadFile(F);
  return Ok;
}

bool BuildFlagMap::loadText(const std::string &Text, const std::string &Origin) {
  // yaml-cpp throws on malformed text and on conversions the reader did not
  // foresee: both are load errors, never escaping exceptions.
  try {
    return BuildMapReader(*this, Origin).read(YAML::Load(Text));
  } catch (const YAML::Exception &E) {
    addIssue(Origin, E.mark.line + 1, E.mark.column + 1, "malformed build map: " + E.msg);
    return false;
  }
}

const NvccFlagRule *BuildFlagMap::findFlag(const std::string &Name) const {
  auto It = FlagByName.find(Name);
  return It == FlagByName.end() ? nullptr : &Flags[It->second];
}

const std::string *BuildFlagMap::hipCompiler(const std::string &CudaCompiler) const {
  auto It = Compilers.find(CudaCompiler);
  return It == Compilers.end() ? nullptr : &It->second;
}

std::vector<std::string> BuildFlagMap::cudaCompilers() const {
  std::vector<std::string> Names;
  for (const auto &[Cuda, Hip] : Compilers)
    Names.push_back(Cuda);
  return Names;
}

bool BuildFlagMap::isToolkitVariable(const std::string &Name) const {
  return contains(ToolkitVariables, Name);
}

const KeywordValueRule *BuildFlagMap::keywordValue(const std::string &Command,
                                                   const std::string &Keyword) const {
  for (const KeywordValueRule &R : KeywordValues)
    if (R.Command == Command && R.Keyword == Keyword)
      return &R;
  return nullptr;
}

bool BuildFlagMap::isCudaSource(const std::string &Path) const {
  size_t Dot = Path.rfind('.');
  return Dot != std::string::npos && Path.find('/', Dot) == std::string::npos &&
         contains(CudaSourceExtensions, Path.substr(Dot + 1));
}

const NameRule *BuildFlagMap::find(const std::map<std::string, NameRule> &M,
                                   const std::string &N) {
  auto It = M.find(N);
  return It == M.end() ? nullptr : &It->second;
}

bool BuildFlagMap::contains(const std::vector<std::string> &L, const std::string &N) {
  return std::find(L.begin(), L.end(), N) != L.end();
}

} // namespace cu2dcu
