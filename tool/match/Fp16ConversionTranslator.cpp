#include "match/Fp16ConversionTranslator.h"

#include "clang/AST/DeclCXX.h"

namespace cu2dcu {

bool Fp16ConversionTranslator::isCudaHalfType(const clang::CXXRecordDecl *Record) const {
  if (!Record || !Record->getIdentifier() ||
      !Context.sourceManager().isInSystemHeader(Record->getLocation()))
    return false;
  const ApiEntry *Entry = Context.map().lookup(Record->getName().str());
  return Entry && Entry->Family == "fp16" && Entry->Kind == EntryKind::Type;
}

void Fp16ConversionTranslator::handle(const clang::ExplicitCastExpr *Cast) {
  convertThroughFloat(llvm::dyn_cast_or_null<clang::CXXConstructorDecl>(Cast->getConversionFunction()),
                      Cast->getSubExprAsWritten());
}

void Fp16ConversionTranslator::handle(const clang::CXXConstructExpr *Construct) {
  if (Construct->getNumArgs() == 1)
    convertThroughFloat(Construct->getConstructor(), Construct->getArg(0));
}

// A cast and the construction inside it both arrive; their edits are the same
// and the rewrite merges them.
void Fp16ConversionTranslator::convertThroughFloat(const clang::CXXConstructorDecl *Constructor,
                                                   const clang::Expr *Operand) {
  if (!Constructor || !Constructor->isExplicit() || Constructor->getNumParams() != 1)
    return;
  const clang::CXXRecordDecl *From =
      Constructor->getParamDecl(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!isCudaHalfType(Constructor->getParent()) || !isCudaHalfType(From) ||
      From->getCanonicalDecl() == Constructor->getParent()->getCanonicalDecl())
    return;
  auto Range = Context.resolveRange(Operand->IgnoreImplicit()->getSourceRange());
  if (!Range)
    return;
  FileFindings &Out = Context.findingsFor(Range->File);
  Out.Edits.push_back({Range->Begin, 0, "static_cast<float>(", "fp16", From->getName().str()});
  Out.Edits.push_back({Range->End, 0, ")", "fp16", From->getName().str()});
}

} // namespace cu2dcu
