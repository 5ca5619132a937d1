#include "mapping/ApiMap.h"
#include "mapping/MapCache.h"
#include "llvm/ADT/StringExtras.h"

#include "ScratchDir.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace cu2dcu;

namespace {

class ApiMapTest : public ::testing::Test {
protected:
  std::string write(const std::string &Name, const std::string &Text) {
    std::string Path = scratchPath(Name);
    std::ofstream(Path) << Text;
    return Path;
  }
  ApiMap Map;
};

TEST_F(ApiMapTest, LoadsEntriesWithEveryField) {
  ASSERT_TRUE(Map.loadFile(write("ok.yaml", R"(family: runtime
entries:
  - {cuda: cudaMalloc, hip: hipMalloc, kind: function}
  - {cuda: cudaMemcpyToSymbol, hip: hipMemcpyToSymbol, kind: function, symbol_arg: 0}
  - {cuda: __shfl_sync, hip: __shfl_sync, kind: function, hip_since: "6.2", note: "64-bit mask"}
  - {cuda: cudaFoo, kind: function, status: unsupported, reason: "no equivalent"}
  - {cuda: cuda_runtime.h, hip: hip/hip_runtime.h, kind: header}
)")));
  EXPECT_FALSE(Map.hasErrors());
  const ApiEntry *Malloc = Map.lookup("cudaMalloc");
  ASSERT_NE(Malloc, nullptr);
  EXPECT_EQ(Malloc->Hip, "hipMalloc");
  EXPECT_EQ(Malloc->Family, "runtime");
  EXPECT_TRUE(Malloc->isSupported());
  EXPECT_EQ(*Map.lookup("cudaMemcpyToSymbol")->SymbolArg, 0u);
  const ApiEntry *Shfl = Map.lookup("__shfl_sync");
  ASSERT_TRUE(Shfl->HipSince.has_value());
  EXPECT_EQ(Shfl->HipSince->str(), "6.2");
  EXPECT_FALSE(Map.lookup("cudaFoo")->isSupported());
  EXPECT_EQ(Map.lookup("cudaFoo")->Reason, "no equivalent");
  // Headers live in their own table.
  EXPECT_EQ(Map.lookup("cuda_runtime.h"), nullptr);
  ASSERT_NE(Map.lookupHeader("cuda_runtime.h"), nullptr);
  EXPECT_EQ(Map.lookupHeader("cuda_runtime.h")->Hip, "hip/hip_runtime.h");
}

TEST_F(ApiMapTest, UnsupportedBeforeHipSinceIsSupportedFromIt) {
  // An API only newer HIP declares: unsupported for older targets (the use
  // is kept and reported), translated for targets that have it.
  const std::string Text = R"(family: runtime
entries:
  - {cuda: cudaX, hip: hipX, kind: function, status: unsupported, reason: "HIP 6.4", hip_since: "6.4"}
  - {cuda: cudaY, hip: hipY, kind: function, status: unsupported, reason: "no hip_since"}
)";
  std::string Path = write("newer.yaml", Text);
  for (auto [Target, Supported] : {std::pair{HipVersion{5, 2}, false}, {HipVersion{6, 3}, false},
                                   {HipVersion{6, 4}, true}, {HipVersion{7, 0}, true}}) {
    ApiMap M;
    M.setTargetHip(Target);
    EXPECT_FALSE(M.loadFile(Path)); // cudaY: a 'hip' name without hip_since
    ASSERT_EQ(M.issues().size(), 1u);
    EXPECT_NE(M.issues()[0].Message.find("needs a 'hip_since'"), std::string::npos);
    ASSERT_NE(M.lookup("cudaX"), nullptr);
    EXPECT_EQ(M.lookup("cudaX")->isSupported(), Supported) << Target.str();
    EXPECT_EQ(M.lookup("cudaX")->Hip, "hipX");
  }
}

TEST_F(ApiMapTest, SyntaxErrorReportsFileLineAndColumn) {
  // yaml-cpp marks where it noticed the problem: the end of the open flow map.
  std::string Path = write("broken.yaml", "family: runtime\nentries:\n  - {cuda: a, hip: b");
  EXPECT_FALSE(Map.loadFile(Path));
  ASSERT_EQ(Map.issues().size(), 1u);
  EXPECT_EQ(Map.issues()[0].File, Path);
  EXPECT_EQ(Map.issues()[0].Line, 3u);
  EXPECT_GT(Map.issues()[0].Column, 0u);
  EXPECT_TRUE(Map.hasErrors());
}

TEST_F(ApiMapTest, RejectsInvalidEntries) {
  EXPECT_FALSE(Map.loadFile(write("bad.yaml", R"(family: runtime
entries:
  - {hip: hipX, kind: function}
  - {cuda: cudaA, hip: hipA, kind: functor}
  - {cuda: cudaB, kind: function, status: unsupported}
  - {cuda: cudaC, kind: function}
  - {cuda: cudaD, hip: hipD, kind: function, hip_since: "six"}
  - {cuda: cudaE, hip: hipE, kind: function, colour: red}
  - {cuda: cudaF, hip: hipF, kind: function}
  - {cuda: cudaF, hip: hipG, kind: function}
)")));
  ASSERT_EQ(Map.issues().size(), 7u);
  const unsigned ExpectedLines[] = {3, 4, 5, 6, 7, 8, 10};
  for (size_t I = 0; I < 7; ++I)
    EXPECT_EQ(Map.issues()[I].Line, ExpectedLines[I]) << Map.issues()[I].Message;
  EXPECT_NE(Map.issues()[6].Message.find("duplicate"), std::string::npos);
  EXPECT_EQ(Map.lookup("cudaF")->Hip, "hipF");
}

TEST_F(ApiMapTest, WarpRolesComeFromTheMap) {
  // The warp analysis knows a warp function only by its entry's role: a
  // name without one is an ordinary function to it.
  EXPECT_FALSE(Map.loadFile(write("warp.yaml", R"(family: device
entries:
  - {cuda: __shfl_down_sync, hip: __shfl_down_sync, kind: function, warp: shfl_down_sync}
  - {cuda: __reduce_add_sync, kind: function, status: unsupported, reason: "none", warp: reduce_sync}
  - {cuda: __popc, hip: __popc, kind: function}
  - {cuda: __shfl_sideways, hip: __shfl_sideways, kind: function, warp: shfl_sideways}
  - {cuda: warpSize, hip: warpSize, kind: variable, warp: shfl}
)")));
  EXPECT_EQ(Map.lookup("__shfl_down_sync")->Warp, WarpFn::ShflDownSync);
  EXPECT_EQ(Map.lookup("__reduce_add_sync")->Warp, WarpFn::ReduceSync);
  EXPECT_EQ(Map.lookup("__popc")->Warp, WarpFn::None);
  ASSERT_EQ(Map.issues().size(), 2u);
  EXPECT_NE(Map.issues()[0].Message.find("unknown warp role 'shfl_sideways'"), std::string::npos);
  EXPECT_NE(Map.issues()[1].Message.find("warp is for function entries"), std::string::npos);
}

TEST_F(ApiMapTest, InlinePtxIdiomsLoadInFileOrder) {
  // The check's search order is the file's; a spelling listed twice is an
  // error the schema cannot express.
  std::string Dir = scratchPath("ptx-maps");
  std::filesystem::remove_all(Dir);
  std::filesystem::create_directories(Dir + "/checks");
  std::ofstream(Dir + "/checks/inline_ptx.yaml") << R"yaml(family: inline_ptx
entries:
- {ptx: "%clock64", hip: "clock64()", fix: true}
- {ptx: "%clock", hip: "clock()"}
- {ptx: "cvta", note: "no conversion needed"}
)yaml";
  ASSERT_TRUE(Map.loadDirectory(Dir)) << (Map.issues().empty() ? "" : Map.issues()[0].Message);
  ASSERT_EQ(Map.ptxIdioms().size(), 3u);
  EXPECT_EQ(Map.ptxIdioms()[0].Ptx, "%clock64");
  EXPECT_TRUE(Map.ptxIdioms()[0].Fix);
  EXPECT_FALSE(Map.ptxIdioms()[1].Fix);
  EXPECT_EQ(Map.ptxIdioms()[2].Note, "no conversion needed");
  std::ofstream(Dir + "/checks/inline_ptx.yaml") << R"yaml(family: inline_ptx
entries:
- {ptx: "%clock", hip: "clock()"}
- {ptx: "%clock", hip: "clock64()"}
)yaml";
  ApiMap Twice;
  EXPECT_FALSE(Twice.loadDirectory(Dir));
  ASSERT_EQ(Twice.issues().size(), 1u);
  EXPECT_EQ(Twice.issues()[0].Line, 4u);
  EXPECT_NE(Twice.issues()[0].Message.find("listed twice"), std::string::npos);
}

TEST_F(ApiMapTest, ApiNamesOfEveryFamilyAreOnePattern) {
  // The lexical UNMAPPED finding asks the maps which names are API names: a
  // user's map adds its library's pattern, and an invalid one is an error.
  ASSERT_TRUE(Map.loadFile(write("runtime.yaml", "family: runtime\napi_names: ['^cuda[A-Z]']\n"
                                                 "entries: []\n")));
  ASSERT_TRUE(Map.loadFile(write("mylib.yaml", "family: mylib\napi_names: ['^mylib[A-Z]']\n"
                                               "entries: []\n")));
  EXPECT_TRUE(Map.looksLikeApiName("cudaMalloc"));
  EXPECT_TRUE(Map.looksLikeApiName("mylibCreate"));
  EXPECT_FALSE(Map.looksLikeApiName("cuda_check"));
  EXPECT_FALSE(Map.looksLikeApiName("mylib_create"));
  EXPECT_FALSE(Map.looksLikeApiName("my_cudaMalloc")); // anchored
  ApiMap Empty;
  EXPECT_FALSE(Empty.looksLikeApiName("cudaMalloc")); // no pattern, no API names
  ApiMap Bad;
  EXPECT_FALSE(Bad.loadFile(write("bad.yaml", "family: bad\napi_names: ['^cu[A-Z']\n"
                                              "entries: []\n")));
  ASSERT_FALSE(Bad.issues().empty());
  EXPECT_NE(Bad.issues()[0].Message.find("no regular expression"), std::string::npos);
}

TEST_F(ApiMapTest, CachedMapKeepsItsApiNames) {
  std::string Cache = scratchPath("map-cache-api-names");
  std::string Path = write("named.yaml", "family: runtime\napi_names: ['^cuda[A-Z]']\n"
                                         "entries: []\n");
  for (int Run = 0; Run < 2; ++Run) { // the first run writes the cache, the second reads it
    ApiMap Loaded;
    Loaded.setCacheDirectory(Cache);
    ASSERT_TRUE(Loaded.loadFile(Path));
    EXPECT_TRUE(Loaded.looksLikeApiName("cudaFree")) << "run " << Run;
  }
}

TEST_F(ApiMapTest, ChecksFolderHoldsInlinePtxAndWarpNamesOnly) {
  // Each checks/ file has a reader of its own, chosen by its name; another
  // name is an error rather than a file silently ignored.
  std::string Dir = scratchPath("checks-maps");
  std::filesystem::remove_all(Dir);
  std::filesystem::create_directories(Dir + "/checks");
  std::ofstream(Dir + "/checks/warp_names.yaml") << R"yaml(family: warp_names
lane_mask_functions: [__ballot64]
thread_index_parameters: [Lane_Id]
bit_functions:
- {narrow: __popc, wide: __popcll, fix: always}
- {narrow: __clz, wide: __clzll, fix: never}
warp_size_names: warp_?size
lane_mask_names: mask
thread_index_names: tid
)yaml";
  ASSERT_TRUE(Map.loadDirectory(Dir)) << (Map.issues().empty() ? "" : Map.issues()[0].Message);
  const WarpNames &Names = Map.warpNames();
  EXPECT_EQ(Names.LaneMaskFunctions, std::set<std::string>{"__ballot64"});
  EXPECT_EQ(Names.ThreadIndexParameters, std::set<std::string>{"lane_id"}); // lower case
  ASSERT_NE(Names.bitFunction("__clz"), nullptr);
  EXPECT_EQ(Names.bitFunction("__clz")->Wide, "__clzll");
  EXPECT_TRUE(Names.readsMaskAsWhole("__popcll"));
  EXPECT_FALSE(Names.readsMaskAsWhole("__clz"));
  std::ofstream(Dir + "/checks/other.yaml") << "family: other\n";
  ApiMap WithOther;
  EXPECT_FALSE(WithOther.loadDirectory(Dir));
  ASSERT_EQ(WithOther.issues().size(), 1u);
  EXPECT_NE(WithOther.issues()[0].Message.find("inline_ptx.yaml or warp_names.yaml"),
            std::string::npos);
}

TEST_F(ApiMapTest, QualifiedEntriesKeepTheirQualifierAndHipRequiresIsForHeaders) {
  // A use is renamed by its last name only, so a qualified entry cannot move
  // the name to another namespace; a prerequisite header only makes sense on
  // a header entry.
  EXPECT_FALSE(Map.loadFile(write("qualified.yaml", R"(family: coop
entries:
  - {cuda: "cg::sync", hip: "cg::sync", kind: function}
  - {cuda: "cg::grid", hip: "cg::hip_grid", kind: function}
  - {cuda: "cg::tile", hip: "other::tile", kind: function}
  - {cuda: cg.h, hip: hip/hip_cg.h, kind: header, hip_requires: hip/hip_runtime.h}
  - {cuda: cudaX, hip: hipX, kind: function, hip_requires: hip/hip_runtime.h}
)")));
  ASSERT_EQ(Map.issues().size(), 2u);
  EXPECT_EQ(Map.issues()[0].Line, 5u);
  EXPECT_NE(Map.issues()[0].Message.find("must keep the qualifier 'cg::'"), std::string::npos)
      << Map.issues()[0].Message;
  EXPECT_EQ(Map.issues()[1].Line, 7u);
  EXPECT_NE(Map.issues()[1].Message.find("hip_requires is for header entries"), std::string::npos);
  EXPECT_EQ(Map.lookup("cg::grid")->Hip, "cg::hip_grid");
  EXPECT_EQ(Map.lookupHeader("cg.h")->HipRequires, "hip/hip_runtime.h");
  EXPECT_EQ(Map.lookup("cudaX"), nullptr);
}

TEST_F(ApiMapTest, HipDefinesAreAListForHeaders) {
  EXPECT_FALSE(Map.loadFile(write("defines.yaml", R"(family: cublas
entries:
  - {cuda: cublas_v2.h, hip: hipblas/hipblas.h, kind: header, hip_defines: [HIPBLAS_V2, HIPBLAS_USE_HIP_HALF]}
  - {cuda: cublas.h, hip: hipblas/hipblas.h, kind: header, hip_defines: HIPBLAS_V2}
  - {cuda: cublasCreate, hip: hipblasCreate, kind: function, hip_defines: [HIPBLAS_V2]}
)")));
  ASSERT_EQ(Map.issues().size(), 2u);
  EXPECT_EQ(Map.issues()[0].Line, 4u);
  EXPECT_NE(Map.issues()[0].Message.find("hip_defines must be a list of macro names"),
            std::string::npos) << Map.issues()[0].Message;
  EXPECT_EQ(Map.issues()[1].Line, 5u);
  EXPECT_NE(Map.issues()[1].Message.find("hip_defines is for header entries"), std::string::npos)
      << Map.issues()[1].Message;
  EXPECT_EQ(Map.lookupHeader("cublas_v2.h")->HipDefines,
            (std::vector<std::string>{"HIPBLAS_V2", "HIPBLAS_USE_HIP_HALF"}));
}

TEST_F(ApiMapTest, LaterFileOverridesWithNote) {
  ASSERT_TRUE(Map.loadFile(write("base.yaml", "family: runtime\nentries:\n"
                                              "  - {cuda: cudaMalloc, hip: hipMalloc, kind: function}\n")));
  ASSERT_TRUE(Map.loadFile(write("user.yaml", "family: user\nentries:\n"
                                              "  - {cuda: cudaMalloc, hip: myMalloc, kind: function}\n")));
  EXPECT_FALSE(Map.hasErrors());
  EXPECT_EQ(Map.lookup("cudaMalloc")->Hip, "myMalloc");
  EXPECT_EQ(Map.lookup("cudaMalloc")->Family, "user");
  ASSERT_EQ(Map.issues().size(), 1u);
  EXPECT_FALSE(Map.issues()[0].IsError);
  EXPECT_NE(Map.issues()[0].Message.find("overrides"), std::string::npos);
}

/// A map directory with one empty map file and the given shim files.
std::string shimDirectory(const std::string &Name,
                          const std::vector<std::pair<std::string, std::string>> &Shims) {
  std::filesystem::path Dir = scratchDir() / Name;
  std::filesystem::remove_all(Dir);
  std::filesystem::create_directories(Dir / "shims");
  std::ofstream(Dir / "empty.yaml") << "family: runtime\nentries: []\n";
  for (const auto &[File, Text] : Shims)
    std::ofstream(Dir / "shims" / File) << Text;
  return Dir.string();
}

TEST_F(ApiMapTest, AShimUsesOtherShims) {
  ASSERT_TRUE(Map.loadDirectory(shimDirectory(
      "shim-uses", {{"a.yaml", "shim: cu2dcu_a\ndescription: a\nuses: [cu2dcu_b]\ncode: x\n"},
                    {"b.yaml", "shim: cu2dcu_b\ndescription: b\ncode: y\n"}})));
  ASSERT_NE(Map.lookupShim("cu2dcu_a"), nullptr);
  EXPECT_EQ(Map.lookupShim("cu2dcu_a")->Uses, std::vector<std::string>{"cu2dcu_b"});
}

// shim_by_param names shims, so its entry needs a map directory with them.
TEST_F(ApiMapTest, OverloadShimsSurviveTheCache) {
  std::string Dir = shimDirectory("overload-shims", {{"h.yaml", "shim: cu2dcu_h\ndescription: h\ncode: x\n"}});
  std::ofstream(Dir + "/device.yaml")
      << "family: device\nentries:\n  - {cuda: atomicAdd, hip: atomicAdd, kind: function, "
         "shim_by_param: {\"__half *\": cu2dcu_h}}\n";
  std::string Cache = scratchPath("map-cache-overload-shims");
  std::filesystem::remove_all(Cache);
  for (int Load = 0; Load < 2; ++Load) { // parse and fill the cache, then read it
    ApiMap Loaded;
    Loaded.setCacheDirectory(Cache);
    ASSERT_TRUE(Loaded.loadDirectory(Dir));
    ASSERT_NE(Loaded.lookup("atomicAdd"), nullptr);
    EXPECT_EQ(Loaded.lookup("atomicAdd")->ShimByParam,
              (std::map<std::string, std::string>{{"__half *", "cu2dcu_h"}}));
  }
  std::ofstream(Dir + "/device.yaml", std::ios::app)
      << "  - {cuda: atomicSub, hip: atomicSub, kind: function, shim_by_param: {\"int *\": cu2dcu_none}}\n";
  ApiMap Missing;
  EXPECT_FALSE(Missing.loadDirectory(Dir)); // a shim that does not exist
}

TEST_F(ApiMapTest, AShimUsingAnUnknownShimIsAnError) {
  EXPECT_FALSE(Map.loadDirectory(shimDirectory(
      "shim-uses-unknown",
      {{"a.yaml", "shim: cu2dcu_a\ndescription: a\nuses: [cu2dcu_missing]\ncode: x\n"}})));
  ASSERT_TRUE(Map.hasErrors());
  EXPECT_NE(Map.issues().back().Message.find("cu2dcu_missing"), std::string::npos);
}

TEST_F(ApiMapTest, MissingFileIsAnError) {
  EXPECT_FALSE(Map.loadFile(scratchPath("does-not-exist.yaml")));
  EXPECT_TRUE(Map.hasErrors());
}

std::string arityForms(const ApiEntry &E) {
  std::string Forms;
  for (const auto &[Arity, Hip] : E.HipByArity)
    Forms += std::to_string(Arity) + "=" + Hip + ",";
  for (const auto &[Param, Shim] : E.ShimByParam)
    Forms += Param + "=" + Shim + ",";
  return Forms;
}

// Everything a load yields, in a comparable form: what a cached load must repeat.
std::vector<std::string> describe(const ApiMap &Map) {
  std::vector<std::string> Lines;
  for (const ApiEntry *E : Map.entries())
    Lines.push_back(E->Cuda + "|" + E->Hip + "|" + kindName(E->Kind) + "|" +
                    statusName(E->Status) + "|" + E->Family + "|" + E->Reason + "|" + E->Note +
                    "|" + (E->HipSince ? E->HipSince->str() : "-") + "|" + E->CudaSince + "|" +
                    E->CudaRemoved + "|" + (E->SymbolArg ? std::to_string(*E->SymbolArg) : "-") +
                    "|" + (E->FunctionArg ? std::to_string(*E->FunctionArg) : "-") + "|" + (E->OutPointerArg ? std::to_string(*E->OutPointerArg) : "-") + "|" + E->HipRequires + "|" + E->Link + "|" + llvm::join(E->HipDefines, ",") + "|" + (E->DefinedOnly ? "d" : "-") + "|" +
                    (E->Warp != WarpFn::None ? warpFnName(E->Warp) : "-") + "|" + arityForms(*E) + "|" + E->SourceFile + ":" + std::to_string(E->SourceLine) + ":" +
                    std::to_string(E->SourceColumn));
  for (const MapLoadIssue &I : Map.issues())
    Lines.push_back(I.File + ":" + std::to_string(I.Line) + ":" + std::to_string(I.Column) +
                    (I.IsError ? " error " : " note ") + I.Message);
  return Lines;
}

const char *CachedMapText = R"(family: runtime
entries:
  - {cuda: cudaMalloc, hip: hipMalloc, kind: function}
  - {cuda: cudaMemcpyToSymbol, hip: hipMemcpyToSymbol, kind: function, symbol_arg: 0}
  - {cuda: __shfl_sync, hip: __shfl_sync, kind: function, hip_since: "6.2", note: "64-bit mask", warp: shfl_sync}
  - {cuda: cudaFoo, kind: function, status: unsupported, reason: "no equivalent", cuda_since: "9.0"}
  - {cuda: cudaBar, kind: function, status: removed, cuda_removed: "12.0"}
  - {cuda: cudaFuncSetCacheConfig, hip: hipFuncSetCacheConfig, kind: function, function_arg: 0}
  - {cuda: cudaHostGetDevicePointer, hip: hipHostGetDevicePointer, kind: function, out_pointer_arg: 0}
  - {cuda: cudaGraphInstantiate, hip: hipGraphInstantiateWithFlags, kind: function, hip_by_arity: {"5": hipGraphInstantiate, "4": hipX, "2": null}}
  - {cuda: cooperative_groups/reduce.h, hip: hip/hip_cooperative_groups.h, kind: header, hip_requires: hip/hip_runtime.h}
  - {cuda: cublas_v2.h, hip: hipblas/hipblas.h, kind: header, hip_defines: [HIPBLAS_V2, HIPBLAS_USE_HIP_HALF]}
  - {cuda: nvtx3/nvToolsExt.h, hip: roctracer/roctx.h, kind: header, link: roctx64}
  - {cuda: __CUDACC__, hip: __HIPCC__, kind: macro, defined_only: true}
  - {cuda: "cub::", hip: "hipcub::", kind: namespace}
  - {cuda: cudaBad, kind: function, status: bogus}
)";

TEST_F(ApiMapTest, CachedLoadRepeatsTheParsedOne) {
  std::string Cache = scratchPath("map-cache-repeat");
  std::filesystem::remove_all(Cache);
  std::string Path = write("cached.yaml", CachedMapText);
  ApiMap Parsed;
  EXPECT_FALSE(Parsed.loadFile(Path)); // the bogus status is an error
  Map.setCacheDirectory(Cache);
  EXPECT_FALSE(Map.loadFile(Path)); // parses and fills the cache
  ApiMap Cached;
  Cached.setCacheDirectory(Cache);
  EXPECT_FALSE(Cached.loadFile(Path));
  EXPECT_EQ(describe(Parsed), describe(Map));
  EXPECT_EQ(describe(Parsed), describe(Cached));
  EXPECT_TRUE(Cached.hasNamespaces());
  EXPECT_EQ(Cached.lookupHeader("cooperative_groups/reduce.h")->HipRequires, "hip/hip_runtime.h");
  EXPECT_EQ(Cached.lookupHeader("cublas_v2.h")->HipDefines,
            (std::vector<std::string>{"HIPBLAS_V2", "HIPBLAS_USE_HIP_HALF"}));
  EXPECT_EQ(Cached.lookup("__shfl_sync")->Warp, WarpFn::ShflSync);
  EXPECT_EQ(Cached.lookupHeader("nvtx3/nvToolsExt.h")->Link, "roctx64");
  // A null form (no HIP function takes 2 arguments) survives as no name.
  EXPECT_EQ(Cached.lookup("cudaGraphInstantiate")->HipByArity,
            (std::map<unsigned, std::string>{{2, ""}, {4, "hipX"}, {5, "hipGraphInstantiate"}}));
}

TEST_F(ApiMapTest, CacheEntriesAreUsedAndACorruptOneIsIgnored) {
  std::string Cache = scratchPath("map-cache-corrupt");
  std::filesystem::remove_all(Cache);
  std::string Text = "family: runtime\nentries:\n  - {cuda: cudaMalloc, hip: hipMalloc, kind: function}\n";
  std::string Path = write("corrupt.yaml", Text);
  Map.setCacheDirectory(Cache);
  ASSERT_TRUE(Map.loadFile(Path));
  std::string Entry = Cache + "/map-" + mapCacheKey(Text) + ".json";
  // A cache entry with other contents is what the next run reads...
  std::string Planted = std::string(R"({"ok":true,"issues":[],"api_names":[],"entries":[)") +
                        R"({"cuda":"cudaMalloc","hip":"plantedMalloc","kind":0,"status":0,"line":3,"column":5}]})";
  std::ofstream(Entry) << Planted;
  ApiMap FromCache;
  FromCache.setCacheDirectory(Cache);
  ASSERT_TRUE(FromCache.loadFile(Path));
  EXPECT_EQ(FromCache.lookup("cudaMalloc")->Hip, "plantedMalloc");
  // ...and a damaged one falls back to the YAML.
  std::ofstream(Entry) << R"({"ok":true,"entries":[{"cuda":)";
  ApiMap Fallback;
  Fallback.setCacheDirectory(Cache);
  ASSERT_TRUE(Fallback.loadFile(Path));
  EXPECT_EQ(Fallback.lookup("cudaMalloc")->Hip, "hipMalloc");
}

TEST_F(ApiMapTest, CacheKeyFollowsTheText) {
  EXPECT_EQ(mapCacheKey("family: a\n"), mapCacheKey("family: a\n"));
  EXPECT_NE(mapCacheKey("family: a\n"), mapCacheKey("family: b\n"));
}

TEST(HipVersionTest, ParsesAndOrders) {
  EXPECT_FALSE(HipVersion::parse("6").has_value());
  EXPECT_FALSE(HipVersion::parse("6.x").has_value());
  EXPECT_FALSE(HipVersion::parse("6.2.1").has_value());
  auto A = HipVersion::parse("5.2"), B = HipVersion::parse("6.2"), C = HipVersion::parse("6.10");
  ASSERT_TRUE(A && B && C);
  EXPECT_TRUE(*A < *B);
  EXPECT_TRUE(*B < *C);
  EXPECT_FALSE(*B < *A);
}

} // namespace
