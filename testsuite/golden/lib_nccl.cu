// NCCL -> RCCL: RCCL keeps the nccl names; only the header changes.
#include <cuda_runtime.h>
#include <nccl.h>
#include <cstdio>

bool allReduce(float *buf, size_t n, int rank, int ranks, ncclUniqueId id, cudaStream_t stream) {
  ncclComm_t comm;
  ncclResult_t r = ncclCommInitRank(&comm, ranks, id, rank);
  if (r != ncclSuccess) {
    std::printf("nccl: %s\n", ncclGetErrorString(r));
    return false;
  }
  ncclGroupStart();
  ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, stream);
  ncclBroadcast(buf, buf, n, ncclFloat, 0, comm, stream);
  ncclGroupEnd();
  ncclCommDestroy(comm);
  return true;
}
