#ifndef SCALE_H
#define SCALE_H
/* A host/device helper shared with C sources, in the way HeCBench's frna
   writes it: the CUDA keywords only where the CUDA compiler reads the file. */
#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

HOST_DEVICE static inline float scale(float a, float x) { return a * x; }

#endif
