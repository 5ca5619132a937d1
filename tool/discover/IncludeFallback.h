#pragma once
// Where a source's includes that are not found beside it live in the input
// tree (cuda-samples' <helper_cuda.h> in Common/, a project's include/): a
// build passes those folders with -I, a directory input names none.
#include <string>
#include <vector>

namespace cu2dcu {

/// The headers of an input tree, by the include names that reach them.
class TreeHeaders {
public:
  explicit TreeHeaders(const std::vector<std::string> &HeaderPaths) : Paths(HeaderPaths) {}

  /// -idirafter flags for Source's #include names that are found neither
  /// beside it, nor under FlagDirs (its -I folders) or SystemRoots'
  /// include/, but under exactly one folder of the tree. -idirafter keeps
  /// them behind every other search place, so they only fill what is missing.
  std::vector<std::string> fallbackFlags(const std::string &Source,
                                         const std::vector<std::string> &FlagDirs,
                                         const std::vector<std::string> &SystemRoots) const;

private:
  std::vector<std::string> Paths;
};

} // namespace cu2dcu
