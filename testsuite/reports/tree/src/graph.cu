#include <cuda_runtime.h>

// Uses an API that the target HIP (5.2) does not have yet, and one that no
// map covers.
void capture(cudaStream_t stream, cudaGraph_t graph) {
	cudaStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
	cudaFancyNewThing(stream);
}
