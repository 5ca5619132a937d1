#include "match/MissingMemberCheck.h"

#include "core/CheckIds.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"

namespace cu2dcu {

const ApiEntry *MissingMemberCheck::entryListing(clang::QualType Base,
                                                 const std::string &Member) const {
  auto Listing = [&](const std::string &Name) -> const ApiEntry * {
    const ApiEntry *E = Context.map().lookup(Name);
    return E && E->MissingMembers.count(Member) ? E : nullptr;
  };
  for (clang::QualType T = Base; !T.isNull();) {
    if (const auto *Typedef = T->getAs<clang::TypedefType>()) {
      if (const ApiEntry *E = Listing(Typedef->getDecl()->getNameAsString()))
        return E;
      T = Typedef->desugar();
      continue;
    }
    if (const clang::RecordDecl *Record = T->getAsRecordDecl())
      return Listing(Record->getNameAsString());
    return nullptr;
  }
  return nullptr;
}

void MissingMemberCheck::handle(const clang::MemberExpr *Access) {
  const auto *Field = llvm::dyn_cast<clang::FieldDecl>(Access->getMemberDecl());
  if (!Field || Field->getName().empty())
    return;
  clang::QualType Base = Access->getBase()->getType();
  if (Access->isArrow() && Base->isPointerType())
    Base = Base->getPointeeType();
  const std::string Member = Field->getNameAsString();
  const ApiEntry *Entry = entryListing(Base.getUnqualifiedType(), Member);
  if (!Entry || !Entry->isSupported())
    return;
  const std::optional<HipVersion> &Since = Entry->MissingMembers.at(Member);
  const HipVersion &Target = Context.options().TargetHip;
  if (Since && !(Target < *Since))
    return;
  Context.report(Access->getMemberLoc(), check_ids::Member, Severity::Error,
                 "'" + Entry->Cuda + "::" + Member + "' has no counterpart in '" + Entry->Hip +
                     "' of HIP " + Target.str() +
                     (Since ? " ('" + Member + "' is there from HIP " + Since->str() + ")"
                            : " (nor in any HIP version checked)") +
                     ": the port does not compile here; read the value another way "
                     "(hipDeviceGetAttribute for device properties) or drop the use");
}

} // namespace cu2dcu
