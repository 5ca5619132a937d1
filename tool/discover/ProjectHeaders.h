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

/// Calls Visit(Flag, Value) for each path option (-I, -isystem, -iquote,
/// -include) of a command's flags, joined (-Iinc) or separate (-I inc);
/// Visit may change the value in place.
template <typename Fn> void forEachPathFlag(std::vector<std::string> &Flags, Fn Visit);

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

// --- template definition ------------------------------------------------------

template <typename Fn> void forEachPathFlag(std::vector<std::string> &Flags, Fn Visit) {
  static const char *const PathFlags[] = {"-I", "-isystem", "-iquote", "-include"};
  for (size_t I = 0; I < Flags.size(); ++I)
    for (std::string Flag : PathFlags) {
      if (Flags[I] == Flag && I + 1 < Flags.size()) {
        Visit(Flag, Flags[++I]);
        break;
      }
      if (Flags[I].compare(0, Flag.size(), Flag) == 0 && Flags[I].size() > Flag.size()) {
        std::string Value = Flags[I].substr(Flag.size());
        Visit(Flag, Value);
        Flags[I] = Flag + Value;
        break;
      }
    }
}

} // namespace cu2dcu
