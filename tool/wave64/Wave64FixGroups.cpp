#include "wave64/Wave64FixGroups.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace cu2dcu {

namespace {

using Place = std::pair<clang::FileID, unsigned>;

/// The namespace-scope declarations of the translated files (functions with
/// their lambdas, classes, constants), and which of them references which.
class DeclarationMap : public clang::RecursiveASTVisitor<DeclarationMap> {
  using Base = clang::RecursiveASTVisitor<DeclarationMap>;

public:
  struct Declaration {
    Place Begin;
    unsigned End = 0;
    bool Kernel = false;
  };
  struct Reference {
    unsigned From;
    Place To;
  };
  std::vector<Declaration> Declarations;
  std::vector<Reference> References;

  explicit DeclarationMap(SourceContext &Context) : Context(Context) {}

  bool TraverseDecl(clang::Decl *D) {
    if (!D || Current || llvm::isa<clang::TranslationUnitDecl, clang::NamespaceDecl,
                                   clang::LinkageSpecDecl>(D))
      return Base::TraverseDecl(D);
    if (!add(D))
      return true; // nothing of it is translated
    Current = Declarations.size() - 1;
    Base::TraverseDecl(D);
    Current.reset();
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) { return refer(E->getDecl()); }
  bool VisitMemberExpr(clang::MemberExpr *E) { return refer(E->getMemberDecl()); }

  /// The declaration written around P, if any.
  std::optional<unsigned> declarationAt(Place P) const {
    auto After = std::upper_bound(Sorted.begin(), Sorted.end(), P,
                                  [&](const Place &Q, unsigned I) { return Q < Declarations[I].Begin; });
    if (After == Sorted.begin())
      return std::nullopt;
    const Declaration &D = Declarations[*std::prev(After)];
    if (D.Begin.first != P.first || P.second > D.End)
      return std::nullopt;
    return *std::prev(After);
  }
  /// Sorts the declarations by place for declarationAt; call once, after the walk.
  void index() {
    Sorted.resize(Declarations.size());
    for (unsigned I = 0; I < Sorted.size(); ++I)
      Sorted[I] = I;
    llvm::sort(Sorted, [&](unsigned A, unsigned B) { return Declarations[A].Begin < Declarations[B].Begin; });
  }
  /// Declarations whose text overlaps (`struct S {...} s;`), pairwise in place order.
  template <typename Fn> void forOverlapping(Fn Join) const {
    for (size_t I = 1; I < Sorted.size(); ++I) {
      const Declaration &Prev = Declarations[Sorted[I - 1]], &Next = Declarations[Sorted[I]];
      if (Prev.Begin.first == Next.Begin.first && Next.Begin.second <= Prev.End)
        Join(Sorted[I - 1], Sorted[I]);
    }
  }

  Place placeOf(clang::SourceLocation Loc) const {
    return Context.sourceManager().getDecomposedLoc(Context.sourceManager().getExpansionLoc(Loc));
  }

private:
  bool add(const clang::Decl *D) {
    const clang::SourceManager &SM = Context.sourceManager();
    clang::SourceRange R = D->getSourceRange();
    if (R.isInvalid())
      return false;
    Place Begin = placeOf(R.getBegin()), End = placeOf(R.getEnd());
    if (Begin.first != End.first || !Context.isTranslated(Begin.first))
      return false;
    const clang::FunctionDecl *F = D->getAsFunction();
    Declarations.push_back({Begin, End.second + clang::Lexer::MeasureTokenLength(
                                                    SM.getExpansionLoc(R.getEnd()), SM, {}),
                            F && F->hasAttr<clang::CUDAGlobalAttr>()});
    return true;
  }

  /// A reference from the current declaration to where V is defined.
  bool refer(const clang::ValueDecl *V) {
    if (!Current || !V)
      return true;
    const clang::Decl *Target = V;
    if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(V)) {
      if (const clang::FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
        F = Pattern;
      const clang::FunctionDecl *Definition = nullptr;
      if (!F->hasBody(Definition))
        return true;
      Target = Definition;
    } else if (!V->isDefinedOutsideFunctionOrMethod()) {
      return true; // a local or a parameter: inside the declaration already
    } else if (const auto *Var = llvm::dyn_cast<clang::VarDecl>(V)) {
      if (const clang::VarDecl *Definition = Var->getDefinition())
        Target = Definition;
    }
    References.push_back({*Current, placeOf(Target->getLocation())});
    return true;
  }

  SourceContext &Context;
  std::optional<unsigned> Current;
  std::vector<unsigned> Sorted;
};

/// Which deferred findings share a lane grouping (see applyWave64Fixes).
class LaneGroups {
public:
  LaneGroups(SourceContext &Context, clang::ASTContext &Ast,
             const std::vector<DeferredWave64Finding> &Findings)
      : Map(Context), SM(Context.sourceManager()) {
    Map.TraverseAST(Ast);
    Map.index();
    Map.forOverlapping([&](unsigned A, unsigned B) { Groups.unionSets(A, B); });
    std::vector<bool> Own(Map.Declarations.size(), false);
    for (const DeferredWave64Finding &F : Findings)
      if (auto D = Map.declarationAt(Map.placeOf(F.Loc)))
        Own[*D] = true;
    joinReferences(Own);
  }

  /// The group of a finding: it joins every place it is tied to.
  unsigned groupOf(const DeferredWave64Finding &F) {
    std::vector<unsigned> Ids{idOf(Map.placeOf(F.Loc)), idOf({F.File, F.Offset})};
    if (F.DefinedAt.isValid())
      Ids.push_back(idOf(SM.getDecomposedLoc(SM.getSpellingLoc(F.DefinedAt))));
    for (const auto &[File, E] : F.Edits)
      Ids.push_back(idOf({File, E.Offset}));
    for (unsigned Id : Ids)
      Groups.unionSets(Ids[0], Id);
    return Ids[0];
  }
  unsigned leaderOf(unsigned Id) { return Groups.getLeaderValue(Id); }

private:
  /// A declaration that reaches a finding (has one, or references one that
  /// does) is grouped with the declarations that reference it; a kernel only
  /// with a launcher that has findings of its own, so that the kernels one
  /// host function launches stay apart.
  void joinReferences(const std::vector<bool> &Own) {
    const auto &Decls = Map.Declarations;
    std::vector<std::optional<unsigned>> Target(Map.References.size());
    std::vector<std::vector<unsigned>> ReferencedBy(Decls.size());
    for (size_t I = 0; I < Map.References.size(); ++I) {
      Target[I] = Map.declarationAt(Map.References[I].To);
      if (Target[I] && !Decls[*Target[I]].Kernel)
        ReferencedBy[*Target[I]].push_back(Map.References[I].From);
    }
    std::vector<bool> Reaches = Own;
    std::vector<unsigned> Work;
    for (unsigned I = 0; I < Decls.size(); ++I)
      if (Own[I])
        Work.push_back(I);
    while (!Work.empty()) {
      unsigned D = Work.back();
      Work.pop_back();
      for (unsigned From : ReferencedBy[D])
        if (!Reaches[From]) {
          Reaches[From] = true;
          Work.push_back(From);
        }
    }
    for (size_t I = 0; I < Map.References.size(); ++I) {
      unsigned From = Map.References[I].From;
      if (Target[I] && Reaches[*Target[I]] && (!Decls[*Target[I]].Kernel || Own[From]))
        Groups.unionSets(From, *Target[I]);
    }
  }

  /// A declaration's id is its index; a place outside every declaration (a
  /// macro body, a #define) gets its own id after them.
  unsigned idOf(Place P) {
    if (auto D = Map.declarationAt(P))
      return *D;
    auto [It, New] = Outside.try_emplace(P, Map.Declarations.size() + Outside.size());
    return It->second;
  }

  DeclarationMap Map;
  const clang::SourceManager &SM;
  llvm::EquivalenceClasses<unsigned> Groups;
  std::map<Place, unsigned> Outside;
};

using EditKey = std::tuple<clang::FileID, unsigned, unsigned, std::string>;

EditKey keyOf(const std::pair<clang::FileID, Edit> &E) {
  return {E.first, E.second.Offset, E.second.Length, E.second.Text};
}

/// Whether a finding without a safe fix asks only for changes that its
/// grouping's safe fixes make anyway (a mask variable whose declaration the
/// ballot check widens): it is then resolved by them, not a blocker.
bool coveredBy(const DeferredWave64Finding &F, const std::set<EditKey> &GroupEdits) {
  return F.ResolvedBySameEdits && !F.Edits.empty() &&
         llvm::all_of(F.Edits, [&](const auto &E) { return GroupEdits.count(keyOf(E)); });
}

/// The first finding of each group (by leader) that has no safe fix and holds
/// the group back; Covered gets those resolved by the group's safe fixes.
std::map<unsigned, const DeferredWave64Finding *>
blockers(const std::vector<DeferredWave64Finding> &Findings, const std::vector<unsigned> &GroupOf,
         LaneGroups &Groups, std::vector<size_t> &Covered) {
  std::map<unsigned, std::set<EditKey>> SafeEdits; // by leader
  for (size_t I = 0; I < Findings.size(); ++I)
    if (Findings[I].Fixable)
      for (const auto &E : Findings[I].Edits)
        SafeEdits[Groups.leaderOf(GroupOf[I])].insert(keyOf(E));
  std::map<unsigned, const DeferredWave64Finding *> Blocker;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const DeferredWave64Finding &F = Findings[I];
    unsigned Leader = Groups.leaderOf(GroupOf[I]);
    if (F.Fixable || !F.HoldsBackGrouping)
      continue;
    if (coveredBy(F, SafeEdits[Leader]))
      Covered.push_back(I);
    else
      Blocker.try_emplace(Leader, &F);
  }
  return Blocker;
}

} // namespace

void applyWave64Fixes(SourceContext &Context, clang::ASTContext &Ast) {
  std::vector<DeferredWave64Finding> Findings = std::move(Context.deferredWave64());
  Context.deferredWave64().clear();
  if (llvm::none_of(Findings, [](const DeferredWave64Finding &F) { return F.Fixable; }))
    return;
  LaneGroups Groups(Context, Ast, Findings);
  std::vector<unsigned> GroupOf;
  for (const DeferredWave64Finding &F : Findings)
    GroupOf.push_back(Groups.groupOf(F));
  std::vector<size_t> Covered;
  std::map<unsigned, const DeferredWave64Finding *> Blocker =
      blockers(Findings, GroupOf, Groups, Covered);
  for (size_t I = 0; I < Findings.size(); ++I) {
    DeferredWave64Finding &F = Findings[I];
    if (!F.Fixable)
      continue;
    FileFindings &Found = Context.findingsFor(F.File);
    Diagnostic &D = Found.Diagnostics[F.Index];
    auto It = Blocker.find(Groups.leaderOf(GroupOf[I]));
    if (It == Blocker.end()) {
      for (FixIt &X : D.Fixes)
        X.Applied = true;
      for (auto &[File, E] : F.Edits)
        Context.findingsFor(File).Edits.push_back(std::move(E));
      continue;
    }
    const DeferredWave64Finding &B = *It->second;
    D.FixWithheld = "--fix-wave64 left this unchanged: " + B.CheckId + " at " +
                    llvm::sys::path::filename(Context.pathOf(B.File)).str() + ":" +
                    std::to_string(Context.lineColumnOf(B.File, B.Offset).first) +
                    " has no safe fix and shares this site's lane grouping (the same "
                    "declaration, a helper or constant both use, or one macro); changing only "
                    "some of a grouping's 32-lane assumptions breaks code that was consistent";
  }
  // A covered finding's change is made by the group's safe fixes.
  for (size_t I : Covered)
    if (!Blocker.count(Groups.leaderOf(GroupOf[I])))
      for (FixIt &X : Context.findingsFor(Findings[I].File).Diagnostics[Findings[I].Index].Fixes)
        X.Applied = true;
}

} // namespace cu2dcu
