// The lexical wavefront-64 scan reads its names from the maps: the warp
// functions from their `warp` role, lane-level PTX from inline_ptx.yaml and
// the spelling patterns from warp_names.yaml. A map without them finds
// nothing, and a user's map entry or pattern is found like a shipped one.
#include "wave64/LexicalWave64Scan.h"

#include "ScratchDir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace cu2dcu;

namespace {

class LexicalWave64ScanTest : public ::testing::Test {
protected:
  /// A map folder with Device as its one API map and the given checks/ files.
  ApiMap mapOf(const std::string &Device, const std::string &WarpNames,
               const std::string &InlinePtx) {
    std::string Dir = scratchPath("lexical-scan-maps");
    std::filesystem::remove_all(Dir);
    std::filesystem::create_directories(Dir + "/checks");
    std::ofstream(Dir + "/device.yaml") << Device;
    if (!WarpNames.empty())
      std::ofstream(Dir + "/checks/warp_names.yaml") << WarpNames;
    if (!InlinePtx.empty())
      std::ofstream(Dir + "/checks/inline_ptx.yaml") << InlinePtx;
    ApiMap Map;
    EXPECT_TRUE(Map.loadDirectory(Dir)) << (Map.issues().empty() ? "" : Map.issues()[0].Message);
    return Map;
  }

  /// "LINE:CHECK" of each finding of the scan of Text.
  std::vector<std::string> scan(const std::string &Text, const ApiMap &Map) {
    FileFindings Found;
    scanWave64Lexically(Text, "k.cu", Map, Found);
    std::vector<std::string> Ids;
    for (const Diagnostic &D : Found.Diagnostics)
      Ids.push_back(std::to_string(D.Line) + ":" + D.CheckId);
    return Ids;
  }
};

const char *const Source = R"cu(#define WARP_SIZE 32
#define LANES_PER_WAVE 32
__global__ void k(int *out) {
  int v = __shfl_down_sync(0xffffffff, out[0], 1);
  int w = my_shuffle_sync(0xffffffff, v);
  asm("mov.u32 %0, %%laneid;" : "=r"(v));
  out[threadIdx.x % 32] = v + w;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
}
)cu";

const char *const DeviceMap = R"yaml(family: device
entries:
- {cuda: __shfl_down_sync, hip: __shfl_down_sync, kind: function, warp: shfl_down_sync}
)yaml";

const char *const Names = R"yaml(family: warp_names
warp_size_names: 'warp_?size'
lane_mask_names: 'mask'
thread_index_names: '^threadIdx$'
)yaml";

const char *const Ptx = R"yaml(family: inline_ptx
entries:
- {ptx: "%laneid", hip: "__lane_id()", lane_level: true}
)yaml";

TEST_F(LexicalWave64ScanTest, FindsWhatTheMapsName) {
  EXPECT_EQ(scan(Source, mapOf(DeviceMap, Names, Ptx)),
            (std::vector<std::string>{"1:W64-LANE-MATH", "4:W64-MASK32", "6:W64-INLINE-PTX",
                                      "7:W64-LANE-MATH", "8:W64-SHFL-OFFSET", "8:W64-MASK32"}));
}

TEST_F(LexicalWave64ScanTest, FindsNothingTheMapsDoNotName) {
  // No warp role, no lane-level idiom, no warp_names.yaml.
  const char *Plain = "family: device\nentries:\n"
                      "- {cuda: __shfl_down_sync, hip: __shfl_down_sync, kind: function}\n";
  const char *NotLaneLevel = "family: inline_ptx\nentries:\n"
                             "- {ptx: \"%laneid\", hip: \"__lane_id()\"}\n";
  EXPECT_TRUE(scan(Source, mapOf(Plain, "", NotLaneLevel)).empty());
}

TEST_F(LexicalWave64ScanTest, AUsersEntryAndPatternAreFoundToo) {
  std::string Device = std::string(DeviceMap) +
                       "- {cuda: my_shuffle_sync, hip: my_shuffle_sync, kind: function, "
                       "warp: shfl_sync}\n";
  std::string Wider = "family: warp_names\nwarp_size_names: 'warp_?size|lanes_per_wave'\n"
                      "lane_mask_names: mask\nthread_index_names: '^threadIdx$'\n";
  EXPECT_EQ(scan(Source, mapOf(Device, Wider, Ptx)),
            (std::vector<std::string>{"1:W64-LANE-MATH", "2:W64-LANE-MATH", "4:W64-MASK32",
                                      "5:W64-MASK32", "6:W64-INLINE-PTX", "7:W64-LANE-MATH",
                                      "8:W64-SHFL-OFFSET", "8:W64-MASK32"}));
}

} // namespace
