// W64-INLINE-PTX: inline PTX (asm / asm volatile in device code) does not
// assemble for AMD GPUs. The finding names the HIP replacement of the PTX
// idioms it recognises (%laneid -> __lane_id(), %lanemask_lt ->
// __lanemask_lt(), shfl.sync -> __shfl*, ...). PTX in a branch only NVIDIA
// compiles take (#if defined(__PTX__) ... #else portable code #endif) is
// left alone: the DCU compile never sees it.
#include "checks/CheckSupport.h"

#include "checks/LexicalWave64Scan.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"

#include <cstring>
#include <regex>

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

struct Idiom {
  const char *Ptx;
  const char *Hip; // empty: no HIP equivalent
  const char *Note;
};

// Longer spellings first: the first match of an overlapping pair wins.
const Idiom Idioms[] = {
    {"%laneid", "__lane_id()", ""},
    {"%lanemask_lt", "__lanemask_lt()", ""},
    {"%lanemask_le", "(__lanemask_lt() | __lanemask_eq())", ""},
    {"%lanemask_eq", "__lanemask_eq()", ""},
    {"%lanemask_gt", "__lanemask_gt()", ""},
    {"%lanemask_ge", "(__lanemask_gt() | __lanemask_eq())", ""},
    {"%warpid", "", "the hardware warp slot; threadIdx.x / warpSize numbers wavefronts in a block"},
    {"%nwarpid", "", "no HIP equivalent"},
    {"%smid", "__smid()", ""},
    {"%globaltimer", "wall_clock64()", ""},
    {"%clock64", "clock64()", ""},
    {"%clock", "clock()", ""},
    {"%dynamic_smem_size", "", "pass the dynamic shared size as a kernel argument"},
    {"shfl.sync", "__shfl / __shfl_up / __shfl_down / __shfl_xor", ""},
    {"shfl.", "__shfl / __shfl_up / __shfl_down / __shfl_xor", ""},
    {"vote.sync.ballot", "__ballot()", ""},
    {"vote.ballot", "__ballot()", ""},
    {"vote.sync.any", "__any()", ""},
    {"vote.any", "__any()", ""},
    {"vote.sync.all", "__all()", ""},
    {"vote.all", "__all()", ""},
    {"match.", "", "no HIP 5.2 equivalent (__match_any_sync needs HIP 6.2)"},
    {"redux.sync", "", "a shuffle reduction"},
    {"bar.sync", "__syncthreads()", ""},
    {"barrier.sync", "__syncthreads()", ""},
    {"bar.warp.sync", "__builtin_amdgcn_wave_barrier()", ""},
    {"membar.gl", "__threadfence()", ""},
    {"membar.cta", "__threadfence_block()", ""},
    {"membar.sys", "__threadfence_system()", ""},
    {"fence.", "__threadfence() / __threadfence_block()", ""},
    {"ld.global.nc", "__ldg()", ""},
    {"cp.async", "", "plain loads into shared memory (no asynchronous copy in HIP 5.2)"},
    {"ldmatrix", "", "no HIP equivalent: load fragments with plain shared-memory reads"},
    {"mma.sync", "", "rocWMMA or the __builtin_amdgcn_mfma_* intrinsics (different fragment layout)"},
    {"wmma.", "", "rocWMMA (different fragment layout)"},
    {"prmt", "__byte_perm()", ""},
    {"brev", "__brev() / __brevll()", ""},
    {"bfind", "31 - __clz() / 63 - __clzll()", ""},
    {"bfe.", "__bitextract_u32() / __bitextract_u64()", ""},
    {"popc", "__popc() / __popcll()", ""},
    {"clz", "__clz() / __clzll()", ""},
    {"cvta", "", "generic and shared addresses need no conversion in HIP"},
};

bool looksLikePtx(const std::string &Asm) {
  static const char *const Markers[] = {".u32", ".s32", ".b32", ".u64", ".b64", ".f32", ".f16",
                                        ".pred", ".reg", "%laneid", "%lanemask", ".sync",
                                        "mov.", "ld.", "st.", "%%"};
  for (const char *M : Markers)
    if (Asm.find(M) != std::string::npos)
      return true;
  return false;
}

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
    if (!isDeviceFunction(F) && !looksLikePtx(Text))
      return; // host assembly
    const SourceManager &SM = Ctx.getSourceManager();
    if (forNvidiaOnly(SM.getSpellingLoc(Asm->getAsmLoc()), SM))
      return; // #if defined(__PTX__) asm(...) #else portable code #endif

    std::vector<std::string> Uses;
    std::string Lower = Text;
    for (const Idiom &I : Idioms) {
      size_t At = Lower.find(I.Ptx);
      if (At == std::string::npos)
        continue;
      // Mask the match so that a shorter idiom inside it does not repeat it.
      for (size_t K = 0; K < strlen(I.Ptx); ++K)
        Lower[At + K] = ' ';
      std::string Use = std::string("'") + I.Ptx + "' -> ";
      Use += *I.Hip ? I.Hip : I.Note;
      Uses.push_back(Use);
    }
    std::string Shown = Text.size() > 60 ? Text.substr(0, 57) + "..." : Text;
    for (char &C : Shown)
      if (C == '\n' || C == '\t')
        C = ' ';
    std::string Message = "inline PTX \"" + Shown + "\" does not assemble for AMD GPUs";
    if (!Uses.empty()) {
      Message += "; HIP replacement: ";
      for (size_t I = 0; I < Uses.size(); ++I)
        Message += (I ? "; " : "") + Uses[I];
    } else {
      Message += "; rewrite it with HIP intrinsics or plain C++";
    }
    // mov.u32 %0, %%laneid;  ->  lane = __lane_id()
    std::vector<Wave64Fix> Fixes;
    static const std::regex Mov(R"(^\s*mov\.[ubs](32|64)\s+%0\s*,\s*%%?(laneid|lanemask_lt|lanemask_eq|lanemask_gt|smid|clock|clock64)\s*;?\s*$)");
    std::smatch M;
    if (Asm->getNumOutputs() == 1 && Asm->getNumInputs() == 0 &&
        std::regex_match(Text, M, Mov)) {
      std::string Special = "%" + M[2].str();
      std::string Hip;
      for (const Idiom &I : Idioms)
        if (Special == I.Ptx)
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
      It = NvidiaOnly.try_emplace(File, nvidiaOnlyBranches(context().textOf(File))).first;
    return llvm::any_of(It->second,
                        [&](const ByteRange &R) { return Offset >= R.Begin && Offset < R.End; });
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeInlinePtxCheck(Wave64Context &Shared) {
  return std::make_unique<InlinePtxCheck>("W64-INLINE-PTX", Shared);
}

} // namespace cu2dcu
