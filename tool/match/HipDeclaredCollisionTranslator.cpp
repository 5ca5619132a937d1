#include "match/HipDeclaredCollisionTranslator.h"

#include "core/CheckIds.h"
#include "core/SourceText.h"
#include "translate/EntryTranslation.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Regex.h"

namespace cu2dcu {

namespace {

/// A CUDA built-in vector type (float4, uchar2, longlong1, ...): a struct of
/// vector_types.h, which HIP on AMD replaces by HIP_vector_type.
bool isCudaVectorType(clang::QualType Type, const clang::SourceManager &SM) {
  const auto *Record = Type->getAsRecordDecl();
  static const llvm::Regex VectorName(
      "^(u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]$");
  return Record && SM.isInSystemHeader(Record->getLocation()) &&
         VectorName.match(Record->getName());
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

/// The lines [Begin, End) spans, from the first line's start to the last
/// line's end (before its newline), when no other declaration shares them:
/// before Begin only its specifiers (__device__ inline), after End only
/// space or a comment.
std::optional<ByteRange> wholeLines(const std::string &Text, unsigned Begin, unsigned End) {
  size_t LineStart = lineBounds(Text, Begin).first;
  llvm::StringRef Before = llvm::StringRef(Text).slice(LineStart, Begin);
  if (Before.find_first_of(";{}#") != llvm::StringRef::npos)
    return std::nullopt;
  size_t LineEnd = lineBounds(Text, End).second;
  llvm::StringRef After = llvm::StringRef(Text).slice(End, LineEnd).trim();
  if (!After.empty() && !After.starts_with("//"))
    return std::nullopt;
  return ByteRange{unsigned(LineStart), unsigned(LineEnd)};
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

/// Whether the line before LineStart opens the guard this translator writes
/// (the input is an earlier translation).
bool guardedAlready(const std::string &Text, size_t LineStart) {
  if (LineStart == 0)
    return false;
  auto [Begin, End] = lineBounds(Text, LineStart - 1);
  return llvm::StringRef(Text).slice(Begin, End).trim().starts_with(
      "#if !defined(__HIP_PLATFORM_AMD__)");
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
  std::string Signature = Entry->signature(vectorNameOf(Function));
  auto Range = Context.resolveRange(Function->getSourceRange());
  if (!Range)
    return;
  const std::string &Text = Context.textOf(Range->File);
  std::optional<ByteRange> Lines = wholeLines(Text, Range->Begin, Range->End);
  std::string Message = "'" + Signature + "' is declared by HIP on AMD (" +
                        Entry->Header + ", HIP " + Entry->Since.str() +
                        "); this definition would collide with it there";
  FileFindings &Findings = Context.findingsFor(Range->File);
  if (Lines && guardedAlready(Text, Lines->Begin))
    return;
  if (!Lines) {
    addFinding(Findings, Text, Context.pathOf(Range->File), Range->Begin,
               check_ids::HipDeclared, Severity::Error,
               Message + "; it shares a line with other code, so it is left as written");
    return;
  }
  // The #endif goes before the last line's newline, so that it never shares
  // an offset with the #if of a definition on the next line.
  Findings.Edits.push_back({Lines->Begin, 0,
                            "#if !defined(__HIP_PLATFORM_AMD__) // HIP declares " + Signature + "\n",
                            "hip-declared", Entry->Function});
  Findings.Edits.push_back({Lines->End, 0, "\n#endif", "hip-declared", Entry->Function});
  addFinding(Findings, Text, Context.pathOf(Range->File), Range->Begin, check_ids::HipDeclared,
             Severity::Warning,
             Message + ", so it is compiled only on HIP's NVIDIA path; check that HIP's does "
                       "what this one does");
}

} // namespace cu2dcu
