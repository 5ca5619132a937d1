// In-source suppressions (docs/checks/README.md, "Suppressing a finding"):
// `cu2dcu: ignore ID[, ID...]` in a comment on the finding's line or the line
// above; `W64-*` ignores every wave64 check.
#include "wave64/Wave64Report.h"

#include <gtest/gtest.h>

#include <string>

using namespace cu2dcu;

namespace {

/// Offset of the first occurrence of Needle in Text (the finding's place).
unsigned at(const std::string &Text, const std::string &Needle) {
  size_t Pos = Text.find(Needle);
  EXPECT_NE(Pos, std::string::npos) << Needle;
  return static_cast<unsigned>(Pos);
}

TEST(SuppressionTest, CommentOnTheSameLine) {
  const std::string Text = "int a;\nint lane = threadIdx.x % 32;  // cu2dcu: ignore W64-LANE-MATH\n";
  EXPECT_TRUE(isSuppressed(Text, at(Text, "32"), "W64-LANE-MATH"));
  EXPECT_TRUE(isSuppressed(Text, at(Text, "int lane"), "W64-LANE-MATH"));
}

TEST(SuppressionTest, OnlyTheNamedCheckIsIgnored) {
  const std::string Text = "int lane = threadIdx.x % 32;  // cu2dcu: ignore W64-LANE-MATH\n";
  EXPECT_FALSE(isSuppressed(Text, at(Text, "32"), "W64-MASK32"));
  // An id is matched whole, not as a prefix.
  const std::string Prefix = "f(0xffffffff); // cu2dcu: ignore W64-MASK\n";
  EXPECT_FALSE(isSuppressed(Prefix, at(Prefix, "0x"), "W64-MASK32"));
}

TEST(SuppressionTest, CommentOnTheLineAbove) {
  const std::string Text = "// cu2dcu: ignore W64-SHFL-OFFSET\nv += __shfl_down_sync(m, v, 16);\n";
  EXPECT_TRUE(isSuppressed(Text, at(Text, "16"), "W64-SHFL-OFFSET"));
  // The finding at the very start of its line still looks one line up.
  EXPECT_TRUE(isSuppressed(Text, at(Text, "v +="), "W64-SHFL-OFFSET"));
}

TEST(SuppressionTest, TwoLinesAboveOrBelowDoesNotCount) {
  const std::string Above = "// cu2dcu: ignore W64-MASK32\n\nf(0xffffffff);\n";
  EXPECT_FALSE(isSuppressed(Above, at(Above, "0x"), "W64-MASK32"));
  const std::string Below = "f(0xffffffff);\n// cu2dcu: ignore W64-MASK32\n";
  EXPECT_FALSE(isSuppressed(Below, at(Below, "0x"), "W64-MASK32"));
}

TEST(SuppressionTest, SeveralIdsSeparatedByCommasOrBlanks) {
  const std::string Text = "// cu2dcu: ignore W64-SHFL-OFFSET, W64-MASK32 W64-LANE-MATH\n"
                           "v += __shfl_down_sync(0xffffffff, v, 16);\n";
  unsigned Call = at(Text, "v +=");
  EXPECT_TRUE(isSuppressed(Text, Call, "W64-SHFL-OFFSET"));
  EXPECT_TRUE(isSuppressed(Text, Call, "W64-MASK32"));
  EXPECT_TRUE(isSuppressed(Text, Call, "W64-LANE-MATH"));
  EXPECT_FALSE(isSuppressed(Text, Call, "W64-WARP-COUNT"));
}

TEST(SuppressionTest, WildcardIgnoresEveryWave64Check) {
  const std::string Text = "f(0xffffffff, 16); /* cu2dcu: ignore W64-* */\n";
  EXPECT_TRUE(isSuppressed(Text, at(Text, "0x"), "W64-MASK32"));
  EXPECT_TRUE(isSuppressed(Text, at(Text, "16"), "W64-SHFL-OFFSET"));
  EXPECT_FALSE(isSuppressed(Text, at(Text, "16"), "CU2DCU-UNSUPPORTED"));
}

TEST(SuppressionTest, BlockCommentCounts) {
  const std::string Text = "int w = n / 32; /* cu2dcu: ignore W64-WARP-COUNT */\n";
  EXPECT_TRUE(isSuppressed(Text, at(Text, "32"), "W64-WARP-COUNT"));
  const std::string Tight = "int w = n / 32; /*cu2dcu: ignore W64-*/\n";
  EXPECT_TRUE(isSuppressed(Tight, at(Tight, "32"), "W64-WARP-COUNT"));
}

TEST(SuppressionTest, EndOfABlockCommentIsNoWildcard) {
  // The '*' of "*/" once read as an id "*" that matched every check.
  const std::string Text = "f(0xffffffff, n / 32); /* cu2dcu: ignore W64-WARP-COUNT */\n";
  EXPECT_FALSE(isSuppressed(Text, at(Text, "0x"), "W64-MASK32"));
  const std::string Above = "/* cu2dcu: ignore W64-WARP-COUNT */\nf(0xffffffff);\n";
  EXPECT_FALSE(isSuppressed(Above, at(Above, "0x"), "W64-MASK32"));
}

TEST(SuppressionTest, TextOutsideACommentDoesNotSuppress) {
  const std::string Text = "puts(\"cu2dcu: ignore W64-MASK32\"); f(0xffffffff);\n";
  EXPECT_FALSE(isSuppressed(Text, at(Text, "0x"), "W64-MASK32"));
  // Nor does a comment that only mentions the tool.
  const std::string Note = "f(0xffffffff); // cu2dcu: W64-MASK32 is fine here\n";
  EXPECT_FALSE(isSuppressed(Note, at(Note, "0x"), "W64-MASK32"));
}

TEST(SuppressionTest, FirstAndLastLineOfTheFile) {
  const std::string Text = "f(0xffffffff); // cu2dcu: ignore W64-MASK32";
  EXPECT_TRUE(isSuppressed(Text, 0, "W64-MASK32"));
  EXPECT_TRUE(isSuppressed(Text, static_cast<unsigned>(Text.size()) - 1, "W64-MASK32"));
  EXPECT_FALSE(isSuppressed("f(0xffffffff);", 0, "W64-MASK32"));
  EXPECT_FALSE(isSuppressed("", 0, "W64-MASK32"));
}

TEST(SuppressionTest, WindowsLineEnds) {
  const std::string Text = "// cu2dcu: ignore W64-MASK32\r\nf(0xffffffff);\r\n";
  EXPECT_TRUE(isSuppressed(Text, at(Text, "0x"), "W64-MASK32"));
}

} // namespace
