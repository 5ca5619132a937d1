#include "report/CheckCatalog.h"
#include "wave64/CheckIds.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace cu2dcu {

namespace {

struct Entry {
  const char *Id, *Help, *Short, *Full;
};

const Entry Generated[] = {
#include "CheckDocs.inc"
    {nullptr, nullptr, nullptr, nullptr}};

} // namespace

const std::vector<CheckInfo> &documentedChecks() {
  static const std::vector<CheckInfo> Checks = [] {
    std::vector<CheckInfo> All;
    for (const Entry &E : Generated)
      if (E.Id)
        All.push_back({E.Id, E.Help, E.Short, E.Full, true});
    return All;
  }();
  return Checks;
}

CheckInfo describeCheck(const std::string &Id) {
  for (const CheckInfo &C : documentedChecks())
    if (C.Id == Id)
      return C;
  CheckInfo C;
  C.Id = Id;
  if (wave64_ids::isWave64(Id)) {
    C.HelpPath = "checks/" + Id + ".md";
    C.ShortDescription = "Wavefront-64 portability check " + Id + ".";
  } else {
    C.HelpPath = "findings.md#" + llvm::StringRef(Id).lower();
    C.ShortDescription = "cu2dcu finding " + Id + ".";
  }
  C.FullDescription = C.ShortDescription;
  return C;
}

std::string helpUri(const std::string &DocsBase, const std::string &Id) {
  std::string Base = DocsBase;
  if (!Base.empty() && Base.back() != '/')
    Base += '/';
  return Base + describeCheck(Id).HelpPath;
}

std::string uriEncodePath(const std::string &Path) {
  static const char Hex[] = "0123456789ABCDEF";
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/')
      Out += C;
    else {
      Out += '%';
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    }
  }
  return Out;
}

std::string defaultDocsBase() { return "file://" + uriEncodePath(CU2DCU_DOCS_DIR) + "/"; }

} // namespace cu2dcu
