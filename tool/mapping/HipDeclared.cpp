#include "mapping/HipDeclared.h"

#include "mapping/FamilyFile.h"

#include "llvm/ADT/StringExtras.h"

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
  if (!knownKeys(N, {"function", "parameters", "header", "hip_since"}, Error))
    return std::nullopt;
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
  FamilyFileReader Reader(Path, Issues);
  return Reader.read(Text, "hip_declared", {"family", "entries"}, [&](const YAML::Node &Root) {
    if (!Root["entries"] || !Root["entries"].IsSequence())
      return Reader.fail(Root.Mark(), "a hip_declared file has a list of 'entries'");
    for (const YAML::Node &N : Root["entries"]) {
      std::string Error;
      std::optional<HipDeclaredFunction> F = N.IsMap() ? readEntry(N, Error) : std::nullopt;
      if (!F)
        return Reader.fail(N.Mark(), Error.empty() ? "an entry is a mapping" : Error);
      Out.push_back(std::move(*F));
    }
    return true;
  });
}

} // namespace cu2dcu
