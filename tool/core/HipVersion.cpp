#include "core/HipVersion.h"

#include <sstream>

namespace cu2dcu {

std::optional<HipVersion> HipVersion::parse(const std::string &Text) {
  HipVersion V;
  char Dot = 0;
  std::istringstream In(Text);
  if (!(In >> V.Major >> Dot >> V.Minor) || Dot != '.' || V.Major < 0 || V.Minor < 0)
    return std::nullopt;
  In >> std::ws;
  if (!In.eof())
    return std::nullopt;
  return V;
}

std::string HipVersion::str() const {
  return std::to_string(Major) + "." + std::to_string(Minor);
}

} // namespace cu2dcu
