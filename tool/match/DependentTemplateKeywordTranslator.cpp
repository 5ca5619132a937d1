#include "match/DependentTemplateKeywordTranslator.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace cu2dcu {

/// Whether the class template that Qualifier names (`vec_cast<T, S>`), or
/// one of its specializations, declares a member template called Name.
static bool namesMemberTemplate(clang::NestedNameSpecifier Qualifier,
                                clang::DeclarationName Name) {
  const clang::Type *Type = Qualifier.getAsType();
  const auto *Specialization = Type ? Type->getAs<clang::TemplateSpecializationType>() : nullptr;
  const auto *Template = Specialization
                             ? llvm::dyn_cast_or_null<clang::ClassTemplateDecl>(
                                   Specialization->getTemplateName().getAsTemplateDecl())
                             : nullptr;
  if (!Template)
    return false;
  auto Declares = [&](const clang::CXXRecordDecl *Record) {
    return Record && llvm::any_of(Record->lookup(Name), [](const clang::NamedDecl *D) {
             return llvm::isa<clang::FunctionTemplateDecl, clang::ClassTemplateDecl,
                              clang::VarTemplateDecl, clang::TypeAliasTemplateDecl>(D);
           });
  };
  llvm::SmallVector<clang::ClassTemplatePartialSpecializationDecl *, 4> Partials;
  Template->getPartialSpecializations(Partials);
  return Declares(Template->getTemplatedDecl()) ||
         llvm::any_of(Template->specializations(), Declares) || llvm::any_of(Partials, Declares);
}

void DependentTemplateKeywordTranslator::handle(const clang::Expr *LeftOperand) {
  const auto *Name =
      llvm::dyn_cast<clang::DependentScopeDeclRefExpr>(LeftOperand->IgnoreParenImpCasts());
  if (!Name || Name->hasTemplateKeyword() || Name->hasExplicitTemplateArgs() ||
      !namesMemberTemplate(Name->getQualifier(), Name->getDeclName()))
    return;
  auto Position = Context.resolve(Name->getNameInfo().getLoc());
  if (!Position)
    return;
  Context.findingsFor(Position->File).Edits.push_back(
      Edit{Position->Offset, 0, "template ", "keyword", "template"});
}

} // namespace cu2dcu
