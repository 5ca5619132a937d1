// NVTX marks and ranges become roctx calls; the rest of NVTX (event attributes,
// domains, payloads) has no roctx counterpart and is reported.
#include <nvtx3/nvToolsExt.h>
#include <cuda_runtime.h>

__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }

void run(float *d) {
  nvtxRangePushA("step");
  nvtxRangeId_t id = nvtxRangeStartA("whole");
  nvtxMarkA("launch");
  k<<<1, 64>>>(d);
  nvtxRangeEnd(id);
  nvtxRangePop();
  nvtxEventAttributes_t attr = {0};
  attr.version = NVTX_VERSION;
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = "colored";
  nvtxRangePushEx(&attr);
  nvtxRangePop();
}
