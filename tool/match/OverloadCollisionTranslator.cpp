#include "match/OverloadCollisionTranslator.h"

#include "core/CheckIds.h"
#include "core/SourceText.h"
#include "translate/HipDeclaredGuard.h"
#include "translate/RawTokens.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/Support/raw_ostream.h"

namespace cu2dcu {

std::string OverloadCollisionTranslator::translatedSpelling(const std::string &Type) const {
  std::string Out;
  unsigned Done = 0;
  for (const RawToken &T : lexRaw(Type, 0, Type.size())) {
    if (T.Kind != clang::tok::raw_identifier)
      continue;
    const ApiEntry *Entry = Context.map().lookup(Type.substr(T.Offset, T.Length));
    if (!Entry || Entry->Hip.empty() || Entry->isMissingIn(Context.options().TargetHip))
      continue;
    Out += Type.substr(Done, T.Offset - Done) + Entry->Hip;
    Done = T.Offset + T.Length;
  }
  return Out + Type.substr(Done);
}

std::string OverloadCollisionTranslator::signature(const clang::FunctionDecl *Function,
                                                   bool Translated) const {
  clang::PrintingPolicy Policy(Function->getASTContext().getLangOpts());
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << Function->getQualifiedNameAsString() << '(';
  for (const clang::ParmVarDecl *P : Function->parameters()) {
    std::string Type = P->getType().getAsString(Policy);
    OS << (P == Function->parameters().front() ? "" : ", ")
       << (Translated ? translatedSpelling(Type) : Type);
  }
  OS << ')';
  if (const auto *Method = llvm::dyn_cast<clang::CXXMethodDecl>(Function))
    OS << (Method->isConst() ? " const" : "");
  return Text;
}

void OverloadCollisionTranslator::handle(const clang::FunctionDecl *Function) {
  if (!Function->doesThisDeclarationHaveABody() || Function->isTemplated() ||
      Function->isTemplateInstantiation() || Function->getNumParams() == 0)
    return;
  std::string Original = signature(Function, false), Translated = signature(Function, true);
  auto [It, New] = First.try_emplace(Translated, Kept{Function, Original});
  const Kept &Earlier = It->second;
  if (New || Earlier.Original == Original ||
      Earlier.Function->getCanonicalDecl() == Function->getCanonicalDecl())
    return;
  auto Range = Context.resolveRange(Function->getSourceRange());
  auto KeptAt = Context.resolve(Earlier.Function->getLocation());
  if (!Range || !KeptAt)
    return;
  const std::string &Text = Context.textOf(Range->File);
  std::string Message = "'" + Original + "' becomes '" + Translated + "' under HIP, as '" +
                        Earlier.Original + "' (line " +
                        std::to_string(Context.lineColumnOf(KeptAt->File, KeptAt->Offset).first) +
                        ") does: a redefinition there";
  std::optional<ByteRange> Lines = wholeLines(Text, Range->Begin, Range->End);
  if (!Lines)
    return Context.report(Function->getLocation(), check_ids::Collision, Severity::Error,
                          Message + "; it shares a line with other code, so it is left as written");
  FileFindings &Out = Context.findingsFor(Range->File);
  Out.Edits.push_back({Lines->Begin, 0,
                       "#if 0 // cu2dcu: the same function as '" + Translated + "' under HIP\n",
                       "collision", Function->getNameAsString()});
  Out.Edits.push_back({Lines->End, 0, "\n#endif", "collision", Function->getNameAsString()});
  Context.report(Function->getLocation(), check_ids::Collision, Severity::Warning,
                 Message + ", so this definition is left out (#if 0) and its calls reach the "
                           "other, which takes the same HIP values: check that it handles what "
                           "this one did");
}

} // namespace cu2dcu
