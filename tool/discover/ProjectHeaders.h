// The project headers that the files of a compilation database reach, so
// that -p ports them with the sources. Found from the #include directives of
// every branch (the translation ports every configuration, not only the
// database's), followed through the including file's folder and the
// command's -iquote and -I folders, as the compiler searches them. Headers
// under an -isystem folder or a system root (the CUDA toolkit) are not the
// project's and are left alone.
#pragma once

#include <string>
#include <vector>

namespace cu2dcu {

/// The header names of a file's #include, #include_next and #import lines,
/// with their delimiters ("a.h", <b/c.h>), from clang's directive scanner.
std::vector<std::string> includedNames(const std::string &Text);

struct ReachedHeader {
  std::string Path;    // absolute, symlinks resolved
  std::string Includer; // the database file it was reached from (its flags apply)
};

/// The headers reached from each of Sources (absolute paths) with its flags
/// (path options already absolute), transitively, without duplicates and in
/// the order found. Sources themselves are never listed.
std::vector<ReachedHeader>
findProjectHeaders(const std::vector<std::string> &Sources,
                   const std::vector<std::vector<std::string>> &SourceFlags,
                   const std::vector<std::string> &SystemRoots);

} // namespace cu2dcu
