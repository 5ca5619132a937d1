// Baseline fingerprints (tool/report/Baseline.h): a fingerprint survives
// lines inserted elsewhere, re-indentation and message rewording; it changes
// with the check, the file, the text of the finding's line, and tells apart
// identical findings in one file by their order.
#include "report/Baseline.h"

#include "ScratchDir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

using namespace cu2dcu;

namespace {

const std::string Kernel = "__global__ void k(float *v) {\n"
                           "  int lane = threadIdx.x % 32;\n"
                           "  v[lane] = __shfl_down_sync(0xffffffff, v[lane], 16);\n"
                           "}\n";

/// A run over one file whose findings are placed at the first occurrence of
/// each needle; Line and Offset are computed as the translator does.
class BaselineTest : public ::testing::Test {
protected:
  RunResult run(const std::string &Display, const std::string &Text) {
    RunResult R;
    FileReport F;
    F.Input.Display = Display;
    F.Original = Text;
    R.Files.push_back(F);
    return R;
  }
  void find(RunResult &R, const std::string &CheckId, const std::string &Needle,
            Severity Level = Severity::Warning, std::string Message = "a finding",
            size_t From = 0) {
    const FileReport &F = R.Files.back();
    size_t Offset = F.Original.find(Needle, From);
    ASSERT_NE(Offset, std::string::npos) << Needle;
    Diagnostic D;
    D.CheckId = CheckId;
    D.Level = Level;
    D.File = F.Input.Display;
    D.Offset = static_cast<unsigned>(Offset);
    D.Line = 1 + std::count(F.Original.begin(), F.Original.begin() + Offset, '\n');
    D.Column = 1;
    D.Message = std::move(Message);
    R.Diagnostics.push_back(D);
  }
  std::string only(const RunResult &R) {
    std::vector<std::string> All = fingerprintDiagnostics(R);
    EXPECT_EQ(All.size(), 1u);
    return All.empty() ? "" : All[0];
  }
  std::string lane(const std::string &Display, const std::string &Text,
                   const std::string &CheckId = "W64-LANE-MATH",
                   const std::string &Message = "lane computed for 32-lane warps") {
    RunResult R = run(Display, Text);
    find(R, CheckId, "32", Severity::Warning, Message);
    return only(R);
  }
};

TEST_F(BaselineTest, FingerprintIsA128BitHexStringAndDeterministic) {
  std::string F = lane("src/k.cu", Kernel);
  EXPECT_EQ(F.size(), 32u);
  EXPECT_EQ(F.find_first_not_of("0123456789abcdef"), std::string::npos) << F;
  EXPECT_EQ(lane("src/k.cu", Kernel), F);
}

TEST_F(BaselineTest, StableWhenLinesAreInsertedAbove) {
  std::string Shifted = "#include <cstdio>\n\n// a comment\n" + Kernel;
  EXPECT_EQ(lane("src/k.cu", Shifted), lane("src/k.cu", Kernel));
}

TEST_F(BaselineTest, StableUnderReindentationAndMessageRewording) {
  std::string Reindented = Kernel;
  Reindented.replace(Reindented.find("  int lane"), 2, "\t\t");
  Reindented.replace(Reindented.find("% 32"), 4, "%    32");
  EXPECT_EQ(lane("src/k.cu", Reindented), lane("src/k.cu", Kernel));
  EXPECT_EQ(lane("src/k.cu", Kernel, "W64-LANE-MATH", "another wording"), lane("src/k.cu", Kernel));
}

TEST_F(BaselineTest, ChangesWithTheCheckTheFileOrTheLineText) {
  std::string Base = lane("src/k.cu", Kernel);
  EXPECT_NE(lane("src/k.cu", Kernel, "W64-WARP-COUNT"), Base);
  EXPECT_NE(lane("src/other.cu", Kernel), Base);
  std::string Edited = Kernel;
  Edited.replace(Edited.find("threadIdx.x"), 11, "threadIdx.y");
  EXPECT_NE(lane("src/k.cu", Edited), Base);
}

TEST_F(BaselineTest, IdenticalFindingsInOneFileAreToldApartByOrder) {
  const std::string Twice = "int a = threadIdx.x % 32;\nint b = 0;\nint a = threadIdx.x % 32;\n";
  RunResult R = run("t.cu", Twice);
  find(R, "W64-LANE-MATH", "32");
  find(R, "W64-LANE-MATH", "32", Severity::Warning, "a finding", Twice.rfind("32"));
  std::vector<std::string> Both = fingerprintDiagnostics(R);
  ASSERT_EQ(Both.size(), 2u);
  EXPECT_NE(Both[0], Both[1]);
  // The first keeps the fingerprint it has when it is alone.
  EXPECT_EQ(Both[0], lane("t.cu", Twice));
}

TEST_F(BaselineTest, DistinctFindingsOnOneLineDiffer) {
  RunResult R = run("src/k.cu", Kernel);
  find(R, "W64-MASK32", "0xffffffff");
  find(R, "W64-SHFL-OFFSET", "16");
  std::vector<std::string> F = fingerprintDiagnostics(R);
  ASSERT_EQ(F.size(), 2u);
  EXPECT_NE(F[0], F[1]);
}

TEST_F(BaselineTest, ClassifiesKnownNewAndStaleFindings) {
  RunResult Old = run("src/k.cu", Kernel);
  find(Old, "W64-LANE-MATH", "32");
  find(Old, "W64-MASK32", "0xffffffff");
  Baseline Known;
  for (const std::string &F : fingerprintDiagnostics(Old))
    Known.Fingerprints.insert(F);

  // Lines above moved everything; the mask finding is gone, two are new.
  RunResult Now = run("src/k.cu", "// moved\n" + Kernel);
  find(Now, "W64-LANE-MATH", "32");
  find(Now, "W64-SHFL-OFFSET", "16", Severity::Error);
  find(Now, "CU2DCU-UNSUPPORTED", "__global__", Severity::Note);
  FindingStates S = classifyFindings(Now, &Known);
  EXPECT_TRUE(S.HasBaseline);
  EXPECT_EQ(S.Baselined, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(S.BaselinedCount, 1u);
  EXPECT_EQ(S.StaleEntries, 1u);
  EXPECT_EQ(S.NewErrors, 1u);
  EXPECT_EQ(S.NewWarnings, 0u);
  EXPECT_EQ(S.NewNotes, 1u);

  FindingStates Without = classifyFindings(Now, nullptr);
  EXPECT_FALSE(Without.HasBaseline);
  EXPECT_EQ(Without.BaselinedCount, 0u);
  EXPECT_EQ(Without.NewErrors + Without.NewWarnings + Without.NewNotes, 3u);
}

TEST_F(BaselineTest, WrittenBaselineReadsBackItsFingerprints) {
  RunResult R = run("src/k.cu", Kernel);
  find(R, "W64-LANE-MATH", "32");
  find(R, "W64-MASK32", "0xffffffff");
  FindingStates S = classifyFindings(R, nullptr);
  std::string Path = scratchPath("baseline.json");
  llvm::Error Written = writeBaseline(Path, R, S, "test");
  ASSERT_FALSE(Written) << llvm::toString(std::move(Written));
  llvm::Expected<Baseline> Read = readBaseline(Path);
  ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
  EXPECT_EQ(Read->Fingerprints,
            std::set<std::string>(S.Fingerprints.begin(), S.Fingerprints.end()));
  FindingStates Again = classifyFindings(R, &*Read);
  EXPECT_EQ(Again.BaselinedCount, 2u);
  EXPECT_EQ(Again.StaleEntries, 0u);
}

TEST_F(BaselineTest, RejectsFilesThatAreNotBaselines) {
  auto Reject = [](const std::string &Name, const std::string &Text) {
    std::string Path = scratchPath(Name);
    std::ofstream(Path) << Text;
    llvm::Expected<Baseline> B = readBaseline(Path);
    EXPECT_FALSE(static_cast<bool>(B)) << Name;
    if (!B)
      llvm::consumeError(B.takeError());
  };
  Reject("not-json.json", "{");
  Reject("wrong-format.json", R"({"format": "sarif", "version": 1, "findings": []})");
  Reject("wrong-version.json", R"({"format": "cu2dcu-baseline", "version": 2, "findings": []})");
  Reject("no-fingerprint.json",
         R"({"format": "cu2dcu-baseline", "version": 1, "findings": [{"id": "W64-MASK32"}]})");
  llvm::Expected<Baseline> Missing = readBaseline(scratchPath("does-not-exist.json"));
  EXPECT_FALSE(static_cast<bool>(Missing));
  if (!Missing)
    llvm::consumeError(Missing.takeError());
}

} // namespace
