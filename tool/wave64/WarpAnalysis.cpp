#include "wave64/WarpAnalysis.h"
#include "wave64/CheckSupport.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <set>

namespace cu2dcu {

using namespace clang;

// --- names ------------------------------------------------------------------

bool isWarpName(llvm::StringRef Name) {
  std::string Lower = Name.lower();
  llvm::StringRef L(Lower);
  return L.contains("warp") || L.contains("lane") || L.contains("wave") || L == "ws" ||
         L == "wsize";
}

bool isBlockName(llvm::StringRef Name) {
  std::string Lower = Name.lower();
  llvm::StringRef L(Lower);
  if (isWarpName(Name))
    return false;
  return L.contains("block") || L.contains("thread") || L.contains("cta") || L.contains("blk") ||
         L == "tpb" || L == "nt" || L == "bs" || L == "bsize";
}

llvm::StringRef builtinVariable(const Expr *E) {
  if (!E)
    return {};
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    E = POE->getSyntacticForm()->IgnoreParens();
  const Expr *Base = nullptr;
  if (const auto *P = dyn_cast<MSPropertyRefExpr>(E))
    Base = P->getBaseExpr();
  else if (const auto *M = dyn_cast<MemberExpr>(E))
    Base = M->getBase();
  if (!Base)
    return {};
  Base = Base->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    if (O->getSourceExpr())
      Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  if (!Ref)
    return {};
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->getIdentifier())
    return {};
  llvm::StringRef Name = Var->getName();
  if (Name == "threadIdx" || Name == "blockIdx" || Name == "blockDim" || Name == "gridDim")
    return Name;
  return {};
}

std::string calleeName(const CallExpr *Call) {
  if (!Call || !Call->getCallee())
    return {};
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
    return Ref->getNameInfo().getAsString();
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Callee))
    return Lookup->getName().getAsString();
  if (const auto *Member = dyn_cast<MemberExpr>(Callee))
    return Member->getMemberNameInfo().getAsString();
  if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return Member->getMember().getAsString();
  if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(Callee))
    return Member->getMemberName().getAsString();
  return {};
}

static SourceLocation calleeNameLoc(const CallExpr *Call) {
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
    return Ref->getLocation();
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Callee))
    return Lookup->getNameLoc();
  return Callee->getBeginLoc();
}

bool WarpCall::isShuffle() const { return isShuffleRole(Fn); }

bool WarpCall::isSync() const { return takesLaneMask(Fn); }

int WarpCall::offsetArg() const {
  if (!isShuffle())
    return -1;
  return isSync() ? 2 : 1;
}

int WarpCall::widthArg() const {
  if (!isShuffle())
    return -1;
  return isSync() ? 3 : 2;
}

std::optional<WarpCall> asWarpCall(const CallExpr *Call, const ApiMap &Map) {
  if (!Call)
    return std::nullopt;
  std::string Name = calleeName(Call);
  const ApiEntry *Entry = Map.lookup(Name);
  WarpFn Fn = Entry ? Entry->Warp : WarpFn::None;
  if (Fn == WarpFn::None)
    return std::nullopt;
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (!isa<DeclRefExpr>(Callee) && !isa<UnresolvedLookupExpr>(Callee))
    return std::nullopt;
  WarpCall W;
  W.Fn = Fn;
  W.Name = Name;
  W.Call = Call;
  W.NameLoc = calleeNameLoc(Call);
  for (const Expr *Arg : Call->arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      break;
    W.Args.push_back(Arg);
  }
  return W;
}

// --- tree helpers -------------------------------------------------------------

/// The instantiations of a template pattern: a function template's
/// specializations, or a class template member's counterparts in the class's
/// specializations (empty for anything else).
static llvm::SmallVector<const FunctionDecl *, 4> instantiationsOf(const FunctionDecl *Pattern) {
  llvm::SmallVector<const FunctionDecl *, 4> Instances;
  if (!Pattern)
    return Instances;
  if (const FunctionTemplateDecl *T = Pattern->getDescribedFunctionTemplate()) {
    Instances.append(T->specializations().begin(), T->specializations().end());
    return Instances;
  }
  const auto *Method = dyn_cast<CXXMethodDecl>(Pattern);
  const ClassTemplateDecl *Class =
      Method ? Method->getParent()->getDescribedClassTemplate() : nullptr;
  if (!Class)
    return Instances;
  for (const ClassTemplateSpecializationDecl *Spec : Class->specializations())
    for (const Decl *D : Spec->decls())
      if (const auto *M = dyn_cast<CXXMethodDecl>(D);
          M && M->getInstantiatedFromMemberFunction() == Method)
        Instances.push_back(M);
  return Instances;
}

/// A template pattern: a function template or a class template's member.
static bool isTemplatePattern(const FunctionDecl *F) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
  return F && (F->getDescribedFunctionTemplate() ||
               (Method && Method->getParent()->getDescribedClassTemplate()));
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  if (!S) // a recovered AST can lack a node the caller expected
    return nullptr;
  DynTypedNode Node = DynTypedNode::create(*S);
  for (int Depth = 0; Depth < 512; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (const auto *F = Node.get<FunctionDecl>())
      return F;
    if (const auto *L = Node.get<LambdaExpr>())
      return L->getCallOperator();
    if (Node.get<TranslationUnitDecl>())
      return nullptr;
  }
  return nullptr;
}

const Stmt *parentSkippingParens(const Expr *E, ASTContext &Ctx, const Expr **Child) {
  const Stmt *Current = E;
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(*Current);
    if (Parents.empty())
      return nullptr;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P) {
      if (Child)
        *Child = dyn_cast<Expr>(Current);
      return nullptr;
    }
    if (isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
        isa<FullExpr>(P) || isa<CXXBindTemporaryExpr>(P)) {
      Current = P;
      continue;
    }
    if (Child)
      *Child = dyn_cast<Expr>(Current);
    return P;
  }
  return nullptr;
}

bool isDeviceFunction(const FunctionDecl *F) {
  return F && (F->hasAttr<CUDADeviceAttr>() || F->hasAttr<CUDAGlobalAttr>());
}

std::string spelledText(SourceRange Range, const SourceManager &SM) {
  LangOptions LO;
  LO.CPlusPlus = true;
  LO.CPlusPlus17 = true;
  // The innermost macro level where both ends are written in one buffer, in
  // order: "BLOCK_SIZE / 32" inside a #define, "tid % WARP_SIZE" at a use.
  auto Chain = [&](SourceLocation L, bool Begin) {
    std::vector<SourceLocation> Out;
    for (int I = 0; I < 16 && L.isValid(); ++I) {
      Out.push_back(L);
      if (L.isFileID())
        break;
      CharSourceRange R = SM.getImmediateExpansionRange(L);
      L = Begin ? R.getBegin() : R.getEnd();
    }
    return Out;
  };
  auto SameLevel = [&](SourceLocation B, SourceLocation E) {
    if (B.isFileID() && E.isFileID())
      return true;
    return B.isMacroID() && E.isMacroID() &&
           SM.getImmediateExpansionRange(B).getBegin() ==
               SM.getImmediateExpansionRange(E).getBegin();
  };
  std::vector<SourceLocation> Bs = Chain(Range.getBegin(), true), Es = Chain(Range.getEnd(), false);
  for (SourceLocation E : Es)
    for (SourceLocation B : Bs) {
      if (!SameLevel(B, E))
        continue;
      SourceLocation SB = SM.getSpellingLoc(B), SE = SM.getSpellingLoc(E);
      if (SM.getFileID(SB) != SM.getFileID(SE) || SM.getFileOffset(SB) > SM.getFileOffset(SE))
        continue;
      return Lexer::getSourceText(CharSourceRange::getTokenRange(SB, SE), SM, LO).str();
    }
  return {};
}

bool referencesWarpSize(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (Ref->getDecl()->getIdentifier() && Ref->getDecl()->getName() == "warpSize")
      return true;
  for (const Stmt *Child : S->children())
    if (referencesWarpSize(Child))
      return true;
  return false;
}

// --- data flow ------------------------------------------------------------------

namespace {

struct Def {
  const VarDecl *Var;
  const Expr *Value; // null: Fixed taint
  unsigned Fixed = 0;
};

class FlowCollector : public RecursiveASTVisitor<FlowCollector> {
public:
  FlowCollector(FunctionFlow &Flow, const std::vector<PtxIdiom> &Idioms)
      : Flow(Flow), Idioms(Idioms) {}
  std::vector<Def> Defs;

  bool VisitVarDecl(VarDecl *V) {
    if (V->getInit() && !isa<ParmVarDecl>(V))
      Defs.push_back({V, V->getInit()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isAssignmentOp())
      return true;
    if (const VarDecl *V = varOf(B->getLHS())) {
      Flow.Assigned.insert(V);
      Defs.push_back({V, B->isCompoundAssignmentOp() ? static_cast<const Expr *>(B) : B->getRHS()});
    } else if (const auto *M = dyn_cast<MemberExpr>(B->getLHS()->IgnoreParenImpCasts())) {
      if (const VarDecl *V = varOf(M->getBase()))
        Flow.Assigned.insert(V); // block.x = ...
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = varOf(U->getSubExpr()))
        Flow.Assigned.insert(V);
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
    std::string Text = Asm->getAsmString();
    unsigned Bits = 0;
    for (const PtxIdiom &I : Idioms)
      if (I.Yields != LaneValue::None && Text.find(I.Ptx) != std::string::npos)
        Bits |= I.Yields == LaneValue::LaneIndex ? TaintThread | TaintWideLane : TaintBallot;
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
      if (const VarDecl *V = varOf(Asm->getOutputExpr(I))) {
        Flow.Assigned.insert(V);
        if (Bits)
          Defs.push_back({V, nullptr, Bits});
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      if (V->isLocalVarDeclOrParm() || V->hasAttr<CUDASharedAttr>())
        Flow.Refs.push_back(Ref);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    Flow.Subscripts.push_back(A);
    return true;
  }

private:
  FunctionFlow &Flow;
  const std::vector<PtxIdiom> &Idioms;
};

} // namespace

const FunctionFlow &WarpAnalysis::flow(const FunctionDecl *F, ASTContext &Ctx) {
  if (!F || !F->hasBody())
    return Empty;
  F = F->getDefinition() ? F->getDefinition() : F;
  // First, before any flow is handed out: computing them clears the cache.
  const ParameterTaints *Passed = threadParameters(Ctx);
  auto &Slot = Flows[F];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<FunctionFlow>();
  FunctionFlow &Flow = *Slot;
  for (const ParmVarDecl *P : F->parameters()) {
    if (!P->getType()->isIntegerType())
      continue;
    std::string Name = P->getIdentifier() ? P->getName().lower() : "";
    if (Map.warpNames().ThreadIndexParameters.count(Name))
      Flow.Vars[P] = TaintThread;
    auto It = Passed ? Passed->find(P) : ParameterTaints::const_iterator();
    if (Passed && It != Passed->end())
      Flow.Vars[P] |= It->second;
    else if (Map.warpNames().LaneIndexParameters.count(Name) && !hasCalls(F, Ctx))
      Flow.Vars[P] |= TaintLane; // a header helper's lane, no call to say otherwise
  }
  FlowCollector Collector(Flow, Map.ptxIdioms());
  Collector.TraverseStmt(F->getBody());
  markTileSplits(F, Flow, Ctx);
  for (int Round = 0; Round < 8; ++Round) {
    bool Changed = false;
    for (const Def &D : Collector.Defs) {
      unsigned Bits = D.Value ? taint(D.Value, Flow, Ctx) : D.Fixed;
      unsigned &Slot = Flow.Vars[D.Var];
      if ((Slot | Bits) != Slot) {
        Slot |= Bits;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
  return Flow;
}

/// The parameters of Callee that the arguments of Call bind to, with their
/// patterns when Callee is a template instantiation: (argument, parameter).
static std::vector<std::pair<const Expr *, const ParmVarDecl *>>
boundParameters(const CallExpr *Call, const FunctionDecl *Callee) {
  std::vector<std::pair<const Expr *, const ParmVarDecl *>> Bound;
  // A lambda or functor call passes the object first.
  unsigned Skip = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
  for (unsigned I = Skip; I < Call->getNumArgs() && I - Skip < Callee->getNumParams(); ++I) {
    Bound.push_back({Call->getArg(I), Callee->getParamDecl(I - Skip)});
    if (Pattern && I - Skip < Pattern->getNumParams())
      Bound.push_back({Call->getArg(I), Pattern->getParamDecl(I - Skip)});
  }
  return Bound;
}

const WarpAnalysis::ParameterTaints *WarpAnalysis::threadParameters(ASTContext &Ctx) {
  if (ThreadParameters || ComputingThreadParameters)
    return ThreadParameters ? &*ThreadParameters : nullptr; // (while computing: the last round's)
  // The callers' flows below see the previous round's parameters (named
  // ones only in the first): a second round carries a lane through a
  // helper's return value into another helper's parameter.
  ComputingThreadParameters = true;
  using namespace clang::ast_matchers;
  const SourceManager &SM = Ctx.getSourceManager();
  constexpr unsigned Carried = TaintThread | TaintAnyLane | TaintWarpId;
  auto Calls = match(callExpr().bind("call"), Ctx);
  for (int Round = 0; Round < 2; ++Round) {
    ParameterTaints Common;
    for (const BoundNodes &Node : Calls) {
      const auto *Call = Node.getNodeAs<CallExpr>("call");
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->hasBody() || SM.isInSystemHeader(Callee->getLocation()))
        continue;
      const FunctionFlow &Caller = flowAt(Call, Ctx);
      for (auto [Arg, Param] : boundParameters(Call, Callee)) {
        unsigned Bits = taint(Arg, Caller, Ctx) & Carried;
        auto [It, First] = Common.try_emplace(Param, Bits);
        if (!First)
          It->second &= Bits;
      }
    }
    ThreadParameters.emplace();
    for (auto [P, Bits] : Common)
      if (Bits & TaintThread)
        ThreadParameters->try_emplace(P, Bits);
    Flows.clear(); // computed with the previous round's parameters
    ReturnTaints.clear();
  }
  ComputingThreadParameters = false;
  return &*ThreadParameters;
}

/// The return statements of a function body, not of the lambdas inside it.
static std::vector<const ReturnStmt *> returnsOf(const Stmt *Body) {
  std::vector<const ReturnStmt *> Found;
  std::vector<const Stmt *> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (const auto *Return = dyn_cast_or_null<ReturnStmt>(S))
      Found.push_back(Return);
    if (S && !isa<LambdaExpr>(S))
      Work.insert(Work.end(), S->child_begin(), S->child_end());
  }
  return Found;
}

unsigned WarpAnalysis::returnTaint(const FunctionDecl *F, ASTContext &Ctx) const {
  F = F->getDefinition();
  if (!F || !F->hasBody() || Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
    return TaintNone;
  auto [It, New] = ReturnTaints.try_emplace(F, TaintNone); // none while computing: no cycles
  if (!New)
    return It->second;
  // flow() caches; const here as taint() is, which asks for it.
  const FunctionFlow &Flow = const_cast<WarpAnalysis *>(this)->flow(F, Ctx);
  unsigned Bits = TaintNone;
  for (const ReturnStmt *Return : returnsOf(F->getBody()))
    if (const Expr *Value = Return->getRetValue())
      Bits |= taint(Value, Flow, Ctx);
  Bits &= TaintThread | TaintAnyLane | TaintWarpId;
  ReturnTaints[F] = Bits;
  return Bits;
}

const FunctionFlow &WarpAnalysis::flowAt(const Stmt *S, ASTContext &Ctx) {
  return flow(enclosingFunction(S, Ctx), Ctx);
}

/// Whether a unary operator's value derives from what its operand does:
/// ~m, -x, +x, ++i and i-- do; !x, *p and &x do not.
static bool keepsTaint(UnaryOperatorKind Op) {
  switch (Op) {
  case UO_Not:
  case UO_Minus:
  case UO_Plus:
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec:
    return true;
  default:
    return false;
  }
}

/// (mask >> lane) & 1 extracts a bit: no longer a lane mask.
static bool extractsBit(const BinaryOperator *B, BinaryOperatorKind Op, ASTContext &Ctx) {
  Expr::EvalResult C;
  return Op == BO_And &&
         ((!B->getRHS()->isValueDependent() && B->getRHS()->EvaluateAsInt(C, Ctx)) ||
          (!B->getLHS()->isValueDependent() && B->getLHS()->EvaluateAsInt(C, Ctx))) &&
         C.Val.getInt().getActiveBits() <= 32;
}

unsigned WarpAnalysis::taint(const Expr *E, const FunctionFlow &Flow, ASTContext &Ctx) const {
  if (!E)
    return TaintNone;
  E = E->IgnoreParenImpCasts();
  llvm::StringRef Builtin = builtinVariable(E);
  if (Builtin == "threadIdx")
    return TaintThread;
  if (Builtin == "blockDim")
    return TaintBlockDim;
  if (!Builtin.empty())
    return TaintNone;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    return V ? Flow.of(V) : TaintNone;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return binaryTaint(B, Flow, Ctx);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return keepsTaint(U->getOpcode()) ? taint(U->getSubExpr(), Flow, Ctx) : TaintNone;
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return taint(C->getTrueExpr(), Flow, Ctx) | taint(C->getFalseExpr(), Flow, Ctx);
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return taint(Cast->getSubExpr(), Flow, Ctx);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callTaint(Call, Flow, Ctx);
  return TaintNone;
}

unsigned WarpAnalysis::binaryTaint(const BinaryOperator *B, const FunctionFlow &Flow,
                                   ASTContext &Ctx) const {
  BinaryOperatorKind Op = B->getOpcode();
  if (Op == BO_Assign || Op == BO_Comma)
    return taint(B->getRHS(), Flow, Ctx);
  if (B->isComparisonOp() || B->isLogicalOp())
    return TaintNone;
  if (B->isCompoundAssignmentOp())
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  unsigned L = taint(B->getLHS(), Flow, Ctx), R = taint(B->getRHS(), Flow, Ctx);
  unsigned Bits = (L | R) & (TaintThread | TaintBlockDim);
  // base + lane: a lane's position in a lane-strided index (row + lane,
  // k0 + lane), which strides of 32 then step.
  if (Op == BO_Add || (Op == BO_Sub && !(R & TaintAnyLane)))
    Bits |= (L | R) & TaintAnyLane;
  // tid - warp * 32: the lane within a 32-thread warp, spelled as a difference.
  if (Op == BO_Sub && (L & TaintThread) && startsWarp(B->getRHS(), Flow, Ctx))
    Bits |= TaintLane;
  if (Op == BO_Shl && (R & TaintThread))
    if (const auto *One = dyn_cast<IntegerLiteral>(B->getLHS()->IgnoreParenImpCasts()))
      if (Ctx.getTypeSize(One->getType()) <= 32)
        Bits |= TaintLaneBit; // 1u << lane
  if ((Op == BO_Sub || Op == BO_Or || Op == BO_Xor) && (L & TaintLaneBit))
    Bits |= TaintLaneBit; // (1u << lane) - 1
  if (Op == BO_And || Op == BO_Or || Op == BO_Xor || Op == BO_Shl || Op == BO_Shr ||
      Op == BO_Add || Op == BO_Sub)
    Bits |= extractsBit(B, Op, Ctx) ? TaintNone : (L | R) & TaintBallot;
  if (Flow.TileSplits.contains(B))
    return Bits;
  return Bits | warpIndexTaint(B, Op, L, R, Ctx);
}

/// The division or remainder behind a subscript: the subscript itself, or
/// the initialiser of the local it reads.
static const BinaryOperator *splitBehind(const Expr *Index, const FunctionFlow &Flow) {
  const Expr *E = Index->IgnoreParenImpCasts();
  if (const VarDecl *V = varOf(E); V && V->getInit() && !Flow.Assigned.contains(V))
    E = V->getInit()->IgnoreParenImpCasts();
  return dyn_cast<BinaryOperator>(E);
}

/// r << 5, r * 32: the start of row r of 32 elements.
static bool rowStartOf32(const BinaryOperator *B, ASTContext &Ctx) {
  auto C = constantOf(B->getRHS(), Ctx);
  return C && ((B->getOpcode() == BO_Shl && *C == 5) || (B->getOpcode() == BO_Mul && *C == 32));
}

/// x / 32, x >> 5: the row of 32 (or the 32-bit word) that x falls in.
static bool rowOf32(const BinaryOperator *B, ASTContext &Ctx) {
  auto C = constantOf(B->getRHS(), Ctx);
  return C && ((B->getOpcode() == BO_Div && *C == 32) || (B->getOpcode() == BO_Shr && *C == 5));
}

/// c & 31, c % 32: a column of a row of 32 (or a bit of a 32-bit word).
static bool columnOf32(const BinaryOperator *B, ASTContext &Ctx) {
  auto C = constantOf(B->getRHS(), Ctx);
  return C && ((B->getOpcode() == BO_And && *C == 31) || (B->getOpcode() == BO_Rem && *C == 32));
}

void WarpAnalysis::markTileSplits(const FunctionDecl *F, FunctionFlow &Flow,
                                  ASTContext &Ctx) const {
  if (warpWorkAround(F, Ctx))
    return; // lanes exchange values here: t % 32 may well be a lane
  const SourceManager &SM = Ctx.getSourceManager();
  auto TextOf = [&](const BinaryOperator *B) {
    return spelledText(B->getLHS()->IgnoreParenCasts()->getSourceRange(), SM);
  };
  // Columns: t % 32 indexing the rows of a 2-D array (As[rr][c]) or padded
  // rows (m[r * 33 + c]).
  std::set<std::string> Indices;
  for (const ArraySubscriptExpr *Outer : Flow.Subscripts) {
    const BinaryOperator *Col = nullptr;
    if (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Outer->getBase()->IgnoreParenImpCasts())) {
      // As[r][c], or transposed, bit[c][r]
      Col = splitBehind(Outer->getIdx(), Flow);
      if (!Col || !columnOf32(Col, Ctx))
        Col = splitBehind(Inner->getIdx(), Flow);
    } else if (const auto *Sum = dyn_cast<BinaryOperator>(Outer->getIdx()->IgnoreParenImpCasts());
               Sum && Sum->getOpcode() == BO_Add) {
      // a pitch of exactly 32 may be a warp-major layout: out[warp * 32 + lane]
      const auto *Scaled = dyn_cast<BinaryOperator>(Sum->getLHS()->IgnoreParenImpCasts());
      auto Pitch = Scaled && Scaled->getOpcode() == BO_Mul ? constantOf(Scaled->getRHS(), Ctx)
                                                            : std::nullopt;
      if (Pitch && *Pitch > 32)
        Col = splitBehind(Sum->getRHS(), Flow);
    }
    if (Col && columnOf32(Col, Ctx) && !TextOf(Col).empty()) {
      Flow.TileSplits.insert(Col);
      Indices.insert(TextOf(Col));
    }
  }
  if (Indices.empty())
    return;
  // Rows: t / 32 of the same index, wherever they are used.
  using namespace clang::ast_matchers;
  for (const BoundNodes &Node :
       match(findAll(binaryOperator(hasAnyOperatorName("/", ">>")).bind("op")), *F->getBody(), Ctx))
    if (const auto *Row = Node.getNodeAs<BinaryOperator>("op");
        rowOf32(Row, Ctx) && Indices.count(TextOf(Row)))
      Flow.TileSplits.insert(Row);
}

unsigned WarpAnalysis::warpIndexTaint(const BinaryOperator *B, BinaryOperatorKind Op, unsigned L,
                                      unsigned R, ASTContext &Ctx) const {
  unsigned Bits = TaintNone;
  if (Op == BO_Rem && (L & TaintThread) && warpConstant(B->getRHS(), Ctx, {32}))
    Bits |= TaintLane;
  // A lane over the whole wavefront (tid % warpSize): strides of 32 around
  // it still assume 32 lanes.
  if ((Op == BO_Rem || Op == BO_And) && (L & TaintThread) &&
      (referencesWarpSize(B->getRHS()) || wavefrontInPort(B->getRHS(), Op == BO_Rem ? 32 : 31, Ctx)))
    Bits |= TaintWideLane;
  if (Op == BO_And && (((L & TaintThread) && warpConstant(B->getRHS(), Ctx, {31})) ||
                       ((R & TaintThread) && warpConstant(B->getLHS(), Ctx, {31}))))
    Bits |= TaintLane;
  if (Op == BO_Div && (L & TaintThread) && warpConstant(B->getRHS(), Ctx, {32}))
    Bits |= TaintWarpId;
  if (Op == BO_Shr && (L & TaintThread) && warpConstant(B->getRHS(), Ctx, {5}))
    Bits |= TaintWarpId;
  return Bits;
}

bool WarpAnalysis::startsWarp(const Expr *E, const FunctionFlow &Flow, ASTContext &Ctx) const {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!B)
    return false;
  auto ScalesWarp = [&](const Expr *Warp, const Expr *Scale, int64_t By) {
    return (taint(Warp, Flow, Ctx) & TaintWarpId) && warpConstant(Scale, Ctx, {By});
  };
  if (B->getOpcode() == BO_Mul)
    return ScalesWarp(B->getLHS(), B->getRHS(), 32) || ScalesWarp(B->getRHS(), B->getLHS(), 32);
  return B->getOpcode() == BO_Shl && ScalesWarp(B->getLHS(), B->getRHS(), 5);
}

WarpFn WarpAnalysis::roleOf(const CallExpr *Call) const {
  const ApiEntry *Entry = Map.lookup(calleeName(Call));
  return Entry ? Entry->Warp : WarpFn::None;
}

bool WarpAnalysis::callsActiveMask(const Expr *E) const {
  const auto *Call = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Call && roleOf(Call) == WarpFn::ActiveMask;
}

unsigned WarpAnalysis::callTaint(const CallExpr *Call, const FunctionFlow &Flow,
                                 ASTContext &Ctx) const {
  switch (roleOf(Call)) {
  case WarpFn::BallotSync:
  case WarpFn::Ballot:
  case WarpFn::MatchAnySync:
  case WarpFn::MatchAllSync:
    return TaintBallot;
  case WarpFn::ActiveMask:
    return TaintBallot | TaintActiveMask;
  default:
    break;
  }
  const WarpNames &Names = Map.warpNames();
  std::string Name = calleeName(Call);
  if (Names.LaneMaskFunctions.count(Name))
    return TaintBallot;
  if (Names.WavefrontLaneFunctions.count(Name))
    return TaintThread | TaintWideLane;
  if (Names.LaneIndexFunctions.count(Name))
    return TaintThread;
  if (Names.LanePreservingFunctions.count(Name)) {
    unsigned Bits = 0;
    for (const Expr *Arg : Call->arguments())
      Bits |= taint(Arg, Flow, Ctx) & (TaintThread | TaintBlockDim);
    return Bits;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee ? returnTaint(Callee, Ctx) : TaintNone;
}

// --- constants ----------------------------------------------------------------------

static bool sameExpansion(SourceLocation A, SourceLocation B, const SourceManager &SM) {
  if (!A.isMacroID() || !B.isMacroID() || SM.isMacroArgExpansion(A) || SM.isMacroArgExpansion(B))
    return false;
  return SM.getImmediateExpansionRange(A).getBegin() == SM.getImmediateExpansionRange(B).getBegin();
}

/// The first warp-ish name a piece of E is spelled with (a macro or a
/// declaration): sets C's Name and DefinitionLoc; false when E mentions none.
static bool warpNameIn(const Expr *E, const SourceManager &SM, const LangOptions &LO,
                       WarpConstant &C) {
  if (!E)
    return false;
  SourceLocation L = E->getBeginLoc();
  if (L.isMacroID() && !SM.isMacroArgExpansion(L)) {
    llvm::StringRef Macro = Lexer::getImmediateMacroName(L, SM, LO);
    if (isWarpName(Macro)) {
      C.Name = Macro.str();
      C.DefinitionLoc = SM.getSpellingLoc(L);
      return true;
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
    const ValueDecl *D = Ref->getDecl();
    if (D->getIdentifier() && !SM.isInSystemHeader(D->getLocation()) &&
        isWarpName(D->getName())) {
      C.Name = D->getName().str();
      C.DefinitionLoc = D->getLocation();
      return true;
    }
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (warpNameIn(CE, SM, LO, C))
        return true;
  return false;
}

static bool allLiteralsSpelledHere(const Stmt *S, const SourceManager &SM) {
  if (const auto *Lit = dyn_cast<IntegerLiteral>(S))
    return !Lit->getLocation().isMacroID() || SM.isMacroArgExpansion(Lit->getLocation());
  if (isa<DeclRefExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (Child && !allLiteralsSpelledHere(Child, SM))
      return false;
  return true;
}

/// L Op R for the integer operators constants are built with; nothing for
/// another operator, a division by zero or a shift out of range.
static std::optional<int64_t> applyBinary(BinaryOperatorKind Op, int64_t L, int64_t R) {
  switch (Op) {
  case BO_Add: return L + R;
  case BO_Sub: return L - R;
  case BO_Mul: return L * R;
  case BO_Div: return R ? std::optional<int64_t>(L / R) : std::nullopt;
  case BO_Rem: return R ? std::optional<int64_t>(L % R) : std::nullopt;
  case BO_Shl: return R >= 0 && R < 63 ? std::optional<int64_t>(L << R) : std::nullopt;
  case BO_Shr: return R >= 0 && R < 63 ? std::optional<int64_t>(L >> R) : std::nullopt;
  case BO_And: return L & R;
  case BO_Or: return L | R;
  case BO_Xor: return L ^ R;
  default: return std::nullopt;
  }
}

/// Value of a template-dependent integer expression with every non-type
/// template parameter replaced by its default argument; Named receives the
/// first warp-named parameter or constant met on the way (its name and where
/// it is declared: `int kLanes = 32`, the line a port changes).
static std::optional<int64_t> evalWithDefaults(const Expr *E, ASTContext &Ctx,
                                               WarpConstant &Named, int Depth = 0) {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return evalWithDefaults(Subst->getReplacement(), Ctx, Named, Depth + 1);
  if (!E->isValueDependent() && !E->isTypeDependent()) {
    Expr::EvalResult R;
    if (!E->EvaluateAsInt(R, Ctx) || !R.Val.getInt().isRepresentableByInt64())
      return std::nullopt;
    if (Named.Name.empty())
      warpNameIn(E, Ctx.getSourceManager(), Ctx.getLangOpts(), Named);
    return R.Val.getInt().getExtValue();
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *P = dyn_cast<NonTypeTemplateParmDecl>(Ref->getDecl());
    if (!P || !P->hasDefaultArgument())
      return std::nullopt;
    WarpConstant Default;
    auto V = evalWithDefaults(P->getDefaultArgument().getArgument().getAsExpr(), Ctx, Default,
                              Depth + 1);
    // `int kWarpSize = WARP_SIZE` is defined where WARP_SIZE is.
    if (Named.Name.empty() && !Default.Name.empty())
      Named = Default;
    else if (Named.Name.empty() && P->getIdentifier() && isWarpName(P->getName())) {
      Named.Name = P->getName().str();
      Named.DefinitionLoc = P->getLocation();
    }
    return V;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    auto L = evalWithDefaults(B->getLHS(), Ctx, Named, Depth + 1);
    auto R = evalWithDefaults(B->getRHS(), Ctx, Named, Depth + 1);
    if (!L || !R)
      return std::nullopt;
    return applyBinary(B->getOpcode(), *L, *R);
  }
  return std::nullopt;
}

static bool isOneOf(int64_t V, std::initializer_list<int64_t> Values) {
  return llvm::is_contained(Values, V);
}

/// C as the value of the constant Name, defined at DefinedAt when known.
static WarpConstant namedConstant(WarpConstant C, llvm::StringRef Name,
                                  SourceLocation DefinedAt = {}) {
  C.Named = true;
  C.Name = Name.str();
  C.DefinitionLoc = DefinedAt;
  return C;
}

/// template <int kWarpSize = 32>: in a pattern, the default of a warp-named
/// parameter (or constant) stands for the warp size.
static std::optional<WarpConstant> defaultWarpConstant(const Expr *S, ASTContext &Ctx,
                                                       std::initializer_list<int64_t> Values) {
  WarpConstant Named;
  auto V = evalWithDefaults(S, Ctx, Named);
  if (!V || !isOneOf(*V, Values) || Named.Name.empty())
    return std::nullopt;
  WarpConstant C;
  C.Value = *V;
  return namedConstant(C, Named.Name, Named.DefinitionLoc);
}

/// blockDim.x / 32.f: a literal, but not one warpSize can replace as is.
static std::optional<WarpConstant> floatingWarpConstant(const FloatingLiteral *F,
                                                        std::initializer_list<int64_t> Values) {
  double D = F->getValueAsApproximateDouble();
  if (D != static_cast<double>(static_cast<int64_t>(D)) ||
      !isOneOf(static_cast<int64_t>(D), Values))
    return std::nullopt;
  WarpConstant C;
  C.Value = static_cast<int64_t>(D);
  return C;
}

/// Whether L is written where the operator at OperatorLoc uses it: in the
/// file or a macro argument, or in the macro body that also holds the operator.
static bool writtenWithOperator(SourceLocation L, SourceLocation OperatorLoc,
                                const SourceManager &SM) {
  return !L.isMacroID() || SM.isMacroArgExpansion(L) || sameExpansion(L, OperatorLoc, SM);
}

/// A literal written with the operator, or the body of a warp-named macro;
/// another macro's (TILE, BLOCK_SIZE) is not the warp size.
static std::optional<WarpConstant> literalWarpConstant(const IntegerLiteral *Lit, WarpConstant C,
                                                       SourceLocation OperatorLoc,
                                                       const SourceManager &SM,
                                                       const LangOptions &LO, bool AnyName) {
  SourceLocation L = Lit->getLocation();
  C.LiteralLoc = L;
  if (writtenWithOperator(L, OperatorLoc, SM))
    return C;
  llvm::StringRef Macro = Lexer::getImmediateMacroName(L, SM, LO);
  if (Macro.empty() || !(AnyName || isWarpName(Macro)))
    return std::nullopt;
  return namedConstant(C, Macro, SM.getSpellingLoc(L));
}

/// A warp-named (or, with AnyName, any) constant or variable of the program
/// (not of a system header).
static std::optional<WarpConstant> declaredWarpConstant(const DeclRefExpr *Ref, WarpConstant C,
                                                        const SourceManager &SM, bool AnyName) {
  const ValueDecl *D = Ref->getDecl();
  if (!D->getIdentifier() || SM.isInSystemHeader(D->getLocation()) ||
      !(AnyName || isWarpName(D->getName())))
    return std::nullopt;
  // A parameter without a default gets its value at the calls: no single
  // line defines it, so the finding stays at the use.
  const auto *Param = dyn_cast<ParmVarDecl>(D);
  C = namedConstant(C, D->getName(),
                    Param && !Param->hasDefaultArg() ? SourceLocation() : D->getLocation());
  if (const auto *Var = dyn_cast<VarDecl>(D))
    if (const auto *Lit = dyn_cast_or_null<IntegerLiteral>(
            Var->getInit() ? Var->getInit()->IgnoreParenImpCasts() : nullptr))
      C.LiteralLoc = Lit->getLocation();
  return C;
}

/// The first constant of the program (not of a system header) that E reads.
static const DeclRefExpr *programConstantIn(const Expr *E, const SourceManager &SM,
                                            llvm::function_ref<bool(const VarDecl *)> ReadOnly) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
    const ValueDecl *D = Ref->getDecl();
    const auto *Var = dyn_cast<VarDecl>(D);
    if ((isa<EnumConstantDecl>(D) || (Var && (Var->getType().isConstQualified() || ReadOnly(Var)))) &&
        D->getIdentifier() && !SM.isInSystemHeader(D->getLocation()))
      return Ref;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (const DeclRefExpr *Found = programConstantIn(CE, SM, ReadOnly))
        return Found;
  return nullptr;
}

/// A composite: (WARP_SIZE - 1), LANE_MASK, (32 - 1). From a macro other
/// than the operator's, it must mention a warp name; written here, a warp
/// name or literals only.
static std::optional<WarpConstant>
compositeWarpConstant(const Expr *S, WarpConstant C, SourceLocation OperatorLoc,
                      const SourceManager &SM, const LangOptions &LO, bool AnyName,
                      llvm::function_ref<bool(const VarDecl *)> ReadOnly) {
  if (warpNameIn(S, SM, LO, C)) {
    C.Named = true;
    return C;
  }
  if (writtenWithOperator(S->getBeginLoc(), OperatorLoc, SM) && allLiteralsSpelledHere(S, SM))
    return C; // literal arithmetic, no single token to replace
  if (!AnyName)
    return std::nullopt;
  if (const DeclRefExpr *Ref = programConstantIn(S, SM, ReadOnly))
    return declaredWarpConstant(Ref, C, SM, AnyName); // kTeam / 2
  SourceLocation L = S->getBeginLoc();
  if (L.isMacroID() && !SM.isMacroArgExpansion(L)) // GROUP / 2
    return namedConstant(C, Lexer::getImmediateMacroName(L, SM, LO), SM.getSpellingLoc(L));
  return std::nullopt;
}

std::optional<WarpConstant> WarpAnalysis::warpConstant(const Expr *E, ASTContext &Ctx,
                                                       std::initializer_list<int64_t> Values,
                                                       SourceLocation OperatorLoc,
                                                       const FunctionDecl *Around) const {
  std::optional<WarpConstant> C = cudaViewConstant(E, Ctx, Values, OperatorLoc, Around);
  // kLanes = 32 in the #else of #if defined(__HIP_PLATFORM_AMD__): the port
  // compiles the project's own AMD definition instead.
  if (C && C->DefinitionLoc.isValid() && onlyInCudaView(C->DefinitionLoc, Ctx))
    return std::nullopt;
  return C;
}

bool WarpAnalysis::wavefrontInPort(const Expr *E, int64_t CudaValue, ASTContext &Ctx) const {
  std::optional<WarpConstant> C = cudaViewConstant(E, Ctx, {CudaValue}, {}, nullptr);
  return C && C->DefinitionLoc.isValid() && onlyInCudaView(C->DefinitionLoc, Ctx);
}

std::optional<WarpConstant> WarpAnalysis::cudaViewConstant(const Expr *E, ASTContext &Ctx,
                                                           std::initializer_list<int64_t> Values,
                                                           SourceLocation OperatorLoc,
                                                           const FunctionDecl *Around) const {
  if (!E)
    return std::nullopt;
  if (!Around)
    Around = enclosingFunction(E, Ctx);
  const Expr *S = E->IgnoreParenImpCasts();
  if (referencesWarpSize(S))
    return std::nullopt;
  if (S->isValueDependent() || S->isTypeDependent()) {
    if (auto C = defaultWarpConstant(S, Ctx, Values))
      return C;
    return instantiatedWarpConstant(S, Ctx, Values, shufflesNear(Around, Ctx));
  }
  if (const auto *F = dyn_cast<FloatingLiteral>(S))
    return floatingWarpConstant(F, Values);
  // int perWarp = WARP_SIZE: the constant is WARP_SIZE, defined where it is.
  if (const VarDecl *Local = varOf(S); Local && readOnlyLocal(Local, Ctx) &&
                                       !Local->getType().isConstQualified() &&
                                       !isa<IntegerLiteral>(Local->getInit()->IgnoreParenImpCasts()))
    return warpConstant(Local->getInit(), Ctx, Values, OperatorLoc, Around);
  // const int logLanes = warpSize == 32 ? 5 : 6: chosen for the width the
  // code runs at (clang folds warpSize to 32 in the CUDA view).
  if (const VarDecl *Var = varOf(S); Var && Var->getInit() && referencesWarpSize(Var->getInit()))
    return std::nullopt;
  std::optional<int64_t> V = foldedValue(S, Ctx);
  if (!V || !isOneOf(*V, Values))
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  WarpConstant C;
  C.Value = *V;
  // A constant named otherwise (GROUP, kTeam) counts by its value where the
  // code around it exchanges lanes.
  for (bool AnyName : {false, true}) {
    if (AnyName && !shufflesNear(Around, Ctx))
      break;
    if (const auto *Lit = dyn_cast<IntegerLiteral>(S)) {
      if (auto Found = literalWarpConstant(Lit, C, OperatorLoc, SM, Ctx.getLangOpts(), AnyName))
        return Found;
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (auto Found = declaredWarpConstant(Ref, C, SM, AnyName))
        return Found;
    } else if (auto Found = compositeWarpConstant(
                   S, C, OperatorLoc, SM, Ctx.getLangOpts(), AnyName,
                   [&](const VarDecl *Var) { return keepsValue(Var, Ctx); })) {
      return Found;
    }
  }
  return std::nullopt;
}

/// How often Name occurs in Text as a whole identifier.
static unsigned identifierCount(llvm::StringRef Text, llvm::StringRef Name) {
  unsigned Count = 0;
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t At = Text.find(Name); At != llvm::StringRef::npos; At = Text.find(Name, At + 1))
    if ((At == 0 || !IsIdent(Text[At - 1])) &&
        (At + Name.size() == Text.size() || !IsIdent(Text[At + Name.size()])))
      ++Count;
  return Count;
}

const WarpAnalysis::LocalUses &WarpAnalysis::localUses(const FunctionDecl *F,
                                                       ASTContext &Ctx) const {
  auto [It, New] = LocalUsesOf.try_emplace(F);
  if (!New)
    return It->second;
  LocalUses &Uses = It->second;
  // One walk of the body: a local is written where a use does more than
  // load its value (an assignment, an increment, a reference, an address).
  using namespace clang::ast_matchers;
  for (const BoundNodes &Node :
       match(findAll(declRefExpr(to(varDecl(hasLocalStorage()))).bind("ref")), *F->getBody(), Ctx)) {
    const auto *Use = Node.getNodeAs<DeclRefExpr>("ref");
    const auto *V = cast<VarDecl>(Use->getDecl());
    ++Uses.Refs[V];
    auto Parents = Ctx.getParents(*Use);
    while (!Parents.empty() && Parents[0].get<ParenExpr>())
      Parents = Ctx.getParents(*Parents[0].get<ParenExpr>());
    const auto *Load = Parents.empty() ? nullptr : Parents[0].get<ImplicitCastExpr>();
    if (!Load || Load->getCastKind() != CK_LValueToRValue)
      Uses.Written.insert(V);
  }
  // Code the parse skipped (#ifdef __HIP_PLATFORM_AMD__ wave = 64; #endif)
  // may write a local too: the body's text is compared with the AST's uses.
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = SM.getExpansionRange(F->getBody()->getSourceRange());
  auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
  auto [EndFile, End] = SM.getDecomposedLoc(Range.getEnd());
  llvm::StringRef Buffer = SM.getBufferData(File);
  if (File == EndFile && Begin <= End && End <= Buffer.size()) {
    llvm::StringRef Text = Buffer.slice(Begin, End + 1);
    if (Text.contains("#if") || Text.contains("#el"))
      Uses.ConditionalText = Text;
  }
  return Uses;
}

bool WarpAnalysis::unwrittenParameter(const ParmVarDecl *P, ASTContext &Ctx) const {
  const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
  return F && F->getBody() && !localUses(F, Ctx).Written.contains(P);
}

bool WarpAnalysis::keepsValue(const VarDecl *V, ASTContext &Ctx) const {
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return unwrittenParameter(P, Ctx) && argumentOfEveryCall(P, Ctx);
  return readOnlyLocal(V, Ctx);
}

bool WarpAnalysis::readOnlyLocal(const VarDecl *V, ASTContext &Ctx) const {
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      !V->getType()->isIntegerType() || V->getType().isVolatileQualified() || !V->getIdentifier())
    return false;
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return false;
  const LocalUses &Uses = localUses(F, Ctx);
  if (Uses.Written.contains(V))
    return false;
  // The declaration and the parsed uses; any other mention is in skipped code.
  return Uses.ConditionalText.empty() ||
         identifierCount(Uses.ConditionalText, V->getName()) <= Uses.Refs.lookup(V) + 1;
}

std::optional<int64_t> WarpAnalysis::foldedValue(const Expr *E, ASTContext &Ctx, int Depth) const {
  if (auto V = constantOf(E, Ctx))
    return V;
  if (!E || E->isValueDependent() || Depth > 3)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(varOf(E)))
    return unwrittenParameter(P, Ctx) ? argumentOfEveryCall(P, Ctx) : std::nullopt;
  if (const VarDecl *V = varOf(E))
    return readOnlyLocal(V, Ctx) ? foldedValue(V->getInit(), Ctx, Depth + 1) : std::nullopt;
  const auto *B = dyn_cast<BinaryOperator>(E);
  std::optional<int64_t> L, R;
  if (!B || !(L = foldedValue(B->getLHS(), Ctx, Depth + 1)) ||
      !(R = foldedValue(B->getRHS(), Ctx, Depth + 1)))
    return std::nullopt;
  return applyBinary(B->getOpcode(), *L, *R);
}

llvm::ArrayRef<const CallExpr *> WarpAnalysis::callsTo(const FunctionDecl *F,
                                                       ASTContext &Ctx) const {
  if (!CallsByCallee) {
    using namespace clang::ast_matchers;
    CallsByCallee.emplace();
    for (const BoundNodes &Node : match(callExpr().bind("call"), Ctx))
      if (const auto *Call = Node.getNodeAs<CallExpr>("call"); Call->getDirectCallee())
        (*CallsByCallee)[Call->getDirectCallee()->getCanonicalDecl()].push_back(Call);
  }
  auto It = CallsByCallee->find(F->getCanonicalDecl());
  return It == CallsByCallee->end() ? llvm::ArrayRef<const CallExpr *>() : It->second;
}

bool WarpAnalysis::aroundOrCaller(const FunctionDecl *F, ASTContext &Ctx,
                                  bool (WarpAnalysis::*Around)(const FunctionDecl *,
                                                               ASTContext &) const) const {
  if ((this->*Around)(F, Ctx))
    return true;
  if (!F)
    return false;
  // A launch is not a caller of the kernel's: the host code around it holds
  // the warp work of every kernel it launches, none of it this kernel's.
  auto InCaller = [&](const FunctionDecl *Callee) {
    return llvm::any_of(callsTo(Callee, Ctx), [&](const CallExpr *Call) {
      return !isa<CUDAKernelCallExpr>(Call) && (this->*Around)(enclosingFunction(Call, Ctx), Ctx);
    });
  };
  if (InCaller(F))
    return true;
  // A template's pattern: its callers call its instantiations.
  return llvm::any_of(instantiationsOf(F), InCaller);
}

bool WarpAnalysis::shufflesNear(const FunctionDecl *F, ASTContext &Ctx) const {
  return aroundOrCaller(F, Ctx, &WarpAnalysis::shufflesAround);
}

bool WarpAnalysis::widthIndependent(const FunctionDecl *F, ASTContext &Ctx) const {
  if (!F || aroundOrCaller(F, Ctx, &WarpAnalysis::warpWorkAround))
    return false;
  if (F->hasAttr<CUDAGlobalAttr>())
    return true;
  return hasCalls(F, Ctx);
}

bool WarpAnalysis::hasCalls(const FunctionDecl *F, ASTContext &Ctx) const {
  return !callsTo(F, Ctx).empty() ||
         llvm::any_of(instantiationsOf(F),
                      [&](const FunctionDecl *I) { return !callsTo(I, Ctx).empty(); });
}

std::optional<int64_t> WarpAnalysis::argumentOfEveryCall(const ParmVarDecl *P,
                                                         ASTContext &Ctx) const {
  const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!F || P->hasUnparsedDefaultArg() || P->hasUninstantiatedDefaultArg())
    return std::nullopt;
  std::optional<int64_t> Value;
  if (P->hasDefaultArg() && !(Value = constantOf(P->getDefaultArg(), Ctx)))
    return std::nullopt;
  bool Passed = false;
  for (const CallExpr *Call : callsTo(F, Ctx))
    for (auto [Arg, Param] : boundParameters(Call, F)) {
      if (Param != P || isa<CXXDefaultArgExpr>(Arg))
        continue;
      std::optional<int64_t> Here = constantOf(Arg, Ctx);
      if (!Here || (Value && *Here != *Value))
        return std::nullopt;
      Value = Here;
      Passed = true;
    }
  return P->hasDefaultArg() || Passed ? Value : std::nullopt;
}

bool WarpAnalysis::spelledAsWarpWidth(const Expr *E, ASTContext &Ctx) const {
  WarpConstant Named;
  return isa<IntegerLiteral>(E->IgnoreParenImpCasts()) ||
         warpNameIn(E, Ctx.getSourceManager(), Ctx.getLangOpts(), Named);
}

std::optional<WarpConstant>
WarpAnalysis::instantiatedWarpConstant(const Expr *E, ASTContext &Ctx,
                                       std::initializer_list<int64_t> Values,
                                       bool AnyName) const {
  const FunctionDecl *F = enclosingFunction(E, Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *Instance : instantiationsOf(F)) {
    const Expr *Same = instantiatedCounterpart(E, Instance);
    std::optional<int64_t> V = Same && !Same->isValueDependent() ? constantOf(Same, Ctx)
                                                                 : std::nullopt;
    WarpConstant Named;
    if (!V || !isOneOf(*V, Values) ||
        (!AnyName && !warpNameIn(Same, SM, Ctx.getLangOpts(), Named)))
      continue;
    WarpConstant C;
    C.Value = *V;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Same->IgnoreParenImpCasts()))
      if (auto Declared = declaredWarpConstant(Ref, C, SM, /*AnyName=*/true))
        return Declared; // C::kGroup: Cfg::kGroup's definition
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    OS << exprText(E, SM) << "' in '";
    Instance->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                                   /*Qualified=*/isa<CXXMethodDecl>(Instance));
    return namedConstant(C, Name);
  }
  return std::nullopt;
}

const FunctionDecl *WarpAnalysis::operatorInstance(const BinaryOperator *B,
                                                   ASTContext &Ctx) const {
  const FunctionDecl *F = enclosingFunction(B, Ctx);
  const FunctionDecl *Pattern = F ? F->getTemplateInstantiationPattern() : nullptr;
  if (!Pattern || Pattern == F || !Pattern->getBody())
    return nullptr;
  auto [It, New] = PatternOperatorCalls.try_emplace(Pattern);
  if (New) {
    // The traversal reads instantiations in order, so the first one asked
    // about is the first instantiated, the same for every check.
    It->second.Instance = F->getCanonicalDecl();
    using namespace clang::ast_matchers;
    for (const BoundNodes &Node :
         match(findAll(cxxOperatorCallExpr().bind("op")), *Pattern->getBody(), Ctx))
      It->second.Locations.insert(
          Node.getNodeAs<CXXOperatorCallExpr>("op")->getOperatorLoc().getRawEncoding());
  }
  return It->second.Instance == F->getCanonicalDecl() &&
                 It->second.Locations.contains(B->getOperatorLoc().getRawEncoding())
             ? F
             : nullptr;
}

const Expr *WarpAnalysis::instantiatedCounterpart(const Expr *E,
                                                  const FunctionDecl *Instance) const {
  if (!Instance->getBody())
    return nullptr;
  auto [It, New] = InstantiatedExprs.try_emplace(Instance);
  if (New) {
    llvm::SmallVector<const Stmt *, 64> Work{Instance->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *X = dyn_cast<Expr>(S))
        It->second.try_emplace({X->getBeginLoc().getRawEncoding(),
                                X->getEndLoc().getRawEncoding()},
                               X);
      for (const Stmt *Child : S->children())
        if (Child)
          Work.push_back(Child);
    }
  }
  const Expr *S = E->IgnoreParenImpCasts();
  auto Found = It->second.find({S->getBeginLoc().getRawEncoding(),
                                S->getEndLoc().getRawEncoding()});
  return Found == It->second.end() ? nullptr : Found->second;
}

bool WarpAnalysis::shufflesAround(const FunctionDecl *F, ASTContext &Ctx) const {
  return warpCallsAround(F, Ctx).Shuffles;
}

bool tileOfAtMost32(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *F = Call->getDirectCallee();
  const TemplateArgumentList *Args = F ? F->getTemplateSpecializationArgs() : nullptr;
  if (!Args || Args->size() < 1 || Args->get(0).getKind() != TemplateArgument::Integral ||
      !F->getIdentifier() || F->getName() != "tiled_partition" ||
      !Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
    return false;
  int64_t Size = Args->get(0).getAsIntegral().getExtValue();
  return Size > 1 && Size <= 32;
}

bool WarpAnalysis::warpWorkAround(const FunctionDecl *F, ASTContext &Ctx) const {
  return warpCallsAround(F, Ctx).WarpWork;
}

WarpAnalysis::WarpCalls WarpAnalysis::warpCallsAround(const FunctionDecl *F,
                                                      ASTContext &Ctx) const {
  if (!F || !F->getBody())
    return {};
  auto [It, New] = CallsAround.try_emplace(F);
  if (!New)
    return It->second;
  using namespace clang::ast_matchers;
  WarpCalls Found;
  auto Scan = [&](const Stmt *Body) {
    Found.WarpWork |= referencesWarpSize(Body) || readsPortWavefront(Body, Ctx);
    for (const BoundNodes &Node : match(findAll(callExpr().bind("call")), *Body, Ctx)) {
      const auto *Call = Node.getNodeAs<CallExpr>("call");
      if (tileOfAtMost32(Call, Ctx)) // the tile's collectives are its warp work
        Found.WarpWork = Found.Shuffles = true;
      else if (auto W = asWarpCall(Call, Map)) {
        Found.WarpWork = true;
        Found.Shuffles |= W->isShuffle();
      }
    }
  };
  // The call tree, each function once (topk_rows -> warp_bitonic_sort -> cas,
  // whose shuffles are the kernel's warp work); a library's own calls are not
  // followed past the function the code calls.
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen{F};
  llvm::SmallVector<const FunctionDecl *, 8> Work{F};
  while (!Work.empty() && !(Found.Shuffles && Found.WarpWork)) {
    const FunctionDecl *Caller = Work.pop_back_val();
    Scan(Caller->getBody());
    if (Caller != F && SM.isInSystemHeader(Caller->getLocation()))
      continue;
    for (const BoundNodes &Node : match(findAll(callExpr().bind("call")), *Caller->getBody(), Ctx)) {
      const FunctionDecl *Callee = Node.getNodeAs<CallExpr>("call")->getDirectCallee();
      if (Callee && Callee->hasBody() && Seen.insert(Callee).second)
        Work.push_back(Callee);
    }
  }
  CallsAround[F] = Found;
  return Found;
}

/// i + i / 32, i + (i >> 5): one padding slot per 32 shared-memory words,
/// against bank conflicts; the 32 counts banks (32 on DCU too), not lanes.
bool bankPadding(const BinaryOperator *B, ASTContext &Ctx) {
  if (B->getOpcode() != BO_Div && B->getOpcode() != BO_Shr)
    return false;
  const auto *Sum = dyn_cast_or_null<BinaryOperator>(parentSkippingParens(B, Ctx));
  if (!Sum || Sum->getOpcode() != BO_Add)
    return false;
  const Expr *Index = B->getLHS()->IgnoreParenImpCasts();
  const Expr *Other = (Sum->getLHS()->IgnoreParenImpCasts() == B ? Sum->getRHS() : Sum->getLHS())
                          ->IgnoreParenImpCasts();
  llvm::FoldingSetNodeID IndexId, OtherId;
  Index->Profile(IndexId, Ctx, /*Canonical=*/true);
  Other->Profile(OtherId, Ctx, /*Canonical=*/true);
  return IndexId == OtherId;
}

std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) ||
      !R.Val.getInt().isRepresentableByInt64())
    return std::nullopt; // 0xffffffffffffffffull and wider: no lane number
  return R.Val.getInt().getExtValue();
}

const VarDecl *varOf(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// +1 when the increment of a loop over V counts up (++, +=, *=, <<=), -1 when
/// it counts down (--, -=, /=, >>=), 0 otherwise.
static int stepDirection(const Expr *Inc, const VarDecl *V, ASTContext &Ctx) {
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    return varOf(U->getSubExpr()) != V ? 0 : U->isIncrementOp() ? 1 : -1;
  const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc);
  auto Step = C ? constantOf(C->getRHS(), Ctx) : std::nullopt;
  if (!C || varOf(C->getLHS()) != V || !Step || *Step <= 0)
    return 0;
  switch (C->getOpcode()) {
  case BO_AddAssign:
  case BO_ShlAssign:
    return 1;
  case BO_MulAssign:
    return *Step > 1 ? 1 : 0;
  case BO_SubAssign:
  case BO_ShrAssign:
    return -1;
  case BO_DivAssign:
    return *Step > 1 ? -1 : 0;
  default:
    return 0;
  }
}

/// The counter of `for (int o = 16; o > 0; o /= 2)` or `for (int i = 1; i < 32;
/// i *= 2)` when every value it takes lies in [0, 32): a lane offset that stays
/// inside a 32-lane group's numbering. It may start at one of
/// BoundedParameters (`for (int o = first; ...)`, every call passing 16).
static const VarDecl *
laneBoundedCounter(const ForStmt *Loop, ASTContext &Ctx,
                   const llvm::DenseSet<const VarDecl *> &BoundedParameters = {}) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  const auto *V = Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
  if (!V || !Loop->getCond())
    return nullptr;
  auto First = constantOf(V->getInit(), Ctx);
  int Direction = stepDirection(Loop->getInc(), V, Ctx);
  if (First ? *First < 0 || *First >= 32
            : !V->getInit() || !BoundedParameters.contains(varOf(V->getInit())))
    return nullptr;
  // `for (int o = 16; o; o >>= 1)`: halving down to 0, tested as a truth value.
  if (varOf(Loop->getCond()) == V)
    return Direction < 0 ? V : nullptr;
  const auto *Cond = dyn_cast<BinaryOperator>(Loop->getCond()->IgnoreParenImpCasts());
  auto Bound = Cond && varOf(Cond->getLHS()) == V ? constantOf(Cond->getRHS(), Ctx) : std::nullopt;
  if (!Bound)
    return nullptr;
  BinaryOperatorKind Op = Cond->getOpcode();
  bool UpBelow32 = Direction > 0 && ((Op == BO_LT && *Bound <= 32) || (Op == BO_LE && *Bound < 32));
  bool DownToZero = Direction < 0 && ((Op == BO_GT && *Bound >= -1) || (Op == BO_GE && *Bound >= 0));
  return UpBelow32 || DownToZero ? V : nullptr;
}

/// A parameter of a function template that is never instantiated: its code is
/// never generated, so no call constrains (or needs) its values.
static bool parameterOfUnusedTemplate(const VarDecl *V) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
  const auto *F = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
  return isTemplatePattern(F) && instantiationsOf(F).empty();
}

static bool laneBounded(const Expr *E, ASTContext &Ctx,
                        const llvm::DenseSet<const VarDecl *> &BoundedCounters) {
  if (auto V = constantOf(E, Ctx))
    return *V >= 0 && *V < 32;
  const VarDecl *Counter = varOf(E);
  return Counter && (BoundedCounters.contains(Counter) || parameterOfUnusedTemplate(Counter));
}

/// Parameters that every call in the translation unit passes a value in [0, 32)
/// (a constant or a bounded loop counter): `exch(k, v, int mask)` called with
/// 0x1 ... 0x10. A template's pattern parameter counts with its instances.
static llvm::DenseSet<const VarDecl *>
laneBoundedParameters(ASTContext &Ctx, const llvm::DenseSet<const VarDecl *> &BoundedCounters) {
  using namespace clang::ast_matchers;
  llvm::DenseSet<const VarDecl *> Passed, Unbounded;
  for (const BoundNodes &Node : match(callExpr().bind("call"), Ctx)) {
    const auto *Call = Node.getNodeAs<CallExpr>("call");
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || isa<CXXOperatorCallExpr>(Call))
      continue;
    const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
    for (unsigned I = 0; I < Call->getNumArgs() && I < F->getNumParams(); ++I) {
      auto &Into = laneBounded(Call->getArg(I), Ctx, BoundedCounters) ? Passed : Unbounded;
      Into.insert(F->getParamDecl(I));
      if (Pattern && I < Pattern->getNumParams())
        Into.insert(Pattern->getParamDecl(I));
    }
  }
  llvm::DenseSet<const VarDecl *> Bounded;
  for (const VarDecl *P : Passed)
    if (!Unbounded.contains(P))
      Bounded.insert(P);
  return Bounded;
}

/// How a warp call addresses lanes. Explicit: a shuffle with a constant width
/// of at most 32 (or __syncwarp, which addresses none). InGroup: a shuffle of
/// the default width whose lane / offset is a constant, loop counter or
/// parameter in [0, 32). WholeWarp: anything else, and every ballot, vote,
/// activemask, match or reduce.
enum class LaneAddressing { Explicit, InGroup, WholeWarp };

static LaneAddressing laneAddressing(const WarpCall &W, ASTContext &Ctx,
                                     const llvm::DenseSet<const VarDecl *> &BoundedCounters) {
  if (W.Fn == WarpFn::SyncWarp)
    return LaneAddressing::Explicit;
  int Width = W.widthArg(), Lane = W.offsetArg();
  if (Width < 0)
    return LaneAddressing::WholeWarp;
  if (size_t(Width) < W.Args.size()) {
    auto V = constantOf(W.Args[Width], Ctx);
    return V && *V > 0 && *V <= 32 ? LaneAddressing::Explicit : LaneAddressing::WholeWarp;
  }
  if (size_t(Lane) < W.Args.size() && laneBounded(W.Args[Lane], Ctx, BoundedCounters))
    return LaneAddressing::InGroup;
  return LaneAddressing::WholeWarp;
}

/// A broadcast from a fixed lane inside a 32-lane group other than its leader
/// (`__shfl_sync(m, v, 16)`): a position that does not scale with warpSize.
static bool readsFixedGroupLane(const WarpCall &W, ASTContext &Ctx) {
  if (W.Fn != WarpFn::ShflSync && W.Fn != WarpFn::Shfl)
    return false;
  auto Lane = constantOf(W.Args.size() > size_t(W.offsetArg()) ? W.Args[W.offsetArg()] : nullptr, Ctx);
  return Lane && *Lane > 0 && *Lane < 32;
}

/// Whether E (a bit position) is a shift amount, directly or through the
/// variable it initialises.
static bool usedAsShiftAmount(const Expr *E, const FunctionFlow &Flow, ASTContext &Ctx) {
  auto IsShiftAmount = [&](const Expr *Use) {
    const Expr *Child = nullptr;
    const auto *Shift = dyn_cast_or_null<BinaryOperator>(parentSkippingParens(Use, Ctx, &Child));
    // m >> (31 - (i & 31)): an amount counted from the word's other end.
    if (Shift && Shift->getOpcode() == BO_Sub && Shift->getRHS()->IgnoreParenImpCasts() ==
                                                      Child->IgnoreParenImpCasts() &&
        constantOf(Shift->getLHS(), Ctx)) {
      Use = Shift;
      Shift = dyn_cast_or_null<BinaryOperator>(parentSkippingParens(Use, Ctx, &Child));
    }
    return Shift && (Shift->getOpcode() == BO_Shl || Shift->getOpcode() == BO_Shr ||
                     Shift->getOpcode() == BO_ShlAssign || Shift->getOpcode() == BO_ShrAssign) &&
           Shift->getRHS()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts();
  };
  if (IsShiftAmount(E))
    return true;
  // shift = static_cast<uint32_t>(bitPos & 31): the variable behind casts.
  auto Parents = Ctx.getParents(*E);
  while (!Parents.empty() && (Parents[0].get<CastExpr>() || Parents[0].get<ParenExpr>()))
    Parents = Ctx.getParents(*Parents[0].get<Expr>());
  const VarDecl *V = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
  if (!V || Flow.Assigned.contains(V))
    return false;
  bool Used = false;
  for (const DeclRefExpr *Ref : Flow.Refs)
    if (Ref->getDecl() == V && !(Used = IsShiftAmount(Ref)))
      return false;
  return Used;
}

const llvm::DenseSet<const BinaryOperator *> &WarpAnalysis::bitAddressing(const FunctionDecl *F,
                                                                         ASTContext &Ctx) {
  auto [It, New] = BitAddressing.try_emplace(F);
  if (!New || !F->getBody())
    return It->second;
  using namespace clang::ast_matchers;
  for (const BoundNodes &Node : match(findAll(callExpr().bind("call")), *F->getBody(), Ctx))
    if (asWarpCall(Node.getNodeAs<CallExpr>("call"), Map))
      return It->second; // lanes exchange values here: a 32 may well be lane math
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionFlow &Flow = flow(F, Ctx);
  std::vector<std::pair<std::string, const BinaryOperator *>> Positions, Words;
  for (const BoundNodes &Node :
       match(findAll(binaryOperator(hasAnyOperatorName("%", "&", "/", ">>")).bind("op")),
             *F->getBody(), Ctx)) {
    const auto *B = Node.getNodeAs<BinaryOperator>("op");
    // static_cast<uint32_t>(v) >> 5 and v & 31 address the same bitmap.
    std::string X = spelledText(B->getLHS()->IgnoreParenCasts()->getSourceRange(), SM);
    if (columnOf32(B, Ctx) && usedAsShiftAmount(B, Flow, Ctx))
      Positions.emplace_back(X, B);
    else if (rowOf32(B, Ctx))
      Words.emplace_back(X, B);
  }
  for (const auto &[X, Position] : Positions)
    for (const auto &[Y, Word] : Words)
      if (X == Y && !X.empty()) {
        It->second.insert(Position);
        It->second.insert(Word);
      }
  // Rows of 32: `(r << 5) + (c & 31)`, `r * 32 + c % 32` address a [..][32] array.
  for (const BoundNodes &Node :
       match(findAll(binaryOperator(hasOperatorName("+")).bind("sum")), *F->getBody(), Ctx)) {
    const auto *Sum = Node.getNodeAs<BinaryOperator>("sum");
    const auto *Row = dyn_cast<BinaryOperator>(Sum->getLHS()->IgnoreParenImpCasts());
    const auto *Col = dyn_cast<BinaryOperator>(Sum->getRHS()->IgnoreParenImpCasts());
    if (Row && Col && !rowStartOf32(Row, Ctx))
      std::swap(Row, Col);
    if (Row && Col && rowStartOf32(Row, Ctx) && columnOf32(Col, Ctx)) {
      It->second.insert(Row);
      It->second.insert(Col);
    }
  }
  return It->second;
}

bool WarpAnalysis::readsPortWavefront(const Stmt *S, ASTContext &Ctx) const {
  using namespace clang::ast_matchers;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Refs = match(findAll(declRefExpr(to(varDecl(hasType(isInteger())))).bind("ref")), *S, Ctx);
  return llvm::any_of(Refs, [&](const BoundNodes &Node) {
    const auto *Ref = Node.getNodeAs<DeclRefExpr>("ref");
    return !SM.isInSystemHeader(SM.getExpansionLoc(Ref->getBeginLoc())) &&
           wavefrontInPort(Ref, 32, Ctx);
  });
}

bool WarpAnalysis::onlyInCudaView(SourceLocation Loc, ASTContext &Ctx) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getSpellingLoc(Loc);
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return false;
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  auto [It, New] = DroppedBranches.try_emplace(File);
  if (New) {
    std::string Text = SM.getBufferData(File).str();
    if (Text.find("#if") != std::string::npos)
      It->second = amdPathBranches(Text, Map.warpNames());
  }
  return llvm::any_of(It->second, [Offset = Offset](const AmdPathBranch &B) {
    return B.NotCompiled && Offset >= B.Begin && Offset < B.End;
  });
}

bool WarpAnalysis::readsCudaViewOnly(const Expr *E, ASTContext &Ctx, int Depth) const {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenImpCasts();
  if (onlyInCudaView(E->getBeginLoc(), Ctx)) // a macro's body: its spelling
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (onlyInCudaView(Ref->getDecl()->getLocation(), Ctx))
      return true;
    return V && V->hasLocalStorage() && readsCudaViewOnly(V->getInit(), Ctx, Depth + 1);
  }
  return llvm::any_of(E->children(), [&](const Stmt *Child) {
    return readsCudaViewOnly(dyn_cast_or_null<Expr>(Child), Ctx, Depth + 1);
  });
}

bool WarpAnalysis::typeOnlyInCudaView(QualType T, ASTContext &Ctx) {
  while (const auto *Typedef = T->getAs<TypedefType>()) {
    if (onlyInCudaView(Typedef->getDecl()->getLocation(), Ctx))
      return true;
    T = Typedef->desugar();
  }
  return false;
}

namespace {

/// What the code of one part of the call graph does across lanes.
struct GroupingSignals {
  bool Shuffles = false, WholeWarp = false, InGroup = false, FixedLane = false,
       ReadsWavefront = false;

  void add(const GroupingSignals &O) {
    Shuffles |= O.Shuffles;
    WholeWarp |= O.WholeWarp;
    InGroup |= O.InGroup;
    FixedLane |= O.FixedLane;
    ReadsWavefront |= O.ReadsWavefront;
  }
  LaneGrouping decide() const {
    if (Shuffles && !WholeWarp && !InGroup && !ReadsWavefront)
      return LaneGrouping::WidthPinnedGroups;
    if (Shuffles && !WholeWarp && (!InGroup || FixedLane))
      return LaneGrouping::ExplicitGroups;
    // Shuffles within a group by offsets below 32 and nothing else crossing
    // lanes: a reduction from 16 leaves each group's total in its own leader
    // (lane 0 and lane 32), which the lane and warp ids by 32 name.
    if (Shuffles && !WholeWarp && !ReadsWavefront)
      return LaneGrouping::ConsistentGroups;
    return LaneGrouping::WarpWide;
  }
};

} // namespace

void WarpAnalysis::collectFunctionSpans(ASTContext &Ctx) {
  using namespace clang::ast_matchers;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const BoundNodes &Node : match(functionDecl(isDefinition()).bind("f"), Ctx)) {
    const auto *F = Node.getNodeAs<FunctionDecl>("f");
    const auto *Method = dyn_cast<CXXMethodDecl>(F);
    if (F->isTemplateInstantiation() || F->isImplicit() || !F->getBody() ||
        (Method && Method->getParent()->isLambda()))
      continue; // an instantiation or a lambda is read where its pattern is written
    SourceLocation Begin = SM.getExpansionLoc(F->getBeginLoc());
    SourceLocation End = SM.getExpansionLoc(F->getBody()->getEndLoc());
    if (SM.isInSystemHeader(Begin) || SM.getFileID(Begin) != SM.getFileID(End))
      continue;
    Spans.push_back({SM.getFileID(Begin), SM.getFileOffset(Begin), SM.getFileOffset(End),
                     LaneGrouping::WarpWide, F->hasAttr<CUDAGlobalAttr>()});
  }
  llvm::sort(Spans, [](const FunctionSpan &A, const FunctionSpan &B) {
    return std::tie(A.File, A.Begin) < std::tie(B.File, B.Begin);
  });
}

std::optional<unsigned> WarpAnalysis::spanAt(SourceLocation Loc, const SourceManager &SM) const {
  if (Loc.isInvalid())
    return std::nullopt;
  Loc = SM.getExpansionLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  auto After = std::upper_bound(Spans.begin(), Spans.end(), std::make_pair(File, Offset),
                                [](const std::pair<FileID, unsigned> &P, const FunctionSpan &S) {
                                  return P < std::make_pair(S.File, S.Begin);
                                });
  // The innermost span around Loc (a local class's member lies inside its function).
  for (auto It = After; It != Spans.begin();) {
    --It;
    if (It->File != File)
      break;
    if (It->End >= Offset)
      return unsigned(It - Spans.begin());
  }
  return std::nullopt;
}

/// The span of F's definition (its pattern's, for an instantiation).
static std::optional<unsigned> spanOfDefinition(const FunctionDecl *F, const WarpAnalysis &A,
                                                const SourceManager &SM) {
  if (!F)
    return std::nullopt;
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  const FunctionDecl *Def = F->getDefinition();
  return Def && Def->getBody() ? A.spanAt(Def->getBody()->getBeginLoc(), SM) : std::nullopt;
}

/// Each span's grouping: that of its part of the call graph.
static void decidePerPart(std::vector<FunctionSpan> &Spans, llvm::ArrayRef<GroupingSignals> Signals,
                          const llvm::EquivalenceClasses<unsigned> &Parts, LaneGrouping Unit) {
  std::vector<GroupingSignals> OfPart(Spans.size());
  std::vector<bool> HasKernel(Spans.size());
  for (unsigned I = 0; I < Spans.size(); ++I) {
    OfPart[Parts.getLeaderValue(I)].add(Signals[I]);
    if (Spans[I].Kernel)
      HasKernel[Parts.getLeaderValue(I)] = true;
  }
  // Only a unit of whole warps is told apart: lane groups found anywhere in
  // a unit (a broadcast from lane 5) say how its author numbers lanes, also
  // in kernels that show it less. A part takes the unit's grouping when it
  // never shuffles (it groups no lanes of its own) or holds no kernel (a
  // helper no kernel here calls may be called from elsewhere).
  for (unsigned I = 0; I < Spans.size(); ++I) {
    unsigned Part = Parts.getLeaderValue(I);
    bool OwnGrouping = Unit == LaneGrouping::WarpWide && OfPart[Part].Shuffles && HasKernel[Part];
    Spans[I].Grouping = OwnGrouping ? OfPart[Part].decide() : Unit;
  }
}

LaneGrouping WarpAnalysis::laneGrouping(ASTContext &Ctx) {
  if (Grouping)
    return *Grouping;
  using namespace clang::ast_matchers;
  const SourceManager &SM = Ctx.getSourceManager();
  collectFunctionSpans(Ctx);
  llvm::DenseSet<const VarDecl *> BoundedCounters;
  std::vector<const ForStmt *> Loops;
  for (const BoundNodes &Node : match(forStmt().bind("loop"), Ctx))
    if (const VarDecl *V = laneBoundedCounter(Loops.emplace_back(Node.getNodeAs<ForStmt>("loop")), Ctx))
      BoundedCounters.insert(V);
  llvm::DenseSet<const VarDecl *> Parameters = laneBoundedParameters(Ctx, BoundedCounters);
  BoundedCounters.insert_range(Parameters);
  for (const ForStmt *Loop : Loops) // `for (int o = first; o > 0; o >>= 1)`
    if (const VarDecl *V = laneBoundedCounter(Loop, Ctx, Parameters))
      BoundedCounters.insert(V);
  GroupingSignals Unit;
  std::vector<GroupingSignals> Signals(Spans.size());
  llvm::EquivalenceClasses<unsigned> Parts; // the parts of the unit's call graph
  for (unsigned I = 0; I < Spans.size(); ++I)
    Parts.insert(I);
  for (const BoundNodes &Node : match(callExpr().bind("call"), Ctx)) {
    const auto *Call = Node.getNodeAs<CallExpr>("call");
    if (SM.isInSystemHeader(SM.getExpansionLoc(Call->getBeginLoc())))
      continue;
    std::optional<unsigned> Caller = spanAt(Call->getBeginLoc(), SM);
    // A launch is no call of the kernel's: host code launches kernels of every grouping.
    if (std::optional<unsigned> Callee = isa<CUDAKernelCallExpr>(Call)
                                             ? std::nullopt
                                             : spanOfDefinition(Call->getDirectCallee(), *this, SM);
        Caller && Callee)
      Parts.unionSets(*Caller, *Callee);
    GroupingSignals S;
    // A tile's shuffles and votes (tile.shfl_down, cg::reduce) exchange within
    // its lanes, as shuffles by offsets below 32 do: lane math by 32 beside
    // them numbers the tiles (notes, where the design is right as written).
    if (tileOfAtMost32(Call, Ctx))
      S.Shuffles = S.InGroup = true;
    if (auto W = asWarpCall(Call, Map)) {
      S.Shuffles |= W->isShuffle();
      LaneAddressing A = laneAddressing(*W, Ctx, BoundedCounters);
      S.WholeWarp = A == LaneAddressing::WholeWarp;
      S.InGroup |= A == LaneAddressing::InGroup;
      S.FixedLane = readsFixedGroupLane(*W, Ctx);
    }
    Unit.add(S);
    if (Caller)
      Signals[*Caller].add(S);
  }
  // kWave of a project's own AMD path is 64 in the port: a wavefront width
  // as warpSize is, and the same offsets then cross the groups.
  if (Unit.Shuffles)
    for (SourceLocation Read : wavefrontReads(Ctx)) {
      Unit.ReadsWavefront = true;
      if (std::optional<unsigned> In = spanAt(Read, SM))
        Signals[*In].ReadsWavefront = true;
    }
  Grouping = Unit.decide();
  decidePerPart(Spans, Signals, Parts, *Grouping);
  return *Grouping;
}

std::vector<SourceLocation> WarpAnalysis::wavefrontReads(ASTContext &Ctx) const {
  using namespace clang::ast_matchers;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<SourceLocation> Reads;
  for (const BoundNodes &Node : match(declRefExpr(to(varDecl(hasType(isInteger())))).bind("ref"), Ctx)) {
    const auto *Ref = Node.getNodeAs<DeclRefExpr>("ref");
    if (SM.isInSystemHeader(SM.getExpansionLoc(Ref->getBeginLoc())))
      continue;
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if ((V && V->getName() == "warpSize") || wavefrontInPort(Ref, 32, Ctx))
      Reads.push_back(Ref->getBeginLoc());
  }
  return Reads;
}

LaneGrouping WarpAnalysis::laneGroupingAt(ASTContext &Ctx, SourceLocation Loc) {
  LaneGrouping Unit = laneGrouping(Ctx);
  std::optional<unsigned> In = spanAt(Loc, Ctx.getSourceManager());
  return In ? Spans[*In].Grouping : Unit;
}

// --- masks ------------------------------------------------------------------------------

std::string MaskInfo::describe() const {
  char Hex[32];
  snprintf(Hex, sizeof Hex, is32Bit() ? "0x%08llx" : "0x%llx",
           static_cast<unsigned long long>(Value));
  switch (Kind) {
  case MaskKind::Default:
    return "the default full mask";
  case MaskKind::ActiveMask:
    return ViaName ? "'" + Name + "' (__activemask())" : "__activemask()";
  case MaskKind::Dynamic32:
  case MaskKind::Dynamic64:
    return ViaName ? "'" + Name + "'" : !Text.empty() ? "'" + Text + "'" : "a computed mask";
  default:
    return ViaName ? "'" + Name + "' (" + Hex + ")" : std::string(Hex);
  }
}

static unsigned integerWidth(QualType T, ASTContext &Ctx) {
  if (T.isNull() || T->isDependentType() || !T->isIntegerType())
    return 32;
  return Ctx.getTypeSize(T);
}

static MaskKind dynamicMask(unsigned Width) {
  return Width <= 32 ? MaskKind::Dynamic32 : MaskKind::Dynamic64;
}

/// template <unsigned MASK = 0xffffffff>: in an instantiation, the mask is the
/// parameter's value (IgnoreParenImpCasts looks through the substitution, so
/// walk by hand); otherwise Mask itself.
static const Expr *throughTemplateParameter(const Expr *Mask, MaskInfo &M) {
  for (const Expr *Walk = Mask; Walk;) {
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(Walk)) {
      M.ViaName = true;
      M.TemplateParam = true;
      if (const NamedDecl *P = Subst->getParameter(); P && P->getIdentifier())
        M.Name = P->getName().str();
      return Subst->getReplacement()->IgnoreParenImpCasts();
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Walk))
      Walk = Cast->getSubExpr();
    else if (const auto *Paren = dyn_cast<ParenExpr>(Walk))
      Walk = Paren->getSubExpr();
    else
      break;
  }
  return Mask->IgnoreParenImpCasts();
}

/// The constant Value of a mask of Width bits, as M's kind and value; false
/// when it is no constant.
static bool constantMask(const Expr *Value, unsigned Width, ASTContext &Ctx, MaskInfo &M) {
  Expr::EvalResult R;
  if (Value->isValueDependent() || !Value->EvaluateAsInt(R, Ctx))
    return false;
  llvm::APSInt I = R.Val.getInt();
  uint64_t Bits = I.extOrTrunc(64).getZExtValue();
  if (I.getBitWidth() < 64 && I.isSigned() && I.isNegative())
    Bits &= (I.getBitWidth() >= 64 ? ~0ull : ((1ull << I.getBitWidth()) - 1));
  if (Width <= 32) {
    Bits &= 0xffffffffull;
    M.Kind = Bits == 0xffffffffull ? MaskKind::Full32 : MaskKind::Partial32;
  } else {
    if (I.isSigned() && I.isNegative())
      Bits = I.extOrTrunc(64).getZExtValue();
    M.Kind = Bits == ~0ull ? MaskKind::Full64 : MaskKind::Partial64;
  }
  M.Value = Bits;
  M.ValueBegin = Value->getBeginLoc();
  M.ValueEnd = Value->getEndLoc();
  return true;
}

/// FULL_MASK: a constant spelled through an object-like macro outside the
/// call's text is named by the macro.
static void nameMaskMacro(const WarpCall &Call, const Expr *Value, const SourceManager &SM,
                          const LangOptions &LO, MaskInfo &M) {
  SourceLocation B = Value->getBeginLoc();
  while (B.isMacroID() && SM.isMacroArgExpansion(B))
    B = SM.getImmediateSpellingLoc(B); // the argument as written
  if (!B.isMacroID())
    return;
  SourceLocation Spelled = SM.getSpellingLoc(B);
  SourceLocation From = SM.getSpellingLoc(Call.NameLoc);
  SourceLocation To = SM.getSpellingLoc(Call.Call->getRParenLoc());
  bool Inside = SM.getFileID(Spelled) == SM.getFileID(From) &&
                SM.getFileID(Spelled) == SM.getFileID(To) &&
                SM.getFileOffset(Spelled) > SM.getFileOffset(From) &&
                SM.getFileOffset(Spelled) < SM.getFileOffset(To);
  if (!Inside) {
    M.ViaName = true;
    M.Name = Lexer::getImmediateMacroName(B, SM, LO).str();
  }
}

const Expr *WarpAnalysis::maskVariableValue(const VarDecl *V, const FunctionFlow &Flow,
                                            ASTContext &Ctx, MaskInfo &M) const {
  M.ViaName = true;
  M.Name = V->getName().str();
  M.Var = V;
  // Only a variable that keeps its initial value has it at the call.
  bool Stable = V->getType().isConstQualified() || V->isConstexpr() ||
                (V->hasLocalStorage() && !Flow.Assigned.count(V));
  const Expr *Init = V->getInit() ? V->getInit()->IgnoreParenImpCasts() : nullptr;
  if (!Stable || !Init || isa<ParmVarDecl>(V)) {
    M.Kind = dynamicMask(integerWidth(V->getType(), Ctx));
    return nullptr;
  }
  if (callsActiveMask(Init)) {
    M.Kind = MaskKind::ActiveMask;
    return nullptr;
  }
  return Init;
}

MaskInfo WarpAnalysis::classifyMask(const WarpCall &Call, const FunctionFlow &Flow,
                                    ASTContext &Ctx) const {
  MaskInfo M;
  const Expr *Mask = Call.mask();
  if (!Mask) {
    M.Kind = MaskKind::Default;
    return M;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  M.Text = spelledText(Mask->getSourceRange(), SM);
  if (M.Text.size() > 40)
    M.Text = M.Text.substr(0, 37) + "...";
  const Expr *Written = Mask->IgnoreParenImpCasts();
  if (Written->isValueDependent() || Written->isTypeDependent()) {
    M.Dependent = true;
    M.Kind = MaskKind::Dynamic32;
    return M;
  }
  const Expr *S = throughTemplateParameter(Mask, M);
  if (callsActiveMask(S)) {
    M.Kind = MaskKind::ActiveMask;
    return M;
  }
  const Expr *Value = S;
  unsigned Width = integerWidth(S->getType(), Ctx);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl())) {
      Width = integerWidth(V->getType(), Ctx);
      Value = maskVariableValue(V, Flow, Ctx, M);
      if (!Value)
        return M;
    }
  if (!constantMask(Value, Width, Ctx, M)) {
    M.Kind = dynamicMask(Width);
    return M;
  }
  if (!M.Var && !M.TemplateParam)
    nameMaskMacro(Call, Value, SM, Ctx.getLangOpts(), M);
  return M;
}

} // namespace cu2dcu
