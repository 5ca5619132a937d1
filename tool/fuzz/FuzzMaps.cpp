// libFuzzer target: the YAML map loader (docs/robustness.md).
//
// Loads arbitrary bytes as a map file (through a memfd, the loader's own
// path), alone or after two shipped maps so that overrides are exercised
// too, and reads the result back. A crash, a hang or an escaping exception is a finding;
// load errors are the expected outcome for most inputs.
#include "mapping/ApiMap.h"

#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace cu2dcu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  int FD = memfd_create("fuzz-map", 0);
  if (FD < 0)
    return 0;
  for (size_t Done = 0; Done < Size;) {
    ssize_t N = write(FD, Data + Done, Size - Done);
    if (N <= 0)
      break;
    Done += size_t(N);
  }
  std::string Path = "/proc/self/fd/" + std::to_string(FD);
  // Sometimes on top of two shipped maps (loaded once), so that entries
  // override and conflict.
  static const ApiMap Base = [] {
    ApiMap M;
    M.loadFile(std::string(CU2DCU_FUZZ_MAPPINGS) + "/headers.yaml");
    M.loadFile(std::string(CU2DCU_FUZZ_MAPPINGS) + "/complex.yaml");
    return M;
  }();
  ApiMap Map = Size && (Data[0] & 1) ? Base : ApiMap();
  Map.loadFile(Path);
  (void)Map.hasErrors();
  for (const MapLoadIssue &Issue : Map.issues())
    (void)Issue.Message.size();
  for (const ApiEntry *E : Map.entries()) {
    (void)Map.lookup(E->Cuda);
    (void)Map.lookupHeader(E->Cuda);
    (void)E->isSupported();
  }
  close(FD);
  return 0;
}
