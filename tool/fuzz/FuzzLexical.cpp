// libFuzzer target: the lexical translator (docs/robustness.md).
//
// Runs the whole-file pass and a sub-range pass (as the AST mode does for
// macro bodies and skipped branches) over arbitrary text with the shipped
// maps, then applies the edits. A crash, a hang (-timeout), an edit outside
// the text or an edit that does not apply cleanly is a finding.
#include "core/Options.h"
#include "lexical/LexicalTranslator.h"
#include "mapping/ApiMap.h"
#include "rewrite/EditApplier.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace cu2dcu;

namespace {
const ApiMap &maps() {
  static const ApiMap *Map = [] {
    auto *M = new ApiMap;
    M->loadDirectory(CU2DCU_FUZZ_MAPPINGS);
    return M;
  }();
  return *Map;
}

void check(const std::string &Text, const FileFindings &Out) {
  for (const Edit &E : Out.Edits)
    if (E.Offset > Text.size() || E.Length > Text.size() - E.Offset)
      __builtin_trap(); // an edit outside the text
  for (const Diagnostic &D : Out.Diagnostics)
    if (D.Offset > Text.size())
      __builtin_trap();
  AppliedEdits Applied = applyEdits("fuzz.cu", Text, Out.Edits);
  (void)Applied;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  // The first byte picks the options; the rest is the file.
  TranslationOptions Options;
  Options.KeepLaunchSyntax = Data[0] & 1;
  Options.TargetHip = (Data[0] & 2) ? HipVersion{6, 2} : HipVersion{5, 2};
  std::string Text(reinterpret_cast<const char *>(Data + 1), Size - 1);
  // Files holding NUL bytes are copied, never translated (driver/Translator).
  if (Text.find('\0') != std::string::npos)
    return 0;
  LexicalTranslator Lexical(maps(), Options);
  (void)Lexical.mentionsCuda(Text);
  FileFindings Whole;
  Lexical.translateFile(Text, "fuzz.cu", Whole);
  check(Text, Whole);
  // A sub-range, as for a macro body: bounds from the first byte's high bits.
  if (!Text.empty()) {
    unsigned Begin = (Data[0] >> 2) % (Text.size() + 1);
    unsigned End = Begin + (Text.size() - Begin) / 2;
    FileFindings Part;
    std::set<std::string> IncludedHip;
    Lexical.translateRange(Text, Begin, End, "fuzz.cu", Part, IncludedHip);
    check(Text, Part);
  }
  std::set<std::string> Macros, Names, Libraries;
  Lexical.collectProjectNames(Text, Macros, Names);
  Lexical.collectLinkLibraries(Text, Libraries);
  return 0;
}
