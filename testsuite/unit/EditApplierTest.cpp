// applyEdits: several translation units edit one file; identical edits
// collapse, the first of two overlapping edits wins, and what is dropped is
// reported, never silently merged.
#include "rewrite/EditApplier.h"

#include <gtest/gtest.h>

using namespace cu2dcu;

namespace {

Edit edit(unsigned Offset, unsigned Length, std::string Text, std::string Name = "") {
  Edit E;
  E.Offset = Offset;
  E.Length = Length;
  E.Text = std::move(Text);
  E.Category = "runtime";
  E.Name = std::move(Name);
  return E;
}

const std::string Source = "cudaMalloc(&p, n); cudaFree(p);\n";
//                          0         1         2         3
//                          0123456789012345678901234567890

TEST(EditApplierTest, DisjointEditsAreAllApplied) {
  AppliedEdits R = applyEdits("t.cu", Source, {edit(19, 8, "hipFree"), edit(0, 10, "hipMalloc")});
  EXPECT_EQ(R.Text, "hipMalloc(&p, n); hipFree(p);\n");
  EXPECT_TRUE(R.Conflicting.empty());
  ASSERT_EQ(R.Applied.size(), 2u);
  // In offset order, whatever order the units produced them in.
  EXPECT_EQ(R.Applied[0].Offset, 0u);
  EXPECT_EQ(R.Applied[1].Offset, 19u);
}

TEST(EditApplierTest, IdenticalEditsFromTwoUnitsCollapseIntoOne) {
  // A header included by two units is edited the same way by both.
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 10, "hipMalloc"), edit(0, 10, "hipMalloc")});
  EXPECT_EQ(R.Text, "hipMalloc(&p, n); cudaFree(p);\n");
  EXPECT_EQ(R.Applied.size(), 1u);
  EXPECT_TRUE(R.Conflicting.empty());
}

TEST(EditApplierTest, IdenticalChangeWithAnotherCategoryStillCollapses) {
  Edit Other = edit(0, 10, "hipMalloc");
  Other.Category = "symbol";
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 10, "hipMalloc"), Other});
  EXPECT_EQ(R.Text, "hipMalloc(&p, n); cudaFree(p);\n");
  ASSERT_EQ(R.Applied.size(), 1u);
  EXPECT_EQ(R.Applied[0].Category, "runtime"); // the first one is kept
  EXPECT_TRUE(R.Conflicting.empty());
}

TEST(EditApplierTest, OverlappingEditsKeepTheFirstAndReportTheSecond) {
  Edit First = edit(0, 10, "hipMalloc");
  Edit Second = edit(4, 6, "XMalloc"); // inside the first
  AppliedEdits R = applyEdits("t.cu", Source, {First, Second});
  EXPECT_EQ(R.Text, "hipMalloc(&p, n); cudaFree(p);\n");
  ASSERT_EQ(R.Applied.size(), 1u);
  EXPECT_TRUE(R.Applied[0].sameChange(First));
  ASSERT_EQ(R.Conflicting.size(), 1u);
  EXPECT_TRUE(R.Conflicting[0].sameChange(Second));

  // The order given decides, not the offsets.
  AppliedEdits Reversed = applyEdits("t.cu", Source, {Second, First});
  EXPECT_EQ(Reversed.Text, "cudaXMalloc(&p, n); cudaFree(p);\n");
  ASSERT_EQ(Reversed.Conflicting.size(), 1u);
  EXPECT_TRUE(Reversed.Conflicting[0].sameChange(First));
}

TEST(EditApplierTest, PartlyOverlappingEditsConflict) {
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 12, "A"), edit(10, 4, "B")});
  EXPECT_EQ(R.Text, "Ap, n); cudaFree(p);\n");
  EXPECT_EQ(R.Applied.size(), 1u);
  EXPECT_EQ(R.Conflicting.size(), 1u);
}

TEST(EditApplierTest, SameRangeWithDifferentTextConflicts) {
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 10, "hipMalloc"), edit(0, 10, "hipMallocAsync")});
  EXPECT_EQ(R.Text, "hipMalloc(&p, n); cudaFree(p);\n");
  EXPECT_EQ(R.Applied.size(), 1u);
  ASSERT_EQ(R.Conflicting.size(), 1u);
  EXPECT_EQ(R.Conflicting[0].Text, "hipMallocAsync");
}

TEST(EditApplierTest, AdjacentEditsAreBothApplied) {
  // One ends where the next begins: they touch, they do not overlap.
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 10, "hipMalloc"), edit(10, 1, "[")});
  EXPECT_EQ(R.Text, "hipMalloc[&p, n); cudaFree(p);\n");
  EXPECT_EQ(R.Applied.size(), 2u);
  EXPECT_TRUE(R.Conflicting.empty());
}

TEST(EditApplierTest, DifferentInsertionsAtOneOffsetConflict) {
  // Which text would come first is undefined: the second is dropped.
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 0, "#include <a>\n"), edit(0, 0, "#include <b>\n")});
  EXPECT_EQ(R.Text, "#include <a>\n" + Source);
  EXPECT_EQ(R.Applied.size(), 1u);
  ASSERT_EQ(R.Conflicting.size(), 1u);
  EXPECT_EQ(R.Conflicting[0].Text, "#include <b>\n");
}

TEST(EditApplierTest, IdenticalInsertionsCollapse) {
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 0, "#include <a>\n"), edit(0, 0, "#include <a>\n")});
  EXPECT_EQ(R.Text, "#include <a>\n" + Source);
  EXPECT_EQ(R.Applied.size(), 1u);
  EXPECT_TRUE(R.Conflicting.empty());
}

TEST(EditApplierTest, InsertionBeforeAReplacementAtTheSameOffsetIsKept) {
  AppliedEdits R = applyEdits("t.cu", Source, {edit(0, 10, "hipMalloc"), edit(0, 0, "/*x*/")});
  EXPECT_EQ(R.Text, "/*x*/hipMalloc(&p, n); cudaFree(p);\n");
  EXPECT_EQ(R.Applied.size(), 2u);
  EXPECT_TRUE(R.Conflicting.empty());
}

TEST(EditApplierTest, EditPastTheEndOfTheTextIsDropped) {
  // An edit computed against another version of the file must not crash or
  // splice garbage: it is reported as conflicting.
  AppliedEdits R = applyEdits("t.cu", Source, {edit(30, 5, "x"), edit(0, 10, "hipMalloc")});
  EXPECT_EQ(R.Text, "hipMalloc(&p, n); cudaFree(p);\n");
  ASSERT_EQ(R.Conflicting.size(), 1u);
  EXPECT_EQ(R.Conflicting[0].Offset, 30u);
}

TEST(EditApplierTest, NoEditsLeaveTheTextAsIs) {
  AppliedEdits R = applyEdits("t.cu", Source, {});
  EXPECT_EQ(R.Text, Source);
  EXPECT_TRUE(R.Applied.empty());
}

TEST(EditApplierTest, CountsChangedLinesOncePerLine) {
  const std::string Text = "a\nb b\nc\n";
  EXPECT_EQ(countChangedLines(Text, {edit(2, 1, "x"), edit(4, 1, "y")}), 1u);
  EXPECT_EQ(countChangedLines(Text, {edit(0, 1, "x"), edit(6, 1, "y")}), 2u);
  EXPECT_EQ(countChangedLines(Text, {}), 0u);
}

} // namespace
