#include "wave64/Wave64Report.h"

#include "core/SourceText.h"
#include "translate/RawTokens.h"

#include "llvm/ADT/STLExtras.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <cctype>

namespace cu2dcu {

namespace {

bool lineSuppresses(const std::string &Line, const std::string &CheckId) {
  size_t At = Line.find("cu2dcu:");
  while (At != std::string::npos) {
    // Only inside a comment.
    size_t Comment = Line.find("//");
    size_t Block = Line.find("/*");
    bool InComment = (Comment != std::string::npos && Comment < At) ||
                     (Block != std::string::npos && Block < At);
    size_t P = At + 7;
    while (P < Line.size() && isspace(static_cast<unsigned char>(Line[P])))
      ++P;
    if (InComment && Line.compare(P, 6, "ignore") == 0) {
      P += 6;
      // Ids separated by commas or spaces, up to the end of the comment. No id
      // starts with '*': that is the "*/" closing a block comment.
      while (P < Line.size()) {
        while (P < Line.size() && (Line[P] == ',' || isspace(static_cast<unsigned char>(Line[P]))))
          ++P;
        size_t Start = P;
        while (P < Line.size() && (isalnum(static_cast<unsigned char>(Line[P])) || Line[P] == '-' ||
                                   (Line[P] == '*' && P > Start) || Line[P] == '_'))
          ++P;
        if (P == Start)
          break;
        std::string Id = Line.substr(Start, P - Start);
        if (Id == CheckId)
          return true;
        if (!Id.empty() && Id.back() == '*' &&
            CheckId.compare(0, Id.size() - 1, Id, 0, Id.size() - 1) == 0)
          return true;
      }
    }
    At = Line.find("cu2dcu:", At + 1);
  }
  return false;
}

} // namespace

Wave64Fix tokenFix(const clang::SourceManager &SM, clang::SourceLocation Loc,
                   std::string Replacement, std::string Description, bool Safe) {
  return rangeFix(SM, Loc, Loc, std::move(Replacement), std::move(Description), Safe);
}

Wave64Fix rangeFix(const clang::SourceManager &SM, clang::SourceLocation Begin,
                   clang::SourceLocation Last, std::string Replacement, std::string Description,
                   bool Safe) {
  Wave64Fix F;
  F.Replacement = std::move(Replacement);
  F.Description = std::move(Description);
  F.Safe = Safe;
  if (Begin.isInvalid() || Last.isInvalid())
    return F;
  clang::SourceLocation B = SM.getSpellingLoc(Begin), L = SM.getSpellingLoc(Last);
  auto [BFile, BOffset] = SM.getDecomposedLoc(B);
  auto [LFile, LOffset] = SM.getDecomposedLoc(L);
  if (BFile != LFile || LOffset < BOffset)
    return F;
  unsigned Length = clang::Lexer::MeasureTokenLength(L, SM, cudaLangOptions());
  F.Begin = B;
  F.Length = LOffset + Length - BOffset;
  return F;
}

bool isSuppressed(const std::string &Text, unsigned Offset, const std::string &CheckId) {
  auto [Begin, End] = lineBounds(Text, Offset);
  if (lineSuppresses(Text.substr(Begin, End - Begin), CheckId))
    return true;
  if (Begin == 0)
    return false;
  auto [PrevBegin, PrevEnd] = lineBounds(Text, Begin - 1);
  return lineSuppresses(Text.substr(PrevBegin, PrevEnd - PrevBegin), CheckId);
}

/// Where the value of a named constant is written, when that is in a translated file.
static std::optional<RelatedLocation> definitionAt(SourceContext &Context,
                                                   clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return std::nullopt;
  auto [File, Offset] = Context.sourceManager().getDecomposedLoc(
      Context.sourceManager().getSpellingLoc(Loc));
  if (!Context.isTranslated(File))
    return std::nullopt;
  RelatedLocation R;
  R.File = Context.pathOf(File);
  R.Offset = Offset;
  std::tie(R.Line, R.Column) = Context.lineColumnOf(File, Offset);
  return R;
}

namespace {

/// Where SourceContext::report will put a finding at Loc.
std::optional<FilePosition> findingPosition(SourceContext &Context, clang::SourceLocation Loc) {
  clang::SourceManager &SM = Context.sourceManager();
  std::optional<FilePosition> Pos = Context.resolve(Loc);
  if (!Pos && Loc.isValid() && Loc.isMacroID()) {
    auto [File, Offset] = SM.getDecomposedLoc(SM.getSpellingLoc(Loc));
    if (Context.isTranslated(File))
      Pos = FilePosition{File, Offset};
  }
  return Pos;
}

/// A finding's fixes placed in the files they edit: the edits, the fix-its
/// shown at the finding (those in its file), and whether every fix could be
/// placed. A fix written in a macro body that the finding's suppression
/// comment does not cover is still honoured: suppression is decided at the
/// finding.
struct PlacedFixes {
  std::vector<std::pair<clang::FileID, Edit>> Edits;
  std::vector<FixIt> FixIts;
  bool AllResolved = true;
};

PlacedFixes placeFixes(SourceContext &Context, const std::vector<Wave64Fix> &Fixes,
                       clang::FileID FindingFile, const std::string &CheckId) {
  clang::SourceManager &SM = Context.sourceManager();
  PlacedFixes Placed;
  for (const Wave64Fix &F : Fixes) {
    if (F.Begin.isInvalid()) {
      Placed.AllResolved = false;
      continue;
    }
    auto [File, Offset] = SM.getDecomposedLoc(SM.getSpellingLoc(F.Begin));
    if (!Context.isTranslated(File)) {
      Placed.AllResolved = false;
      continue;
    }
    Placed.Edits.push_back({File, Edit{Offset, F.Length, F.Replacement, "wave64", CheckId}});
    if (File == FindingFile) {
      FixIt X;
      X.Offset = Offset;
      X.Length = F.Length;
      X.Replacement = F.Replacement;
      X.Description = F.Description;
      Placed.FixIts.push_back(X);
    }
  }
  return Placed;
}

/// --fix-wave64: every fix waits for the decision per lane grouping, once the
/// unit is checked, so a grouping is fixed completely or not at all. Even a
/// fix that is right on its own (a wider lane-bit container) is held back
/// beside a finding that has none: applied alone it gives a port that looks
/// fixed and is still wrong (HeCBench atomicAggregate under the wave64
/// emulation). A note (what the translator did, a harmless oversize) does not
/// hold them back.
void applyOrDefer(SourceContext &Context, const std::vector<Wave64Fix> &Fixes, PlacedFixes Placed,
                  DeferredWave64Finding Deferred, Severity Level) {
  bool Fixable = Placed.AllResolved && !Placed.Edits.empty() &&
                 llvm::all_of(Fixes, [](const Wave64Fix &F) { return F.Safe; });
  bool Standalone = !Fixes.empty() &&
                    llvm::all_of(Fixes, [](const Wave64Fix &F) { return F.Standalone; });
  if (Fixable || (Level != Severity::Note && !Standalone)) {
    Deferred.Fixable = Fixable;
    Deferred.ResolvedBySameEdits =
        !Fixes.empty() && llvm::all_of(Fixes, [](const Wave64Fix &F) { return F.JudgedElsewhere; });
    for (auto &[File, E] : Placed.Edits)
      Deferred.Edits.push_back({File, std::move(E)});
    Context.deferredWave64().push_back(std::move(Deferred));
  }
}

} // namespace

std::string groupsMessage(llvm::StringRef Message, llvm::StringRef Reason) {
  size_t Cut = std::min(Message.find("; "), Message.find(": "));
  return (Message.substr(0, Cut) + "; " + Reason).str();
}

bool reportWave64(SourceContext &Context, clang::SourceLocation Loc, const std::string &CheckId,
                  Severity Level, std::string Message, std::vector<Wave64Fix> Fixes,
                  clang::SourceLocation DefinedAt, Wave64Role Role, std::string FixWithheld) {
  clang::SourceManager &SM = Context.sourceManager();
  std::optional<FilePosition> Pos = findingPosition(Context, Loc);
  if (!Pos || isSuppressed(Context.textOf(Pos->File), Pos->Offset, CheckId))
    return false;
  // A use folds into its definition: suppressed there, it goes too.
  std::optional<RelatedLocation> Definition = definitionAt(Context, DefinedAt);
  if (Definition &&
      isSuppressed(Context.textOf(SM.getFileID(SM.getSpellingLoc(DefinedAt))), Definition->Offset,
                   CheckId))
    return false;
  PlacedFixes Placed = placeFixes(Context, Fixes, Pos->File, CheckId);
  Context.report(Loc, CheckId.c_str(), Level, std::move(Message), std::move(Placed.FixIts));
  std::vector<Diagnostic> &Reported = Context.findingsFor(Pos->File).Diagnostics;
  Reported.back().Definition = std::move(Definition);
  Reported.back().FixWithheld = std::move(FixWithheld);
  if (Context.options().FixWave64)
    applyOrDefer(Context, Fixes, std::move(Placed),
                 DeferredWave64Finding{Loc, DefinedAt, {}, false,
                                       Role == Wave64Role::Assumption, false, Pos->File, Pos->Offset,
                                       Reported.size() - 1, CheckId},
                 Level);
  return true;
}

} // namespace cu2dcu
