"""Which CUDA headers each map family covers, and which HIP headers back it.

Shared by generate.py and verify.py.  `cuda` lists the headers (relative to
<cuda>/include) whose declarations belong to the family; a name declared in
several covered headers belongs to the first family that lists one of them.
`kinds` restricts the family to some kinds of declaration.  `hip` lists the
HIP headers (relative to the HIP include directory) that declare the HIP side;
`hip_lib` names the HIP library when HIP 5.2 here lacks its headers (the
family is then paired and verified against the HIP 6.4 tree only).
"""
import os
import re

RUNTIME_HDRS = ["cuda_runtime_api.h", "cuda_runtime.h", "cuda_device_runtime_api.h",
                "channel_descriptor.h", "cuda_profiler_api.h", "driver_functions.h"]
TYPES_HDRS = RUNTIME_HDRS + ["driver_types.h", "vector_types.h", "library_types.h",
                             "surface_types.h", "texture_types.h", "device_types.h",
                             "builtin_types.h"]
DEVICE_HDRS = ["crt/device_functions.h", "crt/device_functions.hpp",
               "crt/math_functions.h", "crt/math_functions.hpp",
               "crt/device_double_functions.h", "crt/device_double_functions.hpp",
               "crt/common_functions.h", "crt/sm_70_rt.h", "crt/sm_80_rt.h",
               "crt/sm_90_rt.h", "crt/sm_100_rt.h",
               "device_atomic_functions.h", "device_atomic_functions.hpp",
               "sm_20_atomic_functions.h", "sm_20_atomic_functions.hpp",
               "sm_32_atomic_functions.h", "sm_32_atomic_functions.hpp",
               "sm_60_atomic_functions.h", "sm_60_atomic_functions.hpp",
               "sm_20_intrinsics.h", "sm_20_intrinsics.hpp", "sm_30_intrinsics.h",
               "sm_30_intrinsics.hpp", "sm_32_intrinsics.h", "sm_32_intrinsics.hpp",
               "sm_35_intrinsics.h", "sm_61_intrinsics.h", "sm_61_intrinsics.hpp",
               "texture_indirect_functions.h", "surface_indirect_functions.h",
               "vector_functions.h", "vector_functions.hpp",
               "device_launch_parameters.h", "math_constants.h"]

HIP_CORE = ["hip/hip_runtime.h", "hip/hip_runtime_api.h"]

FAMILIES = [
    dict(family="runtime", file="runtime.yaml", cuda=RUNTIME_HDRS, kinds={"function"},
         hip=HIP_CORE, api_names=["^cuda[A-Z]"]),
    dict(family="types", file="types.yaml", cuda=TYPES_HDRS,
         kinds={"type", "enumerator", "macro", "variable"}, hip=HIP_CORE),
    dict(family="device", file="device.yaml", cuda=DEVICE_HDRS, hip=HIP_CORE),
    dict(family="driver", file="driver.yaml", cuda=["cuda.h"], hip=HIP_CORE,
         api_names=["^cu[A-Z][a-z]"]),
    dict(family="fp16", file="fp16.yaml",
         cuda=["cuda_fp16.h", "cuda_fp16.hpp", "cuda_bf16.h", "cuda_bf16.hpp", "cuda_fp8.h",
               "cuda_fp8.hpp"],
         hip=["hip/hip_fp16.h", "hip/hip_bfloat16.h"]),
    dict(family="complex", file="complex.yaml", cuda=["cuComplex.h"],
         hip=["hip/hip_complex.h"]),
    dict(family="coop", file="cooperative_groups.yaml",
         cuda=["cooperative_groups.h"], cuda_prefix="cooperative_groups/",
         hip=["hip/hip_cooperative_groups.h"]),
    dict(family="cublas", file="cublas.yaml", cuda=["cublas_api.h", "cublas_v2.h"],
         hip=["hipblas/hipblas.h"], hip_lib="hipBLAS", api_names=["^cublas[A-Z]"]),
    dict(family="cublaslt", file="cublaslt.yaml", cuda=["cublasLt.h"],
         hip=["hipblaslt/hipblaslt.h"], hip_lib="hipBLASLt", api_names=["^cublasLt[A-Z]"]),
    dict(family="cufft", file="cufft.yaml", cuda=["cufft.h", "cufftXt.h", "cudalibxt.h"],
         hip=["hipfft/hipfft.h", "hipfft/hipfftXt.h"], hip_lib="hipFFT",
         api_names=["^cufft[A-Z]"]),
    dict(family="curand", file="curand.yaml", cuda=["curand.h", "curand_kernel.h"],
         cuda_prefix="curand_", hip=["hiprand/hiprand.h", "hiprand/hiprand_kernel.h"],
         api_names=["^curand[A-Z]"]),
    dict(family="cusparse", file="cusparse.yaml", cuda=["cusparse.h", "cusparse_v2.h"],
         hip=["hipsparse/hipsparse.h"], api_names=["^cusparse[A-Z]"]),
    dict(family="cusolver", file="cusolver.yaml",
         cuda=["cusolverDn.h", "cusolverSp.h", "cusolverRf.h", "cusolverMg.h",
               "cusolver_common.h"],
         hip=["hipsolver/hipsolver.h"], hip_lib="hipSOLVER", api_names=["^cusolver[A-Z]"]),
    dict(family="cudnn", file="cudnn.yaml", cuda=["cudnn.h"], cuda_prefix="cudnn",
         hip=["miopen/miopen.h"], hip_lib="MIOpen", api_names=["^cudnn[A-Z]"]),
    dict(family="nccl", file="nccl.yaml", cuda=["nccl.h"], hip=["rccl/rccl.h"],
         hip_lib="RCCL", api_names=["^nccl[A-Z]"]),
    dict(family="cub", file="cub.yaml", cuda=["cub/util_debug.cuh"], hip=["hipcub/hipcub.hpp"],
         hip_lib="hipCUB"),
    dict(family="thrust", file="thrust.yaml", cuda=[], hip=["thrust/device_vector.h"],
         hip_lib="rocThrust"),
    dict(family="nvtx", file="nvtx.yaml", cuda=["nvtx3/nvToolsExt.h", "nvtx3/nvToolsExtCudaRt.h",
                                                       "nvtx3/nvToolsExtCuda.h"], cuda_prefix="nvtx3/",
         hip=["roctracer/roctx.h"], hip_lib="roctx"),
    dict(family="headers", file="headers.yaml", cuda=[], hip=[]),
]

# Headers the CUDA translation unit includes (everything covered, in an order
# that parses).
CUDA_TU = ["cuda_runtime.h", "cuda.h", "cuda_profiler_api.h", "cuda_fp16.h",
           "cuda_bf16.h", "cuda_fp8.h", "cooperative_groups.h", "cooperative_groups/memcpy_async.h",
           "cooperative_groups/reduce.h", "cooperative_groups/scan.h", "cuComplex.h",
           "math_constants.h",
           "cublas_v2.h", "cublasLt.h", "cufft.h", "cufftXt.h", "curand.h", "curand_kernel.h",
           "cusparse.h", "cusolverDn.h", "cusolverSp.h", "cusolverRf.h",
           "cusolverMg.h", "cudnn.h", "nccl.h", "nvtx3/nvToolsExt.h", "nvtx3/nvToolsExtCudaRt.h",
           "nvtx3/nvToolsExtCuda.h"]
# Headers of the HIP translation unit, those a HIP tree has (hdrscan.HipTree):
# HIP 5.2 here has the core, hipSPARSE and hipRAND; the HIP 6.4 tree of
# scripts/fetch-hip64.sh every library.
HIP_TU = ["hip/hip_runtime.h", "hip/hip_fp16.h", "hip/hip_bfloat16.h", "hip/hip_bf16.h",
          "hip/hip_math_constants.h", "hip/hip_fp8.h",
          "hip/hip_complex.h", "hip/hip_cooperative_groups.h",
          "hipsparse/hipsparse.h", "hiprand/hiprand.h", "hiprand/hiprand_kernel.h",
          "hipblas/hipblas.h", "hipblaslt/hipblaslt.h", "hipcub/hipcub.hpp", "thrust/device_vector.h",
          "thrust/execution_policy.h", "hipfft/hipfft.h", "hipfft/hipfftXt.h",
          "hipsolver/hipsolver.h", "miopen/miopen.h", "rccl/rccl.h", "roctracer/roctx.h"]


def hip_tu(tree):
    return [h for h in HIP_TU if tree.has(h)]


def family_of(headers, kind):
    """The family a CUDA declaration belongs to, from its declaring headers."""
    for fam in FAMILIES:
        if fam.get("kinds") and kind not in fam["kinds"] and kind != "namespace":
            continue
        for h in headers:
            if h in fam["cuda"] or (fam.get("cuda_prefix") and h.startswith(fam["cuda_prefix"])):
                return fam["family"]
    return None


NVTX_INTERNAL = re.compile(r"nvtx\w*_(impl_init|impl_fntype|fntype)(_v\d+)?$|nvtxEti|"
                           r"NVTX_CBID_|NvtxCallbackId|nvtxGlobals|nvtxSetInitFunctions|"
                           r"NVTX_(ERR|SUCCESS|INFO|DYNAMIC_EXPORT|PATHCHAR|NULLPTR|STR|ETID_|"
                           r"ATOMIC_|DLL|LINKONCE_|SUPPORT_|INIT_STATE_|VERSIONED_IDENTIFIER|"
                           r"CB_MODULE_|IMPL_GUARD|INLINE_STATIC|MEMBAR|YIELD|GETENV|BUFSIZE|"
                           r"FAIL|REINTERPRET_CAST|STATIC_CAST|GLOBAL_TABLE_ENTRY|EXPORT_|"
                           r"LOAD_SEQUENCE|SET_NAME_MANGLING|DECLSPEC$|API$)|"
                           r"Nvtx|InitializeInjectionNvtx|nvtx_(cl|CU|cuda|nvtxSync)")


# nvtxInitOnce_v3...: versioned loader functions; nvtxEventAttributes_v2 is API.
NVTX_VERSIONED = re.compile(r"nvtx\w*_v\d+$")


def interesting(name, kind):
    """Whether a declared CUDA name is public API that a map should cover."""
    base = name.rsplit("::", 2)[-2] if name.endswith("::") else name.rsplit("::", 1)[-1]
    if "::" in name:
        if any(p in name for p in ("::details::", "::detail::", "::__", "::impl::")):
            return False
        if "details::" in name or name.startswith(("cuda::", "std::", "nv::")):
            return False
    if base.startswith(("__cuda", "__nv_cvt", "__CUDA", "__internal", "_CUDA", "__NV",
                        "__cudart", "__device_builtin", "__nvvm", "__pack", "__clang")):
        return False
    if kind == "macro":
        if base.startswith("_") or base.endswith(("_H", "_H_", "_HPP", "_HPP_")):
            return False
        if base in ("CUDARTAPI", "CUDAAPI", "CUDART_CB", "CUDA_CB", "CUDNNWINAPI",
                    "CUBLASWINAPI", "CUSPARSEAPI", "CUSOLVERAPI", "CURANDAPI",
                    "CUFFTAPI", "NCCL_API", "CUDART_DEVICE"):
            return False
    if re.match(r"__(i|u|ll|ull|il|ill|f|d)Atomic", base) or base.endswith("_impl"):
        return False    # CUDA-internal implementations of atomicX / helpers
    if base.startswith(("operator", "__builtin", "__sync_", "__atomic_")):
        return False
    if NVTX_INTERNAL.match(base) or (kind == "function" and NVTX_VERSIONED.match(base)):
        return False    # NVTX's injection and loader machinery, not its API
    if base.startswith("_") and not base.startswith("__"):
        return False
    if kind == "namespace" and name.count("::") > 1:
        return False
    return True


def cuda_tu(extra=()):
    """The headers of the CUDA translation unit: CUDA_TU, then every covered
    header (and any extra) that exists, so generator and verifier see the
    same declarations."""
    import hdrscan
    hs = list(CUDA_TU)
    for h in [h for f in FAMILIES for h in f["cuda"]] + list(extra):
        if h not in hs and any(os.path.isfile(os.path.join(d, h)) for d in
                               (hdrscan.CUDA_INC, os.path.join(hdrscan.CUDA_INC, "cccl"))):
            hs.append(h)
    return hs
