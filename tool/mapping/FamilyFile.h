// Reading the small map files beside the API maps (mappings/collisions/,
// mappings/checks/): a family, top-level keys of their own, and an issue
// (file, line, column, message) for whatever is malformed.
#pragma once

#include "mapping/ApiMap.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

/// N[Key] when it is a scalar, else "".
std::string yamlScalar(const YAML::Node &N, const char *Key);

/// Whether every key of the mapping N is in Keys; Error names the first other.
bool knownKeys(const YAML::Node &N, const std::set<std::string> &Keys, std::string &Error);

class FamilyFileReader {
public:
  FamilyFileReader(std::string Path, std::vector<MapLoadIssue> &Issues)
      : Path(std::move(Path)), Issues(Issues) {}

  /// Parses Text, requires `family: Family` and only Keys at the top, then
  /// runs Body on the root. Returns false after recording an issue.
  bool read(const std::string &Text, const std::string &Family, const std::set<std::string> &Keys,
            llvm::function_ref<bool(const YAML::Node &Root)> Body);
  /// Records an issue at At; returns false.
  bool fail(const YAML::Mark &At, std::string Message);
  /// Root[Key], optional, as a list of non-empty strings appended to Out.
  bool strings(const YAML::Node &Root, const char *Key, std::vector<std::string> &Out);
  bool strings(const YAML::Node &Root, const char *Key, std::set<std::string> &Out);

private:
  std::string Path;
  std::vector<MapLoadIssue> &Issues;
};

} // namespace cu2dcu
