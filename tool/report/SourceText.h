// Small helpers over a file's text, shared by the report formats.
#pragma once

#include <string>
#include <utility>

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

/// Trimmed, with every run of blanks collapsed to one space: the form of a
/// line that survives re-indentation (used by baseline fingerprints).
inline std::string normaliseLine(const std::string &Line) {
  std::string Out;
  bool Blank = false;
  for (char C : Line) {
    if (C == ' ' || C == '\t' || C == '\r' || C == '\v' || C == '\f') {
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

} // namespace cu2dcu
