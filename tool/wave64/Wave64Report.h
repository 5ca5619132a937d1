// How a wavefront-64 finding is reported, by the checks (checks/) and the
// warp-intrinsic translator alike. reportWave64() is the one place that
//  - honours in-source suppressions (`// cu2dcu: ignore W64-ID` on the line
//    of the finding or the line above),
//  - turns the check's fixes into FixIts, and applies the safe ones as
//    "wave64" edits when --fix-wave64 is given.
#pragma once

#include "core/Diagnostic.h"
#include "match/SourceContext.h"

#include <string>
#include <vector>

namespace cu2dcu {

/// A change a check proposes: replace the spelled text [Begin, Begin+Length)
/// with Replacement. Begin is any location whose spelling lies in a
/// translated file (see SourceContext::resolve for what counts).
struct Wave64Fix {
  clang::SourceLocation Begin; // spelling location of the first character
  unsigned Length = 0;
  std::string Replacement;
  std::string Description;
  /// Safe fixes are applied with --fix-wave64; the others are only suggested.
  bool Safe = false;
  /// Right whatever the other sites of its lane grouping do: it keeps CUDA's
  /// meaning (a shuffle pinned to width 32) or only widens a container of lane
  /// bits. Such a fix is applied on its own, and a finding whose only fixes
  /// are such does not hold back the grouping's other fixes
  /// (wave64/Wave64FixGroups.h); every other fix waits for the grouping.
  bool Standalone = false;
  /// The check cannot judge this fix (a mask variable's type: whether a
  /// 64-bit value ever reaches it is the ballot check's business). It is not
  /// applied for this finding; the finding counts as resolved, and does not
  /// hold back its grouping, when a safe fix of the grouping makes the same
  /// edit.
  bool JudgedElsewhere = false;
};

/// A fix replacing the token spelled at Loc.
Wave64Fix tokenFix(const clang::SourceManager &SM, clang::SourceLocation Loc,
                   std::string Replacement, std::string Description, bool Safe);
/// A fix replacing the spelled text from the token at Begin through the token
/// at Last; an invalid fix (Begin invalid) when they are not written in one
/// buffer in that order.
Wave64Fix rangeFix(const clang::SourceManager &SM, clang::SourceLocation Begin,
                   clang::SourceLocation Last, std::string Replacement, std::string Description,
                   bool Safe);

/// Whether the text of a file suppresses CheckId at Offset: a comment
/// `cu2dcu: ignore ID[, ID...]` on the same line or on the line above. An id
/// may be written as `W64-*` to ignore every wave64 check.
bool isSuppressed(const std::string &Text, unsigned Offset, const std::string &CheckId);

/// Whether a finding without a safe fix holds back the other fixes of its
/// lane grouping (wave64/Wave64FixGroups.h): a 32-lane assumption does; a
/// review of a translation decision that no width fix changes (a mask the
/// translator dropped) does not.
enum class Wave64Role { Assumption, TranslationReview };

/// Reports one wave64 finding (see the file comment). DefinedAt, for a
/// finding at a use of a named warp constant, is where the constant's value is
/// written: the finding records it (Diagnostic::Definition) when that is in a
/// translated file. Returns false when the finding was suppressed or lies
/// outside the translated files.
/// FixWithheld, when set, says why the finding carries no fix
/// (Diagnostic::FixWithheld).
bool reportWave64(SourceContext &Context, clang::SourceLocation Loc, const std::string &CheckId,
                  Severity Level, std::string Message, std::vector<Wave64Fix> Fixes = {},
                  clang::SourceLocation DefinedAt = {},
                  Wave64Role Role = Wave64Role::Assumption, std::string FixWithheld = {});

/// Why a finding in consistent 32-lane groups (LaneGrouping::ConsistentGroups)
/// is a note without a fix.
inline constexpr const char *ConsistentGroupsReason =
    "correct on a 64-lane wavefront as written: this code and the functions it calls or is "
    "called from shuffle only within 32-lane groups "
    "(lanes and offsets below 32) and reads no whole warp (no ballot, vote, activemask, broadcast "
    "from a fixed lane or warpSize), so each wavefront runs two independent groups that its ids "
    "by 32 name. Using whole wavefronts is a speed change that must change every 32 of the "
    "grouping together (lane and group ids, strides, slots, shuffle offsets, host launch shapes); "
    "no fix is applied";

/// Why a finding in 32-lane groups whose shuffles all pass their width
/// (LaneGrouping::WidthPinnedGroups) is a note without a fix.
inline constexpr const char *WidthPinnedGroupsReason =
    "correct on a 64-lane wavefront as written: every shuffle of this code and the functions it "
    "calls or is called from passes a width of 32 or less and nothing there reads a whole warp "
    "(no ballot, vote, activemask or warpSize), so each wavefront runs two independent 32-lane "
    "groups, which their lane and group math by 32 "
    "numbers (that math is right, and not reported). Using whole wavefronts is a speed change "
    "that must change every 32 of the grouping together (widths, lane and group ids, strides, "
    "slots, host launch shapes); no fix is applied";

/// Whether Reason says a finding is right as written in 32-lane groups.
inline bool isGroupsReason(llvm::StringRef Reason) {
  return Reason == ConsistentGroupsReason || Reason == WidthPinnedGroupsReason;
}

/// A finding's message in 32-lane groups: what it found (up to its first
/// "; " or ": "), then Reason.
std::string groupsMessage(llvm::StringRef Message, llvm::StringRef Reason);

} // namespace cu2dcu
