// The warp data-flow analysis shared by the wave64 checks and the warp
// intrinsic translator (tool/wave64/WarpAnalysis.h): lane masks from
// literals, macros, constants, ballots and parameters; thread, lane and warp
// ids flowing through variables; constants that stand for the warp size.
//
// Each test parses a few lines of CUDA with clang (host side, no CUDA
// headers: the intrinsics are declared here, threadIdx comes from clang's
// own builtin-variable header), which takes milliseconds.
#include "wave64/WarpAnalysis.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace cu2dcu;
using namespace clang::ast_matchers;

namespace {

const char *const Prelude = R"(
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#include <__clang_cuda_builtin_vars.h>
__device__ unsigned __activemask();
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __shfl_sync(unsigned, int, int, int = 32);
__device__ int __shfl_down_sync(unsigned, int, unsigned, int = 32);
__device__ int __shfl_xor_sync(unsigned long long, int, int, int = 32);
__device__ void __syncwarp(unsigned = 0xffffffff);
)";

class WarpAnalysisTest : public ::testing::Test {
protected:
  void parse(const std::string &Code) {
    AST = clang::tooling::buildASTFromCodeWithArgs(
        Prelude + Code,
        {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_90",
         "-std=c++17", "-Wno-unknown-cuda-version"},
        "t.cu", CU2DCU_CLANG_EXECUTABLE);
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
  }
  clang::ASTContext &ctx() { return AST->getASTContext(); }

  /// The Index-th call (in source order) of the warp intrinsic Name in
  /// ordinary functions and template patterns, or in instantiations.
  WarpCall call(const std::string &Name, unsigned Index = 0, bool Instantiated = false) {
    unsigned Seen = 0;
    for (const BoundNodes &N : match(callExpr(callee(functionDecl(hasName(Name))),
                                              hasAncestor(functionDecl().bind("fn")))
                                         .bind("call"),
                                     ctx())) {
      const auto *Fn = N.getNodeAs<clang::FunctionDecl>("fn");
      if (Fn->isTemplateInstantiation() != Instantiated || Seen++ != Index)
        continue;
      std::optional<WarpCall> W = asWarpCall(N.getNodeAs<clang::CallExpr>("call"), deviceMap());
      EXPECT_TRUE(W.has_value()) << Name;
      return W ? *W : WarpCall{};
    }
    ADD_FAILURE() << "no call " << Index << " of " << Name;
    return {};
  }
  MaskInfo mask(const std::string &Name, unsigned Index = 0, bool Instantiated = false) {
    WarpCall W = call(Name, Index, Instantiated);
    if (!W.Call)
      return {};
    return Analysis.classifyMask(W, Analysis.flowAt(W.Call, ctx()), ctx());
  }
  const clang::VarDecl *var(const std::string &Name) {
    auto Found = match(varDecl(hasName(Name)).bind("v"), ctx());
    EXPECT_EQ(Found.size(), 1u) << Name;
    return Found.empty() ? nullptr : Found[0].getNodeAs<clang::VarDecl>("v");
  }
  /// What the local variable (or parameter) Name derives from.
  unsigned taintOf(const std::string &Name) {
    const clang::VarDecl *V = var(Name);
    if (!V)
      return TaintNone;
    const auto *F = llvm::dyn_cast<clang::FunctionDecl>(V->getDeclContext());
    return Analysis.flow(F, ctx()).of(V);
  }
  /// Warp-size constant on the right of the binary operator initialising Name.
  std::optional<WarpConstant> constantIn(const std::string &Name,
                                         std::initializer_list<int64_t> Values) {
    const clang::VarDecl *V = var(Name);
    const auto *B = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        V && V->getInit() ? V->getInit()->IgnoreParenImpCasts() : nullptr);
    EXPECT_TRUE(B) << Name << " is not initialised with a binary operator";
    if (!B)
      return std::nullopt;
    return Analysis.warpConstant(B->getRHS(), ctx(), Values, B->getOperatorLoc());
  }

  /// The shipped map of device functions (and the shims its entries name),
  /// which gives the warp functions their roles; loaded once.
  static const ApiMap &deviceMap() {
    // The warp roles (device.yaml) and the lane names and PTX idioms the
    // analysis reads (checks/): the shipped maps.
    static const ApiMap Map = [] {
      ApiMap M;
      EXPECT_TRUE(M.loadDirectory(CU2DCU_MAPPINGS_DIR));
      return M;
    }();
    return Map;
  }

  std::unique_ptr<clang::ASTUnit> AST;
  WarpAnalysis Analysis{deviceMap()};
};

// --- roles ----------------------------------------------------------------------

TEST_F(WarpAnalysisTest, WarpFunctionsAreKnownByTheirMapRole) {
  parse(R"(__global__ void k(int *p) { p[0] = __shfl_down_sync(0xffffffff, p[0], 1); })");
  auto Found = match(callExpr(callee(functionDecl(hasName("__shfl_down_sync")))).bind("call"), ctx());
  ASSERT_EQ(Found.size(), 1u);
  const auto *Call = Found[0].getNodeAs<clang::CallExpr>("call");
  std::optional<WarpCall> W = asWarpCall(Call, deviceMap());
  ASSERT_TRUE(W.has_value());
  EXPECT_EQ(W->Fn, WarpFn::ShflDownSync);
  EXPECT_TRUE(W->isShuffle() && W->isSync());
  EXPECT_EQ(W->offsetArg(), 2);
  ApiMap NoRoles; // a map without the entry: an ordinary function
  EXPECT_FALSE(asWarpCall(Call, NoRoles).has_value());
}

// --- masks ----------------------------------------------------------------------

TEST_F(WarpAnalysisTest, LiteralMasks) {
  parse(R"(__global__ void k(int *p) {
    p[0] = __shfl_sync(0xffffffff, p[0], 0);
    p[1] = __shfl_sync(0x0000ffff, p[1], 0);
    p[2] = __shfl_sync(~0u, p[2], 0);
    p[3] = __shfl_sync(-1, p[3], 0);
  })");
  MaskInfo Full = mask("__shfl_sync", 0);
  EXPECT_EQ(Full.Kind, MaskKind::Full32);
  EXPECT_EQ(Full.Value, 0xffffffffu);
  EXPECT_FALSE(Full.ViaName);
  EXPECT_EQ(Full.Text, "0xffffffff");
  EXPECT_TRUE(Full.isFull());
  EXPECT_TRUE(Full.is32Bit());

  MaskInfo Half = mask("__shfl_sync", 1);
  EXPECT_EQ(Half.Kind, MaskKind::Partial32);
  EXPECT_EQ(Half.Value, 0xffffu);
  EXPECT_FALSE(Half.isFull());
  EXPECT_EQ(Half.describe(), "0x0000ffff");

  EXPECT_EQ(mask("__shfl_sync", 2).Kind, MaskKind::Full32);
  MaskInfo MinusOne = mask("__shfl_sync", 3);
  EXPECT_EQ(MinusOne.Kind, MaskKind::Full32);
  EXPECT_EQ(MinusOne.Value, 0xffffffffu);
}

TEST_F(WarpAnalysisTest, SixtyFourBitMasks) {
  parse(R"(__global__ void k(int *p) {
    p[0] = __shfl_xor_sync(0xffffffffffffffffull, p[0], 1);
    p[1] = __shfl_xor_sync(0xffffffffull, p[1], 1);
  })");
  EXPECT_EQ(mask("__shfl_xor_sync", 0).Kind, MaskKind::Full64);
  MaskInfo Low = mask("__shfl_xor_sync", 1);
  EXPECT_EQ(Low.Kind, MaskKind::Partial64); // the 32-lane mask in a 64-bit type
  EXPECT_EQ(Low.Value, 0xffffffffu);
  EXPECT_FALSE(Low.is32Bit());
}

TEST_F(WarpAnalysisTest, MaskSpelledThroughAMacro) {
  parse(R"(#define FULL_MASK 0xffffffff
  #define SHFL(v) __shfl_sync(0xffffffff, v, 0)
  __global__ void k(int *p) {
    p[0] = __shfl_sync(FULL_MASK, p[0], 0);
    p[1] = SHFL(p[1]);
  })");
  MaskInfo Named = mask("__shfl_sync", 0);
  EXPECT_EQ(Named.Kind, MaskKind::Full32);
  EXPECT_TRUE(Named.ViaName);
  EXPECT_EQ(Named.Name, "FULL_MASK");
  EXPECT_EQ(Named.describe(), "'FULL_MASK' (0xffffffff)");
  // Written inside the macro that makes the call: no name in between.
  MaskInfo InMacro = mask("__shfl_sync", 1);
  EXPECT_EQ(InMacro.Kind, MaskKind::Full32);
  EXPECT_FALSE(InMacro.ViaName);
}

TEST_F(WarpAnalysisTest, MaskFromConstantsAndVariables) {
  parse(R"(const unsigned kMask = 0x0000ffff;
  __global__ void k(int *p) {
    unsigned once = 0xffffffff;
    unsigned later = 0xffffffff;
    if (p[0]) later = 1;
    p[0] = __shfl_sync(kMask, p[0], 0);
    p[1] = __shfl_sync(once, p[1], 0);
    p[2] = __shfl_sync(later, p[2], 0);
  })");
  MaskInfo Const = mask("__shfl_sync", 0);
  EXPECT_EQ(Const.Kind, MaskKind::Partial32);
  EXPECT_TRUE(Const.ViaName);
  EXPECT_EQ(Const.Name, "kMask");
  EXPECT_EQ(Const.Var, var("kMask"));
  // A local never written after its declaration still holds its initialiser.
  EXPECT_EQ(mask("__shfl_sync", 1).Kind, MaskKind::Full32);
  // One written again is not a known constant.
  MaskInfo Reassigned = mask("__shfl_sync", 2);
  EXPECT_EQ(Reassigned.Kind, MaskKind::Dynamic32);
  EXPECT_EQ(Reassigned.describe(), "'later'");
}

TEST_F(WarpAnalysisTest, ActiveMaskAndBallotMasks) {
  parse(R"(__global__ void k(int *p) {
    unsigned active = __activemask();
    unsigned voted = __ballot_sync(0xffffffff, p[0] > 0);
    p[0] = __shfl_sync(__activemask(), p[0], 0);
    p[1] = __shfl_sync(active, p[1], 0);
    p[2] = __shfl_sync(voted, p[2], 0);
  })");
  EXPECT_EQ(mask("__shfl_sync", 0).Kind, MaskKind::ActiveMask);
  MaskInfo Held = mask("__shfl_sync", 1);
  EXPECT_EQ(Held.Kind, MaskKind::ActiveMask);
  EXPECT_EQ(Held.describe(), "'active' (__activemask())");
  EXPECT_TRUE(Held.isFull());
  MaskInfo Voted = mask("__shfl_sync", 2);
  EXPECT_EQ(Voted.Kind, MaskKind::Dynamic32);
  EXPECT_EQ(Voted.Name, "voted");
}

TEST_F(WarpAnalysisTest, ParameterAndDefaultMasks) {
  parse(R"(__device__ int f(unsigned mask, unsigned long long wide, int v) {
    __syncwarp();
    __syncwarp(mask);
    return __shfl_xor_sync(wide, v, 1);
  })");
  MaskInfo Default = mask("__syncwarp", 0);
  EXPECT_EQ(Default.Kind, MaskKind::Default);
  EXPECT_TRUE(Default.isFull());
  MaskInfo Param = mask("__syncwarp", 1);
  EXPECT_EQ(Param.Kind, MaskKind::Dynamic32);
  EXPECT_TRUE(Param.ViaName);
  EXPECT_EQ(Param.Name, "mask");
  EXPECT_EQ(mask("__shfl_xor_sync").Kind, MaskKind::Dynamic64);
}

TEST_F(WarpAnalysisTest, TemplateParameterMasks) {
  parse(R"(template <unsigned M> __device__ void sync() { __syncwarp(M); }
  __global__ void k() { sync<0xffffffff>(); })");
  MaskInfo Pattern = mask("__syncwarp", 0, /*Instantiated=*/false);
  EXPECT_TRUE(Pattern.Dependent);
  MaskInfo Instance = mask("__syncwarp", 0, /*Instantiated=*/true);
  EXPECT_FALSE(Instance.Dependent);
  EXPECT_TRUE(Instance.TemplateParam);
  EXPECT_EQ(Instance.Name, "M");
  EXPECT_EQ(Instance.Kind, MaskKind::Full32);
}

// --- thread, lane and warp ids -------------------------------------------------------

TEST_F(WarpAnalysisTest, LaneAndWarpIdsFromThreadIndex) {
  parse(R"(#define WARP_SIZE 32
  #define TILE 32
  __global__ void k(int *p) {
    int tid = threadIdx.x;
    int lane = tid % 32;
    int lane_and = tid & 31;
    int lane_named = tid % WARP_SIZE;
    int tile_pos = tid % TILE;
    int half = tid % 16;
    int warp = tid / 32;
    int warp_shift = tid >> 5;
    int bd = blockDim.x;
    int warps = blockDim.x / 32;
    bool first = tid == 0;
    p[lane + lane_and + lane_named + tile_pos + half + warp + warp_shift + bd + warps + first] = 0;
  })");
  EXPECT_EQ(taintOf("tid"), unsigned(TaintThread));
  EXPECT_EQ(taintOf("lane"), unsigned(TaintThread | TaintLane));
  EXPECT_EQ(taintOf("lane_and"), unsigned(TaintThread | TaintLane));
  EXPECT_EQ(taintOf("lane_named"), unsigned(TaintThread | TaintLane));
  // A 32 named for something else is not the warp size.
  EXPECT_EQ(taintOf("tile_pos"), unsigned(TaintThread));
  EXPECT_EQ(taintOf("half"), unsigned(TaintThread));
  EXPECT_EQ(taintOf("warp"), unsigned(TaintThread | TaintWarpId));
  EXPECT_EQ(taintOf("warp_shift"), unsigned(TaintThread | TaintWarpId));
  EXPECT_EQ(taintOf("bd"), unsigned(TaintBlockDim));
  EXPECT_EQ(taintOf("warps"), unsigned(TaintBlockDim)); // a count, not a thread's warp
  EXPECT_EQ(taintOf("first"), unsigned(TaintNone));
}

TEST_F(WarpAnalysisTest, IdsFlowThroughVariablesAndAssignments) {
  parse(R"(__global__ void k(int *p) {
    int a = threadIdx.x;
    int b = a + 1;
    int c = b % 32;
    int d = 0;
    int e = d % 32;   // d becomes thread-derived only below
    d = threadIdx.y;
    int f;
    f = (c > 3) ? c : 0;
    int n = p[0];
    p[c + e + f + n] = 0;
  })");
  EXPECT_EQ(taintOf("b"), unsigned(TaintThread));
  EXPECT_EQ(taintOf("c"), unsigned(TaintThread | TaintLane));
  EXPECT_EQ(taintOf("d"), unsigned(TaintThread));
  EXPECT_EQ(taintOf("e"), unsigned(TaintThread | TaintLane));
  EXPECT_EQ(taintOf("f"), unsigned(TaintThread | TaintLane));
  EXPECT_EQ(taintOf("n"), unsigned(TaintNone));
  const clang::FunctionDecl *K = llvm::dyn_cast<clang::FunctionDecl>(var("d")->getDeclContext());
  const FunctionFlow &Flow = Analysis.flow(K, ctx());
  EXPECT_TRUE(Flow.Assigned.count(var("d")));
  EXPECT_FALSE(Flow.Assigned.count(var("a")));
}

TEST_F(WarpAnalysisTest, ThreadIdParametersAndLaneBits) {
  parse(R"(__device__ unsigned f(int tid, int n, unsigned long long wide) {
    int lane = tid % 32;
    unsigned bit = 1u << lane;
    unsigned below = (1u << lane) - 1;
    unsigned long long wide_bit = 1ull << lane;
    return bit + below + wide_bit + n + wide;
  })");
  EXPECT_EQ(taintOf("tid"), unsigned(TaintThread));
  EXPECT_EQ(taintOf("n"), unsigned(TaintNone));
  EXPECT_EQ(taintOf("lane"), unsigned(TaintThread | TaintLane));
  EXPECT_TRUE(taintOf("bit") & TaintLaneBit);
  EXPECT_TRUE(taintOf("below") & TaintLaneBit);
  EXPECT_FALSE(taintOf("wide_bit") & TaintLaneBit); // already 64 bits wide
}

TEST_F(WarpAnalysisTest, BallotAndActiveMaskResults) {
  parse(R"(__global__ void k(int *p) {
    int lane = threadIdx.x % 32;
    unsigned voted = __ballot_sync(0xffffffff, p[0] > 0);
    unsigned rest = voted & (voted - 1);
    unsigned mine = (voted >> lane) & 1;
    unsigned active = __activemask();
    p[rest + mine + active] = 0;
  })");
  EXPECT_EQ(taintOf("voted"), unsigned(TaintBallot));
  EXPECT_TRUE(taintOf("rest") & TaintBallot);
  EXPECT_FALSE(taintOf("mine") & TaintBallot); // one bit extracted: not a mask
  EXPECT_EQ(taintOf("active"), unsigned(TaintBallot | TaintActiveMask));
}

TEST_F(WarpAnalysisTest, LaneIdFromInlinePtx) {
  parse(R"(__device__ int lane() {
    unsigned id;
    asm("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
  })");
  // A lane over the whole warp, as __lane_id() numbers a wavefront's.
  EXPECT_EQ(taintOf("id"), unsigned(TaintThread | TaintWideLane));
}

// --- warp-size constants and calls ------------------------------------------------------

TEST_F(WarpAnalysisTest, WarpSizeConstants) {
  parse(R"(#define WARP_SIZE 32
  #define TILE 32
  constexpr int kWarpSize = 32;
  __global__ void k(int *p) {
    int n = p[0];
    int literal = n % 32;
    int macro = n % WARP_SIZE;
    int constant = n % kWarpSize;
    int tile = n % TILE;
    int other = n % 64;
    p[literal + macro + constant + tile + other] = 0;
  })");
  std::optional<WarpConstant> Literal = constantIn("literal", {32});
  ASSERT_TRUE(Literal);
  EXPECT_EQ(Literal->Value, 32);
  EXPECT_FALSE(Literal->Named);
  EXPECT_TRUE(Literal->LiteralLoc.isValid());

  std::optional<WarpConstant> Macro = constantIn("macro", {32});
  ASSERT_TRUE(Macro);
  EXPECT_TRUE(Macro->Named);
  EXPECT_EQ(Macro->Name, "WARP_SIZE");
  EXPECT_TRUE(Macro->DefinitionLoc.isValid());

  std::optional<WarpConstant> Constant = constantIn("constant", {32});
  ASSERT_TRUE(Constant);
  EXPECT_TRUE(Constant->Named);
  EXPECT_EQ(Constant->Name, "kWarpSize");

  EXPECT_FALSE(constantIn("tile", {32}));
  EXPECT_FALSE(constantIn("other", {32}));
  EXPECT_FALSE(constantIn("literal", {31}));
}

TEST_F(WarpAnalysisTest, WarpCallArguments) {
  parse(R"(__global__ void k(int *p) {
    p[0] = __shfl_down_sync(0xffffffff, p[0], 16, 32);
    p[1] = __any_sync(0xffffffff, p[1]);
  })");
  WarpCall Down = call("__shfl_down_sync");
  EXPECT_TRUE(Down.isShuffle());
  EXPECT_TRUE(Down.isSync());
  EXPECT_EQ(Down.offsetArg(), 2);
  EXPECT_EQ(Down.widthArg(), 3);
  EXPECT_EQ(Down.Args.size(), 4u);
  WarpCall Any = call("__any_sync");
  EXPECT_FALSE(Any.isShuffle());
  EXPECT_EQ(Any.offsetArg(), -1);
  ASSERT_TRUE(Any.mask());
}

TEST_F(WarpAnalysisTest, ExplicitLaneGroups) {
  parse(R"(__global__ void k(int *p) {
    p[0] = __shfl_down_sync(0xffffffff, p[0], 8, 16);
    p[1] = __shfl_xor_sync(0xffffffff, p[1], 1, 32);
  })");
  EXPECT_TRUE(Analysis.explicitLaneGroups(ctx(), call("__shfl_xor_sync").NameLoc));
}

TEST_F(WarpAnalysisTest, WholeWarpCodeIsNotInLaneGroups) {
  parse(R"(__global__ void k(int *p) {
    p[0] = __shfl_down_sync(0xffffffff, p[0], 8, 16);
    p[1] = __ballot_sync(0xffffffff, p[1] > 0);
  })");
  EXPECT_FALSE(Analysis.explicitLaneGroups(ctx(), call("__ballot_sync").NameLoc));
}

TEST_F(WarpAnalysisTest, ButterflyFrom16IsConsistentGroups) {
  parse(R"(__global__ void k(float *p) {
    float v = p[threadIdx.x];
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) p[threadIdx.x / 32] = v;
  })");
  EXPECT_EQ(Analysis.laneGrouping(ctx()), LaneGrouping::ConsistentGroups);
}

// A kernel of consistent 32-lane groups and the helper it calls.
constexpr const char *GroupsKernel = R"(
    __device__ float tail(float v) {
      for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
      return v;
    }
    __global__ void groups(float *p) {
      float v = tail(p[threadIdx.x]);
      if ((threadIdx.x & 31) == 0) p[threadIdx.x / 32] = v;
    })";

// A part of the call graph is grouped on its own: consistent groups beside an
// unrelated kernel that reads warpSize stay consistent groups, until a
// function that reads warpSize calls into them.
TEST_F(WarpAnalysisTest, CallGraphPartsAreGroupedApart) {
  parse(std::string(GroupsKernel) + R"(
    __global__ void wide(float *p) {
      float v = p[threadIdx.x] + __shfl_down_sync(0xffffffff, p[threadIdx.x], 16);
      if (threadIdx.x % warpSize == 0) p[0] = v;
    })");
  EXPECT_EQ(Analysis.laneGrouping(ctx()), LaneGrouping::WarpWide);
  EXPECT_EQ(Analysis.laneGroupingAt(ctx(), call("__shfl_xor_sync").NameLoc),
            LaneGrouping::ConsistentGroups);
  EXPECT_EQ(Analysis.laneGroupingAt(ctx(), call("__shfl_down_sync").NameLoc), LaneGrouping::WarpWide);
}

TEST_F(WarpAnalysisTest, CallerReadingWarpSizeJoinsGroupsToTheWholeWarp) {
  parse(std::string(GroupsKernel) + R"(
    __global__ void both(float *p) { p[0] = tail(p[threadIdx.x % warpSize]); })");
  EXPECT_EQ(Analysis.laneGroupingAt(ctx(), call("__shfl_xor_sync").NameLoc), LaneGrouping::WarpWide);
}

TEST_F(WarpAnalysisTest, WarpSizeBesideGroupsIsWarpWide) {
  parse(R"(__global__ void k(float *p) {
    float v = p[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    if (threadIdx.x % warpSize == 0) p[threadIdx.x / warpSize] = v;
  })");
  EXPECT_EQ(Analysis.laneGrouping(ctx()), LaneGrouping::WarpWide);
}

TEST_F(WarpAnalysisTest, BroadcastFromLaneZeroIsWarpWide) {
  parse(R"(__global__ void k(float *p) {
    float v = p[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    p[threadIdx.x] = __shfl_sync(0xffffffff, v, threadIdx.x & ~31);
  })");
  EXPECT_EQ(Analysis.laneGrouping(ctx()), LaneGrouping::WarpWide);
}

} // namespace
