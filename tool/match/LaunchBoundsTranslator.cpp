#include "match/LaunchBoundsTranslator.h"

#include "lexical/EntryTranslation.h"

#include "clang/AST/Attr.h"

namespace cu2dcu {

void LaunchBoundsTranslator::handle(const clang::FunctionDecl *Function) {
  for (const auto *Bounds : Function->specific_attrs<clang::CUDALaunchBoundsAttr>()) {
    if (Bounds->isInherited() || !Bounds->getMinBlocks() || Bounds->getMaxBlocks())
      continue;
    auto MaxThreads = Context.resolveRange(Bounds->getMaxThreads()->getSourceRange());
    auto MinBlocks = Context.resolveRange(Bounds->getMinBlocks()->getSourceRange());
    if (!MaxThreads || !MinBlocks || MaxThreads->File != MinBlocks->File ||
        MinBlocks->Begin < MaxThreads->End)
      continue;
    const std::string &Text = Context.textOf(MinBlocks->File);
    std::string Removed = Text.substr(MinBlocks->Begin, MinBlocks->End - MinBlocks->Begin);
    FileFindings &Out = Context.findingsFor(MinBlocks->File);
    Out.Edits.push_back({MaxThreads->End, MinBlocks->End - MaxThreads->End, "", "launch-bounds",
                         "__launch_bounds__"});
    addFinding(Out, Text, Context.pathOf(MinBlocks->File), MinBlocks->Begin, check_ids::LaunchBounds,
               Severity::Warning,
               "removed __launch_bounds__ argument '" + Removed +
                   "': CUDA reads it as minimum blocks per SM, HIP as minimum waves per "
                   "execution unit, whose register cap can force spills on AMD");
  }
}

} // namespace cu2dcu
