#include "mapping/HipTarget.h"
#include "core/Paths.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace cu2dcu {

std::optional<HipTarget> installedHip() {
  std::vector<std::string> Roots;
  if (const char *HipPath = std::getenv("HIP_PATH"))
    Roots.push_back(HipPath);
  Roots.push_back("/opt/rocm");
  Roots.push_back("/usr");
  for (const std::string &Root : Roots) {
    std::string Header = joinPath(Root, "include/hip/hip_version.h");
    std::ifstream In(Header);
    if (!In)
      continue;
    std::stringstream Text;
    Text << In.rdbuf();
    std::smatch Major, Minor;
    std::string S = Text.str();
    if (std::regex_search(S, Major, std::regex(R"(#define\s+HIP_VERSION_MAJOR\s+(\d+))")) &&
        std::regex_search(S, Minor, std::regex(R"(#define\s+HIP_VERSION_MINOR\s+(\d+))")))
      return HipTarget{{std::stoi(Major[1]), std::stoi(Minor[1])}, "installed HIP (" + Header + ")"};
  }
  return std::nullopt;
}

std::optional<HipTarget> resolveHipTarget(const std::string &Text, const std::string &ProfilesDir,
                                          std::string &Error) {
  if (Text.empty()) {
    if (auto Installed = installedHip())
      return Installed;
    return HipTarget{{5, 2}, "default (no HIP installation found)"};
  }
  if (auto V = HipVersion::parse(Text))
    return HipTarget{*V, "--hip-version " + Text};
  std::vector<std::string> Files =
      yamlFilesOf(ProfilesDir).value_or(std::vector<std::string>());
  std::vector<std::string> Known;
  for (const std::string &File : Files) {
    try {
      for (const YAML::Node &P : YAML::LoadFile(File)["profiles"]) {
        std::string Name = P["name"].as<std::string>();
        Known.push_back(Name);
        if (Name != Text)
          continue;
        auto V = HipVersion::parse(P["hip_version"].as<std::string>());
        if (!V) {
          Error = File + ": profile '" + Name + "' has no valid hip_version";
          return std::nullopt;
        }
        return HipTarget{*V, "profile " + Name};
      }
    } catch (const YAML::Exception &E) {
      Error = File + ":" + std::to_string(E.mark.line + 1) + ": " + E.msg;
      return std::nullopt;
    }
  }
  Error = "--hip-version takes MAJOR.MINOR or a profile name; '" + Text + "' is neither";
  if (!Known.empty()) {
    Error += " (profiles:";
    for (const std::string &K : Known)
      Error += " " + K;
    Error += ")";
  }
  return std::nullopt;
}

} // namespace cu2dcu
