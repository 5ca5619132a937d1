// portableCompileFlags: a compile command read with clang's driver option
// table after nvcc's own options (mappings/buildfiles/nvcc-flags.yaml) are
// taken out; paths relative to the command's directory made absolute.
#include "buildfiles/BuildFlagMap.h"
#include "parse/CompileFlags.h"

#include <gtest/gtest.h>

using namespace cu2dcu;

namespace {

using Words = std::vector<std::string>;

/// nvcc's options as the shipped rules list them.
NvccOptionNames shippedNvccOptions() {
  BuildFlagMap Rules;
  EXPECT_TRUE(Rules.loadFile(CU2DCU_NVCC_FLAGS_MAP));
  NvccOptionNames Names;
  for (const NvccFlagRule &Rule : Rules.nvccFlags())
    for (const std::string &Name : Rule.Names)
      Names[Name] = Rule.TakesValue;
  return Names;
}

TEST(CompileFlagsTest, KeepsThePortableOptionsInOrder) {
  Words Command = {"clang++", "-I", "inc",  "-Iinc2",    "-isystem", "sys",  "-iquote", "q",
                   "-include", "pre.h", "-D", "A=1", "-DB", "-UC",   "-O2", "-Wall",
                   "-c",       "main.cu", "-o", "main.o"};
  EXPECT_EQ(portableCompileFlags(Command, "/build", {}),
            (Words{"-I/build/inc", "-I/build/inc2", "-isystem", "/build/sys", "-iquote",
                   "/build/q", "-include", "/build/pre.h", "-DA=1", "-DB", "-UC"}));
}

TEST(CompileFlagsTest, AbsolutePathsStayAndAliasesReadAsTheirOption) {
  Words Command = {"clang++", "-I/abs/inc", "--include-directory=rel", "--include=f.h",
                   "--define-macro=X=2", "a.cu"};
  EXPECT_EQ(portableCompileFlags(Command, "/d", {}),
            (Words{"-I/abs/inc", "-I/d/rel", "-include", "/d/f.h", "-DX=2"}));
}

TEST(CompileFlagsTest, OlderStandardsBecomeCxx17) {
  EXPECT_EQ(portableCompileFlags({"nvcc", "-std=c++14", "a.cu"}, "/d", {}), Words{"-std=c++17"});
  EXPECT_EQ(portableCompileFlags({"nvcc", "-std=c++20", "a.cu"}, "/d", {}), Words{"-std=c++20"});
}

TEST(CompileFlagsTest, NvccOptionsDoNotSwallowTheNextFlag) {
  NvccOptionNames Nvcc = shippedNvccOptions();
  ASSERT_TRUE(Nvcc.count("G") && Nvcc.count("arch") && Nvcc.count("Xcompiler"));
  // In clang's table -G takes a value (MIPS) and -arch a separate one
  // (Darwin): read as clang reads them, they would eat -I inc and -DFAST.
  Words Command = {"nvcc",      "-G",        "-I",       "inc",       "-arch",   "sm_80",
                   "-DFAST",    "-arch=sm_90", "--expt-relaxed-constexpr", "-Xcompiler",
                   "-fopenmp",  "-gencode",  "arch=compute_80,code=sm_80", "-lineinfo",
                   "--use_fast_math", "-rdc=true", "-std=c++17", "-Iinc2", "-c", "k.cu",
                   "-o",        "k.o"};
  EXPECT_EQ(portableCompileFlags(Command, "/p", Nvcc),
            (Words{"-I/p/inc", "-DFAST", "-std=c++17", "-I/p/inc2"}));
  // Without the nvcc list, clang's table alone loses them.
  EXPECT_NE(portableCompileFlags(Command, "/p", {}),
            (Words{"-I/p/inc", "-DFAST", "-std=c++17", "-I/p/inc2"}));
}

TEST(CompileFlagsTest, HostOptionsAreNotTheCommandsOwn) {
  // -Xcompiler's value is for the host compiler, joined or as the next word.
  EXPECT_EQ(portableCompileFlags({"nvcc", "-Xcompiler=-Ihost", "-Xcompiler", "-DHOST", "-DDEV",
                                  "a.cu"},
                                 "/d", shippedNvccOptions()),
            Words{"-DDEV"});
}

TEST(CompileFlagsTest, PathOptionsAreReadAsTheDriverReadsThem) {
  // Joined and separate forms alike; a value that looks like an option
  // (-DX=-Inot, the path after -include) is not one.
  std::vector<std::string> Seen;
  forEachPathFlag(Words{"-Iinc", "-I", "sep", "-isystem", "/sys", "-iquote", "q", "-include",
                        "-Ipre.h", "-DX=-Inot", "-std=c++17"},
                  [&](PathFlag Kind, llvm::StringRef Value) {
                    const char *Names[] = {"I", "isystem", "iquote", "include"};
                    Seen.push_back(std::string(Names[int(Kind)]) + ":" + Value.str());
                  });
  EXPECT_EQ(Seen, (Words{"I:inc", "I:sep", "isystem:/sys", "iquote:q", "include:-Ipre.h"}));
}

} // namespace
