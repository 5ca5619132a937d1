// The parse-pipe codec (core/ResultJson.h): every field of what a translation
// unit finds comes back from an isolated parser process unchanged.
#include "core/ResultJson.h"

#include <gtest/gtest.h>

using namespace cu2dcu;

namespace {

// The structured bindings below name every field: a field added to one of
// these structures stops this file compiling until the test (and the codec)
// cover it.
void expectSame(const Edit &A, const Edit &B) {
  const auto &[Offset, Length, Text, Category, Name] = A;
  EXPECT_EQ(Offset, B.Offset);
  EXPECT_EQ(Length, B.Length);
  EXPECT_EQ(Text, B.Text);
  EXPECT_EQ(Category, B.Category);
  EXPECT_EQ(Name, B.Name);
}

void expectSame(const FixIt &A, const FixIt &B) {
  const auto &[Offset, Length, Replacement, Description, Applied] = A;
  EXPECT_EQ(Offset, B.Offset);
  EXPECT_EQ(Length, B.Length);
  EXPECT_EQ(Replacement, B.Replacement);
  EXPECT_EQ(Description, B.Description);
  EXPECT_EQ(Applied, B.Applied);
}

void expectSame(const RelatedLocation &A, const RelatedLocation &B) {
  const auto &[File, Line, Column, Offset, CheckId, Message] = A;
  EXPECT_EQ(File, B.File);
  EXPECT_EQ(Line, B.Line);
  EXPECT_EQ(Column, B.Column);
  EXPECT_EQ(Offset, B.Offset);
  EXPECT_EQ(CheckId, B.CheckId);
  EXPECT_EQ(Message, B.Message);
}

void expectSame(const Diagnostic &A, const Diagnostic &B) {
  const auto &[CheckId, Level, File, Line, Column, Offset, Message, Fixes, LowConfidence, Related,
               Definition, FixWithheld] = A;
  EXPECT_EQ(CheckId, B.CheckId);
  EXPECT_EQ(Level, B.Level);
  EXPECT_EQ(File, B.File);
  EXPECT_EQ(Line, B.Line);
  EXPECT_EQ(Column, B.Column);
  EXPECT_EQ(Offset, B.Offset);
  EXPECT_EQ(Message, B.Message);
  ASSERT_EQ(Fixes.size(), B.Fixes.size());
  for (size_t I = 0; I < Fixes.size(); ++I)
    expectSame(Fixes[I], B.Fixes[I]);
  EXPECT_EQ(LowConfidence, B.LowConfidence);
  ASSERT_EQ(Related.size(), B.Related.size());
  for (size_t I = 0; I < Related.size(); ++I)
    expectSame(Related[I], B.Related[I]);
  EXPECT_EQ(FixWithheld, B.FixWithheld);
  ASSERT_EQ(Definition.has_value(), B.Definition.has_value());
  if (Definition)
    expectSame(*Definition, *B.Definition);
}

// FileFindings also caches a line index (not data), so it is compared by its
// three data fields.
void expectSame(const TranslationResult &A, const TranslationResult &B) {
  const auto &[Files, Mode, Failure, FallbackReason] = A;
  EXPECT_EQ(Mode, B.Mode);
  EXPECT_EQ(Failure, B.Failure);
  EXPECT_EQ(FallbackReason, B.FallbackReason);
  ASSERT_EQ(Files.size(), B.Files.size());
  for (const auto &[Path, Findings] : Files) {
    ASSERT_TRUE(B.Files.count(Path)) << Path;
    const FileFindings &Other = B.Files.at(Path);
    ASSERT_EQ(Findings.Edits.size(), Other.Edits.size());
    for (size_t I = 0; I < Findings.Edits.size(); ++I)
      expectSame(Findings.Edits[I], Other.Edits[I]);
    ASSERT_EQ(Findings.Diagnostics.size(), Other.Diagnostics.size());
    for (size_t I = 0; I < Findings.Diagnostics.size(); ++I)
      expectSame(Findings.Diagnostics[I], Other.Diagnostics[I]);
    ASSERT_EQ(Findings.RecoveredRanges.size(), Other.RecoveredRanges.size());
    for (size_t I = 0; I < Findings.RecoveredRanges.size(); ++I) {
      EXPECT_EQ(Findings.RecoveredRanges[I].Begin, Other.RecoveredRanges[I].Begin);
      EXPECT_EQ(Findings.RecoveredRanges[I].End, Other.RecoveredRanges[I].End);
    }
  }
}

/// Every field set to something other than its default; some text is not UTF-8.
TranslationResult everyField() {
  const std::string Latin1 = "caf\xe9 // \xff";
  RelatedLocation Use{"b.cu", 7, 3, 120, "W64-LANE-MATH", "uses WARP_SIZE"};
  RelatedLocation Def{"a.h", 2, 9, 17, "", "defined here"};
  Diagnostic D;
  D.CheckId = "W64-MASK32";
  D.Level = Severity::Error;
  D.File = "dir/a \xe9.cu";
  D.Line = 4;
  D.Column = 11;
  D.Offset = 99;
  D.Message = "message with " + Latin1;
  D.Fixes.push_back({5, 6, "0xffffffffffffffffull", "widen", true});
  D.Fixes.push_back({8, 0, "", "insert nothing", false});
  D.LowConfidence = true;
  D.FixWithheld = "W64-WARP-COUNT at a.cu:3 has no safe fix";
  D.Related = {Use, Use};
  D.Definition = Def;
  TranslationResult R;
  FileFindings &F = R.at("/abs/dir/a \xe9.cu");
  F.Edits.push_back({1, 2, "hipMalloc", "runtime", "cudaMalloc"});
  F.Edits.push_back({30, 0, Latin1, "include", ""});
  F.Diagnostics.push_back(D);
  F.Diagnostics.push_back(Diagnostic());
  F.RecoveredRanges.push_back({10, 20});
  R.at("/abs/b.cu"); // a file with nothing found
  R.Mode = ParseMode::AstRecovered;
  R.Failure = ParseFailure::Errors;
  R.FallbackReason = "error: unknown type name '" + Latin1 + "'";
  return R;
}

TEST(ResultJsonTest, EveryFieldRoundTripsThroughText) {
  TranslationResult Original = everyField();
  std::string Text = jsonText(toJSON(Original));
  llvm::Expected<TranslationResult> Decoded = llvm::json::parse<TranslationResult>(Text);
  ASSERT_TRUE(bool(Decoded)) << llvm::toString(Decoded.takeError());
  expectSame(Original, *Decoded);
}

TEST(ResultJsonTest, StageTimeRoundTrips) {
  StageTime T{1.25, 0.5, 3};
  llvm::Expected<StageTime> Decoded = llvm::json::parse<StageTime>(jsonText(toJSON(T)));
  ASSERT_TRUE(bool(Decoded)) << llvm::toString(Decoded.takeError());
  EXPECT_EQ(Decoded->Wall, T.Wall);
  EXPECT_EQ(Decoded->Cpu, T.Cpu);
  EXPECT_EQ(Decoded->Count, T.Count);
}

TEST(ResultJsonTest, MalformedDataIsRefused) {
  std::string Text = jsonText(toJSON(everyField()));
  for (const char *Bad : {"", "{}", "[]", "{\"files\":[{}],\"mode\":0}"}) {
    llvm::Expected<TranslationResult> Decoded = llvm::json::parse<TranslationResult>(Bad);
    EXPECT_FALSE(bool(Decoded)) << Bad;
    if (!Decoded)
      llvm::consumeError(Decoded.takeError());
  }
  // An enumerator out of range.
  std::string OutOfRange = Text;
  size_t At = OutOfRange.find("\"mode\":");
  ASSERT_NE(At, std::string::npos);
  OutOfRange.replace(At, 8, "\"mode\":9");
  llvm::Expected<TranslationResult> Decoded = llvm::json::parse<TranslationResult>(OutOfRange);
  EXPECT_FALSE(bool(Decoded));
  llvm::consumeError(Decoded.takeError());
}

} // namespace
