#include "wave64/SharedFileFixes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <set>

namespace cu2dcu {

namespace {

const char *const Wave64Category = "wave64";

bool makes(const std::vector<Edit> &Edits, const Edit &E) {
  return llvm::any_of(Edits, [&](const Edit &Other) { return Other.sameChange(E); });
}

} // namespace

void SharedFileFixes::addUnit(const std::string &Main, const TranslationResult &Result) {
  Unit U;
  U.Name = Main;
  for (const auto &[Path, Findings] : Result.Files) {
    U.Files.push_back(Path);
    for (const Edit &E : Findings.Edits)
      if (E.Category == Wave64Category)
        U.Wave64Edits[Path].push_back(E);
  }
  Units.push_back(std::move(U));
}

std::map<size_t, std::pair<std::string, std::string>> SharedFileFixes::vetoed() const {
  std::map<size_t, std::pair<std::string, std::string>> Out;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t U = 0; U < Units.size(); ++U) {
      if (Out.count(U))
        continue;
      for (const auto &[Path, Edits] : Units[U].Wave64Edits)
        for (size_t V = 0; V < Units.size() && !Out.count(U); ++V) {
          if (V == U || !llvm::is_contained(Units[V].Files, Path))
            continue;
          auto Theirs = Units[V].Wave64Edits.find(Path);
          bool Agrees = !Out.count(V) && Theirs != Units[V].Wave64Edits.end() &&
                        llvm::all_of(Edits, [&](const Edit &E) { return makes(Theirs->second, E); });
          if (!Agrees) {
            Out[U] = {Path, Units[V].Name};
            Changed = true;
          }
        }
    }
  }
  return Out;
}

void SharedFileFixes::apply(std::map<std::string, std::vector<Edit>> &EditsByFile,
                            std::vector<Diagnostic> &Diagnostics,
                            const std::function<std::string(const std::string &)> &DisplayOf) const {
  for (const auto &[U, Why] : vetoed()) {
    std::string Reason = "--fix-wave64 left this unchanged: " +
                         llvm::sys::path::filename(Why.first).str() + " is shared with " +
                         DisplayOf(Why.second) +
                         ", which does not make the same fix there; a file several units "
                         "include is fixed for all of them or for none";
    for (const auto &[Path, Edits] : Units[U].Wave64Edits) {
      // Every unit that makes the same edit here shares the file: vetoed too.
      llvm::erase_if(EditsByFile[Path], [&](const Edit &E) {
        return E.Category == Wave64Category && makes(Edits, E);
      });
      std::string Display = DisplayOf(Path);
      for (Diagnostic &D : Diagnostics)
        for (FixIt &F : D.Fixes)
          if (D.File == Display && F.Applied &&
              llvm::any_of(Edits, [&](const Edit &E) { return E.Offset == F.Offset; })) {
            F.Applied = false;
            D.FixWithheld = Reason;
          }
    }
  }
}

} // namespace cu2dcu
