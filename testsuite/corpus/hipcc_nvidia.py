#!/usr/bin/env python3
"""hipcc for HIP's NVIDIA path where no HIP is installed: runs nvcc as
hipcc does with HIP_PLATFORM=nvidia (sources as CUDA, __HIP_PLATFORM_NVIDIA__
defined), with the project's compat headers (scripts/hip-nvidia) as the HIP
include folder. The corpus runner's GPU mode puts it on PATH as `hipcc`, so
that translated Makefiles build unchanged.

Environment: CU2DCU_NVCC (default nvcc), CU2DCU_SM (default 90),
CU2DCU_HIP_NVIDIA_INCLUDE (required).

hipcc (clang) flags become nvcc's: --offload-arch=* -> -arch=sm_XX,
-fgpu-rdc -> -rdc=true, -ffast-math and the device-only
`-Xarch_device -funsafe-math-optimizations` -> --use_fast_math,
-fgpu-flush-denormals-to-zero -> -ftz=true, other `-Xarch_device X` dropped,
`-Xarch_host X` -> -Xcompiler X, other host-compiler
flags (-W*, -f*, -m*, -pthread) -> -Xcompiler; AMD-only ones
(-munsafe-fp-atomics, --hip-link) are dropped.
"""
import os
import sys

SOURCE_EXTS = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip")
# Flags nvcc takes as they are, alone or with their value attached.
NVCC_OWN = ("-O", "-g", "-c", "-o", "-I", "-D", "-U", "-L", "-l", "-std=", "-isystem",
            "-include", "-E", "-M", "-x", "-shared", "-w", "-Xcompiler", "-Xlinker")
SEPARATE_VALUE = {"-o", "-I", "-D", "-U", "-L", "-l", "-isystem", "-include", "-x",
                  "-Xcompiler", "-Xlinker"}
# hipcc-only flags with no meaning on NVIDIA (gcc and nvcc reject them): dropped.
DROPPED = {"-munsafe-fp-atomics", "-mno-unsafe-fp-atomics", "--hip-link"}
RENAMED = {"-fgpu-rdc": "-rdc=true", "-ffast-math": "--use_fast_math",
           "-fno-gpu-rdc": "-rdc=false", "-fgpu-default-stream=per-thread": "--default-stream=per-thread",
           "-fgpu-default-stream=legacy": "--default-stream=legacy",
           "-fgpu-flush-denormals-to-zero": "-ftz=true", "-fno-gpu-flush-denormals-to-zero": "-ftz=false"}
# clang's flags for device code only (-Xarch_device X): nvcc's own counterpart.
DEVICE_ONLY = {"-funsafe-math-optimizations": "--use_fast_math", "-ffast-math": "--use_fast_math"}


def translate(argv):
    """nvcc's arguments for hipcc's argv (without the program name)."""
    out, inputs = [], []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("--offload-arch") or arg.startswith("--amdgpu-target"):
            if "=" not in arg:
                i += 1  # the target is the next argument
        elif arg in DROPPED:
            pass
        elif arg in ("-Xarch_device", "-Xarch_host") and i + 1 < len(argv):
            i += 1
            if arg == "-Xarch_host":
                out += ["-Xcompiler", argv[i]]
            elif argv[i] in DEVICE_ONLY:
                out.append(DEVICE_ONLY[argv[i]])
        elif arg in RENAMED:
            out.append(RENAMED[arg])
        elif arg == "-x" and i + 1 < len(argv) and argv[i + 1] == "hip":
            out += ["-x", "cu"]
            i += 1
        elif arg in SEPARATE_VALUE and i + 1 < len(argv):
            out += [arg, argv[i + 1]]
            i += 1
        elif arg.startswith(NVCC_OWN):
            out.append(arg)
        elif arg.startswith(("-W", "-f", "-m", "-pthread")) or arg == "-rdynamic":
            out += ["-Xcompiler", arg]
        elif not arg.startswith("-"):
            inputs.append(arg)
            out.append(arg)
        else:
            out.append(arg)
        i += 1
    sources = [p for p in inputs if p.endswith(SOURCE_EXTS)]
    # hipcc compiles every source as HIP; nvcc's -x applies to all inputs,
    # so it is only given when there is nothing else to read.
    language = ["-x", "cu"] if sources and len(sources) == len(inputs) and "-x" not in out else []
    return language + out


def main():
    include = os.environ.get("CU2DCU_HIP_NVIDIA_INCLUDE")
    if not include or not os.path.isfile(os.path.join(include, "hip", "hip_runtime.h")):
        sys.exit("hipcc_nvidia.py: CU2DCU_HIP_NVIDIA_INCLUDE names no compat headers")
    nvcc = os.environ.get("CU2DCU_NVCC", "nvcc")
    sm = os.environ.get("CU2DCU_SM", "90")
    command = ([nvcc, "-arch=sm_" + sm, "-D__HIP_PLATFORM_NVIDIA__", "-isystem", include]
               + translate(sys.argv[1:]))
    os.execvp(nvcc, command)


if __name__ == "__main__":
    main()
