#!/usr/bin/env python3
"""Generate HIP-on-NVIDIA headers that compile with CUDA 13.

HIP's NVIDIA path (nvcc -D__HIP_PLATFORM_NVIDIA__) is a set of inline wrappers
in hip/nvidia_detail/*.h that forward hipXxx to cudaXxx.  The Debian HIP 5.2
headers were written against CUDA 11; CUDA 12/13 removed or changed some of
the APIs, struct fields and enumerators those wrappers touch, so the header
does not compile with CUDA 13.

This script copies the HIP include tree (default /usr/include/hip) into an
output folder (default build/hip-nvidia-include/hip) and patches the copy:

  * everyday APIs that only touch a removed field/enum are ADAPTED
    (hipGetDeviceProperties, hipDeviceGetAttribute, hipChooseDevice);
  * APIs whose CUDA counterpart changed signature are ADAPTED to the new
    signature (hipMemAdvise, hipMemPrefetchAsync, hipCtxCreate, the graph
    edge APIs, stream capture info);
  * APIs CUDA 13 removed entirely are STUBBED to return hipErrorNotSupported
    (texture references, multi-device cooperative launch), and the template
    overloads on the removed `texture<>` type are REMOVED;
  * the type and enumerators of hipMemLocation's location type, which HIP
    declares on AMD, are ADDED as CUDA's;
  * HIP's mask-less warp votes (__ballot, 64-bit; __any; __all) are ADDED to
    nvidia_hip_runtime.h, mapped to the *_sync forms over the active lanes
    (upstream already maps __shfl*; CUDA rejects mask-less votes on sm_70+);
  * HIP's mask-less shuffles are ADDED as functions too, for code that
    replaces upstream's __shfl* macros with its own;
  * HIP's device-side assert, which traps on every call (a missing pair of
    parentheses) and loses cudaErrorAssert, is REMOVED so CUDA's own applies;
  * two upstream typos are fixed (a duplicated CUDA_11010 define, a missing
    return in hipModuleGetTexRef).

Every edit must match exactly once; a mismatch (other HIP version) is an
error, never a silent skip.  The source tree is never modified.

With --wave64 (default output build/hip-nvidia-wave64-include) the headers
also EMULATE AMD's 64-lane wavefront: warpSize, hipDeviceProp_t::warpSize,
hipDeviceAttributeWarpSize and __AMDGCN_WAVEFRONT_SIZE are 64, and HIP's
cross-lane operations span the two NVIDIA warps of a wavefront
(scripts/hip-nvidia/wave64/, docs/wave64-emulation.md).

Usage: make-compat-headers.py [--wave64] [--src /usr/include/hip] [--out DIR]
Then:  nvcc -x cu -D__HIP_PLATFORM_NVIDIA__ -isystem <out> file.cpp
(-isystem keeps the deprecation warnings of the wrappers out of the build log.)
"""
import argparse
import os
import re
import shutil
import sys

API = "nvidia_detail/nvidia_hip_runtime_api.h"
RUNTIME = "nvidia_detail/nvidia_hip_runtime.h"
COMMON = "hip_common.h"
WAVE64_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wave64")
WAVE64_HEADERS = ("cu2dcu_wave64_config.h", "cu2dcu_wave64_core.h", "cu2dcu_wave64.h")
MARK = "/* cu2dcu-compat: "


class PatchError(Exception):
    pass


def sub_once(text, old, new, why):
    """Exact replacement; the comment is part of `new` where wanted."""
    n = text.count(old)
    if n != 1:
        raise PatchError(f"expected exactly one match ({why}), found {n}:\n{old}")
    return text.replace(old, new, 1)


def find_definitions(text, name):
    """Yield (decl_start, body_open, body_end) of inline definitions of `name`."""
    for m in re.finditer(r"\b" + re.escape(name) + r"\s*\(", text):
        # match the parameter list parentheses
        i = m.end() - 1
        depth = 0
        while i < len(text):
            c = text[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        j = i + 1
        while j < len(text) and text[j] in " \t\r\n":
            j += 1
        if j >= len(text) or text[j] != "{":
            continue  # a call or a declaration, not a definition
        # the declaration starts at the line holding "inline" (or "template" above it)
        line_start = text.rfind("\n", 0, m.start()) + 1
        k = line_start
        while "inline" not in text[k:m.start()] and k > 0:
            k = text.rfind("\n", 0, k - 1) + 1
        prev = text.rfind("\n", 0, k - 1) + 1
        if text[prev:k].lstrip().startswith("template"):
            k = prev
        depth = 0
        e = j
        while e < len(text):
            if text[e] == "{":
                depth += 1
            elif text[e] == "}":
                depth -= 1
                if depth == 0:
                    break
            e += 1
        yield k, j, e + 1


def edit_function(text, name, action, why, selector=None, expect=1):
    defs = [d for d in find_definitions(text, name)
            if selector is None or selector in text[d[0]:d[1]]]
    if len(defs) != expect:
        raise PatchError(f"{name}: expected {expect} definition(s) (selector {selector!r}), found {len(defs)}")
    for start, body, end in reversed(defs):
        if action == "remove":
            text = text[:start] + f"{MARK}removed {name}: {why} */" + text[end:]
        elif action == "stub":
            text = (text[:body] + "{\n    " + MARK + why + " */\n"
                    "    return hipErrorNotSupported;\n}" + text[end:])
        else:  # a new body
            text = text[:body] + "{\n    " + MARK + why + " */\n" + action + "\n}" + text[end:]
    return text


def patch_runtime_api(t):
    # ---- upstream typos that CUDA 13 builds warn about (behaviour unchanged)
    t = sub_once(t, "#define CUDA_11010 11020\n",
                 "#define CUDA_11020 11020 " + MARK + "upstream defined CUDA_11010 twice */\n",
                 "CUDA_11020")
    t = sub_once(t, "    hipCUResultTohipError(cuModuleGetTexRef(pTexRef, hmod, name));\n",
                 "    " + MARK + "upstream forgot the return */\n"
                 "    return hipCUResultTohipError(cuModuleGetTexRef(pTexRef, hmod, name));\n",
                 "hipModuleGetTexRef return")

    # ---- hipChooseDevice: cudaDeviceProp lost clockRate/computeMode/memoryClockRate
    for field in ("clockRate", "computeMode", "memoryClockRate"):
        t = sub_once(t, f"    cdprop.{field} = prop->{field};\n",
                     f"    {MARK}cudaDeviceProp::{field} removed in CUDA 13; not used for matching */\n",
                     f"hipChooseDevice {field}")

    # ---- hipGetDeviceProperties: fill removed fields from cudaDeviceGetAttribute
    t = sub_once(t, "    p_prop->clockRate = cdprop.clockRate;\n"
                    "    p_prop->memoryClockRate = cdprop.memoryClockRate;\n",
                 f"    {MARK}CUDA 13 removed these fields; the attributes remain */\n"
                 "    if (cerror == cudaSuccess) cerror = cudaDeviceGetAttribute(&p_prop->clockRate, cudaDevAttrClockRate, device);\n"
                 "    if (cerror == cudaSuccess) cerror = cudaDeviceGetAttribute(&p_prop->memoryClockRate, cudaDevAttrMemoryClockRate, device);\n",
                 "hipGetDeviceProperties clocks")
    t = sub_once(t, "    p_prop->computeMode = cdprop.computeMode;\n"
                    "    p_prop->clockInstructionRate = cdprop.clockRate; // Same as clock-rate:\n",
                 f"    {MARK}cudaDeviceProp::computeMode removed in CUDA 13 */\n"
                 "    if (cerror == cudaSuccess) cerror = cudaDeviceGetAttribute(&p_prop->computeMode, cudaDevAttrComputeMode, device);\n"
                 "    p_prop->clockInstructionRate = p_prop->clockRate; // Same as clock-rate:\n",
                 "hipGetDeviceProperties computeMode")
    t = sub_once(t, "    p_prop->cooperativeMultiDeviceLaunch = cdprop.cooperativeMultiDeviceLaunch;\n",
                 f"    {MARK}multi-device cooperative launch removed in CUDA 13: never supported */\n"
                 "    p_prop->cooperativeMultiDeviceLaunch = 0;\n",
                 "hipGetDeviceProperties cooperativeMultiDeviceLaunch")
    t = sub_once(t, "    p_prop->kernelExecTimeoutEnabled = cdprop.kernelExecTimeoutEnabled;\n",
                 f"    {MARK}cudaDeviceProp::kernelExecTimeoutEnabled removed in CUDA 13 */\n"
                 "    if (cerror == cudaSuccess) cerror = cudaDeviceGetAttribute(&p_prop->kernelExecTimeoutEnabled, cudaDevAttrKernelExecTimeout, device);\n",
                 "hipGetDeviceProperties kernelExecTimeoutEnabled")

    # ---- hipDeviceGetAttribute: enumerator removed
    t = sub_once(t, "            cdattr = cudaDevAttrCooperativeMultiDeviceLaunch;\n            break;\n",
                 f"            {MARK}cudaDevAttrCooperativeMultiDeviceLaunch removed in CUDA 13: report 0 */\n"
                 "            *pi = 0;\n            return hipSuccess;\n",
                 "hipDeviceGetAttribute CooperativeMultiDeviceLaunch")

    # ---- unified memory: int device -> cudaMemLocation
    loc = ("    struct cudaMemLocation loc;\n"
           "    memset(&loc, 0, sizeof(loc));\n"
           "    if (device == cudaCpuDeviceId) { loc.type = cudaMemLocationTypeHost; loc.id = 0; }\n"
           "    else { loc.type = cudaMemLocationTypeDevice; loc.id = device; }\n")
    t = edit_function(t, "hipMemAdvise", loc +
                      "    return hipCUDAErrorTohipError(cudaMemAdvise(dev_ptr, count,\n"
                      "        hipMemoryAdviseTocudaMemoryAdvise(advice), loc));",
                      "CUDA 13 cudaMemAdvise takes a cudaMemLocation")
    t = edit_function(t, "hipMemPrefetchAsync", loc +
                      "    return hipCUDAErrorTohipError(cudaMemPrefetchAsync(dev_ptr, count, loc, 0, stream));",
                      "CUDA 13 cudaMemPrefetchAsync takes a cudaMemLocation and flags")

    # ---- hipMemLocation is CUDA's struct here, but its type names are missing
    t = sub_once(t, "typedef struct cudaMemLocation hipMemLocation;\n",
                 "typedef struct cudaMemLocation hipMemLocation;\n"
                 f"{MARK}the location types HIP declares on AMD, as CUDA's */\n"
                 "typedef enum cudaMemLocationType hipMemLocationType;\n"
                 "#define hipMemLocationTypeInvalid cudaMemLocationTypeInvalid\n"
                 "#define hipMemLocationTypeDevice cudaMemLocationTypeDevice\n",
                 "hipMemLocationType")

    # ---- the context cache config takes HIP's hipFuncCache_t, as on AMD
    # (upstream: CUDA's CUfunc_cache; the two enums have the same values)
    t = sub_once(t, "inline static hipError_t hipCtxGetCacheConfig(hipFuncCache* cacheConfig) {\n"
                    "    return hipCUResultTohipError(cuCtxGetCacheConfig(cacheConfig));\n",
                 "inline static hipError_t hipCtxGetCacheConfig(hipFuncCache_t* cacheConfig) {\n"
                 f"    {MARK}hipFuncCache_t, as on AMD */\n"
                 "    CUfunc_cache config;\n"
                 "    CUresult status = cuCtxGetCacheConfig(&config);\n"
                 "    *cacheConfig = (hipFuncCache_t)config;\n"
                 "    return hipCUResultTohipError(status);\n",
                 "hipCtxGetCacheConfig")
    t = sub_once(t, "inline static hipError_t hipCtxSetCacheConfig(hipFuncCache cacheConfig) {\n"
                    "    return hipCUResultTohipError(cuCtxSetCacheConfig(cacheConfig));\n",
                 "inline static hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig) {\n"
                 f"    {MARK}hipFuncCache_t, as on AMD */\n"
                 "    return hipCUResultTohipError(cuCtxSetCacheConfig((CUfunc_cache)cacheConfig));\n",
                 "hipCtxSetCacheConfig")

    # ---- driver context creation gained a params argument
    t = sub_once(t, "cuCtxCreate(ctx, flags, device)",
                 "cuCtxCreate(ctx, NULL /* cu2dcu-compat: CUDA 13 params */, flags, device)",
                 "hipCtxCreate")

    # ---- graph edges gained edge data (NULL = default edges)
    t = sub_once(t, "cudaGraphAddDependencies(graph, from, to, numDependencies)",
                 "cudaGraphAddDependencies(graph, from, to, NULL /* cu2dcu-compat: edgeData */, numDependencies)",
                 "hipGraphAddDependencies")
    t = sub_once(t, "cudaGraphRemoveDependencies(graph, from, to, numDependencies)",
                 "cudaGraphRemoveDependencies(graph, from, to, NULL /* cu2dcu-compat: edgeData */, numDependencies)",
                 "hipGraphRemoveDependencies")
    t = sub_once(t, "cudaGraphGetEdges(graph, from, to, numEdges)",
                 "cudaGraphGetEdges(graph, from, to, NULL /* cu2dcu-compat: edgeData */, numEdges)",
                 "hipGraphGetEdges")
    t = sub_once(t, "cudaGraphNodeGetDependencies(node, pDependencies, pNumDependencies)",
                 "cudaGraphNodeGetDependencies(node, pDependencies, NULL /* cu2dcu-compat: edgeData */, pNumDependencies)",
                 "hipGraphNodeGetDependencies")
    t = sub_once(t, "cudaGraphNodeGetDependentNodes(node, pDependentNodes, pNumDependentNodes)",
                 "cudaGraphNodeGetDependentNodes(node, pDependentNodes, NULL /* cu2dcu-compat: edgeData */, pNumDependentNodes)",
                 "hipGraphNodeGetDependentNodes")
    t = sub_once(t, "cudaStreamGetCaptureInfo_v2(\n        stream, captureStatus_out, id_out, graph_out, dependencies_out, numDependencies_out)",
                 "cudaStreamGetCaptureInfo(/* cu2dcu-compat: _v2 folded into the CUDA 13 API */\n"
                 "        stream, captureStatus_out, id_out, graph_out, dependencies_out, NULL, numDependencies_out)",
                 "hipStreamGetCaptureInfo_v2")
    t = sub_once(t, "cudaStreamUpdateCaptureDependencies(stream, dependencies,\n",
                 "cudaStreamUpdateCaptureDependencies(stream, dependencies, NULL /* cu2dcu-compat: edgeData */,\n",
                 "hipStreamUpdateCaptureDependencies")

    # ---- APIs CUDA 13 removed: texture references, multi-device cooperative launch
    why = "CUDA 13 removed texture references"
    t = edit_function(t, "hipBindTexture", "stub", why, selector="struct textureReference*")
    t = edit_function(t, "hipBindTexture2D", "stub", why)
    t = edit_function(t, "hipGetTextureAlignmentOffset", "stub", why)
    t = edit_function(t, "hipLaunchCooperativeKernelMultiDevice", "stub",
                      "CUDA 13 removed cudaLaunchCooperativeKernelMultiDevice")
    for name, n in (("hipBindTexture", 2), ("hipUnbindTexture", 2), ("hipBindTextureToArray", 3)):
        t = edit_function(t, name, "remove", "CUDA 13 removed texture<> templates",
                          selector="texture<T, dim, readMode>", expect=n)
    return t


WARP_COMPAT = r"""
/* cu2dcu-compat: HIP's mask-less warp votes.  Upstream maps __shfl* to the
 * *_sync forms (nvidia_hip_runtime_api.h) but not __ballot, __any and __all,
 * whose mask-less CUDA forms ptxas rejects for sm_70 and later; HIP 5.2 has no
 * *_sync forms, so HIP code that is correct on AMD would not build here.  Map
 * them to the *_sync forms over the active lanes (HIP's semantics).  __ballot
 * returns 64 bits as in HIP (the upper 32 bits are 0 on a 32-lane warp).
 * Defined after all CUDA headers, so CUDA's own declarations are untouched. */
#if defined(__CUDACC__) && !defined(CU2DCU_NO_WARP_COMPAT)
__device__ inline unsigned long long __hip_compat_ballot(int pred) {
    return (unsigned long long)__ballot_sync(__activemask(), pred);
}
__device__ inline int __hip_compat_any(int pred) { return __any_sync(__activemask(), pred); }
__device__ inline int __hip_compat_all(int pred) { return __all_sync(__activemask(), pred); }
#define __ballot(p) __hip_compat_ballot(p)
#define __any(p) __hip_compat_any(p)
#define __all(p) __hip_compat_all(p)
#endif

/* cu2dcu-compat: HIP's mask-less shuffles as functions as well.  Upstream's
 * macros cover the calls, but code that defines one of these names itself
 * replaces the macro: a CUDA 9 shim `#define __shfl_down(v, d)
 * __shfl_down_sync(0xffffffff, v, d)` reads `__shfl_down(v, d)` once
 * translated for HIP 5.2 (HeCBench nbnxm), and for sm_70 and later CUDA
 * declares no such function.  The names are parenthesized so that the macros
 * do not expand them here. */
#if defined(__CUDACC__) && !defined(CU2DCU_NO_WARP_COMPAT)
template <typename T> __device__ inline T(__shfl)(T var, int src, int width = warpSize) {
    return __shfl_sync(0xffffffffu, var, src, width);
}
template <typename T> __device__ inline T(__shfl_up)(T var, unsigned int delta, int width = warpSize) {
    return __shfl_up_sync(0xffffffffu, var, delta, width);
}
template <typename T> __device__ inline T(__shfl_down)(T var, unsigned int delta, int width = warpSize) {
    return __shfl_down_sync(0xffffffffu, var, delta, width);
}
template <typename T> __device__ inline T(__shfl_xor)(T var, int mask, int width = warpSize) {
    return __shfl_xor_sync(0xffffffffu, var, mask, width);
}
#endif
"""


def keep_cuda_device_assert(t):
    """Upstream redefines assert in device code as `if (!COND) trap`: without
    parentheses `assert(gid < N)` reads `(!gid) < N` and traps in every
    thread, and a trap reports cudaErrorLaunchFailure where CUDA's own device
    assert prints the failed condition and reports cudaErrorAssert (HeCBench
    assert). CUDA's assert is the faithful form on this platform."""
    start = t.find("#undef assert\n#define assert(COND)")
    end = t.find("abort_();", start)
    end = t.find("    }\n", t.find("}", end) + 1) if end >= 0 else -1
    if start < 0 or end < 0 or t.count("#undef assert") != 1:
        raise PatchError("nvidia_hip_runtime.h: HIP's device assert not found")
    return (t[:start] + MARK + "CUDA's own device assert is kept (HIP's redefinition traps on "
            "every call and loses cudaErrorAssert). */\n" + t[end + len("    }\n"):])


def before_guard_end(t, guard, text, header):
    """`text` inserted before the last "#endif" (the include guard's)."""
    end = t.rstrip().rfind("#endif")
    if end < 0 or guard not in t:
        raise PatchError(f"{header}: include guard not found")
    return t[:end] + text + t[end:]


def patch_runtime(t):
    return before_guard_end(keep_cuda_device_assert(t), "HIP_INCLUDE_HIP_NVIDIA_DETAIL_HIP_RUNTIME_H",
                            WARP_COMPAT + "\n", "nvidia_hip_runtime.h")


WAVE64_WARP = r"""
/* cu2dcu-compat: wave64 emulation of HIP's cross-lane operations
 * (hip/cu2dcu_wave64.h), and HIP's mask-less shuffles as functions as well,
 * for code that replaces those macros with its own (see the plain compat
 * headers' note on HeCBench nbnxm). */
#include <hip/cu2dcu_wave64.h>
#if defined(__CUDACC__)
template <typename T> __device__ inline T(__shfl)(T var, int src, int width = warpSize) {
    return ::__cu2dcu_w64::shfl(__CU2DCU_W64_SITE, var, src, width);
}
template <typename T> __device__ inline T(__shfl_up)(T var, unsigned int delta, int width = warpSize) {
    return ::__cu2dcu_w64::shfl_up(__CU2DCU_W64_SITE, var, delta, width);
}
template <typename T> __device__ inline T(__shfl_down)(T var, unsigned int delta, int width = warpSize) {
    return ::__cu2dcu_w64::shfl_down(__CU2DCU_W64_SITE, var, delta, width);
}
template <typename T> __device__ inline T(__shfl_xor)(T var, int mask, int width = warpSize) {
    return ::__cu2dcu_w64::shfl_xor(__CU2DCU_W64_SITE, var, mask, width);
}
#endif
"""


def patch_runtime_api_wave64(t):
    """The plain patches, then the wavefront size reported as 64 and upstream's
    shuffle macros left to the emulation."""
    t = patch_runtime_api(t)
    t = sub_once(t, "    cdprop.warpSize = prop->warpSize;\n",
                 f"    {MARK}wave64 emulation: every device has 64-lane wavefronts; not matched */\n",
                 "hipChooseDevice warpSize")
    t = sub_once(t, "    p_prop->warpSize = cdprop.warpSize;\n",
                 f"    {MARK}wave64 emulation */\n    p_prop->warpSize = 64;\n",
                 "hipGetDeviceProperties warpSize")
    t = sub_once(t, "        case hipDeviceAttributeWarpSize:\n            cdattr = cudaDevAttrWarpSize;\n            break;\n",
                 "        case hipDeviceAttributeWarpSize:\n"
                 f"            {MARK}wave64 emulation */\n            *pi = 64;\n            return hipSuccess;\n",
                 "hipDeviceGetAttribute WarpSize")
    for name in ("__shfl", "__shfl_up", "__shfl_down", "__shfl_xor"):
        old = f"#define {name}(...) "
        start = t.find(old)
        end = t.find("\n", start)
        if start < 0 or t.count(old) != 1:
            raise PatchError(f"upstream's {name} macro not found")
        t = t[:start] + f"{MARK}{name}: hip/cu2dcu_wave64.h */" + t[end:]
    return t


def patch_runtime_wave64(t):
    return before_guard_end(keep_cuda_device_assert(t), "HIP_INCLUDE_HIP_NVIDIA_DETAIL_HIP_RUNTIME_H",
                            WAVE64_WARP + "\n", "nvidia_hip_runtime.h")


def patch_common_wave64(t):
    """The wavefront size is set before any HIP declaration."""
    return before_guard_end(t, "HIP_INCLUDE_HIP_HIP_COMMON_H",
                            MARK + "wave64 emulation */\n#include <hip/cu2dcu_wave64_config.h>\n",
                            "hip_common.h")


def patches(wave64):
    if wave64:
        return {API: patch_runtime_api_wave64, RUNTIME: patch_runtime_wave64,
                COMMON: patch_common_wave64}
    return {API: patch_runtime_api, RUNTIME: patch_runtime}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default="/usr/include/hip")
    ap.add_argument("--wave64", action="store_true",
                    help="emulate AMD's 64-lane wavefront (default --out build/hip-nvidia-wave64-include)")
    ap.add_argument("--out")
    a = ap.parse_args()
    out = a.out or ("build/hip-nvidia-wave64-include" if a.wave64 else "build/hip-nvidia-include")
    dst = os.path.join(out, "hip")
    if not os.path.isdir(a.src):
        sys.exit(f"make-compat-headers: no HIP headers at {a.src}")
    edits = patches(a.wave64)
    tmp = dst + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(a.src, tmp, symlinks=False)
    try:
        for rel, fn in edits.items():
            p = os.path.join(tmp, rel)
            with open(p) as f:
                text = f.read()
            new = fn(text)
            with open(p, "w") as f:
                f.write("/* Generated by scripts/hip-nvidia/make-compat-headers.py from "
                        + os.path.join(a.src, rel) + "; do not edit. */\n" + new)
    except PatchError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        sys.exit(f"make-compat-headers: {e}")
    if a.wave64:
        for name in WAVE64_HEADERS:
            shutil.copy(os.path.join(WAVE64_DIR, name), os.path.join(tmp, name))
    shutil.rmtree(dst, ignore_errors=True)
    os.rename(tmp, dst)
    n = sum(open(os.path.join(dst, r)).read().count(MARK) for r in edits)
    print(f"make-compat-headers: wrote {dst} ({n} compat edits{', wave64 emulation' if a.wave64 else ''})")


if __name__ == "__main__":
    main()
