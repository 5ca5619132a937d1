#include "mapping/FamilyFile.h"

namespace cu2dcu {

std::string yamlScalar(const YAML::Node &N, const char *Key) {
  YAML::Node V = N[Key];
  return V && V.IsScalar() ? V.Scalar() : std::string();
}

bool knownKeys(const YAML::Node &N, const std::set<std::string> &Keys, std::string &Error) {
  for (const auto &KV : N)
    if (std::string Key = KV.first.as<std::string>(); !Keys.count(Key)) {
      Error = "unknown key '" + Key + "'";
      return false;
    }
  return true;
}

bool FamilyFileReader::fail(const YAML::Mark &At, std::string Message) {
  Issues.push_back({Path, unsigned(At.line + 1), unsigned(At.column + 1), std::move(Message)});
  return false;
}

bool FamilyFileReader::read(const std::string &Text, const std::string &Family,
                            const std::set<std::string> &Keys,
                            llvm::function_ref<bool(const YAML::Node &)> Body) {
  try {
    YAML::Node Root = YAML::Load(Text);
    if (!Root.IsMap() || yamlScalar(Root, "family") != Family)
      return fail(Root.Mark(), "a " + Family + " file is a mapping with 'family: " + Family + "'");
    for (const auto &KV : Root)
      if (std::string Key = KV.first.as<std::string>(); !Keys.count(Key))
        return fail(KV.first.Mark(), "unknown top-level key '" + Key + "'");
    return Body(Root);
  } catch (const YAML::Exception &E) {
    return fail(E.mark, "malformed " + Family + " file: " + E.msg);
  }
}

bool FamilyFileReader::strings(const YAML::Node &Root, const char *Key,
                               std::vector<std::string> &Out) {
  YAML::Node List = Root[Key];
  if (!List)
    return true;
  if (!List.IsSequence())
    return fail(List.Mark(), std::string(Key) + " is a list of strings");
  for (const YAML::Node &N : List) {
    if (!N.IsScalar() || N.Scalar().empty())
      return fail(N.Mark(), std::string(Key) + " lists non-empty strings");
    Out.push_back(N.Scalar());
  }
  return true;
}

bool FamilyFileReader::strings(const YAML::Node &Root, const char *Key,
                               std::set<std::string> &Out) {
  std::vector<std::string> List;
  if (!strings(Root, Key, List))
    return false;
  Out.insert(List.begin(), List.end());
  return true;
}

} // namespace cu2dcu
