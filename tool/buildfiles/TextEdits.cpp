#include "buildfiles/TextEdits.h"

#include "buildfiles/BuildTranslation.h"

#include <algorithm>

namespace cu2dcu {

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// The span to delete for a removed run of words [Begin, End).
std::pair<unsigned, unsigned> removalSpan(llvm::StringRef Text, unsigned Begin, unsigned End) {
  unsigned Before = Begin;
  while (Before > 0 && isBlank(Text[Before - 1]))
    --Before;
  unsigned After = End;
  while (After < Text.size() && isBlank(Text[After]))
    ++After;
  bool FirstOnLine = Before == 0 || Text[Before - 1] == '\n';
  bool LastOnLine = After >= Text.size() || Text[After] == '\n';
  if (FirstOnLine && After + 1 < Text.size() && Text[After] == '\\' && Text[After + 1] == '\n')
    return {Before, After + 2}; // alone on a continued line: the line goes
  if (FirstOnLine && LastOnLine) {
    bool Continued = Before >= 2 && Text[Before - 2] == '\\';
    if (!Continued)
      return {Before, std::min<unsigned>(After + 1, Text.size())}; // the line goes
    // The last line of a continuation: the backslash that led to it goes too.
    unsigned Slash = Before - 2;
    while (Slash > 0 && isBlank(Text[Slash - 1]))
      --Slash;
    return {Slash, After};
  }
  if (Before < Begin && !FirstOnLine)
    return {Before, End}; // not first on its line: take the blanks before it
  if (!LastOnLine && Text[After] != '\\')
    return {Begin, After};
  return {Begin, End};
}

} // namespace

void addWordEdits(llvm::StringRef Text, const std::vector<TextWord> &Words,
                  const std::vector<WordEdit> &Edits, std::vector<TextEdit> &Out) {
  for (size_t I = 0; I < Edits.size(); ++I) {
    const WordEdit &E = Edits[I];
    unsigned Begin = Words[E.First].Begin;
    unsigned End = Words[E.First + E.Count - 1].End;
    // Neighbouring removals go as one run, so the blanks between them go too.
    while (E.Words.empty() && I + 1 < Edits.size() && Edits[I + 1].Words.empty() &&
           Edits[I + 1].First == Edits[I].First + Edits[I].Count) {
      ++I;
      End = Words[Edits[I].First + Edits[I].Count - 1].End;
    }
    if (E.Words.empty()) {
      auto [B, En] = removalSpan(Text, Begin, End);
      Out.push_back({B, En, ""});
      continue;
    }
    std::string Joined;
    for (const std::string &W : E.Words)
      Joined += (Joined.empty() ? "" : " ") + W;
    Out.push_back({Begin, End, Joined});
  }
}

std::string applyEdits(llvm::StringRef Text, std::vector<TextEdit> Edits, unsigned &Applied) {
  std::stable_sort(Edits.begin(), Edits.end(), [](const TextEdit &A, const TextEdit &B) {
    return A.Begin != B.Begin ? A.Begin < B.Begin : A.End < B.End;
  });
  std::string Out;
  unsigned Pos = 0;
  Applied = 0;
  for (const TextEdit &E : Edits) {
    // An insertion sits at Begin == End; it may touch, never cross, an edit.
    // Two removals may share the blanks between their words.
    if (E.Begin < Pos && !(E.Text.empty() && E.End > Pos))
      continue;
    unsigned Begin = std::max(E.Begin, Pos);
    Out.append(Text.data() + Pos, Begin - Pos);
    Out += E.Text;
    Pos = E.End;
    ++Applied;
  }
  Out.append(Text.data() + Pos, Text.size() - Pos);
  return Out;
}

Diagnostic buildFinding(llvm::StringRef Text, llvm::StringRef File, unsigned Offset,
                        Severity Level, std::string Message) {
  Diagnostic D;
  D.CheckId = BuildCheckId;
  D.Level = Level;
  D.File = File.str();
  D.Offset = Offset;
  llvm::StringRef Before = Text.substr(0, Offset);
  D.Line = 1 + Before.count('\n');
  size_t LineStart = Before.rfind('\n');
  D.Column = Offset - (LineStart == llvm::StringRef::npos ? 0 : LineStart + 1) + 1;
  D.Message = std::move(Message);
  return D;
}

std::vector<std::string> wordTexts(llvm::StringRef Text, const std::vector<TextWord> &Words) {
  std::vector<std::string> Out;
  for (const TextWord &W : Words)
    Out.push_back(Text.slice(W.Begin, W.End).str());
  return Out;
}

} // namespace cu2dcu
