// A HIP release as MAJOR.MINOR: the version the output must build with, and
// the version an API entry arrived in.
#pragma once

#include <optional>
#include <string>

namespace cu2dcu {

struct HipVersion {
  int Major = 0;
  int Minor = 0;
  static std::optional<HipVersion> parse(const std::string &Text);
  std::string str() const;
  bool operator<(const HipVersion &O) const {
    return Major != O.Major ? Major < O.Major : Minor < O.Minor;
  }
};

} // namespace cu2dcu
