// W64-INLINE-PTX: inline PTX (asm / asm volatile in device code) does not
// assemble for AMD GPUs. The finding names the HIP replacement of the PTX
// idioms it recognises, which the map lists (mappings/checks/inline_ptx.yaml:
// %laneid -> __lane_id(), shfl.sync -> __shfl*, ...). PTX in a branch only NVIDIA
// compiles take (#if defined(__PTX__) ... #else portable code #endif) is
// left alone: the DCU compile never sees it.
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"

#include "wave64/LexicalWave64Scan.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"

#include <regex>

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

class InlinePtxCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(asmStmt().bind("asm"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(Result.Nodes.getNodeAs<AsmStmt>("asm"));
    ASTContext &Ctx = *Result.Context;
    if (!Asm || !inTranslatedCode(context(), Asm->getAsmLoc()))
      return;
    bool Outside = false;
    const FunctionDecl *F = checkedFunction(Asm, Ctx, &Outside);
    if (!F && !Outside)
      return;
    std::string Text = Asm->getAsmString();
    if (Text.find_first_not_of(" \t\n;") == std::string::npos)
      return; // asm volatile("" ::: "memory"): a compiler barrier, fine in HIP
    if (!isDeviceFunction(F) && !context().map().inlinePtx().looksLikePtx(Text))
      return; // host assembly
    const SourceManager &SM = Ctx.getSourceManager();
    if (forNvidiaOnly(SM.getSpellingLoc(Asm->getAsmLoc()), SM))
      return; // #if defined(__PTX__) asm(...) #else portable code #endif

    const std::vector<PtxIdiom> &Idioms = context().map().ptxIdioms();
    std::string Shown = Text.size() > 60 ? Text.substr(0, 57) + "..." : Text;
    for (char &C : Shown)
      if (C == '\n' || C == '\t')
        C = ' ';
    std::string Message = "inline PTX \"" + Shown + "\" does not assemble for AMD GPUs; " +
                          context().map().inlinePtx().adviceFor(Text);
    // mov.u32 %0, %%laneid;  ->  lane = __lane_id(), for the registers the
    // map marks as fixable
    std::vector<Wave64Fix> Fixes;
    static const std::regex Mov(R"(^\s*mov\.[ubs](32|64)\s+%0\s*,\s*%%?([A-Za-z_][A-Za-z0-9_]*)\s*;?\s*$)");
    std::smatch M;
    if (Asm->getNumOutputs() == 1 && Asm->getNumInputs() == 0 &&
        std::regex_match(Text, M, Mov)) {
      std::string Special = "%" + M[2].str();
      std::string Hip;
      for (const PtxIdiom &I : Idioms)
        if (I.Fix && Special == I.Ptx)
          Hip = I.Hip;
      std::string Out = spelledText(Asm->getOutputExpr(0)->getSourceRange(), SM);
      if (!Hip.empty() && !Out.empty())
        Fixes.push_back(rangeFix(SM, Asm->getAsmLoc(), Asm->getRParenLoc(), Out + " = " + Hip,
                                 "read " + Hip + " instead", false));
    }
    report(Asm->getAsmLoc(), Severity::Error, Message, std::move(Fixes));
  }

private:
  llvm::DenseMap<FileID, std::vector<ByteRange>> NvidiaOnly; // per file, on first use

  bool forNvidiaOnly(SourceLocation Loc, const SourceManager &SM) {
    auto [File, Offset] = SM.getDecomposedLoc(Loc);
    auto It = NvidiaOnly.find(File);
    if (It == NvidiaOnly.end())
      It = NvidiaOnly
               .try_emplace(File, nvidiaOnlyBranches(context().textOf(File),
                                                     context().map().inlinePtx()))
               .first;
    return llvm::any_of(It->second,
                        [&](const ByteRange &R) { return Offset >= R.Begin && Offset < R.End; });
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeInlinePtxCheck(Wave64Context &Shared) {
  return std::make_unique<InlinePtxCheck>(wave64_ids::InlinePtx, Shared);
}

} // namespace cu2dcu
