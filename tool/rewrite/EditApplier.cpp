#include "rewrite/EditApplier.h"

#include "clang/Tooling/Core/Replacement.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace cu2dcu {

AppliedEdits applyEdits(const std::string &Path, const std::string &Original,
                        const std::vector<Edit> &Edits) {
  AppliedEdits Result;
  std::vector<Edit> Unique;
  std::set<std::tuple<unsigned, unsigned, std::string>> Seen;
  for (const Edit &E : Edits)
    if (Seen.insert({E.Offset, E.Length, E.Text}).second)
      Unique.push_back(E);

  clang::tooling::Replacements Replaces;
  for (const Edit &E : Unique) {
    if (E.Offset + E.Length > Original.size()) {
      Result.Conflicting.push_back(E);
      continue;
    }
    clang::tooling::Replacement R(Path, E.Offset, E.Length, E.Text);
    if (llvm::Error Err = Replaces.add(R)) {
      llvm::consumeError(std::move(Err));
      Result.Conflicting.push_back(E);
      continue;
    }
    Result.Applied.push_back(E);
  }
  // The replacements are sorted and disjoint: splice them in directly.
  // (clang::tooling::applyAllReplacements goes through a SourceManager,
  // which rejects, through a diagnostics engine it has no client for, text
  // that starts with a UTF-16 or UTF-32 byte order mark: it crashed on such
  // files; found by tool/fuzz/fuzz-lexical.)
  std::string Text;
  Text.reserve(Original.size());
  unsigned Pos = 0;
  for (const clang::tooling::Replacement &R : Replaces) {
    Text.append(Original, Pos, R.getOffset() - Pos);
    Text += R.getReplacementText();
    Pos = R.getOffset() + R.getLength();
  }
  Text.append(Original, Pos, std::string::npos);
  Result.Text = std::move(Text);
  std::stable_sort(Result.Applied.begin(), Result.Applied.end());
  return Result;
}

unsigned countChangedLines(const std::string &Original, const std::vector<Edit> &Applied) {
  std::set<unsigned> Lines;
  unsigned Line = 1, Pos = 0;
  for (const Edit &E : Applied) {
    for (; Pos < E.Offset && Pos < Original.size(); ++Pos)
      if (Original[Pos] == '\n')
        ++Line;
    Lines.insert(Line);
  }
  return Lines.size();
}

} // namespace cu2dcu
