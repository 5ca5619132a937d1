// The compilation database of -p, with every command's directory and file
// absolute. clang's JSON database keeps a relative "directory" as written,
// so its files would be looked up relative to wherever cu2dcu runs; here a
// relative directory is taken relative to the build directory that holds
// compile_commands.json (where a hand-written database means it).
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <string>

namespace cu2dcu {

/// The database clang finds in BuildPath (compile_commands.json, or
/// compile_flags.txt, whose flags apply to every file), or null with Error.
std::unique_ptr<clang::tooling::CompilationDatabase> loadBuildDatabase(const std::string &BuildPath,
                                                                       std::string &Error);

} // namespace cu2dcu
