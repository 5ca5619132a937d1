#include "checks/Wave64Check.h"

namespace cu2dcu {

std::vector<std::unique_ptr<Wave64Check>> makeWave64Checks(SourceContext &Context) {
  std::vector<std::unique_ptr<Wave64Check>> Checks;
  return Checks;
}

} // namespace cu2dcu
