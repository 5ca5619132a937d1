// What each finding id means and where its documentation lives: read from
// docs/findings.md and docs/checks/<ID>.md at build time, so SARIF rules and
// HTML links say what the docs say.
#pragma once

#include <string>
#include <vector>

namespace cu2dcu {

struct CheckInfo {
  std::string Id;
  std::string HelpPath; // relative to docs/: "checks/W64-X.md", "findings.md#cu2dcu-x"
  std::string ShortDescription;
  std::string FullDescription;
  bool Documented = false; // false: described from the id alone
};

/// Every documented check, CU2DCU-* first, then W64-* in id order.
const std::vector<CheckInfo> &documentedChecks();

/// The description of Id; ids without a page get a generic one and the help
/// path their page would have.
CheckInfo describeCheck(const std::string &Id);

/// DocsBase (a URL ending in '/', the project's docs/ folder) + the help path.
std::string helpUri(const std::string &DocsBase, const std::string &Id);

/// The docs/ folder of the source tree this binary was built from, as a
/// file:// URL; the default of --docs-url.
std::string defaultDocsBase();

/// Percent-encodes a path for use in a URI (keeps '/' and unreserved bytes).
std::string uriEncodePath(const std::string &Path);

} // namespace cu2dcu
