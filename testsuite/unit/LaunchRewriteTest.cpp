#include "core/Options.h"
#include "translate/LaunchRewrite.h"
#include "lexical/LexicalTranslator.h"
#include "rewrite/EditApplier.h"

#include <gtest/gtest.h>

using namespace cu2dcu;

namespace {

/// Translates Source with the lexical pass and an empty map: only launches change.
std::string translateLaunches(const std::string &Source, bool Keep = false) {
  ApiMap Map;
  TranslationOptions Options;
  Options.KeepLaunchSyntax = Keep;
  LexicalTranslator Lexical(Map, Options);
  FileFindings Out;
  Lexical.translateFile(Source, "t.cu", Out);
  return applyEdits("t.cu", Source, Out.Edits).Text;
}

TEST(LaunchRewriteTest, FillsDefaultSharedMemoryAndStream) {
  EXPECT_EQ(translateLaunches("k<<<g, b>>>(x);"), "hipLaunchKernelGGL(k, g, b, 0, 0, x);");
  EXPECT_EQ(translateLaunches("k<<<g, b, s>>>(x);"), "hipLaunchKernelGGL(k, g, b, s, 0, x);");
  EXPECT_EQ(translateLaunches("k<<<g, b, s, st>>>(x, y);"),
            "hipLaunchKernelGGL(k, g, b, s, st, x, y);");
}

TEST(LaunchRewriteTest, NoKernelArguments) {
  EXPECT_EQ(translateLaunches("k<<<1, 1>>>();"), "hipLaunchKernelGGL(k, 1, 1, 0, 0);");
}

TEST(LaunchRewriteTest, TemplateKernelIsParenthesised) {
  EXPECT_EQ(translateLaunches("k<float, 4><<<1, 2>>>(p);"),
            "hipLaunchKernelGGL((k<float, 4>), 1, 2, 0, 0, p);");
  EXPECT_EQ(translateLaunches("ns::k<A<B>><<<1, 2>>>(p);"),
            "hipLaunchKernelGGL((ns::k<A<B>>), 1, 2, 0, 0, p);");
}

TEST(LaunchRewriteTest, ArgumentsWithParenthesesAndCommasKeepTheirText) {
  EXPECT_EQ(translateLaunches("k<<<dim3(a, b), dim3(c)>>>(f(x, y), z[i, j]);"),
            "hipLaunchKernelGGL(k, dim3(a, b), dim3(c), 0, 0, f(x, y), z[i, j]);");
}

TEST(LaunchRewriteTest, KeepLaunchSyntaxLeavesLaunchAlone) {
  EXPECT_EQ(translateLaunches("k<<<1, 1>>>(x);", /*Keep=*/true), "k<<<1, 1>>>(x);");
}

TEST(LaunchRewriteTest, CommentsAndStringsAreNotLaunches) {
  const std::string Source = "// k<<<1, 1>>>(x);\nconst char *s = \"k<<<1,1>>>()\";\n";
  EXPECT_EQ(translateLaunches(Source), Source);
}

TEST(LaunchRewriteTest, TopLevelCommaInConfigIsProtected) {
  // The AST knows Grid<2, 3>::v is one argument; the site says so directly.
  const std::string Text = "k<<<Grid<2, 3>::v, 64>>>(p);";
  LaunchSite Site;
  Site.CalleeBegin = 0;
  Site.CalleeEnd = 1;
  Site.OpenBegin = 1;
  Site.ConfigArgs = {{4, 17}, {19, 21}};
  Site.CloseBegin = 21;
  Site.ArgsOpenEnd = 25;
  Site.HasCallArgs = true;
  FileFindings Out;
  rewriteLaunch(Site, Text, Out);
  EXPECT_EQ(applyEdits("t.cu", Text, Out.Edits).Text,
            "hipLaunchKernelGGL(k, (Grid<2, 3>::v), 64, 0, 0, p);");
}

TEST(LaunchRewriteTest, MalformedLaunchIsReportedNotRewritten) {
  ApiMap Map;
  TranslationOptions Options;
  LexicalTranslator Lexical(Map, Options);
  FileFindings Out;
  const std::string Source = "k<<<1>>>(x);";
  Lexical.translateFile(Source, "t.cu", Out);
  EXPECT_TRUE(Out.Edits.empty());
  ASSERT_EQ(Out.Diagnostics.size(), 1u);
  EXPECT_EQ(Out.Diagnostics[0].CheckId, "CU2DCU-LAUNCH");
}

} // namespace
