// Guards a program's definition of a function that HIP declares on AMD and
// CUDA does not (mappings/collisions/hip_declared.yaml) for HIP's NVIDIA path
// only, and reports it (CU2DCU-HIP-DECLARED). Both modes call it: the AST
// translator (match/HipDeclaredCollisionTranslator) on what clang parsed, the
// lexical pass on inactive branches and files without an AST.
#pragma once

#include "core/TranslationResult.h"
#include "mapping/ApiMap.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace cu2dcu {

/// Whether Name is a CUDA built-in vector type (float4, uchar2, ...), which
/// HIP on AMD replaces by HIP_vector_type.
bool isCudaVectorTypeName(llvm::StringRef Name);

/// The definition spans Text[Begin, End); Vector is the CUDA vector type its
/// VECTOR parameters have.
void guardHipDeclaredDefinition(const HipDeclaredFunction &Entry, const std::string &Vector,
                                const std::string &Text, const std::string &Path, unsigned Begin,
                                unsigned End, FileFindings &Out);

} // namespace cu2dcu
