// A GEMM with a fused bias + GELU epilogue through cuBLASLt, the way
// training programs write their forward matmul: handle, descriptor,
// layouts, preference, heuristic, matmul, with a workspace.
#include "common/lt_check.h"
#include <cuda_fp16.h>
#include <vector>

static cublasLtHandle_t lt_handle;
static void *workspace = nullptr;
static const size_t workspace_size = 32 * 1024 * 1024;

// out (OC x B) = weight^T (OC x C) * inp (C x B) + bias, then GELU.
void matmul_forward(__half *out, const __half *inp, const __half *weight, const __half *bias,
                    int B, int C, int OC, cudaStream_t stream) {
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulPreference_t preference;
  cublasLtMatrixLayout_t weight_layout, input_layout, output_layout, bias_layout;
  cublasLtMatmulHeuristicResult_t heuristic;
  cublasOperation_t op_t = CUBLAS_OP_T, op_n = CUBLAS_OP_N;
  cublasCheck(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_t, sizeof(op_t)));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_n, sizeof(op_n)));
  cublasLtEpilogue_t epilogue = bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                             sizeof(epilogue)));
  if (bias) {
    cudaDataType_t bias_type = CUDA_R_16F;
    cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                               &bias_type, sizeof(bias_type)));
    cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                               sizeof(bias)));
  }
  cublasCheck(cublasLtMatrixLayoutCreate(&weight_layout, CUDA_R_16F, C, OC, C));
  cublasCheck(cublasLtMatrixLayoutCreate(&input_layout, CUDA_R_16F, C, B, C));
  cublasCheck(cublasLtMatrixLayoutCreate(&output_layout, CUDA_R_16F, OC, B, OC));
  cublasCheck(cublasLtMatrixLayoutCreate(&bias_layout, CUDA_R_16F, OC, 1, OC));
  cublasLtOrder_t order = CUBLASLT_ORDER_COL;
  cublasCheck(cublasLtMatrixLayoutSetAttribute(output_layout, CUBLASLT_MATRIX_LAYOUT_ORDER,
                                               &order, sizeof(order)));
  cublasCheck(cublasLtMatmulPreferenceCreate(&preference));
  cublasCheck(cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_size, sizeof(workspace_size)));
  int found = 0;
  cublasCheck(cublasLtMatmulAlgoGetHeuristic(lt_handle, desc, weight_layout, input_layout,
                                             output_layout, output_layout, preference, 1,
                                             &heuristic, &found));
  if (found == 0) {
    std::fprintf(stderr, "no cuBLASLt algorithm: B %d C %d OC %d\n", B, C, OC);
    std::exit(EXIT_FAILURE);
  }
  const float alpha = 1.0f, beta = 0.0f;
  cublasCheck(cublasLtMatmul(lt_handle, desc, &alpha, weight, weight_layout, inp, input_layout,
                             &beta, out, output_layout, out, output_layout, &heuristic.algo,
                             workspace, workspace_size, stream));
  cublasCheck(cublasLtMatmulPreferenceDestroy(preference));
  cublasCheck(cublasLtMatmulDescDestroy(desc));
  for (cublasLtMatrixLayout_t layout : {weight_layout, input_layout, output_layout, bias_layout})
    cublasCheck(cublasLtMatrixLayoutDestroy(layout));
}

int main() {
  const int B = 64, C = 128, OC = 256;
  cublasCheck(cublasLtCreate(&lt_handle));
  cudaCheck(cudaMalloc(&workspace, workspace_size));
  __half *inp, *weight, *bias, *out;
  cudaCheck(cudaMalloc(&inp, sizeof(__half) * B * C));
  cudaCheck(cudaMalloc(&weight, sizeof(__half) * OC * C));
  cudaCheck(cudaMalloc(&bias, sizeof(__half) * OC));
  cudaCheck(cudaMalloc(&out, sizeof(__half) * B * OC));
  std::vector<__half> ones(OC * C, __float2half(0.01f));
  cudaCheck(cudaMemcpy(weight, ones.data(), sizeof(__half) * OC * C, cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(inp, ones.data(), sizeof(__half) * B * C, cudaMemcpyHostToDevice));
  cudaCheck(cudaMemset(bias, 0, sizeof(__half) * OC));
  cudaStream_t stream;
  cudaCheck(cudaStreamCreate(&stream));
  matmul_forward(out, inp, weight, bias, B, C, OC, stream);
  cudaCheck(cudaStreamSynchronize(stream));
  std::vector<__half> result(B * OC);
  cudaCheck(cudaMemcpy(result.data(), out, sizeof(__half) * B * OC, cudaMemcpyDeviceToHost));
  std::printf("out[0] = %f\n", __half2float(result[0]));
  for (void *p : {(void *)inp, (void *)weight, (void *)bias, (void *)out, workspace})
    cudaCheck(cudaFree(p));
  cudaCheck(cudaStreamDestroy(stream));
  cublasCheck(cublasLtDestroy(lt_handle));
  return 0;
}
