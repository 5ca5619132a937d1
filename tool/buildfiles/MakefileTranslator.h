// GNU make: nvcc command lines (in recipes and in the variables they use)
// become hipcc command lines. The file is parsed into logical lines
// (assignments, rules, recipes, directives); only words of compiler command
// lines and of the variables those lines read are changed.
#pragma once

#include "buildfiles/BuildFlagMap.h"
#include "buildfiles/BuildTranslation.h"

#include "llvm/ADT/StringRef.h"

namespace cu2dcu {

/// One logical line of a makefile (backslash continuations joined).
struct MakeStatement {
  enum Kind { Blank, Comment, Directive, Assignment, Rule, Recipe };
  Kind K = Blank;
  unsigned Begin = 0, End = 0;           // the logical line, without its newline
  unsigned CodeBegin = 0, CodeEnd = 0;   // the words to read: value, recipe, inline recipe
  std::string Variable;                  // Assignment: the variable's name
  std::string Prerequisite;              // Rule, Recipe: the rule's first prerequisite ($<)
};

/// Splits a makefile into statements (exposed for tests).
std::vector<MakeStatement> parseMakefile(llvm::StringRef Text);

BuildTranslation translateMakefile(llvm::StringRef Text, llvm::StringRef DisplayPath,
                                   const BuildFlagMap &Map, const BuildOptions &Opts);

} // namespace cu2dcu
