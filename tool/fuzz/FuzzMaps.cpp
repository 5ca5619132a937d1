// libFuzzer target: the YAML map loader (docs/robustness.md).
//
// Loads arbitrary bytes as a map file (through a memfd, the loader's own
// path) after the shipped maps, so overrides are exercised too, and reads
// the result back. A crash, a hang or an escaping exception is a finding;
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
  ApiMap Map;
  Map.loadFile(Path);
  if (Size && (Data[0] & 1)) // sometimes on top of the shipped maps
    Map.loadDirectory(CU2DCU_FUZZ_MAPPINGS);
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
