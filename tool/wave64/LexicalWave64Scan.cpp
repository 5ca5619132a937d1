#include "wave64/LexicalWave64Scan.h"
#include "wave64/CheckIds.h"

#include "wave64/Wave64Check.h"
#include "translate/EntryTranslation.h"
#include "translate/RawTokens.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <memory>
#include <optional>

namespace cu2dcu {

namespace {

using clang::tok::TokenKind;
namespace tok = clang::tok;

constexpr const char *LowConfidenceNote = " (token-level finding: no AST, lower confidence)";
constexpr const char *UnseenCodeNote =
    " (token-level finding in code the parse did not compile, such as an inactive #if "
    "branch: lower confidence)";

/// A pattern of mappings/checks/warp_names.yaml, case-insensitive; an empty
/// one (maps without that file) matches nothing. Compiled once per thread,
/// not per scanned file.
class NamePattern {
public:
  explicit NamePattern(const std::string &Pattern) {
    if (Pattern.empty())
      return;
    thread_local std::map<std::string, std::unique_ptr<llvm::Regex>> Compiled;
    std::unique_ptr<llvm::Regex> &Slot = Compiled[Pattern];
    if (!Slot)
      Slot = std::make_unique<llvm::Regex>(Pattern, llvm::Regex::IgnoreCase);
    Regex = Slot.get();
  }
  bool match(llvm::StringRef Name) const { return Regex && Regex->match(Name); }

private:
  const llvm::Regex *Regex = nullptr;
};

class Scan {
public:
  Scan(const std::string &Text, const std::string &Path, const ApiMap &Map, FileFindings &Out,
       Wave64Scan What)
      : Text(Text), Path(Path), Map(Map), Out(Out), T(lexRaw(Text, 0, Text.size())),
        What(What), Caveat(What == Wave64Scan::Everything   ? LowConfidenceNote
                           : What == Wave64Scan::DevicePass ? UnseenCodeNote
                                                            : nullptr),
        WarpSizeName(Map.warpNames().WarpSizeNames), MaskName(Map.warpNames().LaneMaskNames),
        ThreadIndexName(Map.warpNames().ThreadIndexNames) {}

  void run() {
    for (size_t I = 0; I < T.size(); ++I) {
      if (T[I].Kind == tok::hash && T[I].StartsLine)
        definition(I + 2, I + 3, /*Directive=*/true);
      else if (T[I].Kind == tok::raw_identifier && is(I + 1, tok::equal))
        definition(I, I + 2, /*Directive=*/false);
      if (What == Wave64Scan::Definitions) {
        if (isAsm(I) && !inNvidiaOnlyBranch(T[I].Offset))
          inlinePtx(I);
        continue;
      }
      if (T[I].Kind == tok::raw_identifier)
        identifier(I);
      else if (isLaneOperator(I))
        laneMath(I);
    }
  }

private:
  std::string spelling(size_t I) const {
    return I < T.size() ? cleanSpelling(Text, T[I]) : std::string();
  }
  bool is(size_t I, TokenKind Kind) const { return I < T.size() && T[I].Kind == Kind; }
  std::optional<uint64_t> number(size_t I) const {
    if (!is(I, tok::numeric_constant))
      return std::nullopt;
    llvm::StringRef S = llvm::StringRef(spelling(I)).rtrim("uUlL");
    uint64_t V;
    if (S.getAsInteger(0, V))
      return std::nullopt;
    return V;
  }
  void report(size_t I, const char *Id, Severity Level, const std::string &Message) {
    reportWith(I, Id, Level, Message, Caveat);
  }
  /// Why: the reason the finding is of lower confidence, or null.
  void reportWith(size_t I, const char *Id, Severity Level, const std::string &Message,
                  const char *Why) {
    if (isSuppressed(Text, T[I].Offset, Id))
      return;
    addFinding(Out, Text, Path, T[I].Offset, Id, Level, Why ? Message + Why : Message);
    Out.Diagnostics.back().LowConfidence = Why != nullptr;
  }

  bool isAsm(size_t I) const {
    if (!is(I, tok::raw_identifier))
      return false;
    std::string Name = spelling(I);
    return Name == "asm" || Name == "__asm__" || Name == "__asm";
  }

  /// PTX in `#if defined(__PTX__)` is for NVIDIA compiles only (computed on
  /// first use: most files have no asm).
  bool inNvidiaOnlyBranch(unsigned Offset) {
    if (!NvidiaOnly)
      NvidiaOnly = nvidiaOnlyBranches(Text, Map.inlinePtx());
    return llvm::any_of(*NvidiaOnly,
                        [&](const ByteRange &R) { return Offset >= R.Begin && Offset < R.End; });
  }

  /// `#define WARP_SIZE 32`, `constexpr int kWarpSize = 32;`,
  /// `#define FULL_MASK 0xffffffff`: Name at T[Name], the value at T[Value]
  /// alone (a directive's line ends there, a declaration's ';' follows).
  void definition(size_t Name, size_t Value, bool Directive) {
    if (!is(Name, tok::raw_identifier) || (Directive && spelling(Name - 1) != "define"))
      return;
    bool Alone = Directive ? Value + 1 >= T.size() || T[Value + 1].StartsLine
                           : is(Value + 1, tok::semi) || is(Value + 1, tok::comma);
    std::optional<uint64_t> V = number(Value);
    if (!V || !Alone)
      return;
    std::string Id = spelling(Name);
    if (*V == 32 && WarpSizeName.match(Id))
      report(Value, wave64_ids::LaneMath, Severity::Warning,
             "'" + Id + "' defines the warp size as 32; a wavefront has 64 lanes (use warpSize)");
    else if (*V == 0xffffffffu && MaskName.match(Id) && spelling(Value).find_first_of("lL") ==
                                                         std::string::npos)
      report(Value, wave64_ids::Mask32, Severity::Note,
             "'" + Id + "' defines a 32-bit full lane mask; a wavefront has 64 lanes "
             "(HIP >= 6.2 takes 0xffffffffffffffffull; before 6.2 the mask is dropped)");
  }

  void identifier(size_t I) {
    std::string Name = spelling(I);
    if (isWarpCall(Name) && is(I + 1, tok::l_paren))
      maskArgument(I, Name);
    else if (isAsm(I) && !inNvidiaOnlyBranch(T[I].Offset))
      inlinePtx(I);
    else if (Name == "for" && is(I + 1, tok::l_paren))
      shuffleLoop(I + 1);
  }

  /// A warp function of the maps that takes a lane mask first.
  bool isWarpCall(const std::string &Name) const { return takesLaneMask(warpRole(Name)); }
  bool isShuffle(const std::string &Name) const { return isShuffleRole(warpRole(Name)); }
  WarpFn warpRole(const std::string &Name) const {
    const ApiEntry *Entry = Map.lookup(Name);
    return Entry ? Entry->Warp : WarpFn::None;
  }

  /// `__shfl_down_sync(0xffffffff, ...)`: a 32-bit lane mask.
  void maskArgument(size_t Name, const std::string &Callee) {
    size_t First = Name + 2, End = First;
    while (End < T.size() && !is(End, tok::comma) && !is(End, tok::r_paren))
      ++End;
    if (End == First)
      return;
    std::optional<uint64_t> Mask = End == First + 1 ? number(First) : std::nullopt;
    bool Full = (Mask && *Mask == 0xffffffffu) ||
                (End == First + 2 && is(First, tok::minus) && number(First + 1) == 1u) ||
                (End == First + 2 && is(First, tok::tilde) && number(First + 1) == 0u);
    if (Full)
      report(First, wave64_ids::Mask32, Severity::Note,
             "full 32-bit lane mask passed to " + Callee + "; a wavefront has 64 lanes");
    else if (Mask && *Mask > 0 && *Mask < 0xffffffffu)
      report(First, wave64_ids::Mask32, Severity::Warning,
             "partial 32-bit lane mask passed to " + Callee +
                 "; lanes 32-63 of a wavefront are never selected");
  }

  /// `asm("mov.u32 %0, %%laneid;" ...)` and other warp PTX. In a file the
  /// AST checked, the scan sees what the AST did not (an inactive #if branch,
  /// a macro never expanded) and reports at the `asm`, the line the AST check
  /// would use: the driver keeps it only where the AST check did not report.
  void inlinePtx(size_t Asm) {
    for (size_t I = Asm + 1; I < T.size() && I < Asm + 8 && !is(I, tok::semi); ++I) {
      if (!is(I, tok::string_literal))
        continue;
      std::string Literal = spelling(I);
      if (isLaneLevelPtx(Literal)) {
        const char *Message = "inline PTX with warp-level semantics has no HIP equivalent; use "
                              "the HIP intrinsic (__lane_id(), __ballot, __shfl...)";
        if (What == Wave64Scan::Definitions) // an inactive branch of a parsed file
          reportWith(Asm, wave64_ids::InlinePtx, Severity::Warning, Message, UnseenCodeNote);
        else
          report(I, wave64_ids::InlinePtx, Severity::Error, Message);
        return;
      }
      // __CUDA_ARCH__ becomes __HIP_DEVICE_COMPILE__: the AMD device compile
      // takes this branch, and no PTX assembles there.
      if (What == Wave64Scan::DevicePass && Map.inlinePtx().looksLikePtx(Literal)) {
        report(I, wave64_ids::InlinePtx, Severity::Error,
               "inline PTX in a device-pass branch (#ifdef __CUDA_ARCH__) does not assemble for "
               "AMD GPUs; " + Map.inlinePtx().adviceFor(Literal));
        return;
      }
    }
  }

  bool isLaneLevelPtx(const std::string &Literal) const {
    return llvm::any_of(Map.ptxIdioms(), [&](const PtxIdiom &I) {
      return I.LaneLevel && Literal.find(I.Ptx) != std::string::npos;
    });
  }

  /// `for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(...)`.
  void shuffleLoop(size_t Open) {
    size_t Close = Open, Depth = 0;
    std::optional<size_t> Sixteen;
    for (; Close < T.size(); ++Close) {
      Depth += is(Close, tok::l_paren);
      if (is(Close, tok::r_paren) && --Depth == 0)
        break;
      if (!Sixteen && number(Close) == 16u && is(Close - 1, tok::equal))
        Sixteen = Close;
    }
    if (!Sixteen)
      return;
    for (size_t I = Close + 1; I < T.size() && I < Close + 40; ++I)
      if (is(I, tok::raw_identifier) && isShuffle(spelling(I))) {
        report(*Sixteen, wave64_ids::ShuffleOffset, Severity::Warning,
               "shuffle loop starting at offset 16 reduces 32 lanes; a wavefront has 64 "
               "(start at warpSize / 2)");
        return;
      }
  }

  bool isLaneOperator(size_t I) const {
    return is(I, tok::percent) || is(I, tok::amp) || is(I, tok::slash) ||
           is(I, tok::greatergreater);
  }

  /// `threadIdx.x % 32`, `tid & 31`, `lane / 32`, `threadIdx.x >> 5`.
  void laneMath(size_t Op) {
    std::optional<uint64_t> V = number(Op + 1);
    if (!V || is(Op + 2, tok::period))
      return;
    bool Lane = (is(Op, tok::percent) && *V == 32) || (is(Op, tok::amp) && *V == 31) ||
                (is(Op, tok::slash) && *V == 32) || (is(Op, tok::greatergreater) && *V == 5);
    if (!Lane || !leftOperandIsThreadIndex(Op))
      return;
    report(Op + 1, wave64_ids::LaneMath, Severity::Warning,
           "lane or warp index computed with 32 lanes ('" + spelling(Op) + " " +
               spelling(Op + 1) + "'); a wavefront has 64 (use warpSize)");
  }

  /// Whether the operand left of Op mentions a thread index (threadIdx, tid,
  /// lane, ...): scanned back to the start of the expression.
  bool leftOperandIsThreadIndex(size_t Op) const {
    int Depth = 0;
    for (size_t I = Op; I-- > 0 && Op - I < 16;) {
      if (is(I, tok::r_paren))
        ++Depth;
      else if (is(I, tok::l_paren) && --Depth < 0)
        return false;
      else if (Depth == 0 && (is(I, tok::semi) || is(I, tok::l_brace) || is(I, tok::r_brace) ||
                              is(I, tok::equal) || is(I, tok::comma) || is(I, tok::question)))
        return false;
      else if (is(I, tok::raw_identifier) && ThreadIndexName.match(spelling(I)))
        return true;
    }
    return false;
  }

  const std::string &Text;
  const std::string &Path;
  const ApiMap &Map;
  FileFindings &Out;
  std::vector<RawToken> T;
  const Wave64Scan What;
  const char *const Caveat; // why the scan's findings are of lower confidence, or null
  const NamePattern WarpSizeName, MaskName, ThreadIndexName;
  std::optional<std::vector<ByteRange>> NvidiaOnly;
};

} // namespace

namespace {

/// A preprocessor condition as the branch scan sees it.
struct BranchCondition {
  std::string Directive;          // if, ifdef, ifndef, elif, else
  std::vector<std::string> Names; // identifiers other than 'defined'
  bool Plain = true;              // nothing but names, 'defined', '!' and parentheses
  bool Negated = false;           // a '!' in it
  bool TestsDefined = false;      // a 'defined' in it
};

/// The byte ranges of the branches Select picks, given each branch's
/// condition and the condition of its chain's #if (for an #else). One pass
/// over the raw tokens.
std::vector<ByteRange>
selectedBranches(const std::string &Text,
                 llvm::function_ref<bool(const BranchCondition &, const BranchCondition &)> Select) {
  std::vector<RawToken> T = lexRaw(Text, 0, Text.size());
  struct Open {
    BranchCondition Opening;
    bool Selected;
    unsigned Begin;
  };
  std::vector<Open> Stack;
  std::vector<ByteRange> Ranges;
  auto Close = [&](unsigned At) {
    if (!Stack.empty() && Stack.back().Selected)
      Ranges.push_back({Stack.back().Begin, At});
  };
  for (size_t I = 0; I + 1 < T.size(); ++I) {
    if (T[I].Kind != tok::hash || !T[I].StartsLine)
      continue;
    BranchCondition Cond;
    Cond.Directive = cleanSpelling(Text, T[I + 1]);
    size_t End = I + 2;
    for (; End < T.size() && !T[End].StartsLine; ++End) {
      std::string S = cleanSpelling(Text, T[End]);
      bool Defined = S == "defined";
      if (T[End].Kind == tok::raw_identifier && !Defined)
        Cond.Names.push_back(S);
      else if (T[End].Kind != tok::l_paren && T[End].Kind != tok::r_paren &&
               T[End].Kind != tok::exclaim && !Defined)
        Cond.Plain = false;
      Cond.Negated |= T[End].Kind == tok::exclaim;
      Cond.TestsDefined |= Defined;
    }
    unsigned LineEnd = End < T.size() ? T[End].Offset : Text.size();
    const std::string &D = Cond.Directive;
    if (D == "if" || D == "ifdef" || D == "ifndef") {
      Stack.push_back({Cond, Select(Cond, Cond), LineEnd});
    } else if ((D == "elif" || D == "else") && !Stack.empty()) {
      Close(T[I].Offset);
      Stack.back().Selected = Select(Cond, Stack.back().Opening);
      Stack.back().Begin = LineEnd;
    } else if (D == "endif" && !Stack.empty()) {
      Close(T[I].Offset);
      Stack.pop_back();
    }
  }
  return Ranges;
}

/// Device-pass code: #ifdef __CUDA_ARCH__, #if defined(__CUDA_ARCH__), and
/// the #else of #ifndef __CUDA_ARCH__. The AST, parsed as the host pass
/// sees the file, never holds it; the translation turns these tests into
/// tests of __HIP_DEVICE_COMPILE__, so the AMD device compile takes them. A
/// test of the value (#if __CUDA_ARCH__ >= 700) is kept as written, and is
/// false on AMD, where __CUDA_ARCH__ is undefined: the AMD compile takes its
/// other branch, which the host pass saw.
static bool testsArchDefined(const BranchCondition &C) {
  return C.Plain && C.Names.size() == 1 && C.Names[0] == "__CUDA_ARCH__" &&
         (C.Directive == "ifdef" || C.Directive == "ifndef" || C.TestsDefined);
}

std::vector<ByteRange> devicePassBranches(const std::string &Text) {
  return selectedBranches(Text, [](const BranchCondition &C, const BranchCondition &Opening) {
    if (C.Directive == "else")
      return testsArchDefined(Opening) && (Opening.Directive == "ifndef" || Opening.Negated);
    return C.Directive != "ifndef" && testsArchDefined(C) && !C.Negated;
  });
}

/// The #if / #elif branches that read __CUDA_ARCH__'s value (#if
/// __CUDA_ARCH__ >= 800): kept by the translation and false on AMD, also
/// inside a device-pass branch.
std::vector<ByteRange> archValueBranches(const std::string &Text) {
  return selectedBranches(Text, [](const BranchCondition &C, const BranchCondition &) {
    return C.Directive != "else" && llvm::is_contained(C.Names, "__CUDA_ARCH__") &&
           !testsArchDefined(C);
  });
}

} // namespace

std::vector<ByteRange> nvidiaOnlyBranches(const std::string &Text, const InlinePtxRules &Rules) {
  return selectedBranches(Text, [&](const BranchCondition &C, const BranchCondition &) {
    return C.Directive != "else" && C.Directive != "ifndef" && C.Plain && !C.Negated &&
           C.Names.size() == 1 &&
           llvm::is_contained(Rules.NvidiaOnlyMacros, C.Names[0]);
  });
}

void scanWave64Lexically(const std::string &Text, const std::string &Path, const ApiMap &Map,
                         FileFindings &Out, Wave64Scan What) {
  if (What != Wave64Scan::DevicePass)
    return Scan(Text, Path, Map, Out, What).run();
  if (Text.find("__CUDA_ARCH__") == std::string::npos)
    return;
  std::vector<ByteRange> Branches = devicePassBranches(Text);
  if (Branches.empty())
    return;
  // Everything outside those branches becomes blanks: lines and columns stay.
  std::string Masked(Text.size(), ' ');
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Masked[I] = '\n';
  for (const ByteRange &B : Branches)
    Masked.replace(B.Begin, B.End - B.Begin, Text, B.Begin, B.End - B.Begin);
  for (const ByteRange &B : archValueBranches(Text)) // nested value tests: not on AMD
    for (unsigned I = B.Begin; I < B.End; ++I)
      if (Masked[I] != '\n')
        Masked[I] = ' ';
  Scan(Masked, Path, Map, Out, What).run();
}

} // namespace cu2dcu
