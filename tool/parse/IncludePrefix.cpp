#include "parse/IncludePrefix.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace cu2dcu {

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v'; }

/// Reads one logical line at Pos with comments replaced by a space (as
/// translation phase 3 does). Sets First to the offset of its first
/// non-blank character; returns the text, or nothing at the end.
bool nextLine(const std::string &T, size_t &Pos, std::string &Line, unsigned &First) {
  if (Pos >= T.size())
    return false;
  Line.clear();
  bool Blank = true;
  while (Pos < T.size()) {
    char C = T[Pos];
    char Next = Pos + 1 < T.size() ? T[Pos + 1] : '\0';
    if (C == '\\' && (Next == '\n' || Next == '\r')) {
      Line += '\\'; // a continued line: not one we accept
      ++Pos;
      continue;
    }
    if (C == '\n') {
      ++Pos;
      break;
    }
    if (C == '/' && Next == '/') {
      while (Pos < T.size() && T[Pos] != '\n')
        ++Pos;
      continue;
    }
    if (C == '/' && Next == '*') {
      size_t End = T.find("*/", Pos + 2);
      Pos = End == std::string::npos ? T.size() : End + 2;
      Line += ' ';
      continue;
    }
    if (Blank && !isBlank(C)) {
      Blank = false;
      First = unsigned(Pos);
    }
    Line += C;
    ++Pos;
  }
  if (Blank)
    Line.clear();
  return true;
}

std::string trim(const std::string &S) {
  size_t B = 0, E = S.size();
  while (B < E && isBlank(S[B]))
    ++B;
  while (E > B && isBlank(S[E - 1]))
    --E;
  return S.substr(B, E - B);
}

/// The operand of "#include OPERAND", or empty when Line is anything else.
std::string includeOperand(const std::string &Line) {
  std::string S = trim(Line);
  if (S.empty() || S[0] != '#')
    return std::string();
  S = trim(S.substr(1));
  if (S.compare(0, 7, "include") != 0)
    return std::string();
  S = trim(S.substr(7));
  if (S.size() < 3)
    return std::string();
  char Close = S[0] == '<' ? '>' : S[0] == '"' ? '"' : 0;
  if (!Close || S.find(Close, 1) != S.size() - 1)
    return std::string(); // #include MACRO, #include_next, text after the name
  return S;
}

} // namespace

IncludePrefix scanIncludePrefix(const std::string &MainFile, const std::string &Text,
                                const std::vector<std::string> &UserFlags) {
  IncludePrefix Out;
  // The search order clang uses before the system directories: for "name"
  // the includer's directory, then -iquote, then -I; for <name> only -I.
  // cudaParseArgs puts -I<directory of the file> before the user's flags.
  const std::string MainDir = llvm::sys::path::parent_path(MainFile).str();
  std::vector<std::string> QuoteDirs{MainDir}, AngledDirs{MainDir};
  for (size_t I = 0; I < UserFlags.size(); ++I) {
    const std::string &F = UserFlags[I];
    auto Value = [&](llvm::StringRef Flag) -> std::string {
      if (F == Flag && I + 1 < UserFlags.size())
        return UserFlags[++I];
      return F.substr(Flag.size());
    };
    if (llvm::StringRef(F).starts_with("-include"))
      return Out; // processed before the unit's first line: keep it simple
    if (llvm::StringRef(F).starts_with("-iquote"))
      QuoteDirs.push_back(Value("-iquote"));
    else if (llvm::StringRef(F).starts_with("-isystem"))
      Value("-isystem"); // a system directory: searched after these
    else if (llvm::StringRef(F).starts_with("-I"))
      AngledDirs.push_back(Value("-I"));
  }
  QuoteDirs.insert(QuoteDirs.end(), AngledDirs.begin(), AngledDirs.end());

  size_t Pos = 0;
  std::string Line;
  unsigned First = 0;
  while (nextLine(Text, Pos, Line, First)) {
    if (Line.empty())
      continue;
    std::string Operand = includeOperand(Line);
    if (Operand.empty())
      break;
    std::string Name = Operand.substr(1, Operand.size() - 2);
    if (Name.empty() || llvm::sys::path::is_absolute(Name))
      break;
    PrefixInclude Include;
    Include.Offset = First;
    Include.Spelling = Include.Key = "<" + Name + ">";
    for (const std::string &Dir : Operand[0] == '"' ? QuoteDirs : AngledDirs) {
      llvm::SmallString<256> Found(Dir);
      llvm::sys::path::append(Found, Name);
      if (!llvm::sys::fs::is_regular_file(Found))
        continue;
      llvm::sys::fs::make_absolute(Found);
      llvm::SmallString<256> Real;
      auto Buffer = llvm::MemoryBuffer::getFile(Found, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false);
      // The PCH includes it by its path, so #include_next in it would search
      // differently: such a header ends the prefix.
      if (llvm::sys::fs::real_path(Found, Real) || !Buffer ||
          (*Buffer)->getBuffer().contains("include_next") || Found.str().contains('"'))
        return Out;
      Include.Key = "\"" + Real.str().str() + "\"";
      Include.Spelling = "\"" + Found.str().str() + "\"";
      break;
    }
    Out.Includes.push_back(std::move(Include));
  }
  return Out;
}

} // namespace cu2dcu
