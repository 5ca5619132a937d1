// A textual edit of one input file, by byte offset into its original text.
#pragma once

#include <string>

namespace cu2dcu {

struct Edit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
  /// Statistics bucket: family for API renames ("runtime", "cublas"),
  /// or "launch", "include", "symbol", "wave64".
  std::string Category;
  /// The CUDA name the edit translates, for per-name statistics (may be empty).
  std::string Name;

  bool operator<(const Edit &O) const {
    if (Offset != O.Offset)
      return Offset < O.Offset;
    if (Length != O.Length)
      return Length < O.Length;
    return Text < O.Text;
  }
  bool sameChange(const Edit &O) const {
    return Offset == O.Offset && Length == O.Length && Text == O.Text;
  }
};

} // namespace cu2dcu
