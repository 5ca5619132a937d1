// Guards a program's definition of a function that HIP declares on AMD and
// CUDA does not (mappings/collisions/hip_declared.yaml) for HIP's NVIDIA path
// only, and reports it (CU2DCU-HIP-DECLARED). Both modes call it: the AST
// translator (match/HipDeclaredCollisionTranslator) on what clang parsed, the
// lexical pass on inactive branches and files without an AST.
#pragma once

#include "core/TranslationResult.h"
#include "mapping/ApiMap.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace cu2dcu {

/// The lines [Begin, End) spans, from the first line's start to the last
/// line's end (before its newline), when no other declaration shares them:
/// the range a guard (#if ... #endif) can wrap.
std::optional<ByteRange> wholeLines(const std::string &Text, unsigned Begin, unsigned End);

/// Whether Name is a CUDA built-in vector type (float4, uchar2, ...), which
/// HIP on AMD replaces by HIP_vector_type.
bool isCudaVectorTypeName(llvm::StringRef Name);

/// The definition spans Text[Begin, End); Vector is the CUDA vector type its
/// VECTOR parameters have.
void guardHipDeclaredDefinition(const HipDeclaredFunction &Entry, const std::string &Vector,
                                const std::string &Text, const std::string &Path, unsigned Begin,
                                unsigned End, FileFindings &Out);

} // namespace cu2dcu
