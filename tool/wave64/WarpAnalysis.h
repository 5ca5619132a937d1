// Shared analysis for the wavefront-64 checks and the warp intrinsic
// translator: which values derive from thread indices (a small intra-function
// def-use walk over variable initialisers and assignments), which constants
// stand for the 32-lane warp size, which calls are warp intrinsics and what
// their lane masks are.
#pragma once

#include "mapping/ApiMap.h"
#include "wave64/AmdPaths.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cu2dcu {

/// What a value is derived from; a bit set.
enum TaintBits : unsigned {
  TaintNone = 0,
  TaintThread = 1u << 0,     // threadIdx, thread_rank(), __lane_id(), PTX %laneid
  TaintLane = 1u << 1,       // a lane computed for 32-lane warps: tid % 32, tid & 31
  TaintWarpId = 1u << 2,     // a warp index computed with 32: tid / 32, tid >> 5
  TaintBallot = 1u << 3,     // a lane mask: ballot / activemask results and bit ops on them
  TaintActiveMask = 1u << 4, // exactly the __activemask() value
  TaintBlockDim = 1u << 5,   // blockDim
  TaintLaneBit = 1u << 6,    // a 32-bit lane bit or lane mask: 1u << lane, (1u << lane) - 1
  TaintWideLane = 1u << 7,   // a lane over the whole wavefront: tid % warpSize
  /// Any lane: what a stride or a last-lane test of 32 around it breaks.
  TaintAnyLane = TaintLane | TaintWideLane,
};

/// Per-function facts, computed once per function and cached.
struct FunctionFlow {
  llvm::DenseMap<const clang::VarDecl *, unsigned> Vars;
  /// Variables written after their declaration (assignment, ++, --, &x).
  llvm::DenseSet<const clang::VarDecl *> Assigned;
  /// Every reference to a local variable in the body, for use scans.
  std::vector<const clang::DeclRefExpr *> Refs;
  /// Every array subscript in the body.
  std::vector<const clang::ArraySubscriptExpr *> Subscripts;
  /// In a function without warp work, the row and column of a 2-D array
  /// taken from one thread index (`As[t / 32][t % 32]`, `m[r * 33 + c]`
  /// with r = t >> 5, c = t & 31): data, not lanes.
  llvm::DenseSet<const clang::BinaryOperator *> TileSplits;

  unsigned of(const clang::VarDecl *V) const {
    auto It = Vars.find(V);
    return It == Vars.end() ? TaintNone : It->second;
  }
};

/// A constant that stands for a warp-size-derived number (32, 31, 5, 16).
struct WarpConstant {
  int64_t Value = 0;
  /// Literal: the number is written where it is used (possibly inside a
  /// function-like macro body together with the operator). Named: it comes
  /// from a macro or a constant whose name says warp/lane/wave.
  bool Named = false;
  std::string Name;
  /// The literal token to replace, when the constant is one literal token.
  clang::SourceLocation LiteralLoc;
  /// Named: where the name's value is written (its #define or initialiser),
  /// the line a port changes; findings at uses are folded into it.
  clang::SourceLocation DefinitionLoc;
};

/// A call of a CUDA warp function: one whose map entry gives it a role
/// (`warp`, WarpFn).
struct WarpCall {
  WarpFn Fn = WarpFn::None;
  std::string Name;
  const clang::CallExpr *Call = nullptr;
  clang::SourceLocation NameLoc;
  /// Arguments as written (default arguments left out).
  std::vector<const clang::Expr *> Args;

  bool isShuffle() const;
  bool isSync() const;     // takes a lane mask as first parameter
  /// A ballot or __activemask(): its value is a lane mask of the warp.
  bool isBallot() const {
    return Fn == WarpFn::BallotSync || Fn == WarpFn::Ballot || Fn == WarpFn::ActiveMask;
  }
  const clang::Expr *mask() const { return isSync() && !Args.empty() ? Args[0] : nullptr; }
  /// Index of the lane / offset argument of a shuffle, or -1.
  int offsetArg() const;
  /// Index of the width argument of a shuffle, or -1.
  int widthArg() const;
};

/// The name a call's callee is spelled with (also for dependent calls).
std::string calleeName(const clang::CallExpr *Call);
/// Call as a warp call, when Map gives its callee's name a warp role.
std::optional<WarpCall> asWarpCall(const clang::CallExpr *Call, const ApiMap &Map);

enum class MaskKind {
  Default,   // no mask written (__syncwarp())
  Full32,    // all 32 bits set, 32-bit type: 0xffffffff, ~0u, -1
  Full64,    // all 64 bits set, 64-bit type
  ActiveMask,// __activemask(), or a variable holding it
  Partial32, // another constant of a 32-bit type
  Partial64, // another constant of a 64-bit type
  Dynamic32, // not a constant, 32-bit type
  Dynamic64, // not a constant, 64-bit type
};

struct MaskInfo {
  MaskKind Kind = MaskKind::Dynamic32;
  uint64_t Value = 0;
  /// The mask is spelled through a name: a variable, an object-like macro or
  /// a template parameter.
  bool ViaName = false;
  /// It depends on a template parameter (a template pattern): its value is
  /// known per instantiation only.
  bool Dependent = false;
  /// It is a template parameter's value (in an instantiation).
  bool TemplateParam = false;
  std::string Name;
  std::string Text; // as written in the call
  const clang::VarDecl *Var = nullptr;
  /// Where the constant is written (the literal in the call, the macro body or
  /// the variable initialiser), when it is one literal token or ~0u / -1.
  clang::SourceLocation ValueBegin, ValueEnd;

  bool isFull() const {
    return Kind == MaskKind::Full32 || Kind == MaskKind::Full64 || Kind == MaskKind::ActiveMask ||
           Kind == MaskKind::Default;
  }
  bool is32Bit() const {
    return Kind == MaskKind::Full32 || Kind == MaskKind::Partial32 || Kind == MaskKind::Dynamic32;
  }
  std::string describe() const; // "0xffffffff", "FULL_MASK (0xffffffff)", "'m'"
};

/// Whether a name reads as the warp / lane / wavefront size.
bool isWarpName(llvm::StringRef Name);
/// Whether a name reads as a thread-block size (BLOCK_SIZE, kThreads, ...).
bool isBlockName(llvm::StringRef Name);
/// "threadIdx", "blockDim", ... when E reads a member of that builtin variable.
llvm::StringRef builtinVariable(const clang::Expr *E);
/// The function (or lambda call operator) whose body holds S.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S, clang::ASTContext &Ctx);
/// The nearest parent of E that is not a paren or implicit cast; Child is set
/// to the expression directly under it.
/// i + i / 32, i + (i >> 5): one padding slot per 32 shared-memory words,
/// against bank conflicts; the 32 counts banks (32 on DCU too), not lanes.
bool bankPadding(const clang::BinaryOperator *B, clang::ASTContext &Ctx);
const clang::Stmt *parentSkippingParens(const clang::Expr *E, clang::ASTContext &Ctx,
                                        const clang::Expr **Child = nullptr);
bool isDeviceFunction(const clang::FunctionDecl *F);
/// Source text of a token range, as spelled.
std::string spelledText(clang::SourceRange Range, const clang::SourceManager &SM);
/// Whether S reads the builtin warpSize anywhere.
bool referencesWarpSize(const clang::Stmt *S);
/// E's integer value when it is a constant expression.
std::optional<int64_t> constantOf(const clang::Expr *E, clang::ASTContext &Ctx);
/// The variable E names (parentheses and casts ignored), or null.
const clang::VarDecl *varOf(const clang::Expr *E);

/// How a translation unit's code (outside system headers) groups lanes.
enum class LaneGrouping {
  /// Code that works on whole warps: lane math by 32 there is a hazard.
  WarpWide,
  /// Explicit 32-lane groups: it shuffles, nothing reads the whole warp
  /// (ballot, vote, activemask, match, reduce), and every shuffle passes a
  /// constant width of at most 32, or some shuffle broadcasts from a fixed lane
  /// in 1-31 and every shuffle without a width reads a lane / offset in
  /// [0, 32). Lane and warp math by 32 numbers the groups the shuffles
  /// exchange in (once the widths are pinned to 32); warpSize would break it.
  ExplicitGroups,
  /// Explicit 32-lane groups whose every shuffle already passes a constant
  /// width of at most 32, and that never reads warpSize: each 64-lane
  /// wavefront runs two independent groups, right as written.
  WidthPinnedGroups,
  /// Consistent 32-lane groups: it shuffles only by lanes / offsets in
  /// [0, 32) at the default width, nothing reads the whole warp and nothing
  /// reads warpSize. Each 64-lane wavefront then runs two independent groups:
  /// an XOR butterfly or a reduction from 16 leaves each group's result in
  /// the lanes its ids by 32 name, so the code is right as written. Moving
  /// to whole wavefronts is a speed change that must change every 32 at once.
  ConsistentGroups,
};

/// A function written in the unit (a pattern for templates; lambdas lie in
/// their function's span), with the grouping of its part of the call graph.
struct FunctionSpan {
  clang::FileID File;
  unsigned Begin = 0, End = 0;
  LaneGrouping Grouping = LaneGrouping::WarpWide;
  bool Kernel = false;
};

/// Whether Call is cooperative groups' tiled_partition<N> with 1 < N <= 32:
/// tiles whose collectives exchange within N lanes, as a shuffle of width N.
bool tileOfAtMost32(const clang::CallExpr *Call, clang::ASTContext &Ctx);

class WarpAnalysis {
public:
  /// Map: where the warp functions' roles come from.
  explicit WarpAnalysis(const ApiMap &Map) : Map(Map) {}
  /// The template instantiation around B (of a function template, or a
  /// member of a class template) when its pattern spells B as an operator
  /// call and the instantiation is the first one read of that pattern: with
  /// operator overloads in scope (cuda_fp16.h's operator/ for __half),
  /// `tid / Cfg::kSpan` is a dependent operator call in the pattern, a
  /// built-in operator only in the instantiations. Checks read B there, once.
  const clang::FunctionDecl *operatorInstance(const clang::BinaryOperator *B,
                                              clang::ASTContext &Ctx) const;
  /// Data flow of F's body (cached).
  const FunctionFlow &flow(const clang::FunctionDecl *F, clang::ASTContext &Ctx);
  /// Data flow of the function around S, or an empty flow outside functions.
  const FunctionFlow &flowAt(const clang::Stmt *S, clang::ASTContext &Ctx);
  /// What E derives from.
  unsigned taint(const clang::Expr *E, const FunctionFlow &Flow, clang::ASTContext &Ctx) const;
  /// E as a warp-size-derived constant with one of Values, or nothing. A
  /// number that comes from a constant named otherwise (TILE, BLOCK) is one
  /// only where the function around E (or one it calls) shuffles, or Around
  /// when given (the kernel a launch shape is for); warpSize itself never is.
  std::optional<WarpConstant> warpConstant(const clang::Expr *E, clang::ASTContext &Ctx,
                                           std::initializer_list<int64_t> Values,
                                           clang::SourceLocation OperatorLoc = {},
                                           const clang::FunctionDecl *Around = nullptr) const;
  /// Whether E is the warp width (CudaValue: 32, or 31 for a lane mask) only
  /// in the CUDA view, and the project's own AMD branch gives the port the
  /// wavefront's (kWave: 32 in the #else of __HIP_PLATFORM_AMD__, 64 in it):
  /// for the port, E is a wavefront width as warpSize is.
  bool wavefrontInPort(const clang::Expr *E, int64_t CudaValue, clang::ASTContext &Ctx) const;
  /// Whether S, outside system headers, reads such a width.
  bool readsPortWavefront(const clang::Stmt *S, clang::ASTContext &Ctx) const;
  /// warpConstant as the CUDA parse sees it, also where the port takes the
  /// constant from the project's own AMD branch.
  std::optional<WarpConstant> cudaViewConstant(const clang::Expr *E, clang::ASTContext &Ctx,
                                               std::initializer_list<int64_t> Values,
                                               clang::SourceLocation OperatorLoc,
                                               const clang::FunctionDecl *Around) const;
  /// Classifies the lane mask of a warp call.
  MaskInfo classifyMask(const WarpCall &Call, const FunctionFlow &Flow,
                        clang::ASTContext &Ctx) const;
  /// The operators of F that address bits by a thread index, not lanes: a
  /// position X % 32 (X & 31) used as a shift amount and a word X / 32
  /// (X >> 5) of the same X, in a function that makes no warp call
  /// (`bitmap[i / 32] |= 1u << (i % 32)`). Cached per function.
  const llvm::DenseSet<const clang::BinaryOperator *> &bitAddressing(const clang::FunctionDecl *F,
                                                                     clang::ASTContext &Ctx);
  /// Whether E is a literal or mentions a warp-named constant (kWarpSize,
  /// WARP_SIZE): a width written for the warp, not for a group of the code's.
  bool spelledAsWarpWidth(const clang::Expr *E, clang::ASTContext &Ctx) const;
  /// Whether F, or a function it calls, shuffles (cached).
  bool shufflesAround(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  /// Whether F, or a function it calls, does warp-level work: any warp call
  /// (shuffle, vote, ballot, __syncwarp, __activemask) or a read of warpSize
  /// (or of a width the project's own AMD branch makes the wavefront's).
  /// Without it, a 32 in F is no lane count that a rewrite could safely change.
  bool warpWorkAround(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  /// Whether F's results cannot depend on the wavefront's width: no warp
  /// work around F nor around a caller of it (a helper's lane may feed its
  /// caller's shuffle). A device function without a caller in the unit may
  /// have callers elsewhere, so only kernels and called functions qualify.
  bool widthIndependent(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  /// Whether F, or an instantiation of it, is called in the unit.
  bool hasCalls(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  /// E of a function template's pattern as one of Values in an
  /// instantiation (`LANES / 2` of `sumLanes<float, 32>`, `C::kFull` of
  /// `reduceWith<Config>`): the first instantiation that gives one. The
  /// constant is named after E and that instantiation; a name that does not
  /// say warp counts only where AnyName.
  std::optional<WarpConstant> instantiatedWarpConstant(const clang::Expr *E,
                                                       clang::ASTContext &Ctx,
                                                       std::initializer_list<int64_t> Values,
                                                       bool AnyName) const;
  /// Whether Loc lies in a preprocessor branch that a HIP compile for AMD
  /// GPUs drops (AmdPaths.h): a declaration the port replaces with its own
  /// AMD branch's, so what the CUDA view reads there says nothing of it.
  bool onlyInCudaView(clang::SourceLocation Loc, clang::ASTContext &Ctx) const;
  /// Whether E's value reads a constant or macro that only the CUDA view
  /// defines (through local variables' initialisers): the port computes it
  /// from the project's own AMD definition.
  bool readsCudaViewOnly(const clang::Expr *E, clang::ASTContext &Ctx, int Depth = 0) const;
  /// Whether T is spelled through a typedef that only the CUDA view declares.
  bool typeOnlyInCudaView(clang::QualType T, clang::ASTContext &Ctx);
  /// How the translation unit groups lanes (computed once; see LaneGrouping).
  LaneGrouping laneGrouping(clang::ASTContext &Ctx);
  /// How the code at Loc groups lanes. In a unit of whole warps (WarpWide),
  /// the grouping of the part of the call graph (functions joined by calls,
  /// either way) that holds the function written around Loc, when that part
  /// shuffles: a kernel of consistent 32-lane groups stays one beside a
  /// kernel that reads warpSize, when neither calls into the other.
  /// Otherwise the unit's grouping.
  LaneGrouping laneGroupingAt(clang::ASTContext &Ctx, clang::SourceLocation Loc);
  /// ExplicitGroups or WidthPinnedGroups at Loc: lane math by 32 numbers the groups.
  bool explicitLaneGroups(clang::ASTContext &Ctx, clang::SourceLocation Loc) {
    LaneGrouping G = laneGroupingAt(Ctx, Loc);
    return G == LaneGrouping::ExplicitGroups || G == LaneGrouping::WidthPinnedGroups;
  }
  /// The span of the function written around Loc, if any.
  std::optional<unsigned> spanAt(clang::SourceLocation Loc, const clang::SourceManager &SM) const;

private:
  /// taint's cases: operators (their lane bits and masks, and the lane and
  /// warp indices computed with 32), and calls (ballots, lane functions).
  unsigned binaryTaint(const clang::BinaryOperator *B, const FunctionFlow &Flow,
                       clang::ASTContext &Ctx) const;
  /// E is warp * 32 or warp << 5 for a warp index counted in 32-thread warps.
  bool startsWarp(const clang::Expr *E, const FunctionFlow &Flow, clang::ASTContext &Ctx) const;
  unsigned warpIndexTaint(const clang::BinaryOperator *B, clang::BinaryOperatorKind Op,
                          unsigned L, unsigned R, clang::ASTContext &Ctx) const;
  unsigned callTaint(const clang::CallExpr *Call, const FunctionFlow &Flow,
                     clang::ASTContext &Ctx) const;
  /// The warp role the map gives the callee's name (for any callee form).
  WarpFn roleOf(const clang::CallExpr *Call) const;
  /// Whether E is an __activemask() call.
  bool callsActiveMask(const clang::Expr *E) const;
  /// A mask held by variable V: sets M's name (and its kind when V's value at
  /// the call is unknown or __activemask()); the initialiser to evaluate, or
  /// null when M is decided.
  const clang::Expr *maskVariableValue(const clang::VarDecl *V, const FunctionFlow &Flow,
                                       clang::ASTContext &Ctx, MaskInfo &M) const;

  const ApiMap &Map;
  std::optional<LaneGrouping> Grouping;
  /// The unit's functions by where they are written (sorted), for laneGroupingAt.
  std::vector<FunctionSpan> Spans;
  void collectFunctionSpans(clang::ASTContext &Ctx);
  /// Where code outside system headers reads warpSize, or a width the
  /// project's own AMD branch makes the wavefront's.
  std::vector<clang::SourceLocation> wavefrontReads(clang::ASTContext &Ctx) const;
  mutable llvm::DenseMap<clang::FileID, std::vector<AmdPathBranch>> DroppedBranches;
  llvm::DenseMap<const clang::FunctionDecl *, llvm::DenseSet<const clang::BinaryOperator *>>
      BitAddressing;
  struct WarpCalls {
    bool Shuffles = false;
    bool WarpWork = false;
  };
  WarpCalls warpCallsAround(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  mutable llvm::DenseMap<const clang::FunctionDecl *, WarpCalls> CallsAround;
  /// Fills Flow.TileSplits for F (after Flow's walk, before its taints).
  void markTileSplits(const clang::FunctionDecl *F, FunctionFlow &Flow,
                      clang::ASTContext &Ctx) const;
  /// A local integer that keeps its initial value: every use only reads it.
  bool readOnlyLocal(const clang::VarDecl *V, clang::ASTContext &Ctx) const;
  /// A parameter its function's body only reads.
  bool unwrittenParameter(const clang::ParmVarDecl *P, clang::ASTContext &Ctx) const;
  /// A read-only local, or an unwritten parameter every call leaves at its
  /// default: a name for one value in the whole function.
  bool keepsValue(const clang::VarDecl *V, clang::ASTContext &Ctx) const;
  struct LocalUses {
    llvm::DenseSet<const clang::VarDecl *> Written;
    llvm::DenseMap<const clang::VarDecl *, unsigned> Refs;
    /// The body's text, where it holds preprocessor conditionals.
    llvm::StringRef ConditionalText;
  };
  const LocalUses &localUses(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  mutable llvm::DenseMap<const clang::FunctionDecl *, LocalUses> LocalUsesOf;
  /// E's value, also through read-only locals (int width = 32; width / 2).
  std::optional<int64_t> foldedValue(const clang::Expr *E, clang::ASTContext &Ctx,
                                     int Depth = 0) const;
  /// The value of P where every call in the unit leaves it at its default
  /// (`int width = 32`) or passes that same constant (`groupMax(v, 32)`).
  std::optional<int64_t> argumentOfEveryCall(const clang::ParmVarDecl *P,
                                             clang::ASTContext &Ctx) const;
  /// The unit's calls of F (all calls indexed on first use).
  llvm::ArrayRef<const clang::CallExpr *> callsTo(const clang::FunctionDecl *F,
                                                  clang::ASTContext &Ctx) const;
  /// Whether F, a function it calls or a function that calls it shuffles.
  bool shufflesNear(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  /// Whether Around holds for F or for a function that calls F (or calls an
  /// instantiation of F's template).
  bool aroundOrCaller(const clang::FunctionDecl *F, clang::ASTContext &Ctx,
                      bool (WarpAnalysis::*Around)(const clang::FunctionDecl *,
                                                   clang::ASTContext &) const) const;
  mutable std::optional<
      llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<const clang::CallExpr *, 4>>>
      CallsByCallee;
  /// Per template pattern: the instantiation read for its operator calls and
  /// where those calls are.
  struct OperatorCalls {
    const clang::FunctionDecl *Instance = nullptr;
    llvm::DenseSet<unsigned> Locations;
  };
  mutable llvm::DenseMap<const clang::FunctionDecl *, OperatorCalls> PatternOperatorCalls;
  /// The expressions of each instantiated function body by their source
  /// range: the instantiation of a pattern's expression keeps its range.
  using ExprsByRange = llvm::DenseMap<std::pair<unsigned, unsigned>, const clang::Expr *>;
  mutable llvm::DenseMap<const clang::FunctionDecl *, ExprsByRange> InstantiatedExprs;
  const clang::Expr *instantiatedCounterpart(const clang::Expr *E,
                                             const clang::FunctionDecl *Instance) const;
  /// What every call in the unit passes each parameter: thread, lane and
  /// warp-id bits common to all its arguments (a helper's `int t` called with
  /// threadIdx.x, a lambda's `lane`); null while they are being computed.
  using ParameterTaints = llvm::DenseMap<const clang::ParmVarDecl *, unsigned>;
  const ParameterTaints *threadParameters(clang::ASTContext &Ctx);
  std::optional<ParameterTaints> ThreadParameters;
  bool ComputingThreadParameters = false;
  /// The lane, warp-id and thread bits of what F returns (cached; a call
  /// of F carries them).
  unsigned returnTaint(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;
  mutable llvm::DenseMap<const clang::FunctionDecl *, unsigned> ReturnTaints;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFlow>> Flows;
  FunctionFlow Empty;
};

} // namespace cu2dcu
