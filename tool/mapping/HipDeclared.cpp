#include "mapping/HipDeclared.h"

#include "llvm/ADT/StringExtras.h"

#include <yaml-cpp/yaml.h>

namespace cu2dcu {

std::string HipDeclaredFunction::signature(const std::string &Vector) const {
  std::vector<std::string> Types;
  for (const std::string &P : Parameters)
    Types.push_back(P == "VECTOR" ? Vector : P);
  return Function + "(" + llvm::join(Types, ", ") + ")";
}

namespace {

/// One entry, or an error message about it.
std::optional<HipDeclaredFunction> readEntry(const YAML::Node &N, std::string &Error) {
  for (const auto &KV : N)
    if (std::string Key = KV.first.as<std::string>();
        Key != "function" && Key != "parameters" && Key != "header" && Key != "hip_since") {
      Error = "unknown key '" + Key + "'";
      return std::nullopt;
    }
  if (!N["function"] || !N["parameters"] || !N["parameters"].IsSequence() || !N["header"] ||
      !N["hip_since"]) {
    Error = "an entry needs 'function', 'parameters' (a list), 'header' and 'hip_since'";
    return std::nullopt;
  }
  HipDeclaredFunction F;
  F.Function = N["function"].as<std::string>();
  F.Parameters = N["parameters"].as<std::vector<std::string>>();
  F.Header = N["header"].as<std::string>();
  std::optional<HipVersion> Since = HipVersion::parse(N["hip_since"].as<std::string>());
  if (!Since) {
    Error = "hip_since is not a MAJOR.MINOR version";
    return std::nullopt;
  }
  F.Since = *Since;
  return F;
}

} // namespace

bool loadHipDeclared(const std::string &Text, const std::string &Path,
                     std::vector<HipDeclaredFunction> &Out, std::vector<MapLoadIssue> &Issues) {
  auto Fail = [&](const YAML::Mark &At, std::string Message) {
    Issues.push_back({Path, unsigned(At.line + 1), unsigned(At.column + 1), std::move(Message)});
    return false;
  };
  try {
    YAML::Node Root = YAML::Load(Text);
    if (!Root.IsMap() || !Root["family"] || Root["family"].as<std::string>() != "hip_declared" ||
        !Root["entries"] || !Root["entries"].IsSequence())
      return Fail(Root.Mark(), "a hip_declared file has 'family: hip_declared' and 'entries'");
    for (const YAML::Node &N : Root["entries"]) {
      std::string Error;
      std::optional<HipDeclaredFunction> F = N.IsMap() ? readEntry(N, Error) : std::nullopt;
      if (!F)
        return Fail(N.Mark(), Error.empty() ? "an entry is a mapping" : Error);
      Out.push_back(std::move(*F));
    }
    return true;
  } catch (const YAML::Exception &E) {
    return Fail(E.mark, "malformed hip_declared file: " + E.msg);
  }
}

} // namespace cu2dcu
