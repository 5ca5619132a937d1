// W64-WARP-SYNC (check part): `__syncwarp()` that orders a warp-synchronous
// exchange through shared memory, the lanes of one 32-lane warp folding
// `s[t + 16]`, `s[t + 8]`, ... `s[t + 1]` into `s[t]` step by step. The
// barrier names the 32-lane warp as the group that exchanges; on DCU the
// lanes taking part must lie in one 64-lane wavefront, and HIP before 6.2
// has no __syncwarp at all. The translator's own W64-WARP-SYNC findings
// (masks it cannot rewrite) are in wave64/WarpIntrinsicTranslator.
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <set>

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

/// The offsets a warp-synchronous step sequence reads, from 16 halving to 1.
constexpr int64_t ChainOffsets[] = {16, 8, 4, 2, 1};

/// Whether E names warp-shared storage: a __shared__ variable or memory
/// reached through a volatile pointer (the classic warp-synchronous tail).
bool sharedOrVolatile(const Expr *Base) {
  Base = Base->IgnoreParenImpCasts();
  if (const auto *V = varOf(Base); V && V->hasAttr<CUDASharedAttr>())
    return true;
  QualType T = Base->getType();
  return T->isPointerType() && T->getPointeeType().isVolatileQualified();
}

/// `s[t + C]` / `s[C + t]` with a constant C > 0: (storage, index variable, C).
struct LaneStep {
  const ValueDecl *Storage = nullptr;
  const VarDecl *Index = nullptr;
  int64_t Offset = 0;
};

std::optional<LaneStep> laneStep(const ArraySubscriptExpr *A, ASTContext &Ctx) {
  const Expr *Base = A->getBase()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  const auto *Add = dyn_cast<BinaryOperator>(A->getIdx()->IgnoreParenImpCasts());
  if (!Ref || !Add || Add->getOpcode() != BO_Add || !sharedOrVolatile(Base))
    return std::nullopt;
  for (auto [Var, Constant] : {std::pair(Add->getLHS(), Add->getRHS()),
                               std::pair(Add->getRHS(), Add->getLHS())}) {
    auto C = constantOf(Constant, Ctx);
    if (const VarDecl *V = varOf(Var); V && C && *C > 0)
      return LaneStep{Ref->getDecl(), V, *C};
  }
  return std::nullopt;
}

const CompoundStmt *enclosingBlock(const Stmt *S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (const auto *Block = Node.get<CompoundStmt>())
      return Block;
  }
  return nullptr;
}

class WarpSyncCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(callExpr().bind("call"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
    ASTContext &Ctx = *Result.Context;
    auto W = asWarpCall(Call, context().map());
    if (!W || W->Fn != WarpFn::SyncWarp || !inTranslatedCode(context(), W->NameLoc))
      return;
    const FunctionDecl *F = checkedFunction(Call, Ctx);
    if (!F)
      return;
    const Chains &Found = chainsOf(F, Ctx);
    auto It = Found.find(enclosingBlock(Call, Ctx));
    if (It == Found.end())
      return;
    report(W->NameLoc, Severity::Note,
           "'" + W->Name + "' orders a warp-synchronous exchange through shared memory (" +
               It->second +
               "): the steps assume that the lanes taking part form one 32-lane warp. On a "
               "64-lane wavefront check that they lie in one wavefront (the lanes t < 32 do); "
               "HIP before 6.2 has no __syncwarp (the translation puts a wavefront barrier "
               "here), and a wavefront runs the steps in lockstep, so a port may also drop "
               "the barrier and keep the storage volatile");
  }

private:
  /// Per function: the blocks holding a full step sequence, with its text.
  using Chains = llvm::DenseMap<const CompoundStmt *, std::string>;
  llvm::DenseMap<const FunctionDecl *, Chains> ChainsByFunction;

  /// One pass over the function's subscripts: the sequences s[t + 16] ...
  /// s[t + 1] on one storage and index, keyed by the block each step is in.
  const Chains &chainsOf(const FunctionDecl *F, ASTContext &Ctx) {
    auto [It, New] = ChainsByFunction.try_emplace(F);
    if (!New)
      return It->second;
    using Key = std::pair<const ValueDecl *, const VarDecl *>;
    std::map<Key, std::set<int64_t>> Offsets;
    std::map<Key, std::vector<const ArraySubscriptExpr *>> Steps;
    for (const ArraySubscriptExpr *A : analysis().flow(F, Ctx).Subscripts)
      if (auto Step = laneStep(A, Ctx)) {
        Key K{Step->Storage, Step->Index};
        Offsets[K].insert(Step->Offset);
        Steps[K].push_back(A);
      }
    for (const auto &[K, Seen] : Offsets) {
      if (!llvm::all_of(ChainOffsets, [&](int64_t O) { return Seen.count(O); }))
        continue;
      std::string Name = K.first->getName().str(), Index = K.second->getName().str();
      std::string Text = Name + "[" + Index + " + " + (Seen.count(32) ? "32" : "16") +
                         "] ... " + Name + "[" + Index + " + 1]";
      for (const ArraySubscriptExpr *A : Steps[K])
        if (const CompoundStmt *Block = enclosingBlock(A, Ctx))
          It->second.try_emplace(Block, Text);
    }
    return It->second;
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeWarpSyncCheck(Wave64Context &Shared) {
  return std::make_unique<WarpSyncCheck>(wave64_ids::WarpSync, Shared);
}

} // namespace cu2dcu
