#include "match/HipDeclaredCollisionTranslator.h"

#include "core/CheckIds.h"
#include "core/SourceText.h"
#include "translate/HipDeclaredGuard.h"

#include "clang/AST/ASTContext.h"

namespace cu2dcu {

namespace {

/// A CUDA built-in vector type (float4, uchar2, longlong1, ...): a struct of
/// vector_types.h, which HIP on AMD replaces by HIP_vector_type.
bool isCudaVectorType(clang::QualType Type, const clang::SourceManager &SM) {
  const auto *Record = Type->getAsRecordDecl();
  return Record && SM.isInSystemHeader(Record->getLocation()) &&
         isCudaVectorTypeName(Record->getName());
}

/// Whether the parameter types of Function are Expected (VECTOR: one CUDA
/// vector type in every such place), references and top-level const removed.
bool parametersMatch(const clang::FunctionDecl *Function, const std::vector<std::string> &Expected,
                     const clang::SourceManager &SM) {
  if (Function->getNumParams() != Expected.size())
    return false;
  const clang::PrintingPolicy Policy(Function->getASTContext().getLangOpts());
  std::optional<clang::QualType> Vector;
  for (unsigned I = 0; I < Expected.size(); ++I) {
    clang::QualType Type =
        Function->getParamDecl(I)->getType().getNonReferenceType().getUnqualifiedType();
    Type = Type.getCanonicalType();
    if (Expected[I] == "VECTOR") {
      if (!isCudaVectorType(Type, SM) || (Vector && *Vector != Type))
        return false;
      Vector = Type;
    } else if (Type.getAsString(Policy) != Expected[I]) {
      return false;
    }
  }
  return true;
}

/// The CUDA vector type among Function's parameters ("float4"), if any.
std::string vectorNameOf(const clang::FunctionDecl *Function) {
  const clang::SourceManager &SM = Function->getASTContext().getSourceManager();
  for (const clang::ParmVarDecl *P : Function->parameters()) {
    clang::QualType Type = P->getType().getNonReferenceType().getCanonicalType();
    if (isCudaVectorType(Type, SM))
      return Type->getAsRecordDecl()->getName().str();
  }
  return "VECTOR";
}

} // namespace

const HipDeclaredFunction *
HipDeclaredCollisionTranslator::collidingEntry(const clang::FunctionDecl *Function) const {
  std::string Name = Function->getNameAsString();
  for (const HipDeclaredFunction &Entry : Context.map().hipDeclared())
    if (Entry.Function == Name && !(Context.options().TargetHip < Entry.Since) &&
        parametersMatch(Function, Entry.Parameters, Context.sourceManager()))
      return &Entry;
  return nullptr;
}

void HipDeclaredCollisionTranslator::handle(const clang::FunctionDecl *Function) {
  if (!Function->doesThisDeclarationHaveABody() || Function->isTemplateInstantiation() ||
      Function->getDescribedFunctionTemplate() || llvm::isa<clang::CXXMethodDecl>(Function))
    return;
  const HipDeclaredFunction *Entry = collidingEntry(Function);
  if (!Entry)
    return;
  auto Range = Context.resolveRange(Function->getSourceRange());
  if (!Range)
    return;
  guardHipDeclaredDefinition(*Entry, vectorNameOf(Function), Context.textOf(Range->File),
                             Context.pathOf(Range->File), Range->Begin, Range->End,
                             Context.findingsFor(Range->File));
}

} // namespace cu2dcu
