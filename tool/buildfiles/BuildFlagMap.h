// The build-file rules (nvcc flags, CUDA libraries, toolkit paths, CMake
// names) loaded from mappings/buildfiles/*.yaml. Read-only once loaded; the
// translators never hold a rule of their own.
#pragma once

#include "core/Diagnostic.h"
#include "mapping/ApiMap.h" // MapIssues

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cu2dcu {

enum class FlagAction { Replace, OffloadArch, HostOptions, LinkerOptions, Unsupported };

/// One nvcc flag, under all its spellings.
struct NvccFlagRule {
  std::vector<std::string> Names; // without dashes
  bool TakesValue = false;
  FlagAction Action = FlagAction::Replace;
  std::vector<std::string> Hip; // Replace: words; "{value}" stands for the value
  /// Replace by value; a value not listed stays as written.
  std::map<std::string, std::vector<std::string>> ByValue;
  bool Distinctive = false; // only nvcc has it
  std::vector<std::string> DistinctiveValues; // only nvcc has it with one of these values
  std::optional<Severity> Level; // report each use
  std::string Reason;
  std::string Origin; // file:line
};

enum class RuleAction { Rename, Drop, Unsupported };

/// A name-for-name rule: libraries, CMake variables, properties, targets...
struct NameRule {
  std::string Cuda;
  std::string Hip;
  RuleAction Action = RuleAction::Rename;
  std::string Value;   // variables/properties: "offload-archs", "nvcc-flags", "rdc"
  std::string Package; // targets/references: the find_package that provides Hip
  std::string Options; // commands: keyword that starts nvcc options
  std::optional<Severity> Level;
  std::string Reason;
  std::string Origin;
};

struct PathFlagRule {
  std::string Flag; // "-I", "-L", "-Wl,-rpath,"
  std::vector<std::string> Subdirs;
  RuleAction Action = RuleAction::Drop;
};

struct KeywordValueRule {
  std::string Command, Keyword, Cuda, Hip;
};

class BuildFlagMap : public MapIssues {
public:
  /// Loads one YAML file; errors carry file:line:column.
  bool loadFile(const std::string &Path);
  /// Loads every *.yaml of a directory (mappings/buildfiles), in name order.
  bool loadDirectory(const std::string &Dir);
  bool loadText(const std::string &Text, const std::string &Origin);

  // nvcc command lines
  const NvccFlagRule *findFlag(const std::string &NameWithoutDashes) const;
  const std::vector<NvccFlagRule> &nvccFlags() const { return Flags; }
  const std::string *hipCompiler(const std::string &CudaCompiler) const;
  std::vector<std::string> cudaCompilers() const;
  const NameRule *library(const std::string &Name) const { return find(Libraries, Name); }
  /// What hipcc needs before an input with this extension (c: "-x hip").
  const NameRule *sourceLanguage(const std::string &Ext) const { return find(SourceLanguages, Ext); }
  bool isToolkitVariable(const std::string &Name) const;
  const std::vector<std::string> &toolkitPrefixes() const { return ToolkitPrefixes; }
  const std::vector<PathFlagRule> &pathFlags() const { return PathFlags; }
  const std::vector<std::string> &linkRequires() const { return LinkRequires; }

  // compile_commands.json: the options whose value is a path the command
  // reads (-I) or writes (-o)
  const std::vector<std::string> &inputPathFlags() const { return InputPathFlags; }
  const std::vector<std::string> &outputPathFlags() const { return OutputPathFlags; }

  // CMake
  const NameRule *language(const std::string &N) const { return find(Languages, N); }
  const NameRule *compileFeature(const std::string &N) const { return find(CompileFeatures, N); }
  const NameRule *variable(const std::string &N) const { return find(Variables, N); }
  const NameRule *reference(const std::string &N) const { return find(References, N); }
  const NameRule *property(const std::string &N) const { return find(Properties, N); }
  const NameRule *package(const std::string &N) const { return find(Packages, N); }
  const NameRule *target(const std::string &N) const { return find(Targets, N); }
  const NameRule *command(const std::string &N) const { return find(Commands, N); }
  const KeywordValueRule *keywordValue(const std::string &Command, const std::string &Keyword) const;
  bool isFlagCommand(const std::string &N) const { return contains(FlagCommands, N); }
  bool isFlagKeyword(const std::string &N) const { return contains(FlagKeywords, N); }
  bool isLibraryCommand(const std::string &N) const { return contains(LibraryCommands, N); }
  bool isLibraryKeyword(const std::string &N) const { return contains(LibraryKeywords, N); }
  const std::vector<std::string> &libraryKeywords() const { return LibraryKeywords; }
  const std::vector<std::string> &flagKeywords() const { return FlagKeywords; }
  bool isSourceCommand(const std::string &N) const { return contains(SourceCommands, N); }
  bool isCudaSource(const std::string &Path) const;

private:
  static const NameRule *find(const std::map<std::string, NameRule> &M, const std::string &N);
  static bool contains(const std::vector<std::string> &L, const std::string &N);
  bool loadYaml(const std::string &Text, const std::string &Origin);
  friend class BuildMapReader;

  std::vector<NvccFlagRule> Flags;
  std::map<std::string, size_t> FlagByName;
  std::map<std::string, std::string> Compilers;
  std::map<std::string, NameRule> Libraries, SourceLanguages, Languages, Variables, References, Properties,
      Packages, Targets, Commands, CompileFeatures;
  std::vector<KeywordValueRule> KeywordValues;
  std::vector<std::string> ToolkitVariables, ToolkitPrefixes;
  std::vector<PathFlagRule> PathFlags;
  std::vector<std::string> FlagCommands, FlagKeywords, LibraryCommands, LibraryKeywords,
      SourceCommands, CudaSourceExtensions, LinkRequires, InputPathFlags, OutputPathFlags;
};

} // namespace cu2dcu
