// Unit tests of tool/build: the map loader, the makefile and CMake parsers,
// and translations of single constructs, each input beside its expectation.
#include "buildfiles/BuildFiles.h"
#include "buildfiles/CMakeTranslator.h"
#include "buildfiles/CompileDatabase.h"
#include "buildfiles/MakefileTranslator.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <set>

using namespace cu2dcu;

namespace {

const BuildFlagMap &shippedMap() {
  static BuildFlagMap Map = [] {
    BuildFlagMap M;
    M.loadDirectory(CU2DCU_BUILD_MAPS);
    return M;
  }();
  return Map;
}

BuildTranslation make(const std::string &Text, BuildOptions Opts = {}) {
  return translateMakefile(Text, "Makefile", shippedMap(), Opts);
}

BuildTranslation cmake(const std::string &Text, BuildOptions Opts = {}) {
  return translateCMake(Text, "CMakeLists.txt", shippedMap(), Opts);
}

/// Options of a CMakeLists.txt in /p whose units in Relocatable use device
/// code another unit defines (the parse's CU2DCU-RDC).
BuildOptions relocatable(std::set<std::string> Relocatable) {
  BuildOptions Opts;
  Opts.Folder = "/p";
  Opts.RelocatableUnits = std::move(Relocatable);
  return Opts;
}

TEST(BuildFlagMap, ShippedMapsLoadWithoutIssues) {
  for (const MapLoadIssue &I : shippedMap().issues())
    ADD_FAILURE() << I.File << ":" << I.Line << ": " << I.Message;
  ASSERT_NE(shippedMap().findFlag("arch"), nullptr);
  EXPECT_EQ(shippedMap().library("cublas")->Hip, "hipblas");
}

TEST(BuildFlagMap, ErrorsCarryFileLineAndColumn) {
  BuildFlagMap M;
  EXPECT_FALSE(M.loadText("family: t\n"
                          "flags:\n"
                          "- {names: [arch], value: required, action: offload-arch}\n"
                          "- {names: [G], hip: [], colour: red}\n",
                          "bad.yaml"));
  ASSERT_EQ(M.issues().size(), 1u);
  EXPECT_EQ(M.issues()[0].File, "bad.yaml");
  EXPECT_EQ(M.issues()[0].Line, 4u);
  EXPECT_NE(M.issues()[0].Message.find("unknown key 'colour'"), std::string::npos);
}

TEST(BuildFlagMap, MalformedYamlIsALoadErrorNotAnException) {
  BuildFlagMap M;
  EXPECT_FALSE(M.loadText("family: t\nflags: [\n", "broken.yaml"));
  ASSERT_FALSE(M.issues().empty());
  EXPECT_EQ(M.issues()[0].File, "broken.yaml");
  EXPECT_GT(M.issues()[0].Line, 0u);
}

TEST(BuildFlagMap, UnsupportedFlagsNeedAReason) {
  BuildFlagMap M;
  EXPECT_FALSE(M.loadText("family: t\nflags:\n- {names: [ptx], action: unsupported}\n", "r.yaml"));
  EXPECT_EQ(M.issues().at(0).Line, 3u);
}

TEST(BuildFiles, Classify) {
  EXPECT_EQ(classifyBuildFile("a/Makefile"), BuildFileKind::Makefile);
  EXPECT_EQ(classifyBuildFile("GNUmakefile"), BuildFileKind::Makefile);
  EXPECT_EQ(classifyBuildFile("rules/cuda.mk"), BuildFileKind::Makefile);
  EXPECT_EQ(classifyBuildFile("x/CMakeLists.txt"), BuildFileKind::CMake);
  EXPECT_EQ(classifyBuildFile("cmake/FindFoo.cmake"), BuildFileKind::CMake);
  EXPECT_EQ(classifyBuildFile("Makefile.am"), std::nullopt);
  EXPECT_EQ(classifyBuildFile("main.cu"), std::nullopt);
}

TEST(MakefileParse, Statements) {
  std::string Text = "# c\n"
                     "X := a \\\n  b\n"
                     "ifeq ($(D),1)\n"
                     "all: x.o ; echo inline\n"
                     "\t$(CC) -c x.cu\n"
                     "endif\n"
                     "t: override Y += 1\n";
  std::vector<MakeStatement> S = parseMakefile(Text);
  ASSERT_EQ(S.size(), 7u);
  EXPECT_EQ(S[0].K, MakeStatement::Comment);
  EXPECT_EQ(S[1].K, MakeStatement::Assignment);
  EXPECT_EQ(S[1].Variable, "X");
  EXPECT_EQ(Text.substr(S[1].CodeBegin, S[1].CodeEnd - S[1].CodeBegin), " a \\\n  b");
  EXPECT_EQ(S[2].K, MakeStatement::Directive);
  EXPECT_EQ(S[3].K, MakeStatement::Rule);
  EXPECT_EQ(Text.substr(S[3].CodeBegin, S[3].CodeEnd - S[3].CodeBegin), " echo inline");
  EXPECT_EQ(S[4].K, MakeStatement::Recipe);
  EXPECT_EQ(S[5].K, MakeStatement::Directive);
  EXPECT_EQ(S[6].K, MakeStatement::Assignment); // target-specific
  EXPECT_EQ(S[6].Variable, "Y");
}

TEST(MakefileTranslate, NothingCudaStaysByteIdentical) {
  std::string Text = "CC = gcc\t# host only\nall: main.o\n\t$(CC) -O2 -G x.c -o x \\\n\t  -lm\n";
  BuildTranslation T = make(Text);
  EXPECT_EQ(T.Text, Text);
  EXPECT_EQ(T.Changes, 0u);
  EXPECT_TRUE(T.Findings.empty());
}

TEST(MakefileTranslate, ArchitectureForms) {
  EXPECT_EQ(make("a:\n\tnvcc -arch sm_60 -c x.cu\n").Text,
            "a:\n\thipcc --offload-arch=gfx906 -c x.cu\n");
  EXPECT_EQ(make("a:\n\tnvcc --gpu-architecture=compute_70 -code=sm_70 x.cu\n").Text,
            "a:\n\thipcc --offload-arch=gfx906 x.cu\n");
  EXPECT_EQ(make("F = -gencode=arch=compute_80,code=\\\"sm_80,compute_80\\\" -gencode arch=compute_90,code=sm_90\n"
                 "a:\n\tnvcc $(F) x.cu\n")
                .Text,
            "F = --offload-arch=gfx906\na:\n\thipcc $(F) x.cu\n");
  BuildOptions Two;
  Two.OffloadArchs = {"gfx906", "gfx926"};
  EXPECT_EQ(make("a:\n\tnvcc -arch=sm_80 x.cu\n", Two).Text,
            "a:\n\thipcc --offload-arch=gfx906 --offload-arch=gfx926 x.cu\n");
}

TEST(MakefileTranslate, AssignmentsMadeByEval) {
  // The code-generation loop of sample-style Makefiles: each $(eval) adds a
  // -gencode to GENCODE_FLAGS, which would reach hipcc as written.
  EXPECT_EQ(make("SMS ?= 60 80\n"
                 "$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += -gencode arch=compute_$(sm),code=sm_$(sm)))\n"
                 "a:\n\tnvcc $(GENCODE_FLAGS) --threads 0 x.cu\n")
                .Text,
            "SMS ?= 60 80\n"
            "$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += --offload-arch=gfx906))\n"
            "a:\n\thipcc $(GENCODE_FLAGS) x.cu\n");
  // An eval that assigns no flags, or runs no assignment, stays as written.
  std::string Other = "$(foreach d,$(DIRS),$(eval OBJS += $(d)/x.o))\n$(eval $(call rule,x))\n";
  EXPECT_EQ(make(Other).Text, Other);
}

TEST(MakefileTranslate, HostOptionsLibrariesAndPaths) {
  BuildTranslation T = make("NVCC = /usr/local/cuda-12.2/bin/nvcc\n"
                            "LIBS = -L$(CUDA_HOME)/lib64 -lcudart -lcublas -lcudnn\n"
                            "p: m.o\n\t$(NVCC) -Xcompiler \"-O2 -fopenmp\",-Wall m.o $(LIBS) -I${CUDA_PATH}/include\n");
  EXPECT_EQ(T.Text, "NVCC = hipcc\n"
                    "LIBS = -lhipblas -lMIOpen\n"
                    "p: m.o\n\t$(NVCC) -O2 -fopenmp -Wall m.o $(LIBS)\n");
}

TEST(MakefileTranslate, OnlyCompilerLinesAndTheirVariables) {
  // RUN_ARGS is read by the program, not by nvcc: -G and -x stay (-x cu
  // would not: only nvcc takes it, FlagDistinctiveByItsValue).
  std::string Text = "CC = nvcc\nFLAGS = -G -x cu\nRUN_ARGS = -G -x c\n"
                     "p:\n\t$(CC) $(FLAGS) p.cpp\nrun: p\n\t./p $(RUN_ARGS)\n";
  BuildTranslation T = make(Text);
  EXPECT_EQ(T.Text, "CC = hipcc\nFLAGS = -x hip\nRUN_ARGS = -G -x c\n"
                    "p:\n\t$(CC) $(FLAGS) p.cpp\nrun: p\n\t./p $(RUN_ARGS)\n");
}

TEST(MakefileTranslate, RelocatableDeviceCodeReachesTheLinkLine) {
  std::string Text = "CC = nvcc\np: a.o b.o\n\t$(CC) $^ -o $@\n%.o: %.cu\n\t$(CC) -dc $< -o $@\n";
  EXPECT_EQ(make(Text).Text,
            "CC = hipcc\np: a.o b.o\n\t$(CC) -fgpu-rdc $^ -o $@\n%.o: %.cu\n\t$(CC) -fgpu-rdc -c $< -o $@\n");
}

TEST(MakefileTranslate, UnsupportedFlagStaysAndIsReportedWhereItIs) {
  BuildTranslation T = make("a:\n\tnvcc -ptx k.cu\n");
  EXPECT_EQ(T.Text, "a:\n\thipcc -ptx k.cu\n");
  ASSERT_EQ(T.Findings.size(), 1u);
  EXPECT_EQ(T.Findings[0].CheckId, "CU2DCU-BUILD");
  EXPECT_EQ(T.Findings[0].Line, 2u);
  EXPECT_EQ(T.Findings[0].Column, 7u); // the tab is column 1
  EXPECT_EQ(T.Findings[0].Level, Severity::Warning);
}

TEST(MakefileTranslate, CSourcesCompileAsHip) {
  // nvcc took a .c file with -std=c++17; clang in C mode rejects the flag.
  BuildTranslation T = make("CC = nvcc\nF = -std=c++17\n%.o: %.c u.h\n\t$(CC) $(F) -c $< -o $@\n"
                            "x: x.o\n\t$(CC) x.o -o x\n");
  EXPECT_EQ(T.Text, "CC = hipcc\nF = -std=c++17\n%.o: %.c u.h\n\t$(CC) $(F) -c -x hip $< -o $@\n"
                    "x: x.o\n\t$(CC) x.o -o x\n");
  ASSERT_EQ(T.Findings.size(), 1u);
  EXPECT_EQ(T.Findings[0].Level, Severity::Note);
}

TEST(MakefileTranslate, NvccOutsideACommandLineIsReported) {
  BuildTranslation T = make("V := $(shell nvcc --version)\n");
  EXPECT_EQ(T.Text, "V := $(shell nvcc --version)\n");
  ASSERT_EQ(T.Findings.size(), 1u);
  EXPECT_EQ(T.Findings[0].Column, 14u);
}

TEST(MakefileTranslate, ContinuationStaysValidWhenItsLastWordGoes) {
  EXPECT_EQ(make("F = -O3 \\\n    --extended-lambda\nG = 1\na:\n\tnvcc $(F)\n").Text,
            "F = -O3\nG = 1\na:\n\thipcc $(F)\n");
}

TEST(CMakeParse, ArgumentsOfEveryKind) {
  std::string Text = "set(A \"x y\" [[raw ]] \n  b # comment )\n c)\n#[[ block ( ]] foo(d)\n";
  std::vector<CMakeCommand> C = parseCMake(Text);
  ASSERT_EQ(C.size(), 2u);
  ASSERT_EQ(C[0].Args.size(), 5u);
  EXPECT_EQ(C[0].Args[1].K, CMakeArgument::Quoted);
  EXPECT_EQ(C[0].Args[1].Value, "x y");
  EXPECT_EQ(C[0].Args[2].K, CMakeArgument::Bracket);
  EXPECT_EQ(C[0].Args[2].Value, "raw ");
  EXPECT_EQ(C[0].Args[4].Value, "c");
  EXPECT_EQ(C[1].Name, "foo");
}

TEST(CMakeTranslate, NothingCudaStaysByteIdentical) {
  std::string Text = "project(p CXX)  # host\nadd_executable(p main.cpp)\n";
  EXPECT_EQ(cmake(Text).Text, Text);
}

TEST(CMakeTranslate, SourceLanguageAndGeneratorExpressions) {
  EXPECT_EQ(cmake("set_source_files_properties(a.c PROPERTIES LANGUAGE CUDA)\n").Text,
            "set_source_files_properties(a.c PROPERTIES LANGUAGE HIP)\n");
  EXPECT_EQ(cmake("target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3;--use_fast_math>)\n").Text,
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-O3;-fgpu-flush-denormals-to-zero;"
            "-Xarch_device;-funsafe-math-optimizations>)\n");
}

TEST(CMakeTranslate, CompileFeatures) {
  EXPECT_EQ(cmake("target_compile_features(t PRIVATE cxx_std_17 cuda_std_17)\n").Text,
            "target_compile_features(t PRIVATE cxx_std_17 hip_std_17)\n");
  EXPECT_EQ(cmake("target_compile_features(t PUBLIC cuda_std_03)\n").Text,
            "target_compile_features(t PUBLIC hip_std_98)\n");
}

TEST(CMakeTranslate, KeywordWhoseFlagsAllGoGoesToo) {
  EXPECT_EQ(cmake("add_hecbench_benchmark(\n    NAME a\n    MODEL cuda\n    COMPILE_OPTIONS --extended-lambda\n"
                  "    CATEGORIES x\n)\n").Text,
            "add_hecbench_benchmark(\n    NAME a\n    MODEL hip\n    CATEGORIES x\n)\n");
}

TEST(CMakeTranslate, RelocatableDeviceCodeForTargetsThatNeedIt) {
  BuildOptions Opts = relocatable({"/p/a.cu"});
  EXPECT_EQ(cmake("add_executable(t a.cu b.cu)\n", Opts).Text,
            "add_executable(t a.cu b.cu)\n"
            "set_source_files_properties(a.cu b.cu PROPERTIES LANGUAGE HIP)\n"
            "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n"
            "target_link_options(t PRIVATE -fgpu-rdc)\n");
  EXPECT_EQ(cmake("add_executable(t b.cu)\n", Opts).Text, "add_executable(t b.cu)\n"
                                                             "set_source_files_properties(b.cu PROPERTIES LANGUAGE HIP)\n");
  // A command of the project's own: the map's keywords, kept even when every
  // flag of the group goes, added when missing.
  EXPECT_EQ(cmake("bench(NAME n MODEL cuda SOURCES a.cu COMPILE_OPTIONS --extended-lambda)\n", Opts).Text,
            "bench(NAME n MODEL cuda SOURCES a.cu COMPILE_OPTIONS -fgpu-rdc LINK_LIBRARIES -fgpu-rdc)\n");
  EXPECT_EQ(cmake("bench(SOURCES a.cu LINK_LIBRARIES -lm)\n", Opts).Text,
            "bench(SOURCES a.cu LINK_LIBRARIES -lm -fgpu-rdc COMPILE_OPTIONS -fgpu-rdc)\n");
  BuildTranslation Unknown = cmake("bench(SOURCES a.cu)\n", Opts);
  EXPECT_EQ(Unknown.Text, "bench(SOURCES a.cu)\n");
  ASSERT_EQ(Unknown.Findings.size(), 1u);
  EXPECT_EQ(Unknown.Findings[0].Level, Severity::Warning);
  // The file asks for it already (a property or a flag): left as written.
  EXPECT_EQ(cmake("bench(SOURCES a.cu COMPILE_OPTIONS -rdc=true)\n", Opts).Text,
            "bench(SOURCES a.cu COMPILE_OPTIONS -fgpu-rdc)\n");
}

TEST(MakefileTranslate, FlagDistinctiveByItsValue) {
  // A sub-make's CFLAGS, compiled with the CC=nvcc its parent passes: only
  // nvcc takes -x cu; -x c++ says nothing of the compiler.
  EXPECT_EQ(make("CFLAGS = -O3 --x cu\n").Text, "CFLAGS = -O3 -x hip\n");
  EXPECT_EQ(make("CFLAGS = -O3 -x c++\n").Text, "CFLAGS = -O3 -x c++\n");
}

TEST(CMakeTranslate, TargetsBringTheirPackages) {
  EXPECT_EQ(cmake("find_package(CUDA REQUIRED)\ntarget_link_libraries(t CUDA::cublas)\n").Text,
            "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
            "target_link_libraries(t roc::hipblas)\n");
  EXPECT_EQ(cmake("  target_link_libraries(t PRIVATE CUDA::cusparse cudart)\n").Text,
            "  find_package(hipsparse REQUIRED)\n  target_link_libraries(t PRIVATE roc::hipsparse)\n");
}

TEST(CMakeTranslate, FindCudaLibrary) {
  EXPECT_EQ(cmake("cuda_add_library(k STATIC k.cu OPTIONS -Xcompiler -fPIC)\n").Text,
            "add_library(k STATIC k.cu)\ntarget_compile_options(k PRIVATE -fPIC)\n"
            "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n");
}

TEST(CMakeTranslate, UnmappedCudaNamesAreReported) {
  BuildTranslation T = cmake("set(X ${CUDA_TOOLKIT_ROOT_DIR}/extras)\n");
  ASSERT_EQ(T.Findings.size(), 1u);
  EXPECT_EQ(T.Findings[0].Line, 1u);
  EXPECT_EQ(T.Findings[0].Column, 9u);
}

TEST(CMake, NvccFlagListBecomesAFlagString) {
  // FindCUDA's CUDA_NVCC_FLAGS is a list; CMAKE_HIP_FLAGS a blank-separated
  // string: a ';' left in it would end the compile command.
  BuildTranslation T = cmake("set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-arch=sm_60;-O3)\n"
                             "list(APPEND CUDA_NVCC_FLAGS -lineinfo --use_fast_math \"-DX=\\\"a\\\"\")\n"
                             "set(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS} -Xcompiler -fopenmp\")\n");
  EXPECT_EQ(T.Text, "set(CMAKE_HIP_FLAGS \"${CMAKE_HIP_FLAGS} -O3\")\n"
                    "string(APPEND CMAKE_HIP_FLAGS \" -fgpu-flush-denormals-to-zero -Xarch_device "
                    "-funsafe-math-optimizations -DX=\\\"a\\\"\")\n"
                    "set(CMAKE_HIP_FLAGS \"${CMAKE_HIP_FLAGS} -fopenmp\")\n");
}

// compile_commands.json: the tree moves from /p to /o.
llvm::json::Value database(const std::string &Text, std::vector<Diagnostic> *Findings = nullptr) {
  BuildOptions Opts;
  Opts.InputRoot = "/p";
  Opts.OutputRoot = "/o";
  Opts.Folder = "/b";
  BuildTranslation T = translateCompileDatabase(Text, "compile_commands.json", shippedMap(), Opts);
  if (Findings)
    *Findings = T.Findings;
  auto Parsed = llvm::json::parse(T.Text);
  if (!Parsed)
    return llvm::toString(Parsed.takeError());
  return std::move(*Parsed);
}

TEST(CompileDatabase, CommandOutsideTheTreeRunsBesideTheDatabase) {
  // The build folder /b is outside the tree: the command runs at the output's
  // root, its inputs absolute (moved when in the tree), its object relative.
  auto Got = database(R"([{"directory": "/b", "file": "/p/src/a.cu",
    "command": "nvcc -I../p/include -isystem /usr/include/x -G -c /p/src/a.cu -o a.o"}])");
  auto Want = llvm::json::parse(R"([{"directory": "/o", "file": "/o/src/a.cu",
    "arguments": ["hipcc", "-I/o/include", "-isystem", "/usr/include/x", "-c", "/o/src/a.cu",
                  "-o", "a.o"]}])");
  ASSERT_TRUE(bool(Want));
  EXPECT_EQ(Got, *Want) << llvm::formatv("{0:2}", Got).str();
}

TEST(CompileDatabase, OtherCompilersKeepTheirWordsAndRelativePathsStay) {
  auto Got = database(R"([{"directory": ".", "file": "a.cpp", "output": "a.o",
    "arguments": ["g++", "-Iinc", "-G", "-c", "a.cpp", "-o", "a.o"]}])");
  // "." is the database's folder /b, outside the tree: as above.
  auto Want = llvm::json::parse(R"([{"directory": "/o", "file": "/b/a.cpp", "output": "a.o",
    "arguments": ["g++", "-I/b/inc", "-G", "-c", "/b/a.cpp", "-o", "a.o"]}])");
  ASSERT_TRUE(bool(Want));
  EXPECT_EQ(Got, *Want) << llvm::formatv("{0:2}", Got).str();
  Got = database(R"([{"directory": "/p/bld", "file": "../a.cu",
    "arguments": ["nvcc", "-I", "../inc", "-c", "../a.cu"]}])");
  Want = llvm::json::parse(R"([{"directory": "/o/bld", "file": "../a.cu",
    "arguments": ["hipcc", "-I", "../inc", "-c", "../a.cu"]}])");
  ASSERT_TRUE(bool(Want));
  EXPECT_EQ(Got, *Want) << llvm::formatv("{0:2}", Got).str();
}

TEST(CompileDatabase, NotADatabaseIsKeptWithAWarning) {
  BuildTranslation T = translateCompileDatabase("{\"not\": \"a list\"}", "compile_commands.json",
                                                shippedMap(), BuildOptions{});
  EXPECT_EQ(T.Text, "{\"not\": \"a list\"}");
  ASSERT_EQ(T.Findings.size(), 1u);
  EXPECT_EQ(T.Findings[0].Level, Severity::Warning);
}

} // namespace
