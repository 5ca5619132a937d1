#include "match/RegisterKeywordTranslator.h"

#include "translate/EntryTranslation.h"

namespace cu2dcu {

void RegisterKeywordTranslator::handle(const clang::VarDecl *Var) {
  if (Var->getStorageClass() != clang::SC_Register)
    return;
  // The keyword lies between the start of the declaration and its name.
  auto Range = Context.resolveRange({Var->getBeginLoc(), Var->getLocation()});
  if (!Range)
    return;
  const std::string &Text = Context.textOf(Range->File);
  if (auto Removal = registerKeywordRemoval(Text, Range->Begin, Range->End))
    Context.findingsFor(Range->File).Edits.push_back(*Removal);
}

} // namespace cu2dcu
