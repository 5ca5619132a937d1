// The AMD-path judgement evaluates #if chains as a HIP compile for AMD GPUs
// would (mappings/checks/warp_names.yaml: amd_compile_macros,
// amd_switch_names), with unknown macros left undecided.
#include "wave64/AmdPaths.h"

#include <gtest/gtest.h>

using namespace cu2dcu;

namespace {

WarpNames amdNames() {
  WarpNames Names;
  Names.AmdCompileMacros = {{"__HIP_PLATFORM_AMD__", 1},
                            {"__AMDGCN_WAVEFRONT_SIZE", 64},
                            {"__HIP_PLATFORM_NVIDIA__", std::nullopt}};
  Names.AmdSwitchNames = "hip|rocm";
  return Names;
}

/// "<first line of the branch>:<N or S=MACRO>" for each branch found.
std::vector<std::string> branches(const std::string &Text) {
  std::vector<std::string> Out;
  for (const AmdPathBranch &B : amdPathBranches(Text, amdNames())) {
    std::string First = Text.substr(B.Begin, Text.find('\n', B.Begin) - B.Begin);
    Out.push_back(First + ":" + (B.NotCompiled ? "N" : "S=" + B.SwitchMacro));
  }
  return Out;
}

TEST(AmdPathsTest, BranchesTheAmdCompileDecidesAgainst) {
  EXPECT_EQ(branches("#if defined(__HIP_PLATFORM_AMD__) || defined(X)\na\n#else\nb\n#endif\n"),
            std::vector<std::string>{"b:N"});
  EXPECT_EQ(branches("#ifdef __HIP_PLATFORM_NVIDIA__\na\n#elif __AMDGCN_WAVEFRONT_SIZE == 32\n"
                     "b\n#else\nc\n#endif\n"),
            (std::vector<std::string>{"a:N", "b:N"}));
  EXPECT_EQ(branches("#ifndef __HIP_PLATFORM_AMD__\na\n#endif\n"), std::vector<std::string>{"a:N"});
}

TEST(AmdPathsTest, UnknownMacrosDecideNothing) {
  EXPECT_TRUE(branches("#if defined(FAST) && __HIP_PLATFORM_AMD__\na\n#else\nb\n#endif\n").empty());
  EXPECT_TRUE(branches("#if FOO > 2\na\n#else\nb\n#endif\n").empty());
  EXPECT_TRUE(branches("#if defined(\na\n#endif\n").empty()); // malformed: unknown
}

TEST(AmdPathsTest, ProjectSwitchNamesItsMacro) {
  EXPECT_EQ(branches("#ifdef USE_ROCM\na\n#else\nb\n#endif\n"),
            std::vector<std::string>{"b:S=USE_ROCM"});
  EXPECT_EQ(branches("#if !defined(WITH_HIP)\na\n#endif\n"),
            std::vector<std::string>{"a:S=WITH_HIP"});
}

TEST(AmdPathsTest, NestedChainsAreJudgedOnTheirOwn) {
  EXPECT_EQ(branches("#ifdef OUTER\n#ifndef __HIP_PLATFORM_AMD__\na\n#endif\nb\n#else\nc\n#endif\n"),
            std::vector<std::string>{"a:N"});
}

} // namespace
