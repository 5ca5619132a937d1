"""Hand-reviewed corrections applied by generate.py on top of the naming rules.

Everything here was checked against the headers (HIP 5.2 in /usr/include/hip,
HIP 6.4 and its libraries in build/hip-6.4, CUDA 13 in
/usr/local/cuda/include); a HIP version between 5.2 and 6.4 comes from public
documentation named next to the entry.
"""
import os
import re

import api_shims
from versions import vkey

CUDA_INC = os.environ.get("CU2DCU_CUDA_PATH", "/usr/local/cuda") + "/include"


def _cupti_since():
    """CUDA version that introduced each runtime API, from CUPTI's callback ids
    (cupti_runtime_cbid.h names every runtime entry point NAME_vMMmmp).  3.2 is
    the oldest CUPTI knows: read it as "3.2 or earlier"."""
    out = {}
    try:
        text = open(os.path.join(CUDA_INC, "cupti_runtime_cbid.h")).read()
    except OSError:
        return out
    for name, ver in re.findall(r"CUPTI_RUNTIME_TRACE_CBID_(cuda\w+?)_v(\d{4,5})\b", text):
        if "_ptsz" in name or "_ptds" in name:
            continue
        v = int(ver)
        s = "%d.%d" % (v // 1000, (v % 1000) // 10)
        base = re.sub(r"_v\d+$", "", name)
        for n in (name, base):
            if n not in out or vkey(s) < vkey(out[n]):
                out[n] = s
    return out


CUPTI_SINCE = _cupti_since()

NOT_IN_HIP = "not declared in the HIP 5.2 or 6.4 headers"


LIB_PREFIX = {"cublas": ("cublas", "CUBLAS_"), "cublaslt": ("cublasLt", "CUBLASLT_"),
              "cufft": ("cufft", "CUFFT_"),
              "curand": ("curand", "CURAND_", "skipahead"),
              "cusparse": ("cusparse", "CUSPARSE_"),
              "cusolver": ("cusolver", "CUSOLVER", "csrqr", "gesvdj", "syevj", "cudaLibMg", "CUDALIBMG", "CUBLAS_"),
              "nccl": ("nccl", "NCCL")}
LIB_NAME = {"cublas": "hipBLAS", "cublaslt": "hipBLASLt", "cufft": "hipFFT", "curand": "hipRAND", "cusparse": "hipSPARSE",
            "cusolver": "hipSOLVER", "nccl": "RCCL", "nvtx": "roctx"}

# NVTX -> roctx (roctracer/roctx.h): roctx has marks, push/pop ranges and
# start/stop ranges with ASCII messages, nothing else (ROCm's roctx API docs).
ROCTX = {"nvtxMarkA": "roctxMarkA", "nvtxRangePushA": "roctxRangePushA",
         "nvtxRangePop": "roctxRangePop", "nvtxRangeStartA": "roctxRangeStartA",
         "nvtxRangeEnd": "roctxRangeStop", "nvtxRangeId_t": "roctx_range_id_t",
         # the character-neutral macros name the A functions unless UNICODE is defined
         "nvtxMark": "roctxMarkA", "nvtxRangePush": "roctxRangePushA",
         "nvtxRangeStart": "roctxRangeStartA"}
ROCTX_REASON = ("roctx (roctracer/roctx.h) has only marks and ranges with ASCII messages "
                "(roctxMarkA, roctxRangePushA/Pop, roctxRangeStartA/Stop): no domains, "
                "categories, colours, payloads, registered strings or wide-character "
                "messages; use those calls or remove this one.")


def default_reason(fam, name, kind):
    if fam == "cudnn":
        return ("cuDNN call with no one-to-one MIOpen equivalent; port by hand to the "
                "MIOpen API (miopen/miopen.h)")
    if fam in LIB_PREFIX and not name.startswith(LIB_PREFIX[fam]):
        return ("implementation detail of the CUDA library headers, not documented API; "
                "no %s counterpart." % LIB_NAME[fam])
    if fam == "nvtx":
        return ROCTX_REASON
    if fam == "curand" and kind == "macro":
        return "implementation constant of the cuRAND headers; no hipRAND counterpart."
    if fam in LIB_NAME and fam not in ("curand", "cusparse"):
        return ("not declared by the %s headers of HIP 6.4; no equivalent known to cu2dcu."
                % LIB_NAME[fam])
    return NOT_IN_HIP + "."


WARP_SYNC = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
             "__ballot_sync", "__any_sync", "__all_sync", "__activemask", "__syncwarp",
             "__match_any_sync", "__match_all_sync", "__uni_sync"}
# Before HIP 6.2 (hip_since of the *_sync entries) HIP has only the unmasked
# warp functions: a call becomes legacy_hip with its lane mask dropped, and
# __activemask() becomes __ballot(1). From 6.2 the *_sync functions take a
# 64-bit mask: a 32-bit mask variable is passed through mask_shim.
WARP_LEGACY = {"__shfl_sync": "__shfl", "__shfl_up_sync": "__shfl_up",
               "__shfl_down_sync": "__shfl_down", "__shfl_xor_sync": "__shfl_xor",
               "__ballot_sync": "__ballot", "__any_sync": "__any", "__all_sync": "__all",
               "__activemask": "__ballot(1)"}
WARP_MASK_SHIM = "cu2dcu_lane_mask"
# The role of each warp function (the entry's `warp` key), which is how the
# warp analysis, the wave64 checks and the warp translator know them: the
# snake_case of the name, the reductions sharing one.
WARP_ROLE = {n: n[2:] for n in WARP_SYNC | {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                                           "__ballot", "__any", "__all"}}
WARP_ROLE.update({"__reduce_%s_sync" % op: "reduce_sync"
                  for op in ("add", "min", "max", "and", "or", "xor")})
# HIP 6.2 to 6.4 declare the *_sync functions only with this macro defined.
WARP_GUARD, WARP_GUARD_UNTIL = "HIP_ENABLE_WARP_SYNC_BUILTINS", "7.0"
WARP_NOTE = ("HIP's *_sync warp functions take a 64-bit lane mask (wavefront of 64 on "
             "gfx9/DCU); 32-bit CUDA masks such as 0xffffffff select only half the "
             "wavefront. cu2dcu rewrites these for older targets.")


def refine(fam, e, hip, hip64):
    """Adjust one generated entry (runs before RULES); hip and hip64: the
    names HIP 5.2 and HIP 6.4 declare."""
    n = e["cuda"]
    if fam == "fp16":
        _fp16_refine(e, hip64)
    if fam == "curand" and e.get("status") == "unsupported" and (
            n.startswith(("__", "curand_box_muller", "curand_MRG", "curnand_", "curand__",
                          "curand_M2", "curand_poisson_", "curand_binary", "curand_mtgp32_single",
                          "curand_Philox4x32_10", "curand_MRG32k3a")) or
            n in ("mulhilo32", "para_rec", "Philox_State_Incr", "Philox_State_Incr_hi",
                  "temper", "temper_single") or n.startswith(("mrg32k3a", "precalc_", "normal_args",
                                                               "mtgp32_"))):
        e["reason"] = ("implementation detail of curand_kernel.h, not documented API; "
                       "no hipRAND counterpart.")
    if fam == "cublas":
        _cublas_refine(e)
    if fam == "cusolver":
        _cusolver_refine(e)
    if fam in NOT_IN_LIB64:
        _lib64_refine(fam, e)
    if fam == "device" and n in WARP_ROLE:
        e["warp"] = WARP_ROLE[n]
    if fam == "device" and n in WARP_SYNC and n in hip64:
        e.pop("status", None)
        e.pop("reason", None)
        e["hip"] = n
        e["hip_since"] = "6.2"
        e["note"] = WARP_NOTE
        if n in WARP_LEGACY:
            e["legacy_hip"] = WARP_LEGACY[n]
        if n != "__activemask":
            e["mask_shim"] = WARP_MASK_SHIM
        e["hip_guard"] = WARP_GUARD
        e["hip_guard_until"] = WARP_GUARD_UNTIL
    if fam == "device" and n == "__syncwarp":
        # Not in HIP 6.4 (checked against its headers), even with
        # HIP_ENABLE_WARP_SYNC_BUILTINS; the shim serves both platforms.
        e["hip_since"] = "7.0"
        e["shim"] = "cu2dcu_syncwarp"


def U(reason, **kw):
    d = {"hip": None, "hip_since": None, "status": "unsupported", "reason": reason}
    d.update(kw)
    return d


def U64(hip, reason, **kw):
    """A HIP name that HIP 6.4 declares and HIP 5.2 does not (the verifier
    checks both): unsupported for older targets, translated from 6.4 on."""
    return U(reason, hip=hip, hip_since="6.4", **kw)


def S(hip, **kw):
    d = {"hip": hip, "hip_since": None, "status": "supported", "reason": None}
    d.update(kw)
    return d


MASK_NOTE = None
PROP_NOTE = ("hipDeviceProp_t is not layout-compatible with cudaDeviceProp: some fields "
             "are missing or differ (e.g. no uuid/luid before later HIP, gcnArchName is "
             "HIP-only); check every field the code reads.")
GRAPH_INST_NOTE = ("CUDA 12+ cudaGraphInstantiate(exec, graph, flags) has the argument list "
                   "of hipGraphInstantiateWithFlags; HIP's hipGraphInstantiate takes "
                   "(exec, graph, errorNode, logBuffer, bufferSize).")
RUNTIME = {
    # __device__ symbols are passed through HIP_SYMBOL()
    "cudaMemcpyToSymbol": S("hipMemcpyToSymbol", symbol_arg=0),
    "cudaMemcpyToSymbolAsync": S("hipMemcpyToSymbolAsync", symbol_arg=0),
    "cudaMemcpyFromSymbol": S("hipMemcpyFromSymbol", symbol_arg=1),
    "cudaMemcpyFromSymbolAsync": S("hipMemcpyFromSymbolAsync", symbol_arg=1),
    "cudaGetSymbolAddress": S("hipGetSymbolAddress", symbol_arg=1),
    # graph memcpy nodes on a symbol (found by verify_use.py)
    "cudaGraphAddMemcpyNodeToSymbol": S("hipGraphAddMemcpyNodeToSymbol", symbol_arg=4),
    "cudaGraphAddMemcpyNodeFromSymbol": S("hipGraphAddMemcpyNodeFromSymbol", symbol_arg=5),
    "cudaGraphMemcpyNodeSetParamsToSymbol": S("hipGraphMemcpyNodeSetParamsToSymbol", symbol_arg=1),
    "cudaGraphMemcpyNodeSetParamsFromSymbol": S("hipGraphMemcpyNodeSetParamsFromSymbol", symbol_arg=2),
    "cudaGraphExecMemcpyNodeSetParamsToSymbol": S("hipGraphExecMemcpyNodeSetParamsToSymbol",
                                                  symbol_arg=2),
    "cudaGraphExecMemcpyNodeSetParamsFromSymbol": S("hipGraphExecMemcpyNodeSetParamsFromSymbol",
                                                    symbol_arg=3),
    # cuda_runtime.h's template overloads take any T **; HIP's C functions void **.
    # Those whose HIP function has no template of its own on some target
    # (found by verify_use.py: HIP 5.2's hipMallocPitch, the NVIDIA path's
    # hipMallocAsync and hipMallocFromPoolAsync).
    "cudaHostGetDevicePointer": S("hipHostGetDevicePointer", out_pointer_arg=0),
    "cudaMallocPitch": S("hipMallocPitch", out_pointer_arg=0),
    "cudaMallocAsync": S("hipMallocAsync", out_pointer_arg=0),
    "cudaMallocFromPoolAsync": S("hipMallocFromPoolAsync", out_pointer_arg=0),
    "cudaGetSymbolSize": S("hipGetSymbolSize", symbol_arg=1),
    # pinned host memory: the non-deprecated HIP spellings
    "cudaHostAlloc": S("hipHostMalloc", note="flags cudaHostAlloc* map to hipHostMalloc*"),
    "cudaFreeHost": S("hipHostFree"),
    "cudaMallocHost": S("hipHostMalloc", note="hipHostMalloc takes a third flags argument; "
                        "cudaMallocHost(p, n) becomes hipHostMalloc(p, n, 0) "
                        "(hipMallocHost with two arguments exists but is deprecated)"),
    "cudaGetDeviceProperties": S("hipGetDeviceProperties", note=PROP_NOTE),
    "cudaGraphInstantiate": S("hipGraphInstantiateWithFlags", note=GRAPH_INST_NOTE,
                              hip_by_arity={"5": "hipGraphInstantiate"}),
    # CUDA's C++ overloads (cuda_runtime.h) that take the flags of the C API's
    # WithFlags function; HIP has only the C functions.
    "cudaEventCreate": S("hipEventCreate", hip_by_arity={"2": "hipEventCreateWithFlags"}),
    "cudaStreamGetCaptureInfo": S("hipStreamGetCaptureInfo", note=(
        "CUDA 13 returns graph, dependencies and edge data too; HIP 5.2 takes only "
        "(stream, status, id): extra output arguments must be dropped by hand.")),
    "cudaMemPrefetchAsync": U(
        "CUDA 13 takes a cudaMemLocation and flags; HIP up to 6.4 takes a device ordinal "
        "(hipMemPrefetchAsync(ptr, count, device, stream)). The shim also takes CUDA 12's form "
        "(a device ordinal and the stream); it passes the device on AMD and calls CUDA's own on NVIDIA.", shim="cu2dcu_hipMemPrefetchAsync"),
    "cudaMemAdvise": U(
        "CUDA 13 takes a cudaMemLocation; HIP up to 6.4 takes a device ordinal "
        "(hipMemAdvise(ptr, count, advice, device)). The shim also takes CUDA 12's form "
        "(a device ordinal); it passes the device on AMD and calls CUDA's own on NVIDIA.",
        shim="cu2dcu_hipMemAdvise"),
    "cudaLaunchKernel": S("hipLaunchKernel", function_arg=0),
    "cudaFuncGetAttributes": S("hipFuncGetAttributes", function_arg=1),
    "cudaFuncSetAttribute": S("hipFuncSetAttribute", function_arg=0),
    "cudaFuncSetCacheConfig": S("hipFuncSetCacheConfig", function_arg=0),
    "cudaFuncSetSharedMemConfig": S("hipFuncSetSharedMemConfig", function_arg=0),
    "cudaDeviceGetTexture1DLinearMaxWidth": U(
        "HIP 6.4 declares hipDeviceGetTexture1DLinearMaxWidth(hipMemPool_t *, int), not CUDA's "
        "(size_t *, const cudaChannelFormatDesc *, int)."),
    "cudaDeviceSetLimit": U64("hipDeviceSetLimit", "hipDeviceSetLimit is not in HIP 5.2 (only "
                              "hipDeviceGetLimit); HIP 6.4 declares it. For older targets "
                              "remove the call or guard it."),
    "cudaLaunchKernelEx": U("launch attributes (cudaLaunchConfig_t) have no HIP 5.2 equivalent; "
                            "use hipLaunchKernelGGL or the <<<>>> syntax."),
    "cudaLaunchKernelExC": U("launch attributes (cudaLaunchConfig_t) have no HIP 5.2 equivalent; "
                             "use hipLaunchKernel."),
    "cudaSetValidDevices": U64("hipSetValidDevices", "not in HIP 5.2 (HIP 6.4 declares "
                               "hipSetValidDevices); for older targets select a device with "
                               "hipSetDevice."),
    "cudaGraphInstantiateWithParams": U64("hipGraphInstantiateWithParams", "not in HIP 5.2 (HIP "
                                          "6.4 declares hipGraphInstantiateWithParams); for "
                                          "older targets use hipGraphInstantiateWithFlags."),
}
for _n in ["cudaCGGetIntrinsicHandle", "cudaCGGetRank", "cudaCGGetSize", "cudaCGSynchronize",
           "cudaCGSynchronizeGrid"]:
    RUNTIME[_n] = U("internal entry point of CUDA cooperative groups; use the HIP "
                    "cooperative groups API (hip/hip_cooperative_groups.h).")
for _n in ["cudaLaunchDevice", "cudaLaunchDevice_ptsz", "cudaLaunchDeviceV2",
           "cudaLaunchDeviceV2_ptsz", "cudaGetParameterBuffer", "cudaGetParameterBufferV2"]:
    RUNTIME[_n] = U("dynamic parallelism (device-side launch) is not supported by HIP.")

# Runtime names absent from the CUDA 13 headers that old code still uses.
# cuda_removed "12.0": texture/surface references (removed with CUDA 12.0).
# cuda_removed "13.0": deprecated for years and absent from the 13.0 headers
# (cupti_runtime_cbid.h still lists them); the exact removal release is not
# recorded, so 13.0 is the first release known to lack them.
REMOVED = {
    "cudaThreadSynchronize": ("hipDeviceSynchronize", "13.0"),
    "cudaThreadExit": ("hipDeviceReset", "13.0"),
    "cudaThreadGetLimit": ("hipDeviceGetLimit", "13.0"),
    "cudaThreadSetLimit": (None, "13.0"),
    "cudaThreadGetCacheConfig": ("hipDeviceGetCacheConfig", "13.0"),
    "cudaThreadSetCacheConfig": ("hipDeviceSetCacheConfig", "13.0"),
    "cudaSetDoubleForDevice": (None, "13.0"),
    "cudaSetDoubleForHost": (None, "13.0"),
    "cudaConfigureCall": ("hipConfigureCall", "13.0"),
    "cudaSetupArgument": ("hipSetupArgument", "13.0"),
    "cudaLaunch": ("hipLaunchByPtr", "13.0"),
    "cudaLaunchCooperativeKernelMultiDevice": ("hipLaunchCooperativeKernelMultiDevice", "13.0"),
    "cudaProfilerInitialize": (None, "13.0"),
    "cudaBindTexture": ("hipBindTexture", "12.0"),
    "cudaBindTexture2D": ("hipBindTexture2D", "12.0"),
    "cudaBindTextureToArray": ("hipBindTextureToArray", "12.0"),
    "cudaBindTextureToMipmappedArray": ("hipBindTextureToMipmappedArray", "12.0"),
    "cudaUnbindTexture": ("hipUnbindTexture", "12.0"),
    "cudaGetTextureReference": ("hipGetTextureReference", "12.0"),
    "cudaGetTextureAlignmentOffset": ("hipGetTextureAlignmentOffset", "12.0"),
    "cudaBindSurfaceToArray": (None, "12.0"),
    "cudaGetSurfaceReference": (None, "12.0"),
}
for _n, (_h, _v) in REMOVED.items():
    _e = {"kind": "function", "status": "removed", "cuda_removed": _v, "hip": _h,
          "reason": None}
    if _h is None:
        _e["note"] = "no HIP equivalent; delete the call"
    if _n in ("cudaThreadSetLimit",):
        _e["note"] = "hipDeviceSetLimit is not in HIP 5.2; delete the call or guard it"
    RUNTIME[_n] = _e

HOST_ALLOC = {"cudaHostAllocDefault": "hipHostMallocDefault",
              "cudaHostAllocPortable": "hipHostMallocPortable",
              "cudaHostAllocMapped": "hipHostMallocMapped",
              "cudaHostAllocWriteCombined": "hipHostMallocWriteCombined"}
OPAQUE = {"CUstream_st": "ihipStream_t", "CUevent_st": "ihipEvent_t",
          "CUfunc_st": "ihipModuleSymbol_t", "CUgraph_st": "ihipGraph",
          "CUgraphExec_st": "hipGraphExec", "CUgraphNode_st": "hipGraphNode",
          "CUmemPoolHandle_st": "ihipMemPoolHandle_t", "CUuuid_st": "hipUUID_t"}
TYPES = {k: S(v) for k, v in HOST_ALLOC.items()}
# CUDA's deprecated spelling of cudaDeviceScheduleBlockingSync (both 0x04).
TYPES["cudaDeviceBlockingSync"] = S("hipDeviceScheduleBlockingSync")
TYPES.update({k: S(v, note="opaque handle struct; code should use the handle typedef")
              for k, v in OPAQUE.items()})
TYPES.update({
    "cudaPointerAttributes": S("hipPointerAttribute_t", note=(
        "field names differ: CUDA 'type' is HIP 'memoryType' (hipMemoryType); "
        "HIP 5.2 has no 'type' field.")),
    "CUDART_VERSION": S("HIP_VERSION", note=(
        "different encoding: CUDART_VERSION is 1000*major + 10*minor (13000), "
        "HIP_VERSION is 10000000*major + 100000*minor + patch; rewrite numeric comparisons.")),
    "cudaDeviceProp": S("hipDeviceProp_t", note=PROP_NOTE),
})

# math_constants.h: hip/hip_math_constants.h has each CUDART_X as HIP_X (both
# header sets checked), the float ones (_F) since HIP 5.3 and the double ones
# since 5.7, as HIPIFY's table of CUDA runtime API support says
# (rocm.docs.amd.com/projects/HIPIFY, CUDA_Runtime_API_functions_supported_by_HIP).
# Where the target HIP has neither, each constant is a cu2dcu_CUDART_X shim
# (math_shims.py) and the include of math_constants.h a shim of its own.
MATH_CONST_REASON = ("HIP 5.2 has no math_constants.h equivalent; hip/hip_math_constants.h "
                     "has each CUDART_X as HIP_X, the float ones from HIP 5.3 and the double "
                     "ones from 5.7. Before that, the cu2dcu_CUDART_X shims hold CUDA's values.")
DEVICE = {}
for _n in set(re.findall(r"#define (CUDART_\w+)", open(os.path.join(CUDA_INC, "math_constants.h")).read())):
    DEVICE[_n] = U(MATH_CONST_REASON, hip="HIP_" + _n[7:],
                   hip_since="5.3" if _n.endswith("_F") else "5.7", shim="cu2dcu_" + _n)
DEVICE_INTERNAL = ["all", "any", "ballot", "syncthreads_and", "syncthreads_count",
                   "syncthreads_or", "dadd", "dmul", "dsub", "fdivide", "float2double",
                   "int2double", "ll2double", "uint2double", "ull2double", "double2int",
                   "double2ll", "double2uint", "double2ull"]
for _n in DEVICE_INTERNAL:
    DEVICE[_n] = U("CUDA-internal helper declared by the CUDA headers, not documented API; "
                   "use the documented intrinsic (min/max, __syncthreads_*, casts).")
# Integer min/max helpers that CUDA's math headers declare for host and device
# and samples-style code calls; HIP declares none of them.
for _n in ["umin", "umax", "llmin", "llmax", "ullmin", "ullmax"]:
    DEVICE[_n] = U("not declared in the HIP 5.2 or 6.4 headers; the shim is CUDA's own on "
                   "NVIDIA and the same comparison on AMD.", shim="cu2dcu_" + _n)
for _n in ["__nv_aligned_device_malloc", "__nv_associate_access_property",
           "__nv_memcpy_async_shared_global_4", "__nv_memcpy_async_shared_global_8",
           "__nv_memcpy_async_shared_global_16", "__nv_atomic_enable_if",
           "__nv_atomic_triv_cp_helper", "__nv_isurf_trait", "__nv_itex_trait",
           "NV_INT_OR_BOOL", "NV_MATH_BEGIN_NAMESPACE_STD", "NV_MATH_END_NAMESPACE_STD",
           "NV_MATH_NOEXCEPT", "NV_MATH_NOEXCEPT_OR_THROW", "NV_MATH_USE_TEMPLATE"]:
    DEVICE[_n] = U("NVIDIA-internal helper of the CUDA headers; no HIP equivalent.")
# CUDA's _ieee fma never flushes subnormals; HIP's __fmaf_rn is IEEE fmaf, which
# flushes only under -fgpu-flush-denormals-to-zero.
DEVICE["__fmaf_ieee_rn"] = S("__fmaf_rn", note="IEEE fused multiply-add; subnormals are kept "
                             "unless the build flushes them (-fgpu-flush-denormals-to-zero)")
DEVICE.update({
    "__nanosleep": U("not declared in the HIP 5.2 or 6.4 headers. A busy loop on "
                     "clock64() or __builtin_amdgcn_s_sleep() is the usual substitute."),
    "__trap": U("not declared in the HIP 5.2 or 6.4 headers; the shim is CUDA's own on NVIDIA "
                "and __builtin_trap() on AMD, which ends the kernel with an error as __trap does.",
                shim="cu2dcu_trap"),
    "__brkpt": U("no breakpoint intrinsic in HIP; remove it."),
    "__prof_trigger": U("NVIDIA profiler counters have no HIP equivalent; remove it."),
    "__dp4a": U("not declared in the HIP 5.2 or 6.4 headers; the shim adds the four byte "
                "products (on gfx906 __builtin_amdgcn_sdot4 computes the same in one instruction).",
                shim="cu2dcu_dp4a"),
})
for _n in ["__isGlobal", "__isShared", "__isConstant", "__isLocal", "__isGridConstant",
           "__isClusterShared", "__isCtaShared"]:
    DEVICE[_n] = U("address-space query intrinsics are not declared in the HIP 5.2 or 6.4 headers.")
for _n in ["__cvta_generic_to_shared", "__cvta_generic_to_global", "__cvta_generic_to_local",
           "__cvta_generic_to_constant", "__cvta_shared_to_generic", "__cvta_global_to_generic",
           "__cvta_local_to_generic", "__cvta_constant_to_generic",
           "__cvta_generic_to_grid_constant", "__cvta_grid_constant_to_generic"]:
    DEVICE[_n] = U("PTX address conversion intrinsic; no HIP equivalent.")
for _n in ["__cvta_generic_to_local", "__cvta_local_to_generic"]:
    DEVICE[_n] = U("local-window address conversion (PTX cvta.local); no HIP equivalent: "
                   "HIP's __local_to_generic returns the pointer it is given, it takes no "
                   "local-window bits, nor converts the other way.")
for _n in ["__ldca", "__ldcg", "__ldcs", "__ldcv", "__ldlu", "__stcg", "__stcs", "__stwb",
           "__stwt"]:
    DEVICE[_n] = U("PTX cache-hint load/store; HIP declares __ldca, __ldcg and __ldcs for "
                   "__half and __half2 only. The shim is CUDA's own on NVIDIA and a plain "
                   "load/store on AMD (a volatile load for __ldcv): the value is the same, the "
                   "cache hint is dropped.", shim="cu2dcu" + _n[1:])

WAVE_NOTE = "HIP wavefronts are 64 lanes on gfx9/DCU"
DEVICE.update({
    "__ballot": S("__ballot", note="HIP's __ballot returns a 64-bit mask (unsigned long long); " + WAVE_NOTE),
    "warpSize": S("warpSize", note="warpSize is 64 on gfx9/DCU; code that assumes 32 lanes must be reviewed"),
    "__shfl": S("__shfl", note="width defaults to warpSize (64 on gfx9/DCU)"),
    "__shfl_up": S("__shfl_up", note="width defaults to warpSize (64 on gfx9/DCU)"),
    "__shfl_down": S("__shfl_down", note="width defaults to warpSize (64 on gfx9/DCU)"),
    "__shfl_xor": S("__shfl_xor", note="width defaults to warpSize (64 on gfx9/DCU)"),
    "__any": S("__any", note="votes across the 64-lane wavefront on gfx9/DCU"),
    "__all": S("__all", note="votes across the 64-lane wavefront on gfx9/DCU"),
})

BF16_SINCE = "6.1"
BF16_NOTE = ("hip/hip_bf16.h (type __hip_bfloat16) is documented for HIP 6.1 "
             "(rocm.docs.amd.com, HIP docs-6.1.5); earlier 6.0 availability not checked. "
             "HIP 5.2 has only struct hip_bfloat16 (hip/hip_bfloat16.h) without these intrinsics.")
FP16 = {
    "__nv_bfloat16": S("__hip_bfloat16", hip_since=BF16_SINCE, note=BF16_NOTE),
    "__nv_bfloat162": S("__hip_bfloat162", hip_since=BF16_SINCE, note=BF16_NOTE),
    "nv_bfloat16": S("__hip_bfloat16", hip_since=BF16_SINCE, note=BF16_NOTE),
    "nv_bfloat162": S("__hip_bfloat162", hip_since=BF16_SINCE, note=BF16_NOTE),
    "__nv_half": S("__half"), "__nv_half2": S("__half2"),
    "__nv_bfloat16_raw": S("__hip_bfloat16_raw", hip_since=BF16_SINCE, note=BF16_NOTE),
    "__nv_bfloat162_raw": S("__hip_bfloat162_raw", hip_since=BF16_SINCE, note=BF16_NOTE),
    "make_bfloat162": S("__halves2bfloat162", hip_since=BF16_SINCE, note=BF16_NOTE),
    "nv_half": S("__half"), "nv_half2": S("__half2"),
    "__nv_half_raw": S("__half_raw"), "__nv_half2_raw": S("__half2_raw"),
    # HIP's float conversion rounds to nearest even (amd_hip_bf16.h,
    # float_2_bfloat16_raw), which is what CUDA's _rn names.
    "__float2bfloat16_rn": S("__float2bfloat16", hip_since=BF16_SINCE,
                             note=BF16_NOTE + " __float2bfloat16 rounds to nearest even, as "
                                              "__float2bfloat16_rn does."),
    "__float2bfloat162_rn": U("not declared in the HIP 5.2 or 6.4 headers; the shim fills both "
                              "halves with __float2bfloat16 of hip/hip_bf16.h (HIP 6.1 on).",
                              shim="cu2dcu_float2bfloat162_rn"),
}

# FP8: hip/hip_fp8.h of HIP 6.4 mirrors cuda_fp8.h with __hip_/__HIP_ names;
# its E4M3/E5M2 are the OCP formats (__HIP_E4M3, not the _fnuz ones), which are
# CUDA's, and its types saturate to finite by default as CUDA's do. The
# e8m0 names have no HIP counterpart.
FP8_REASON = ("FP8 is not in HIP 5.2; HIP 6.4's hip/hip_fp8.h has the same API with "
              "__hip_/__HIP_ names (translated for --hip-version 6.4 and later).")
for _n in ["__nv_fp8_e4m3", "__nv_fp8_e5m2", "__nv_fp8x2_e4m3", "__nv_fp8x2_e5m2",
           "__nv_fp8x4_e4m3", "__nv_fp8x4_e5m2", "__nv_fp8_storage_t", "__nv_fp8x2_storage_t",
           "__nv_fp8x4_storage_t", "__nv_fp8_interpretation_t", "__nv_saturation_t"]:
    FP16[_n] = U64("__hip" + _n[4:], FP8_REASON, kind="type")
for _n in ["__NV_E4M3", "__NV_E5M2", "__NV_NOSAT", "__NV_SATFINITE"]:
    FP16[_n] = U64("__HIP" + _n[4:], FP8_REASON, kind="enumerator")
for _n in ["float_to_fp8", "float2_to_fp8x2", "double_to_fp8", "double2_to_fp8x2",
           "halfraw_to_fp8", "halfraw2_to_fp8x2", "bfloat16raw_to_fp8", "bfloat16raw2_to_fp8x2",
           "fp8_to_halfraw", "fp8x2_to_halfraw2"]:
    FP16["__nv_cvt_" + _n] = U64("__hip_cvt_" + _n, FP8_REASON, kind="function")


def _fp16_refine(e, hip64):
    n = e["cuda"]
    if e.get("status") == "unsupported" and ("bfloat16" in n or "bfloat162" in n) and n in hip64:
        e.pop("status")
        e.pop("reason")
        e["hip"] = n
        e["hip_since"] = BF16_SINCE
        e["note"] = BF16_NOTE


COMMENTS = {
    "runtime": "CUDA runtime API functions (cuda_runtime_api.h, cuda_runtime.h, ...).\n"
               "cuda_since comes from CUPTI's callback ids (3.2 = 3.2 or earlier).",
    "types": "Types, enumerators and #define constants of the CUDA runtime headers.",
    "device": "Device built-ins: math, intrinsics, atomics, warp functions, vector makers.",
    "fp16": "cuda_fp16.h / cuda_bf16.h.",
}

# CUB's error checks (cub/util_debug.cuh), which CUB's own examples use
# throughout. hipCUB (config.hpp) has HipcubDebug and hipcub::Debug (the
# namespace entry renames cub::Debug's qualifier), but nothing that exits.
CUB = {
    "CubDebug": {"hip": "HipcubDebug", "status": "supported"},
    "CubDebugExit": {"reason": "hipCUB has no CubDebugExit; the shim exits as CUB's does, after "
                               "HipcubDebug has printed the error.",
                     "shim": "cu2dcu_CubDebugExit"},
    "cub::Debug": {"hip": "cub::Debug", "status": "supported"},
}

RULES = {"runtime": RUNTIME, "types": TYPES, "device": DEVICE, "fp16": FP16, "cub": CUB}


# ------------------------------------------------------------------ headers
def H(hip, **kw):
    d = {"kind": "header", "hip": hip}
    d.update(kw)
    return d


def HU(reason, **kw):
    d = {"kind": "header", "status": "unsupported", "reason": reason}
    d.update(kw)
    return d


RT = "hip/hip_runtime.h"
# hipBLASLt (ROCm 5.5's hipBLASLt 0.0.1 is its first release, per its
# "Deprecations by version" page) has kernels for these targets only: the
# AMDGPU_TARGETS of Gentoo's sci-libs/hipBLASLt 6.4.3 and 7.x ebuilds, which
# build every target upstream supports. No gfx906 (MI50, Hygon's first DCUs)
# and no other DCU target.
HIPBLASLT_ARCHS = ["gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1100",
                   "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1200", "gfx1201"]
HIPBLASLT_NOTE = ("On a GPU hipBLASLt has no code for, use hipBLAS: hipblasGemmEx (or the typed GEMM), then the "
                  "epilogue (bias, activation) in a kernel of your own.")
# hipBLAS 2.x (HIP 6.x) declares its deprecated API unless HIPBLAS_V2 is
# defined: hipblasDatatype_t and hipblasComplex where cuBLAS takes
# cudaDataType and cuComplex, which cu2dcu translates to hipDataType and
# hipComplex; and hipblasHalf is uint16_t, not __half, unless
# HIPBLAS_USE_HIP_HALF (hipblas.h of HIP 6.4). A hipBLAS that does not know
# them ignores them.
HIPBLAS_DEFINES = ["HIPBLAS_V2", "HIPBLAS_USE_HIP_HALF"]
HIPBLAS_DEFINES_NOTE = ("HIPBLAS_V2 and HIPBLAS_USE_HIP_HALF are defined before the include: "
                        "hipBLAS then takes hipDataType, hipComplex and __half as cuBLAS takes "
                        "their CUDA counterparts")
PROVIDED = "provided by hip/hip_runtime.h: the include is removed"
HEADERS = {
    # CUDA's runtime header includes <math.h> for host code (crt/math_functions.h),
    # so host calls such as isfinite(x) find the global overloads; clang's HIP
    # headers declare only device ones there (HIP 6.4: "no matching function").
    "cuda_runtime.h": H(RT, hip_requires="math.h"),
    "cuda_runtime_api.h": H("hip/hip_runtime_api.h"),
    "cuda.h": H(RT, note="the HIP driver-style API (hipModule*, hipCtx*, hipDrv*) is declared by hip/hip_runtime_api.h"),
    "device_launch_parameters.h": H("", note=PROVIDED),
    "device_functions.h": H("", note=PROVIDED),
    "math_functions.h": H("", note=PROVIDED),
    "device_atomic_functions.h": H("", note=PROVIDED),
    "device_double_functions.h": H("", note=PROVIDED),
    "sm_20_atomic_functions.h": H("", note=PROVIDED),
    "sm_32_atomic_functions.h": H("", note=PROVIDED),
    "sm_60_atomic_functions.h": H("", note=PROVIDED),
    "sm_20_intrinsics.h": H("", note=PROVIDED),
    "sm_30_intrinsics.h": H("", note=PROVIDED),
    "sm_32_intrinsics.h": H("", note=PROVIDED),
    "sm_35_intrinsics.h": H("", note=PROVIDED),
    "sm_61_intrinsics.h": H("", note=PROVIDED),
    "texture_indirect_functions.h": H("", note=PROVIDED),
    "surface_indirect_functions.h": H("", note=PROVIDED),
    "builtin_types.h": H("", note=PROVIDED),
    "host_defines.h": H("", note=PROVIDED),
    "common_functions.h": H("", note=PROVIDED),
    "driver_functions.h": H("", note=PROVIDED),
    "device_types.h": H("", note=PROVIDED),
    "vector_types.h": H("hip/hip_vector_types.h"),
    "vector_functions.h": H("hip/hip_vector_types.h"),
    "driver_types.h": H("hip/driver_types.h"),
    "texture_types.h": H("hip/texture_types.h"),
    "surface_types.h": H("hip/surface_types.h"),
    "channel_descriptor.h": H("hip/channel_descriptor.h"),
    "library_types.h": H("hip/library_types.h"),
    "cuda_profiler_api.h": H("hip/hip_runtime_api.h", note="hipProfilerStart/Stop are declared there"),
    "cuda_fp16.h": H("hip/hip_fp16.h"),
    "cuda_bf16.h": H("hip/hip_bf16.h", hip_since=BF16_SINCE, note=BF16_NOTE),
    "cuComplex.h": H("hip/hip_complex.h"),
    "cooperative_groups.h": H("hip/hip_cooperative_groups.h", hip_requires=RT),
    "cooperative_groups/memcpy_async.h": HU("cooperative_groups::memcpy_async/wait have no HIP 5.2 equivalent; copy through shared memory by hand."),
    "cooperative_groups/reduce.h": H("", note="HIP has no cooperative_groups/reduce.h (5.2, 6.4): "
                                          "cooperative_groups::reduce and its operators become the "
                                          "cu2dcu_cg_* shims, which include it on NVIDIA"),
    "cooperative_groups/scan.h": HU("cooperative_groups::inclusive_scan/exclusive_scan have no HIP 5.2 equivalent; use hipCUB's WarpScan/BlockScan."),
    "nvrtc.h": H("hip/hiprtc.h", note="hiprtc mirrors nvrtc (nvrtcX -> hiprtcX); not mapped name by name here"),
    "math_constants.h": HU(MATH_CONST_REASON, hip="hip/hip_math_constants.h", hip_since="5.3",
                           shim="cu2dcu_math_constants"),
    "cuda_occupancy.h": HU("no HIP equivalent of the header-only occupancy calculator; use hipOccupancy* runtime calls."),
    "cuda_gl_interop.h": HU("OpenGL interop header is not in HIP 5.2."),
    "cuda_egl_interop.h": HU("EGL interop has no HIP equivalent."),
    "cuda_vdpau_interop.h": HU("VDPAU interop has no HIP equivalent."),
    "cuda_fp8.h": HU(FP8_REASON, hip="hip/hip_fp8.h", hip_since="6.4"),
    "cuda_fp6.h": HU("FP6 types have no HIP 5.2 equivalent."),
    "cuda_fp4.h": HU("FP4 types have no HIP 5.2 equivalent."),
    "mma.h": HU("WMMA (nvcuda::wmma) has no HIP header; rocWMMA is a separate library with a different API."),
    "cuda_pipeline.h": HU("memcpy_async pipelines have no HIP equivalent."),
    "cuda_awbarrier.h": HU("arrive/wait barriers have no HIP equivalent."),
    "nvtx3/nvToolsExt.h": H("roctracer/roctx.h", link="roctx64", note="roctx covers marks and ranges with ASCII messages"),
    "nvtx3/nvToolsExtCudaRt.h": H("", note="roctx cannot name CUDA resources; the nvtxNameCuda* shims include it on NVIDIA"),
    "nvtx3/nvToolsExtCuda.h": H("", note="roctx cannot name CUDA resources; the nvtxNameCu* shims include it on NVIDIA"),
    # libraries (ROCm >= 5.2 puts each library's headers in include/<component>/,
    # see the ROCm 5.2 deprecation message quoted in docs/maps.md)
    "cublas_v2.h": H("hipblas/hipblas.h", hip_defines=HIPBLAS_DEFINES, note=HIPBLAS_DEFINES_NOTE),
    "cublas_api.h": H("hipblas/hipblas.h", hip_defines=HIPBLAS_DEFINES, note=HIPBLAS_DEFINES_NOTE),
    "cublas.h": H("hipblas/hipblas.h", hip_defines=HIPBLAS_DEFINES,
                  note="the legacy cuBLAS v1 API (no handle) has no hipBLAS equivalent; only the "
                       "v2 API is mapped. " + HIPBLAS_DEFINES_NOTE),
    "cublasLt.h": H("hipblaslt/hipblaslt.h", hip_since="5.5", hip_archs=HIPBLASLT_ARCHS,
                    note=HIPBLASLT_NOTE),
    "cublasXt.h": HU("cuBLASXt (multi-GPU BLAS) has no hipBLAS equivalent."),
    "cufft.h": H("hipfft/hipfft.h"),
    "cufftXt.h": H("hipfft/hipfftXt.h", note="hipFFT's Xt API covers only part of cufftXt"),
    "cufftw.h": HU("FFTW-compatible interface has no hipFFT equivalent."),
    "curand.h": H("hiprand/hiprand.h"),
    "curand_kernel.h": H("hiprand/hiprand_kernel.h"),
    "curand_mtgp32_host.h": H("hiprand/hiprand_mtgp32_host.h"),
    "cusparse.h": H("hipsparse/hipsparse.h"),
    "cusparse_v2.h": H("hipsparse/hipsparse.h"),
    "cusolverDn.h": H("hipsolver/hipsolver.h"),
    "cusolverSp.h": H("hipsolver/hipsolver.h", note="hipSOLVER's sparse API is partial"),
    "cusolverRf.h": H("hipsolver/hipsolver.h"),
    "cusolver_common.h": H("hipsolver/hipsolver.h"),
    "cusolverMg.h": HU("multi-GPU cuSOLVER (cusolverMg) has no hipSOLVER equivalent."),
    "cudnn.h": H("miopen/miopen.h", note="only the one-to-one calls in cudnn.yaml are translated"),
    "nccl.h": H("rccl/rccl.h", note="RCCL keeps the nccl* API names"),
    "cub/cub.cuh": H("hipcub/hipcub.hpp"),
}
for _f in ["curand_discrete.h", "curand_discrete2.h", "curand_globals.h", "curand_lognormal.h",
           "curand_mrg32k3a.h", "curand_mtgp32.h", "curand_mtgp32_kernel.h",
           "curand_normal.h", "curand_normal_static.h", "curand_philox4x32_x.h",
           "curand_poisson.h", "curand_precalc.h", "curand_uniform.h",
           "curand_mtgp32dc_p_11213.h"]:
    HEADERS[_f] = H("hiprand/hiprand_kernel.h")
for _f in ["cudnn_adv.h", "cudnn_backend.h", "cudnn_cnn.h", "cudnn_graph.h", "cudnn_ops.h",
           "cudnn_version.h"]:
    HEADERS[_f] = H("miopen/miopen.h", note="only the one-to-one calls in cudnn.yaml are translated")
RULES["headers"] = HEADERS


# ------------------------------------------------------------------- driver
DEVICEPTR_REASON = ("%s takes a pointer, and hipDeviceptr_t is a pointer on AMD but an "
                    "integer (CUdeviceptr) on HIP's NVIDIA path; the shim casts for both.")
ARGS_DIFFER = "argument lists differ from the CUDA driver call; "
LAUNCH_PARAMS_REASON = ("not in HIP 5.2, whose hipLaunchParams has other fields (a kernel symbol "
                        "and dim3s); HIP 6.4 declares hipFunctionLaunchParams with the same fields.")
DRIVER = {
    "cuMemAlloc_v2": U(DEVICEPTR_REASON % "hipMalloc", shim="cu2dcu_hipMemAlloc"),
    "cuMemAlloc": U(DEVICEPTR_REASON % "hipMalloc", shim="cu2dcu_hipMemAlloc"),
    "cuMemFree_v2": U(DEVICEPTR_REASON % "hipFree", shim="cu2dcu_hipMemFree"),
    "cuMemFree": U(DEVICEPTR_REASON % "hipFree", shim="cu2dcu_hipMemFree"),
    "cuMemFreeHost": S("hipHostFree"),
    "cuMemHostAlloc": S("hipHostMalloc"),
    "cuMemHostGetDevicePointer_v2": S("hipHostGetDevicePointer"),
    "cuMemHostGetDevicePointer": S("hipHostGetDevicePointer"),
    "cuMemHostRegister_v2": S("hipHostRegister"), "cuMemHostRegister": S("hipHostRegister"),
    "cuMemHostUnregister": S("hipHostUnregister"),
    "cuMemHostGetFlags": S("hipHostGetFlags"),
    "cuMemAllocManaged": S("hipMallocManaged"),
    "cuMemAllocAsync": S("hipMallocAsync"),
    "cuMemFreeAsync": S("hipFreeAsync"),
    "cuMemAllocFromPoolAsync": S("hipMallocFromPoolAsync"),
    "cuDeviceGetCount": S("hipGetDeviceCount"),
    "cuCtxGetStreamPriorityRange": S("hipDeviceGetStreamPriorityRange"),
    "cuCtxGetLimit": S("hipDeviceGetLimit", note="HIP limits are per device, not per context"),
    "cuStreamCreate": S("hipStreamCreateWithFlags", note="cuStreamCreate(&s, flags) has the arguments of hipStreamCreateWithFlags"),
    "cuEventCreate": S("hipEventCreateWithFlags", note="cuEventCreate(&e, flags) has the arguments of hipEventCreateWithFlags"),
    "cuLaunchKernel": S("hipModuleLaunchKernel"),
    "cuMemcpy2D_v2": S("hipMemcpyParam2D"), "cuMemcpy2D": S("hipMemcpyParam2D"),
    "cuMemcpy2DAsync_v2": S("hipMemcpyParam2DAsync"), "cuMemcpy2DAsync": S("hipMemcpyParam2DAsync"),
    "cuMemcpy": U(ARGS_DIFFER + "write hipMemcpy(dst, src, n, hipMemcpyDefault)."),
    "cuMemcpyAsync": U(ARGS_DIFFER + "write hipMemcpyAsync(dst, src, n, hipMemcpyDefault, stream)."),
    "cuGetErrorString": U64("hipDrvGetErrorString", "not in HIP 5.2 (HIP 6.4 declares "
                            "hipDrvGetErrorString, same arguments); for older targets use "
                            "hipGetErrorString(err), which returns the string."),
    "cuGetErrorName": U64("hipDrvGetErrorName", "not in HIP 5.2 (HIP 6.4 declares "
                          "hipDrvGetErrorName, same arguments); for older targets use "
                          "hipGetErrorName(err), which returns the name."),
    "cuLaunchCooperativeKernel": U64("hipModuleLaunchCooperativeKernel", "not in HIP 5.2 (HIP 6.4 "
                                     "declares hipModuleLaunchCooperativeKernel, same arguments); "
                                     "HIP 5.2 launches cooperative kernels only through the runtime "
                                     "call hipLaunchCooperativeKernel(const void* f, dim3, dim3, "
                                     "void**, shmem, stream)."),
    "cuLaunchCooperativeKernelMultiDevice": U64(
        "hipModuleLaunchCooperativeKernelMultiDevice",
        "deprecated in CUDA; not in HIP 5.2, whose hipLaunchCooperativeKernelMultiDevice takes "
        "runtime launch parameters (hipLaunchParams: a kernel symbol and dim3s); HIP 6.4 "
        "declares hipModuleLaunchCooperativeKernelMultiDevice with the driver's "
        "hipFunctionLaunchParams."),
    # the driver's launch parameters: the same fields as hipFunctionLaunchParams (HIP 6.4),
    # not those of the runtime's hipLaunchParams (kernel symbol, dim3s)
    "CUDA_LAUNCH_PARAMS": U64("hipFunctionLaunchParams", LAUNCH_PARAMS_REASON),
    "CUDA_LAUNCH_PARAMS_v1": U64("hipFunctionLaunchParams", LAUNCH_PARAMS_REASON),
    "CUDA_LAUNCH_PARAMS_st": U64("hipFunctionLaunchParams_t", LAUNCH_PARAMS_REASON),
    "cuFuncSetAttribute": U(ARGS_DIFFER + "hipFuncSetAttribute takes a kernel function pointer, not a hipFunction_t; not available for module functions in HIP 5.2."),
    "cuFuncSetCacheConfig": U(ARGS_DIFFER + "hipFuncSetCacheConfig takes a kernel function pointer, not a hipFunction_t."),
    "cuFuncSetSharedMemConfig": U(ARGS_DIFFER + "hipFuncSetSharedMemConfig takes a kernel function pointer, not a hipFunction_t."),
    "cuCtxCreate_v4": U(ARGS_DIFFER + "CUDA 13's cuCtxCreate takes a CUctxCreateParams*; use hipCtxCreate(&ctx, flags, dev) (deprecated in HIP)."),
    "cuCtxGetDevice_v2": U(ARGS_DIFFER + "the CUDA 13 form takes a context; hipCtxGetDevice only queries the current one."),
    "cuCtxSynchronize_v2": U(ARGS_DIFFER + "the CUDA 13 form takes a context; use hipCtxSynchronize() on the current one."),
    "cuOccupancyMaxPotentialBlockSize": U(ARGS_DIFFER + "use hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, dynSmem, blockLimit) (no size callback)."),
    "cuOccupancyMaxPotentialBlockSizeWithFlags": U(ARGS_DIFFER + "use hipModuleOccupancyMaxPotentialBlockSizeWithFlags (no size callback)."),
    "cuMemAdvise_v2": S("hipMemAdvise", note="CUDA 13 takes a CUmemLocation; HIP takes a device ordinal"),
    "cuMemPrefetchAsync_v2": S("hipMemPrefetchAsync", note="CUDA 13 takes a CUmemLocation and flags; HIP takes a device ordinal"),
    "cuCtxSetLimit": U64("hipDeviceSetLimit", "hipDeviceSetLimit is not in HIP 5.2; HIP 6.4 "
                         "declares it (HIP limits are per device, not per context)."),
    "cuDeviceGetProperties": U("deprecated CUdevprop query; use hipGetDeviceProperties."),
    "CUDA_VERSION": S("HIP_VERSION", note=(
        "different encoding: CUDA_VERSION is 1000*major + 10*minor (13000), "
        "HIP_VERSION is 10000000*major + 100000*minor + patch; rewrite numeric comparisons.")),
    # Driver handle and enum types whose HIP names do not follow the CUx -> hipX rule
    # (checked in /usr/include/hip/hip_runtime_api.h, texture_types.h, surface_types.h).
    "CUcontext": S("hipCtx_t"),
    "CUresult": S("hipError_t", note="CUDA_* driver error codes map to the hipError* values of hipError_t"),
    # HIP's HIP_SUCCESS / HIP_ERROR_* are an unnamed enum numbered 0..3, not
    # hipError_t values (hipErrorNotInitialized is 3, not 2): comparing a
    # hipError_t with them is wrong, and a CUresult variable cannot hold them.
    "CUDA_SUCCESS": S("hipSuccess"),
    "CUDA_ERROR_INVALID_VALUE": S("hipErrorInvalidValue"),
    "CUDA_ERROR_NOT_INITIALIZED": S("hipErrorNotInitialized"),
    "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES": S("hipErrorLaunchOutOfResources"),
    "CUdevice_attribute": S("hipDeviceAttribute_t"),
    "CUtexObject": S("hipTextureObject_t"),
    "CUsurfObject": S("hipSurfaceObject_t"),
    "CU_CTX_SCHED_AUTO": S("hipDeviceScheduleAuto"),
    "CU_CTX_SCHED_SPIN": S("hipDeviceScheduleSpin"),
    "CU_CTX_SCHED_YIELD": S("hipDeviceScheduleYield"),
    "CU_CTX_SCHED_BLOCKING_SYNC": S("hipDeviceScheduleBlockingSync"),
    "CU_CTX_MAP_HOST": S("hipDeviceMapHost"),
    "CU_CTX_LMEM_RESIZE_TO_MAX": S("hipDeviceLmemResizeToMax"),
    "cuCtxAttach": U("deprecated in CUDA, no HIP equivalent; use hipCtxGetCurrent."),
    "cuCtxDetach": U("deprecated in CUDA, no HIP equivalent; use hipCtxDestroy."),
}
for _n in ["cuGraphAddDependencies_v2", "cuGraphRemoveDependencies_v2", "cuGraphGetEdges_v2",
           "cuGraphNodeGetDependencies_v2", "cuGraphNodeGetDependentNodes_v2"]:
    DRIVER[_n] = {"note": "the CUDA 12.3+ form has an extra edge-data argument that HIP does not take; drop it (it must be NULL)"}
# The driver's graph memcpy and memset nodes take CUDA_MEMCPY3D and
# CUDA_MEMSET_NODE_PARAMS (and a context); HIP's runtime-named functions take
# the runtime's hipMemcpy3DParms and hipMemsetParams. HIP 6.4's hipDrvGraph*
# take the driver's structs, as CUDA's do; HIP 5.2 has none of them, and no
# HIP declares a driver form of the memset node's get and set.
DRIVER_GRAPH_REASON = ("not in HIP 5.2, whose hip%s takes the runtime's struct (HIP 6.4 declares "
                       "hipDrv%s, with the driver's structs as CUDA's)")
for _n in ["cuGraphAddMemcpyNode", "cuGraphAddMemsetNode", "cuGraphExecMemcpyNodeSetParams",
           "cuGraphExecMemsetNodeSetParams", "cuGraphMemcpyNodeGetParams", "cuGraphMemcpyNodeSetParams"]:
    DRIVER[_n] = U64("hipDrv" + _n[2:], DRIVER_GRAPH_REASON % (_n[2:], _n[2:]))
for _n in ["cuGraphMemsetNodeGetParams", "cuGraphMemsetNodeSetParams"]:
    DRIVER[_n] = U("HIP has no driver form of it: hip%s takes the runtime's hipMemsetParams, "
                   "not CUDA_MEMSET_NODE_PARAMS." % _n[2:])
# Same names, other parameters (found by verify_use.py); no cast makes them fit.
for _n in ["cuMemcpyPeer", "cuMemcpyPeerAsync"]:
    DRIVER[_n] = U("HIP's hip%s takes device ordinals, not contexts (CUcontext); call it with "
                   "the devices of the two contexts." % _n[2:])
for _n in ["cuTexRefGetAddressMode", "cuTexRefSetAddressMode", "cuTexRefGetFilterMode",
           "cuTexRefSetFilterMode", "cuTexRefGetMipmapFilterMode", "cuTexRefSetMipmapFilterMode"]:
    DRIVER[_n] = U("texture references (removed from the CUDA runtime in 12.0): HIP's hip%s takes "
                   "a textureReference * and the runtime's enums, not CUtexref and the driver's "
                   "CUaddress_mode/CUfilter_mode; use texture objects." % _n[2:])
DRIVER["cuDeviceGetTexture1DLinearMaxWidth"] = U(
    "HIP 6.4 declares hipDeviceGetTexture1DLinearMaxWidth(hipMemPool_t *, int), not CUDA's "
    "(size_t *, format, channels, device).")
for _n in ["cuLaunch", "cuLaunchGrid", "cuLaunchGridAsync", "cuParamSetf", "cuParamSeti",
           "cuParamSetSize", "cuParamSetTexRef", "cuParamSetv", "cuFuncSetBlockShape",
           "cuFuncSetSharedSize"]:
    DRIVER[_n] = U("deprecated pre-CUDA-4 launch API; use hipModuleLaunchKernel.")
RULES["driver"] = DRIVER


# ---------------------------------------------------------------- libraries
BLAS_L1 = ("amax", "amin", "asum", "axpy", "copy", "dot", "dotc", "dotu", "nrm2", "rot",
           "rotg", "rotm", "rotmg", "scal", "swap")
HIPBLAS_61 = ("hipBLAS 2.1.0 (ROCm 6.1.0) release notes: level-1 ILP64 (_64) API and "
              "hipblasGet/SetMathMode; earlier versions do not have them.")
CUBLAS_NONE = {
    "cublasGetCudartVersion": "no hipBLAS equivalent; use hipRuntimeGetVersion.",
    "cublasSetWorkspace": "hipBLAS manages its workspace itself (the hipBLAS 6.4 headers declare no hipblasSetWorkspace); remove the call.",
    "cublasLoggerConfigure": "cuBLAS logging has no hipBLAS equivalent (rocBLAS uses ROCBLAS_LAYER); remove the call.",
    "cublasSetLoggerCallback": "cuBLAS logging has no hipBLAS equivalent; remove the call.",
    "cublasGetLoggerCallback": "cuBLAS logging has no hipBLAS equivalent; remove the call.",
    "cublasSetSmCountTarget": "no hipBLAS equivalent; remove the call.",
    "cublasGetSmCountTarget": "no hipBLAS equivalent; remove the call.",
    "cublasMigrateComputeType": "no hipBLAS equivalent.",
    "cublasXerbla": "no hipBLAS equivalent.",
    "cublasUint8gemmBias": "no hipBLAS equivalent.",
    "cublasGetStatusName": "no hipBLAS equivalent; hipblasStatusToString gives the description.",
}


def _cublas_refine(e):
    n = re.sub(r"_v2(_64)?$", r"\1", e["cuda"])
    if n in CUBLAS_NONE or re.sub(r"_64$", "", n) in CUBLAS_NONE:
        e.pop("hip", None)
        e["status"] = "unsupported"
        e["reason"] = CUBLAS_NONE.get(n) or CUBLAS_NONE[re.sub(r"_64$", "", n)]
        return
    if n == "cublasGetStatusString":
        e.pop("status", None)
        e.pop("reason", None)
        e["hip"] = "hipblasStatusToString"
        return
    if n in ("cublasGetMathMode", "cublasSetMathMode"):
        e["hip_since"] = "6.1"
        e["note"] = HIPBLAS_61
        return
    if re.search(r"(Emulation|GroupedBatched|gemm3m|Cgemm3m|Zgemm3m|Cgemm3mEx|SgemmEx|CgemmEx|"
                 r"Cherk3mEx|CherkEx|Csyrk3mEx|CsyrkEx)", n) and \
            e.get("status") != "unsupported":
        e.pop("hip", None)
        e["status"] = "unsupported"
        e["reason"] = "no hipBLAS equivalent known to cu2dcu; use hipblasGemmEx (or the plain typed call)."
        return
    if n.endswith("_64") and e.get("hip"):
        base = re.sub(r"ex$", "", n[len("cublas"):-3].lower())
        if base.endswith(BLAS_L1):
            e["hip_since"] = "6.1"
            e["note"] = HIPBLAS_61
        else:
            e.pop("hip", None)
            e["status"] = "unsupported"
            e["reason"] = ("ILP64 (_64) level-2/3 hipBLAS API is not in HIP 5.2-era hipBLAS; "
                           "later version not recorded. Use the 32-bit call.")


RF_NOTE = ("hipsolverRf is documented from the ROCm 5.7 hipSOLVER docs on "
           "(rocm.docs.amd.com/projects/hipSOLVER/en/docs-5.7.0); earlier versions not checked.")


def _cusolver_refine(e):
    n = e["cuda"]
    if n.startswith(("cusolverSp", "CUSOLVERSP")) or n in ("csrqrInfo", "csrqrInfo_t"):
        e.pop("hip", None)
        e["status"] = "unsupported"
        e["reason"] = ("cusolverSp: hipSOLVER's sparse compatibility API is partial; the "
                       "hipSOLVER 6.4 headers do not declare this name. Port by hand "
                       "(rocSOLVER/hipSPARSE).")
    elif n.startswith(("cusolverMg", "CUSOLVERMG", "cudaLibMg", "CUDALIBMG")):
        e.pop("hip", None)
        e["status"] = "unsupported"
        e["reason"] = "multi-GPU cuSOLVER (cusolverMg) has no hipSOLVER equivalent."
    elif n.startswith(("cusolverRf", "CUSOLVERRF")) and e.get("hip"):
        e["hip_since"] = "5.7"
        e["note"] = RF_NOTE
    elif n in ("gesvdjInfo_t", "syevjInfo_t"):
        e.pop("status", None)
        e.pop("reason", None)
        e["hip"] = {"gesvdjInfo_t": "hipsolverGesvdjInfo_t", "syevjInfo_t": "hipsolverSyevjInfo_t"}[n]


# cuDNN -> MIOpen: only calls whose argument lists correspond one to one.
MIO = {
    "cudnnCreate": "miopenCreate", "cudnnDestroy": "miopenDestroy",
    "cudnnSetStream": "miopenSetStream", "cudnnGetStream": "miopenGetStream",
    "cudnnGetErrorString": "miopenGetErrorString",
    "cudnnHandle_t": "miopenHandle_t", "cudnnStatus_t": "miopenStatus_t",
    "cudnnDataType_t": "miopenDataType_t",
    "CUDNN_STATUS_SUCCESS": "miopenStatusSuccess",
    "CUDNN_STATUS_NOT_INITIALIZED": "miopenStatusNotInitialized",
    "CUDNN_STATUS_ALLOC_FAILED": "miopenStatusAllocFailed",
    "CUDNN_STATUS_BAD_PARAM": "miopenStatusBadParm",
    "CUDNN_STATUS_INTERNAL_ERROR": "miopenStatusInternalError",
    "CUDNN_STATUS_NOT_SUPPORTED": "miopenStatusUnsupportedOp",
    "CUDNN_DATA_FLOAT": "miopenFloat", "CUDNN_DATA_HALF": "miopenHalf",
    "CUDNN_DATA_INT8": "miopenInt8", "CUDNN_DATA_INT32": "miopenInt32",
    "CUDNN_DATA_BFLOAT16": "miopenBFloat16",
}
# Found by mappings/tools/candidates.py: the same parameters once the types are
# mapped, and the same meaning by the two libraries' documentation.
MIO.update({n: n.replace("cudnn", "miopen") for n in [
    "cudnnDropoutGetReserveSpaceSize", "cudnnDropoutGetStatesSize", "cudnnGetConvolutionGroupCount",
    "cudnnSetConvolutionGroupCount", "cudnnGetPoolingNdForwardOutputDim",
    "cudnnGetReductionIndicesSize", "cudnnGetReductionWorkspaceSize"]})
MIO["cudnnSetTensor4dDescriptorEx"] = "miopenSet4dTensorDescriptorEx"
for _d in ["Tensor", "Convolution", "Activation", "Pooling", "LRN", "Dropout", "RNN",
           "CTCLoss", "ReduceTensor"]:
    MIO["cudnn%sDescriptor_t" % _d] = "miopen%sDescriptor_t" % _d
    MIO["cudnnCreate%sDescriptor" % _d] = "miopenCreate%sDescriptor" % _d
    MIO["cudnnDestroy%sDescriptor" % _d] = "miopenDestroy%sDescriptor" % _d
MIO_ALT = {
    "cudnnSetTensor4dDescriptor": "miopenSet4dTensorDescriptor (no format argument: NCHW only)",
    "cudnnSetTensorNdDescriptor": "miopenSetTensorDescriptor",
    "cudnnGetTensor4dDescriptor": "miopenGet4dTensorDescriptor",
    "cudnnSetConvolution2dDescriptor": "miopenInitConvolutionDescriptor",
    "cudnnSetConvolutionNdDescriptor": "miopenInitConvolutionNdDescriptor",
    "cudnnConvolutionForward": "miopenConvolutionForward (algorithm from miopenFindConvolutionForwardAlgorithm, explicit workspace)",
    "cudnnConvolutionBackwardData": "miopenConvolutionBackwardData",
    "cudnnConvolutionBackwardFilter": "miopenConvolutionBackwardWeights",
    "cudnnConvolutionBackwardBias": "miopenConvolutionBackwardBias",
    "cudnnFindConvolutionForwardAlgorithm": "miopenFindConvolutionForwardAlgorithm",
    "cudnnGetConvolutionForwardWorkspaceSize": "miopenConvolutionForwardGetWorkSpaceSize",
    "cudnnSetActivationDescriptor": "miopenSetActivationDescriptor",
    "cudnnActivationForward": "miopenActivationForward",
    "cudnnActivationBackward": "miopenActivationBackward",
    "cudnnSetPooling2dDescriptor": "miopenSet2dPoolingDescriptor",
    "cudnnPoolingForward": "miopenPoolingForward (extra workspace arguments)",
    "cudnnPoolingBackward": "miopenPoolingBackward",
    "cudnnSoftmaxForward": "miopenSoftmaxForward_V2",
    "cudnnSoftmaxBackward": "miopenSoftmaxBackward_V2",
    "cudnnBatchNormalizationForwardTraining": "miopenBatchNormalizationForwardTraining",
    "cudnnBatchNormalizationForwardInference": "miopenBatchNormalizationForwardInference",
    "cudnnBatchNormalizationBackward": "miopenBatchNormalizationBackward",
    "cudnnAddTensor": "miopenOpTensor with miopenTensorOpAdd",
    "cudnnOpTensor": "miopenOpTensor",
    "cudnnSetTensor": "miopenSetTensor",
    "cudnnScaleTensor": "miopenScaleTensor",
    "cudnnTransformTensor": "miopenTransformTensor",
    "cudnnReduceTensor": "miopenReduceTensor",
    "cudnnLRNCrossChannelForward": "miopenLRNForward",
    "cudnnLRNCrossChannelBackward": "miopenLRNBackward",
    "cudnnDropoutForward": "miopenDropoutForward",
    "cudnnDropoutBackward": "miopenDropoutBackward",
    "cudnnRNNForward": "miopenRNNForward",
    "cudnnCTCLoss": "miopenCTCLoss",
    "cudnnGetVersion": "miopenGetVersion (returns major, minor, patch through pointers)",
}
CUDNN = {k: S(v, note="MIOpen counterpart (checked against MIOpen 6.4 headers)")
         for k, v in MIO.items()}
for _k, _v in MIO_ALT.items():
    CUDNN[_k] = U("argument lists differ from MIOpen; port by hand to %s." % _v)
RULES["cudnn"] = CUDNN
RULES.setdefault("nccl", {})["pncclGetLastError"] = U(
    "implementation detail of the CUDA library headers, not documented API; RCCL's hidden "
    "pncclGetError is not documented either: call ncclGetLastError.")

# Header guards that code tests as "was this library's header included?"
# (checked in each HIP header: hiprand.h, hipsparse.h's export header; hipblas.h
# defines HIPBLAS_H in ROCm's sources).
for _fam, _cuda, _hip in (("curand", "CURAND_H_", "HIPRAND_H_"),
                          ("cusparse", "CUSPARSEAPI", "HIPSPARSE_EXPORT"),
                          ("cublas", "CUBLAS_API_H_", "HIPBLAS_H"),
                          ("cufft", "_CUFFT_H_", "HIPFFT_H_"),
                          ("cusolver", "CUSOLVER_COMMON_H_", "HIPSOLVER_H")):
    RULES.setdefault(_fam, {})[_cuda] = {"kind": "macro", "hip": _hip, "defined_only": True}


# ------------------------------------------------ checked against HIP 6.4
# The library families above are paired by naming rule, since their HIP
# headers are not installed with HIP 5.2.  Checked against the HIP 6.4 library
# headers (hipBLAS 6.4.4, hipFFT 6.4.3, hipSOLVER 6.4.1, RCCL 5.4.3, rocThrust
# 6.4.4 from Debian; scripts/fetch-hip64.sh, then python3
# mappings/tools/verify.py --hip-prefix build/hip-6.4), these rule pairings name
# nothing there: (pattern on the CUDA name, reason).
def _v(lib):
    return "not declared by %s (checked against the 6.4 headers); " % lib


# Debian unstable has no hipBLASLt 6.4: its libhipblaslt-dev 7.1 is what
# scripts/fetch-hip64.sh fetches and the generator reads.
HIPBLASLT_HDRS = "not declared by hipBLASLt (checked against the 7.1 headers); "
_VER = ("version macro of the CUDA library: the HIP library numbers its versions "
        "differently (%s in %s); rewrite the version test.")
NOT_IN_LIB64 = {
    "cublas": [
        (r"cublas(Asum|Copy|Iamax|Iamin|Rotg|Rotm|Rotmg|Swap)Ex(_64)?$", _v("hipBLAS 6.4") +
         "hipBLAS has the Ex form only of axpy, dot, dotc, nrm2, rot and scal: use the typed "
         "call (e.g. hipblasSasum)."),
        (r"cublas[SDCZ]matinvBatched$", _v("hipBLAS 6.4") +
         "invert with hipblas<t>getrfBatched + hipblas<t>getriBatched."),
        (r"cublas[SDCZ](tpttr|trttp)$", _v("hipBLAS 6.4") + "no equivalent known to cu2dcu."),
        (r"cublas(HSH|HSS|TSS|TST)gemv(Strided)?Batched(_64)?$", _v("hipBLAS 6.4") +
         "no mixed-precision (half/bfloat16) batched gemv: convert to float and use "
         "hipblasSgemv(Strided)Batched."),
        (r"cublasGetProperty$|cublasGetVersion(_v2)?$", _v("hipBLAS 6.4") +
         "hipBLAS's version is given by the macros hipblasVersionMajor/Minor/Patch "
         "(hipblas/hipblas-version.h)."),
        (r"cublasContext$", _v("hipBLAS 6.4") + "opaque handle struct: use hipblasHandle_t."),
        (r"cublasLogCallback$", "cuBLAS logging has no hipBLAS equivalent; remove the call."),
        (r"CUBLAS_\w*EMULAT", _v("hipBLAS 6.4") + "cuBLAS emulation modes have no equivalent."),
        (r"CUBLAS_GEMM_(ALGO\d+(_TENSOR_OP)?|AUTOTUNE)$", _v("hipBLAS 6.4") +
         "hipblasGemmAlgo_t has only HIPBLAS_GEMM_DEFAULT (the algorithm is a hint): use it."),
        (r"CUBLAS_OP_CONJG$", _v("hipBLAS 6.4") +
         "conjugate without transpose is not a hipBLAS operation (HIPBLAS_OP_N/T/C only)."),
        (r"CUBLAS_STATUS_LICENSE_ERROR$", _v("hipBLAS 6.4") + "hipBLAS has no license check."),
        (r"CUBLAS_VER_\w+$|CUBLAS_VERSION$",
         _VER % ("hipblasVersionMajor/Minor/Patch", "hipblas/hipblas-version.h")),
    ],
    "cublaslt": [
        (r"cublasLtMatmulAlgo(Init|GetIds|Check|CapGetAttribute|ConfigGetAttribute|"
         r"ConfigSetAttribute)$|cublasLtMatmul(AlgoCap|AlgoConfig)Attributes_t$|"
         r"cublasLt(MatmulTile|MatmulStages|MatmulInnerShape|ClusterShape|ReductionScheme|"
         r"MatmulSearch|NumericalImplFlags|PointerModeMask)_t$|CUBLASLT_(MATMUL_TILE|"
         r"MATMUL_STAGES|MATMUL_INNER_SHAPE|CLUSTER_SHAPE|REDUCTION_SCHEME|SEARCH|"
         r"NUMERICAL_IMPL_FLAGS|POINTER_MODE_MASK|ALGO_CAP|ALGO_CONFIG)\w*$",
         HIPBLASLT_HDRS + "hipBLASLt does not expose cuBLASLt's algorithm configuration "
         "(tiles, stages, split-K, reduction schemes, capabilities): take the algorithm "
         "hipblasLtMatmulAlgoGetHeuristic returns."),
        (r"cublasLtLogger\w+$", "cuBLASLt logging has no hipBLASLt call; remove the call."),
        (r"CUBLASLT_MATMUL_DESC_(COMPUTE|SCALE)_TYPE$", HIPBLASLT_HDRS +
         "hipBLASLt takes the compute and scale types only as hipblasLtMatmulDescCreate's "
         "arguments; there is no attribute for them."),
        (r"cublasLtGetProperty$|cublasLtGetCudartVersion$",
         HIPBLASLT_HDRS + "hipblasLtGetVersion gives hipBLASLt's version."),
        (r"cublasLt\w*|CUBLASLT_\w*", HIPBLASLT_HDRS + "no equivalent known to cu2dcu."),
    ],
    "cufft": [
        (r"cufft(Get|Set)PlanPropertyInt64$|cufftResetPlanProperty$|cufftProperty(_t)?$",
         _v("hipFFT 6.4") + "plan properties have no equivalent."),
        (r"cufftXt(QueryPlan|SetWorkArea|SetWorkAreaPolicy)$|cufftXt(1dFactors|QueryType|"
         r"WorkAreaPolicy)(_t)?$|CUFFT_(QUERY|WORKAREA)_\w+$", _v("hipFFT 6.4") +
         "hipFFT's Xt API has no plan queries or work-area policies."),
        (r"cufftXtSetJITCallback$|cufftJITCallback\w+$|CUFFT_(NVJITLINK|NVRTC)_FAILURE$",
         _v("hipFFT 6.4") + "JIT (LTO) callbacks have no equivalent; hipfftXtSetCallback takes "
         "precompiled device callbacks."),
        (r"cufftCompatibility(_t)?$|CUFFT_COMPATIBILITY_\w+$", _v("hipFFT 6.4") +
         "FFTW compatibility modes have no equivalent (hipFFT uses the native layout)."),
        (r"CUFFT_XT_FORMAT_DISTRIBUTED_\w+$|CUFFT_NVSHMEM_FAILURE$|CUFFT_MISSING_DEPENDENCY$|"
         r"CUFFT_PLAN_NULL$", _v("hipFFT 6.4") + "no equivalent known to cu2dcu."),
        (r"CUFFT_VER_\w+$|CUFFT_VERSION$",
         _VER % ("hipfftVersionMajor/Minor/Patch", "hipfft/hipfft-version.h")),
    ],
    "cusolver": [
        (r"cusolverDn(CE|CK|CY|DB|DH|DS|DX|SB|SH|SX|ZC|ZE|ZK|ZY)ge(sv|ls)(_bufferSize)?$|"
         r"cusolverDnIRS\w+$|cusolver(IRSRefinement|PrecType|Norm)_t$|"
         r"CUSOLVER_(IRS_REFINE_\w+|PREC_\w+|[RC]_\w+|\w+_NORM|STATUS_IRS_\w+)$",
         _v("hipSOLVER 6.4") + "no mixed-precision iterative-refinement solvers: use the "
         "same-precision hipsolverDn<t><t>gesv/gels (SS, DD, CC, ZZ) or getrf/getrs."),
        (r"cusolverDn[SDCZ](laswp|lauum|sytri)(_bufferSize)?$",
         _v("hipSOLVER 6.4") + "no equivalent known to cu2dcu."),
        (r"cusolverDnX(geev|gesvd|gesvdp|gesvdr|larft|syevBatched|syevd|syevdx|sytrs|trtri)"
         r"(_bufferSize)?$|cusolver(DirectMode|StorevMode)_t$|CUSOLVERDN_(POTRF|SYEVBATCHED)$",
         _v("hipSOLVER 6.4") + "its 64-bit API (hipsolverDnX*) has only geqrf, gesvdj, getrf, "
         "getrs, potrf, potrs and syevj: use the typed 32-bit call (e.g. hipsolverDnDsyevd)."),
        (r"cusolverDn(Get|Set)(MathMode|EmulationStrategy)$|cusolverMathMode_t$|"
         r"CUSOLVER_(DEFAULT_MATH|FP32_EMULATED_BF16X9_MATH)$",
         _v("hipSOLVER 6.4") + "cuSOLVER math and emulation modes have no equivalent; remove the call."),
        (r"cusolverDnLogger\w+$", "cuSOLVER logging has no hipSOLVER equivalent; remove the call."),
        (r"cusolverGetProperty$|cusolverGetVersion$", _v("hipSOLVER 6.4") +
         "hipSOLVER's version is given by hipsolverVersionMajor/Minor/Patch "
         "(hipsolver/internal/hipsolver-version.h)."),
        (r"cusolverRfGetAlgs$|cusolverRfCommon$", _v("hipSOLVER 6.4") +
         "hipsolverRf has no such call or type."),
        (r"cusolverDnContext$|cusolverDnParams$|gesvdjInfo$|syevjInfo$", _v("hipSOLVER 6.4") +
         "opaque struct: use the handle typedef (hipsolverDnHandle_t, hipsolverDnParams_t, "
         "hipsolverGesvdjInfo_t, hipsolverSyevjInfo_t)."),
        (r"cusolver_int_t$", _v("hipSOLVER 6.4") + "write int."),
        (r"CUSOLVER_ALG_2$", _v("hipSOLVER 6.4") + "hipsolverAlgMode_t has HIPSOLVER_ALG_0 and _1."),
        (r"CUSOLVER_STATUS_(INVALID_LICENSE|INVALID_WORKSPACE)$", _v("hipSOLVER 6.4") +
         "no equivalent status."),
        (r"CUSOLVER_(CPP_VERSION|DEPRECATED_|DEPRECATED_ENUM)$",
         "cuSOLVER header macro; no hipSOLVER counterpart."),
        (r"CUSOLVER_VER_\w+$|CUSOLVER_VERSION$",
         _VER % ("hipsolverVersionMajor/Minor/Patch", "hipsolver/internal/hipsolver-version.h")),
    ],
}


def _lib64_refine(fam, e):
    """The reason of a rule pairing the 6.4 headers do not declare."""
    if e.get("hip"):
        return
    for pat, reason in NOT_IN_LIB64[fam]:
        if re.match(pat, e["cuda"]):
            for k in ("hip", "hip_since", "note"):
                e.pop(k, None)
            e["status"] = "unsupported"
            e["reason"] = reason
            return


# the same name with another signature (found by verify_use.py)
RULES["cublaslt"] = {"cublasLtGetVersion": U(
    "hipblasLtGetVersion takes the handle and an int * where cuBLASLt's returns a size_t: "
    "rewrite as hipblasLtGetVersion(handle, &version).")}
RULES["cublas"].update({
    "CUBLAS_GEMM_DFALT": S("HIPBLAS_GEMM_DEFAULT", note="old spelling of CUBLAS_GEMM_DEFAULT"),
    "CUBLAS_GEMM_DEFAULT_TENSOR_OP": S("HIPBLAS_GEMM_DEFAULT", note=(
        "deprecated in cuBLAS (the default uses tensor cores); hipblasGemmAlgo_t has only "
        "HIPBLAS_GEMM_DEFAULT")),
    "CUBLAS_GEMM_DFALT_TENSOR_OP": S("HIPBLAS_GEMM_DEFAULT", note=(
        "deprecated in cuBLAS (the default uses tensor cores); hipblasGemmAlgo_t has only "
        "HIPBLAS_GEMM_DEFAULT")),
    "CUBLAS_OP_HERMITAN": S("HIPBLAS_OP_C", note="alias of CUBLAS_OP_C"),
    "cublasDataType_t": S("hipDataType", note="cublasDataType_t is a typedef of cudaDataType"),
})
# Parameters HIP declares less const than CUDA (found by verify_use.py): an
# argument C++ will not convert implicitly is cast to HIP's type.
QUALIFIER_CASTS = {
    "driver": dict({n: {"1": "void *"} for n in ("cuMemcpyHtoD_v2", "cuMemcpyHtoDAsync_v2")},
                   cuMipmappedArrayCreate={"1": "HIP_ARRAY3D_DESCRIPTOR *"}),
    "cusparse": {"cusparseSpVV_bufferSize": {"4": "void *"}},
    "cublas": dict(
        {"cublasGemmBatchedEx": {"7": "const void **", "10": "const void **", "14": "void **"}},
        **{"cublas%sgetrsBatched" % t: {"4": "%s *const *" % c}
           for t, c in (("S", "float"), ("D", "double"), ("C", "hipComplex"),
                        ("Z", "hipDoubleComplex"))},
        **{"cublas%sgetriBatched" % t: {"2": "%s *const *" % c, "4": "int *"}
           for t, c in (("S", "float"), ("D", "double"), ("C", "hipComplex"),
                        ("Z", "hipDoubleComplex"))}),
}
for _fam, _casts in QUALIFIER_CASTS.items():
    for _n, _cast in _casts.items():
        RULES.setdefault(_fam, {}).setdefault(_n, {})["qualifier_casts"] = _cast
# atomicAdd's overloads on CUDA's 16-bit float types, which HIP lacks.
RULES.setdefault("device", {})["atomicAdd"] = S("atomicAdd", shim_by_param=dict({
    param: shim for shim, params in api_shims.FP16_ATOMIC_PARAMS.items() for param in params},
    **{param: api_shims.VECTOR_ATOMIC_ADD["atomicAdd"] for param in api_shims.VECTOR_ATOMIC_PARAMS}))
for _n, (_param, _, _, _) in dict(api_shims.SIGNED_BITWISE, **api_shims.FLOAT_SINCOS).items():
    RULES["device"].setdefault(_n, {})["shim_by_param"] = {_param: api_shims.overload_shim_name(_n)}
for _n, (_index, _, _) in api_shims.LEGACY_GEMM.items():
    RULES["cublas"].setdefault(_n, {})["shim_by_param"] = {
        "%d:cudaDataType" % _index: api_shims.legacy_gemm_shim_name(_n)}
for _n in api_shims.HALF2_LANEWISE:
    RULES["fp16"][_n] = {"shim_by_param": {"__half2": api_shims.half2_shim_name(_n)}}
# 16-bit float overloads HIP lacks or gets wrong, computed per lane in float.
for _n, _keys in api_shims.LANE_SHIMS.items():
    RULES["fp16"].setdefault(_n, {}).setdefault("shim_by_param", {}).update(
        {api_shims.shim_param(_n, _k): api_shims.lane_shim_name(_n, _k) for _k in _keys})
RULES["device"]["atomicAdd_system"] = S("atomicAdd_system", shim_by_param={
    param: api_shims.VECTOR_ATOMIC_ADD["atomicAdd_system"] for param in api_shims.VECTOR_ATOMIC_PARAMS})
# Shims written from one rule per group (api_shims.py): block-scope atomics,
# the system-scope wrap-around atomics, directed rounding, NVTX's naming.
# NVTX's character-neutral macros (nvtxNameCudaStream) name the A functions.
for _n in list(api_shims.shims()) + [_a[:-1] for _a in api_shims.shims() if _a.startswith("nvtx")]:
    _fam = api_shims.family(_n if _n in api_shims.shims() else _n + "A")
    RULES.setdefault(_fam, {})[_n] = U(
        "roctx cannot name CUDA resources; the shim does nothing on AMD, where a name would "
        "only label a profile, and is CUDA's own on NVIDIA." if _fam == "nvtx" else
        NOT_IN_HIP + "; the shim stands in on AMD (its description in the output says how).",
        shim=api_shims.shim_name(_n if _n in api_shims.shims() else _n + "A"))
RULES["device"]["__vmaxs4"] = U(
    "not declared in the HIP 5.2 or 6.4 headers; the shim computes the per-byte maximum.",
    shim="cu2dcu_vmaxs4")
# cooperative_groups/reduce.h: HIP 5.2 and 6.4 have neither cg::reduce nor its
# operators; the shims reduce over a tile with shuffles on AMD.
CG_REDUCE_REASON = ("cooperative_groups::reduce and its operators are not declared in the HIP "
                    "5.2 or 6.4 headers; the cu2dcu_cg_* shims stand in (a butterfly of "
                    "shfl_xor over the tile on AMD).")
RULES["coop"] = {"cooperative_groups::" + _n: U(CG_REDUCE_REASON, shim="cu2dcu_cg_" + _n)
                 for _n in ["reduce", "plus", "less", "greater", "bit_and", "bit_or", "bit_xor"]}
RULES.setdefault("cusparse", {})["cusparseGetErrorString"] = S(
    "hipsparseGetErrorString", hip_since="6.4", shim="cu2dcu_hipsparseGetErrorString",
    note=None)
# hipsparse.h (HIP 5.2 and 6.4): hipsparseSpSM_solve takes the buffer given to
# hipsparseSpSM_analysis as a last argument, which cusparseSpSM_solve (CUDA 12
# on) no longer has: the analysis shim records it per descriptor, the solve
# shim passes it.
SPSM_REASON = ("SpSM solve buffer: hipsparseSpSM_solve takes the external buffer given to "
               "hipsparseSpSM_analysis as an 11th argument, which cuSPARSE's call (CUDA 12 "
               "on) no longer has; the shims keep the analysis buffer per descriptor and "
               "pass it to the solve.")
# HIP's gebsr buffer sizes are size_t, CUDA's int: a cast of the pointer would
# let hipSPARSE write 8 bytes into a 4-byte int.
# CUDA's *_bufferSizeExt takes the size_t *: that one is HIP's function.
for _t in "SDCZ":
    for _n in ("cusparse%scsr2gebsr_bufferSize" % _t, "cusparse%sgebsr2gebsc_bufferSize" % _t):
        _hip = "hip" + _n[2:]
        RULES["cusparse"][_n] = U("HIP's %s writes the size to a size_t *, CUDA's to an int *: "
                                  "declare the size as size_t and call %sExt, which is %s."
                                  % (_hip, _n, _hip))
        RULES["cusparse"][_n + "Ext"] = S(_hip)
RULES["cusparse"]["cusparseSpSM_analysis"] = U(SPSM_REASON,
                                               shim="cu2dcu_hipsparseSpSM_analysis")
RULES["cusparse"]["cusparseSpSM_solve"] = U(SPSM_REASON, shim="cu2dcu_hipsparseSpSM_solve")
RULES.setdefault("cufft", {})["CUFFT_INVERSE"] = S(
    "HIPFFT_BACKWARD", note="CUFFT_INVERSE is CUFFT_BACKWARD (1)")
# NCCL 2.28's ncclAlltoAll is RCCL's ncclAllToAll (same arguments, rccl/rccl.h)
RULES.setdefault("nccl", {}).update({"ncclAlltoAll": S("ncclAllToAll"),
                                     "pncclAlltoAll": S("pncclAllToAll")})
for _h in ["thrust/iterator/offset_iterator.h", "thrust/iterator/tabulate_output_iterator.h",
           "thrust/type_traits/unwrap_contiguous_iterator.h"]:
    RULES.setdefault("thrust", {})[_h] = U(
        "not in rocThrust 6.4 (checked against its headers); no equivalent known to cu2dcu.",
        note=None)
