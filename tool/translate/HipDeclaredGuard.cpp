#include "translate/HipDeclaredGuard.h"

#include "core/CheckIds.h"
#include "core/SourceText.h"
#include "translate/EntryTranslation.h"

#include "llvm/Support/Regex.h"

#include <optional>

namespace cu2dcu {

namespace {

/// Whether the line before LineStart opens the guard written here (the
/// input is an earlier translation).
bool guardedAlready(const std::string &Text, size_t LineStart) {
  if (LineStart == 0)
    return false;
  auto [Begin, End] = lineBounds(Text, LineStart - 1);
  return llvm::StringRef(Text).slice(Begin, End).trim().starts_with(
      "#if !defined(__HIP_PLATFORM_AMD__)");
}

} // namespace

/// The lines [Begin, End) spans, from the first line's start to the last
/// line's end (before its newline), when no other declaration shares them:
/// before Begin only its specifiers (__device__ inline), after End only
/// space or a comment.
std::optional<ByteRange> wholeLines(const std::string &Text, unsigned Begin, unsigned End) {
  size_t LineStart = lineBounds(Text, Begin).first;
  llvm::StringRef Before = llvm::StringRef(Text).slice(LineStart, Begin);
  if (Before.find_first_of(";{}#") != llvm::StringRef::npos)
    return std::nullopt;
  size_t LineEnd = lineBounds(Text, End).second;
  llvm::StringRef After = llvm::StringRef(Text).slice(End, LineEnd).trim();
  if (!After.empty() && !After.starts_with("//"))
    return std::nullopt;
  return ByteRange{unsigned(LineStart), unsigned(LineEnd)};
}

bool isCudaVectorTypeName(llvm::StringRef Name) {
  static const llvm::Regex VectorName(
      "^(u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]$");
  return VectorName.match(Name);
}

void guardHipDeclaredDefinition(const HipDeclaredFunction &Entry, const std::string &Vector,
                                const std::string &Text, const std::string &Path, unsigned Begin,
                                unsigned End, FileFindings &Out) {
  std::string Signature = Entry.signature(Vector);
  std::optional<ByteRange> Lines = wholeLines(Text, Begin, End);
  std::string Message = "'" + Signature + "' is declared by HIP on AMD (" + Entry.Header +
                        ", since HIP " + Entry.Since.str() +
                        "); this definition would collide with it there";
  if (Lines && guardedAlready(Text, Lines->Begin))
    return;
  if (!Lines)
    return addFinding(Out, Text, Path, Begin, check_ids::HipDeclared, Severity::Error,
                      Message + "; it shares a line with other code, so it is left as written");
  // The #endif goes before the last line's newline, so that it never shares
  // an offset with the #if of a definition on the next line.
  Out.Edits.push_back({Lines->Begin, 0,
                       "#if !defined(__HIP_PLATFORM_AMD__) // HIP declares " + Signature + "\n",
                       "hip-declared", Entry.Function});
  Out.Edits.push_back({Lines->End, 0, "\n#endif", "hip-declared", Entry.Function});
  addFinding(Out, Text, Path, Begin, check_ids::HipDeclared, Severity::Warning,
             Message + ", so it is compiled only on HIP's NVIDIA path; check that HIP's does "
                       "what this one does");
}

} // namespace cu2dcu
