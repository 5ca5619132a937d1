/* cu2dcu wave64 emulation, part 1 of 2: the wavefront size.
 *
 * Installed as hip/cu2dcu_wave64_config.h by
 * `scripts/hip-nvidia/make-compat-headers.py --wave64` and included at the end
 * of hip/hip_common.h, so it comes before every HIP declaration (in particular
 * hipDeviceProp_t) and after the CUDA runtime headers nvcc includes itself.
 * docs/wave64-emulation.md describes the whole emulation and its limits. */
#ifndef CU2DCU_WAVE64_CONFIG_H
#define CU2DCU_WAVE64_CONFIG_H

#define __CU2DCU_WAVE64_EMULATION__ 1
/* What clang defines when it compiles for a wave64 AMD target. */
#define __AMDGCN_WAVEFRONT_SIZE 64
#define __AMDGCN_WAVEFRONT_SIZE__ 64

#if defined(__CUDACC__)
/* CUDA headers that use the name warpSize (as a default argument) are read
 * before it is redefined below, so CUDA's own code keeps its 32. */
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif

/* HIP's warpSize is a constant usable in host and device code (HIP 5.2:
 * `static constexpr int warpSize`). CUDA's is a device built-in variable that
 * the compiler fixes at 32, so the name itself is redirected. A member named
 * warpSize (hipDeviceProp_t's, thrust's enumerators) is renamed alike, which
 * keeps `prop.warpSize` working. */
static constexpr int __cu2dcu_w64_warpSize = 64;
#define warpSize __cu2dcu_w64_warpSize

#endif /* CU2DCU_WAVE64_CONFIG_H */
