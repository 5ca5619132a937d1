// Helpers over a file's text: lines, line/column of an offset, the token at
// a finding. The one copy of each, for the translators and the reports.
#pragma once

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cu2dcu {

/// [Begin, End) of the line holding Offset, without its newline (or '\r').
inline std::pair<size_t, size_t> lineBounds(const std::string &Text, size_t Offset) {
  if (Offset > Text.size())
    Offset = Text.size();
  size_t Begin = Offset == 0 ? 0 : Text.rfind('\n', Offset - 1);
  Begin = Begin == std::string::npos || Offset == 0 ? 0 : Begin + 1;
  size_t End = Text.find('\n', Offset);
  if (End == std::string::npos)
    End = Text.size();
  if (End > Begin && Text[End - 1] == '\r')
    --End;
  return {Begin, End};
}

inline std::string lineAt(const std::string &Text, size_t Offset) {
  auto [Begin, End] = lineBounds(Text, Offset);
  return Text.substr(Begin, End - Begin);
}

/// Trimmed, with every run of blanks (newlines too) collapsed to one space:
/// the form of a line that survives re-indentation (baseline fingerprints),
/// and of an expression's spelling in a message.
inline std::string collapseBlanks(const std::string &Text) {
  std::string Out;
  bool Blank = false;
  for (char C : Text) {
    if (C == ' ' || C == '\t' || C == '\r' || C == '\v' || C == '\f' || C == '\n') {
      Blank = true;
      continue;
    }
    if (Blank && !Out.empty())
      Out += ' ';
    Blank = false;
    Out += C;
  }
  return Out;
}

/// Column in Unicode code points (1-based) of Offset within its line, for
/// formats that count characters rather than bytes (SARIF).
inline unsigned codePointColumn(const std::string &Text, size_t Offset) {
  auto [Begin, End] = lineBounds(Text, Offset);
  (void)End;
  unsigned Column = 1;
  for (size_t I = Begin; I < Offset && I < Text.size(); ++I)
    if ((static_cast<unsigned char>(Text[I]) & 0xC0) != 0x80)
      ++Column;
  return Column;
}

/// The end of the identifier at Offset (one character when none starts
/// there, none at a newline): the span a finding highlights.
inline size_t tokenEnd(const std::string &Text, size_t Offset) {
  size_t End = Offset;
  while (End < Text.size() &&
         (llvm::isAlnum(Text[End]) || Text[End] == '_'))
    ++End;
  if (End == Offset && End < Text.size() && Text[End] != '\n')
    ++End;
  return End;
}

/// Where each line of a text starts: line/column of an offset by binary
/// search, so that a file with many findings is scanned once, not once per
/// finding.
class LineIndex {
public:
  explicit LineIndex(const std::string &Text) : Data(Text.data()), Size(Text.size()) {
    Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(unsigned(I + 1));
  }
  /// Whether this index was built for Text (the same string, unchanged in size).
  bool indexes(const std::string &Text) const { return Data == Text.data() && Size == Text.size(); }
  /// 1-based line and byte column of Offset; past the end, on the last line.
  std::pair<unsigned, unsigned> lineColumn(unsigned Offset) const {
    size_t Line = size_t(std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin());
    return {unsigned(Line), Offset - Starts[Line - 1] + 1};
  }
  /// Offset of the start of 1-based line N; the end of the text past the last line.
  size_t lineStart(unsigned N) const {
    if (N == 0)
      return 0;
    return N - 1 < Starts.size() ? Starts[N - 1] : Size;
  }

private:
  std::vector<unsigned> Starts;
  const char *Data;
  size_t Size;
};

/// The line indexes of several texts that stay put (a run's files), each
/// built on its first look-up.
class LineIndexes {
public:
  const LineIndex &of(const std::string &Text) {
    auto It = Indexes.find(&Text);
    if (It == Indexes.end() || !It->second.indexes(Text))
      It = Indexes.insert_or_assign(&Text, LineIndex(Text)).first;
    return It->second;
  }

private:
  std::map<const std::string *, LineIndex> Indexes;
};

/// 1-based line and column of Offset, for a single look-up (a file with many
/// look-ups keeps a LineIndex).
inline std::pair<unsigned, unsigned> lineColumnOf(const std::string &Text, unsigned Offset) {
  return LineIndex(Text).lineColumn(Offset);
}

} // namespace cu2dcu
