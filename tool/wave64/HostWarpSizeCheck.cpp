// W64-HOST-WARP-SIZE: host code that compares the device's warp size with 32
// (`prop.warpSize != 32`, a cudaDevAttrWarpSize attribute `== 32`). HIP reports
// 64 on DCU and AMD CDNA, so such a test refuses to run there or takes the
// path written for 32-lane warps.
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

class HostWarpSizeCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(binaryOperator(isComparisonOperator()).bind("compare"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *B = Result.Nodes.getNodeAs<BinaryOperator>("compare");
    ASTContext &Ctx = *Result.Context;
    if (!B || !inTranslatedCode(context(), B->getOperatorLoc()))
      return;
    const FunctionDecl *F = checkedFunction(B, Ctx);
    if (!F || isDeviceFunction(F))
      return; // device code comparing warpSize picks the path written for it
    for (auto [Value, Constant] : {std::pair(B->getLHS(), B->getRHS()),
                                   std::pair(B->getRHS(), B->getLHS())}) {
      auto C = constantOf(Constant, Ctx);
      if (!C || *C != 32 || !isDeviceWarpSize(Value, F, Ctx, 0))
        continue;
      if (analysis().readsCudaViewOnly(Constant, Ctx))
        return; // prop.warpSize != kLanes, 64 in the project's own AMD branch

      report(B->getOperatorLoc(), Severity::Warning,
             "'" + spelledText(B->getSourceRange(), Ctx.getSourceManager()) +
                 "' tests the device's warp size against 32: HIP reports 64 on DCU and AMD "
                 "CDNA GPUs, so this refuses to run there or takes the path written for "
                 "32-lane warps; test the width the kernels actually need, or drop the test "
                 "where they read warpSize");
      return;
    }
  }

private:
  /// Whether E reads the device's warp size: cudaDeviceProp::warpSize, or a
  /// variable initialised from it or written by cudaDeviceGetAttribute with
  /// cudaDevAttrWarpSize, or a call of a function that returns it (followed
  /// through a few variables and calls).
  static bool isDeviceWarpSize(const Expr *E, const FunctionDecl *F, ASTContext &Ctx, int Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MemberExpr>(E))
      return M->getMemberDecl()->getName() == "warpSize" && !isa<VarDecl>(M->getMemberDecl());
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return Depth < 4 && Call->getDirectCallee() &&
             returnsDeviceWarpSize(Call->getDirectCallee(), Ctx, Depth + 1);
    const VarDecl *V = varOf(E);
    if (!V || Depth > 4 || !V->hasLocalStorage())
      return false;
    if (V->getInit() && isDeviceWarpSize(V->getInit(), F, Ctx, Depth + 1))
      return true;
    return writtenAsWarpSizeAttribute(V, F, Ctx);
  }

  /// Whether every return of G returns the device's warp size
  /// (`int deviceWarp() { int ws; cudaDeviceGetAttribute(&ws, ...); return ws; }`).
  static bool returnsDeviceWarpSize(const FunctionDecl *G, ASTContext &Ctx, int Depth) {
    const FunctionDecl *Definition = nullptr;
    if (!G->hasBody(Definition) || !Definition->getBody())
      return false;
    bool Returns = false;
    for (const BoundNodes &Node :
         match(findAll(returnStmt().bind("return")), *Definition->getBody(), Ctx)) {
      const Expr *Value = Node.getNodeAs<ReturnStmt>("return")->getRetValue();
      if (!Value || !isDeviceWarpSize(Value, Definition, Ctx, Depth))
        return false;
      Returns = true;
    }
    return Returns;
  }

  /// cudaDeviceGetAttribute(&V, cudaDevAttrWarpSize, device) in F.
  static bool writtenAsWarpSizeAttribute(const VarDecl *V, const FunctionDecl *F, ASTContext &Ctx) {
    auto Attribute = callExpr(
        callee(functionDecl(hasName("cudaDeviceGetAttribute"))),
        hasArgument(0, unaryOperator(hasOperatorName("&"),
                                     hasUnaryOperand(declRefExpr(to(varDecl(equalsNode(V))))))),
        hasArgument(1, ignoringParenImpCasts(
                           declRefExpr(to(enumConstantDecl(hasName("cudaDevAttrWarpSize")))))));
    return F->getBody() && !match(stmt(hasDescendant(Attribute)), *F->getBody(), Ctx).empty();
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeHostWarpSizeCheck(Wave64Context &Shared) {
  return std::make_unique<HostWarpSizeCheck>(wave64_ids::HostWarpSize, Shared);
}

} // namespace cu2dcu
