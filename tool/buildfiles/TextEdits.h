// Byte edits of a build file's text: both translators change words in place
// and leave every other byte (formatting, comments) as the user wrote it.
#pragma once

#include "buildfiles/NvccFlags.h"
#include "core/Diagnostic.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cu2dcu {

/// A word of the text: [Begin, End) bytes.
struct TextWord {
  unsigned Begin = 0;
  unsigned End = 0;
};

struct TextEdit {
  unsigned Begin = 0;
  unsigned End = 0;
  std::string Text;
};

/// Turns word edits into byte edits. A removed word takes one run of blanks
/// beside it with it, never a line break or a continuation backslash.
void addWordEdits(llvm::StringRef Text, const std::vector<TextWord> &Words,
                  const std::vector<WordEdit> &Edits, std::vector<TextEdit> &Out);

/// Applies the edits in offset order; an edit overlapping an earlier one is
/// left out (the first translation of a span wins).
std::string applyEdits(llvm::StringRef Text, std::vector<TextEdit> Edits, unsigned &Applied);

/// A CU2DCU-BUILD finding at a byte offset of Text.
Diagnostic buildFinding(llvm::StringRef Text, llvm::StringRef File, unsigned Offset,
                        Severity Level, std::string Message);

/// The words' texts, for NvccFlagTranslator.
std::vector<std::string> wordTexts(llvm::StringRef Text, const std::vector<TextWord> &Words);

} // namespace cu2dcu
