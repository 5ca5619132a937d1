#include "lexical/LexicalWarpCalls.h"
#include "wave64/CheckIds.h"

#include "translate/EntryTranslation.h"

#include <cctype>

namespace cu2dcu::lexical {

namespace tok = clang::tok;

namespace {

/// A lane mask written as a literal in a warp call.
enum class MaskLiteral { Other, Full32, Full64, ActiveMask };

/// The lane mask T[First..Last] when it is a literal whose value is known
/// without types: 0xffffffff, ~0u, -1 (32 bits), 0xffffffffffffffffull,
/// ~0ull (64), __activemask().
MaskLiteral maskLiteral(const LexicalContext &C, const TokenList &T, size_t First, size_t Last) {
  std::string Text;
  for (size_t J = First; J <= Last; ++J)
    Text += C.spelling(T[J]);
  if (auto Value = C.MacroValues.find(Text); First == Last && Value != C.MacroValues.end())
    Text = Value->second; // #define FULL_MASK 0xffffffff
  std::string Lower;
  for (char Ch : Text)
    Lower += char(tolower(static_cast<unsigned char>(Ch)));
  if (Lower == "__activemask()")
    return MaskLiteral::ActiveMask;
  auto Strip = [](std::string S, bool &Long) {
    Long = false;
    while (!S.empty() && (S.back() == 'u' || S.back() == 'l')) {
      Long |= S.back() == 'l';
      S.pop_back();
    }
    return S;
  };
  bool Long;
  std::string Value = Strip(Lower, Long);
  if (Value == "0xffffffff")
    return Long ? MaskLiteral::Other : MaskLiteral::Full32; // 0xfffffffful is 64-bit, not full
  if (Value == "0xffffffffffffffff")
    return MaskLiteral::Full64;
  if (Lower == "~0u" || Lower == "~0" || Lower == "-1" || Lower == "~0x0u")
    return MaskLiteral::Full32;
  if (Lower == "~0ull" || Lower == "~0llu" || Lower == "-1ll")
    return MaskLiteral::Full64;
  return MaskLiteral::Other;
}

/// A mask that is not a full literal, on a target without *_sync functions:
/// unless --strict-masks, it is dropped with a warning (as in the AST mode).
bool droppedLossyMask(LexicalContext &C, const TokenList &T, size_t I,
                      const std::string &Replacement) {
  if (C.Options.StrictMasks || !C.WholeFile)
    return false;
  addFinding(C.Out, C.Text, C.Path, T[I].Offset, wave64_ids::WarpSync, Severity::Warning,
             "'" + C.spelling(T[I]) + "' with a lane mask that may not cover the warp: HIP " +
                 C.Options.TargetHip.str() + " has only " + Replacement +
                 ", which runs on every active lane of the 64-lane wavefront; the mask was "
                 "dropped. Check that every lane reaching this call is in the mask "
                 "(--strict-masks leaves such calls unchanged)");
  return true;
}

} // namespace

bool translateWarpCall(LexicalContext &C, const TokenList &T, size_t I, const std::string &Name) {
  if (C.LeftToAst && C.LeftToAst->count(T[I].Offset))
    return true;
  if (I + 1 >= T.size() || T[I + 1].Kind != tok::l_paren)
    return false;
  // The map entry's rules: before its hip_since the target has only its
  // legacy_hip form (as the AST mode's WarpIntrinsicTranslator).
  const ApiEntry *Entry = C.Map.lookup(Name);
  const bool Old = Entry && Entry->isMissingIn(C.Options.TargetHip);
  int Close = matchForward(T, I + 1);
  if (Close < 0)
    return false;
  auto Args = argumentSpans(C.Text, T, I + 1);
  const unsigned CallEnd = T[Close].Offset + 1;
  const WarpFn Role = Entry ? Entry->Warp : WarpFn::None;
  if (Role == WarpFn::ActiveMask) {
    if (!Old || !Args.empty() || Entry->LegacyHip.empty())
      return false;
    C.Out.Edits.push_back({T[I].Offset, CallEnd - T[I].Offset, Entry->LegacyHip, "device", Name});
    return true;
  }
  if (Role == WarpFn::SyncWarp) {
    // Renamed by the map (to its shim where the target has none); only the
    // mask is this pass's business, as in the AST mode.
    if (Entry && Entry->usesShim(C.Options.TargetHip) && Args.size() == 1 &&
        maskLiteral(C, T, Args[0].first, Args[0].second) == MaskLiteral::Other) {
      const RawToken &MaskFirst = T[Args[0].first], &MaskLast = T[Args[0].second];
      std::string Mask =
          C.Text.substr(MaskFirst.Offset, MaskLast.Offset + MaskLast.Length - MaskFirst.Offset);
      addFinding(C.Out, C.Text, C.Path, T[I].Offset, wave64_ids::WarpSync,
                 C.Options.StrictMasks ? Severity::Error : Severity::Warning,
                 shimmedSyncWarpMessage("'" + Mask + "'", C.Options.TargetHip, Entry->Shim));
    }
    return false;
  }
  if (!Entry || Entry->LegacyHip.empty() || Args.size() < 2)
    return false;
  const std::string &Legacy = Entry->LegacyHip;
  const RawToken &MaskFirst = T[Args[0].first], &MaskLast = T[Args[0].second];
  MaskLiteral Mask = maskLiteral(C, T, Args[0].first, Args[0].second);
  if (Old) {
    if (Mask == MaskLiteral::Other && !droppedLossyMask(C, T, I, "'" + Legacy + "'"))
      return false;
    C.Out.Edits.push_back({T[I].Offset, T[I].Length, Legacy, "device", Name});
    C.Out.Edits.push_back(
        {MaskFirst.Offset, T[Args[1].first].Offset - MaskFirst.Offset, "", "device", ""});
    C.SkipUntil = T[Args[1].first].Offset;
    return true;
  }
  if (C.WholeFile && Entry->needsGuard(C.Options.TargetHip))
    C.Out.Edits.push_back(guardDefinition(C.Text, Entry->HipGuard));
  // Widened where written: a macro's definition is the AST mode's business.
  if (Mask == MaskLiteral::Full32 && MaskFirst.Kind != tok::raw_identifier) {
    C.Out.Edits.push_back({MaskFirst.Offset, MaskLast.Offset + MaskLast.Length - MaskFirst.Offset,
                           "0xffffffffffffffffull", "device", ""});
    C.SkipUntil = MaskLast.Offset + MaskLast.Length;
  }
  return false; // the name itself is translated as usual
}

} // namespace cu2dcu::lexical
