#include "wave64/DefinitionSites.h"
#include "wave64/CheckIds.h"
#include "wave64/Wave64Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace cu2dcu {

namespace {

using LineKey = std::pair<std::string, unsigned>;

bool isWave64(const Diagnostic &D) { return wave64_ids::isWave64(D.CheckId); }

RelatedLocation useOf(const Diagnostic &D) {
  return RelatedLocation{D.File, D.Line, D.Column, D.Offset, D.CheckId, D.Message};
}

/// The finding a use is folded into when its definition line has none of its
/// own: the use, moved to the definition. Its fixes stay when they are written
/// in the definition's file (they replace the constant's value there).
Diagnostic promoted(const Diagnostic &Use) {
  Diagnostic P = Use;
  const RelatedLocation &Def = *Use.Definition;
  P.File = Def.File;
  P.Line = Def.Line;
  P.Column = Def.Column;
  P.Offset = Def.Offset;
  P.Definition.reset();
  if (Use.File != Def.File)
    P.Fixes.clear();
  P.Message = "this definition assumes 32-lane warps (its uses are listed as related "
              "locations); at the first use: " +
              Use.Message;
  return P;
}

/// Related locations in file order, each once (headers are reported through
/// every unit that includes them).
void tidy(std::vector<RelatedLocation> &Related) {
  auto Key = [](const RelatedLocation &R) { return std::tie(R.File, R.Offset); };
  llvm::sort(Related, [&](const RelatedLocation &A, const RelatedLocation &B) {
    return Key(A) < Key(B);
  });
  Related.erase(std::unique(Related.begin(), Related.end(),
                            [&](const RelatedLocation &A, const RelatedLocation &B) {
                              return Key(A) == Key(B);
                            }),
                Related.end());
}

/// A definition whose every folded use lies in consistent 32-lane groups is
/// right as written too: a note without a fix. A use in another unit that
/// numbers whole warps keeps it a warning (a shared header judged as a whole).
void judgeByUses(Diagnostic &Def, const std::vector<const Diagnostic *> &Uses) {
  if (Uses.empty() ||
      !llvm::all_of(Uses, [](const Diagnostic *U) { return isGroupsReason(U->FixWithheld); }))
    return;
  Def.Level = Severity::Note;
  Def.Fixes.clear();
  if (!isGroupsReason(Def.FixWithheld))
    Def.Message = groupsMessage(Def.Message, Uses.front()->FixWithheld);
  Def.FixWithheld = Uses.front()->FixWithheld;
}

} // namespace

void foldIntoDefinitions(std::vector<Diagnostic> &Diagnostics) {
  // The first W64 finding on each line; a definition line without one gets
  // its first use moved there.
  std::map<LineKey, size_t> AtLine;
  for (size_t I = 0; I < Diagnostics.size(); ++I) {
    Diagnostic &D = Diagnostics[I];
    if (D.Definition && D.Definition->File == D.File && D.Definition->Line == D.Line)
      D.Definition.reset(); // the definition itself (const int kWarps = BLOCK / 32)
    if (isWave64(D))
      AtLine.emplace(LineKey(D.File, D.Line), I);
  }
  // A warp-size definition is lane math whichever use comes first (kTeam
  // read as `kTeam / 2` before `threadIdx.x % kTeam`).
  for (bool LaneMathUses : {true, false})
    for (size_t I = 0, N = Diagnostics.size(); I < N; ++I)
      if (const auto &Def = Diagnostics[I].Definition;
          Def && (!LaneMathUses || Diagnostics[I].CheckId == wave64_ids::LaneMath) &&
          !AtLine.count(LineKey(Def->File, Def->Line))) {
        AtLine.emplace(LineKey(Def->File, Def->Line), Diagnostics.size());
        Diagnostics.push_back(promoted(Diagnostics[I]));
      }
  // A use folds into the finding at its definition, following chains
  // (smem[MAX_WARPS], MAX_WARPS = 1024 / WARP_SIZE, WARP_SIZE = 32).
  auto RootOf = [&](size_t I) {
    for (int Depth = 0; Depth < 8 && Diagnostics[I].Definition; ++Depth) {
      const RelatedLocation &Def = *Diagnostics[I].Definition;
      I = AtLine.find(LineKey(Def.File, Def.Line))->second; // every definition line has one
    }
    return I;
  };
  std::vector<bool> Folded(Diagnostics.size(), false);
  std::map<size_t, std::vector<const Diagnostic *>> UsesOf;
  for (size_t I = 0; I < Diagnostics.size(); ++I) {
    if (!Diagnostics[I].Definition)
      continue;
    size_t Root = RootOf(I);
    if (Root == I || Diagnostics[Root].Definition)
      continue; // a cycle: left as it is
    Diagnostic &Def = Diagnostics[Root];
    Def.Related.push_back(useOf(Diagnostics[I]));
    // The fix a use suggests rewrites the definition (WARP_SIZE -> warpSize):
    // shown there, where its offsets are valid.
    if (Def.Fixes.empty() && Diagnostics[I].File == Def.File)
      Def.Fixes = Diagnostics[I].Fixes;
    // A definition found on its own (a mask macro's note) is as severe as
    // its worst use: folding must not hide a warning.
    Def.Level = std::max(Def.Level, Diagnostics[I].Level);
    Folded[I] = true;
    UsesOf[Root].push_back(&Diagnostics[I]);
  }
  for (auto &[Root, Uses] : UsesOf)
    judgeByUses(Diagnostics[Root], Uses);
  std::vector<Diagnostic> Kept;
  for (size_t I = 0; I < Diagnostics.size(); ++I)
    if (!Folded[I]) {
      tidy(Diagnostics[I].Related);
      Kept.push_back(std::move(Diagnostics[I]));
    }
  std::sort(Kept.begin(), Kept.end());
  Diagnostics = std::move(Kept);
}

} // namespace cu2dcu
