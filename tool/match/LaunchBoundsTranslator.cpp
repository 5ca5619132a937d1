#include "match/LaunchBoundsTranslator.h"

#include "translate/EntryTranslation.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/CharInfo.h"

namespace cu2dcu {

namespace {

/// The identifier spelled right before the '(' that precedes Offset
/// (`__launch_bounds__ (` in `__launch_bounds__ (256, 2)`), if any.
std::optional<ByteRange> nameBeforeParen(const std::string &Text, unsigned Offset) {
  auto SkipBlanksBack = [&](unsigned &I) {
    while (I > 0 && clang::isWhitespace(Text[I - 1]))
      --I;
  };
  unsigned I = Offset;
  SkipBlanksBack(I);
  if (I == 0 || Text[I - 1] != '(')
    return std::nullopt;
  --I;
  SkipBlanksBack(I);
  unsigned End = I;
  while (I > 0 && clang::isAsciiIdentifierContinue(Text[I - 1]))
    --I;
  if (I == End)
    return std::nullopt;
  return ByteRange{I, End};
}

} // namespace

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
    LaunchBoundsSpelling Use;
    Use.MaxThreadsEnd = MaxThreads->End;
    Use.MinBlocks = {MinBlocks->Begin, MinBlocks->End};
    if (auto Name = nameBeforeParen(Text, MaxThreads->Begin)) {
      llvm::StringRef Spelled(Text.data() + Name->Begin, Name->End - Name->Begin);
      const ApiEntry *Entry = Context.map().lookup("__launch_bounds__");
      if (Entry && Spelled == Entry->Shim)
        continue; // translated by an earlier run
      if (Spelled == "__launch_bounds__")
        Use.Name = Name;
    }
    translateLaunchBounds(Context.map(), Use, Text, Context.pathOf(MinBlocks->File),
                          Context.findingsFor(MinBlocks->File));
  }
}

} // namespace cu2dcu
