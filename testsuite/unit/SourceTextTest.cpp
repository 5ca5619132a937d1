#include "core/SourceText.h"
#include "core/TranslationResult.h"

#include <gtest/gtest.h>

#include <ctime>

using namespace cu2dcu;

namespace {

/// The definition: count the newlines before Offset.
std::pair<unsigned, unsigned> rescanLineColumn(const std::string &Text, unsigned Offset) {
  unsigned Line = 1, LineStart = 0;
  for (unsigned I = 0; I < Offset && I < Text.size(); ++I)
    if (Text[I] == '\n') {
      ++Line;
      LineStart = I + 1;
    }
  return {Line, Offset - LineStart + 1};
}

/// Lines of varying length, some empty, some with CR LF.
std::string largeText(unsigned Lines) {
  std::string Text;
  for (unsigned I = 0; I < Lines; ++I) {
    Text.append(I % 7, 'x');
    Text += I % 5 == 0 ? "\r\n" : "\n";
  }
  return Text;
}

TEST(LineIndexTest, AgreesWithARescanEverywhere) {
  std::string Text = largeText(3000) + "last line without newline";
  LineIndex Lines(Text);
  for (unsigned Offset = 0; Offset <= Text.size() + 3; ++Offset)
    ASSERT_EQ(Lines.lineColumn(Offset), rescanLineColumn(Text, Offset)) << "offset " << Offset;
}

TEST(LineIndexTest, EdgeCases) {
  EXPECT_EQ(LineIndex("").lineColumn(0), std::make_pair(1u, 1u));
  EXPECT_EQ(LineIndex("\n").lineColumn(0), std::make_pair(1u, 1u));
  EXPECT_EQ(LineIndex("\n").lineColumn(1), std::make_pair(2u, 1u));
  EXPECT_EQ(LineIndex("ab\ncd").lineColumn(2), std::make_pair(1u, 3u)); // the newline
  EXPECT_EQ(LineIndex("ab\ncd").lineColumn(9), std::make_pair(2u, 7u)); // past the end
}

TEST(LineIndexTest, LineStartClampsToTheEnd) {
  std::string Text = "a\nbb\nccc\n";
  LineIndex Lines(Text);
  EXPECT_EQ(Lines.lineStart(0), 0u);
  EXPECT_EQ(Lines.lineStart(1), 0u);
  EXPECT_EQ(Lines.lineStart(2), 2u);
  EXPECT_EQ(Lines.lineStart(3), 5u);
  EXPECT_EQ(Lines.lineStart(4), Text.size()); // the empty line after the last newline
  EXPECT_EQ(Lines.lineStart(40), Text.size());
}

// Many findings in a large file: each look-up is a binary search, not a scan
// from the start of the file. A rescan per finding would take hours here
// (200k findings x 2.5 MB); the indexed look-ups take well under a second.
// The bound is CPU time, not wall time, so a busy machine does not fail it,
// and the loop stops at the bound, so a rescan fails in seconds.
TEST(LineIndexTest, ManyFindingsInALargeFileAreCheap) {
  const double BoundSeconds = 5;
  std::string Text = largeText(1000000);
  FileFindings Out;
  std::clock_t Start = std::clock();
  auto CpuSeconds = [&] { return double(std::clock() - Start) / CLOCKS_PER_SEC; };
  unsigned Done = 0;
  for (; Done < 200000 && (Done % 1000 || CpuSeconds() < BoundSeconds); ++Done) {
    unsigned Offset = unsigned((Text.size() - 1) - (Done * 12347ull) % (Text.size() / 2));
    ASSERT_GT(Out.lineColumnOf(Text, Offset).first, 1u);
  }
  EXPECT_EQ(Done, 200000u) << "stopped after " << CpuSeconds() << " s of CPU time";
  EXPECT_EQ(Out.lineColumnOf(Text, unsigned(Text.size() - 1)),
            rescanLineColumn(Text, unsigned(Text.size() - 1)));
}

TEST(TokenEndTest, IdentifierOrOneCharacter) {
  EXPECT_EQ(tokenEnd("foo_bar1 x", 0), 8u);
  EXPECT_EQ(tokenEnd("a + b", 1), 2u);  // one character: the blank
  EXPECT_EQ(tokenEnd("a\nb", 1), 1u);   // none at a newline
  EXPECT_EQ(tokenEnd("ab", 2), 2u);     // at the end
}

} // namespace
