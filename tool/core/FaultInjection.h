// Test-only fault injection (docs/robustness.md). Tests run as root, which
// reads unreadable files and writes into read-only directories, so failures
// that permissions cannot produce are simulated here:
//
//   CU2DCU_TEST_FAULT='OP:WHAT:SUBSTRING[;OP:WHAT:SUBSTRING...]'
//
// makes operation OP fail on every path that contains SUBSTRING (an empty
// SUBSTRING matches every path). OP and WHAT:
//   read:EIO|EACCES|...      reading an input file fails with that errno
//   create:EROFS|ENOSPC|...  creating an output (temporary) file fails
//   write:ENOSPC|EIO|...     writing fails after half of the content
//   rename:EXDEV|EIO|...     the final rename into place fails
//   parse:hang|crash         the isolated parse of the file hangs or crashes
// Nothing reads the variable unless it is set; it changes no output.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cu2dcu::fault {

struct Rule {
  std::string Operation, What, Substring;
};

inline const std::vector<Rule> &rules() {
  static const std::vector<Rule> Rules = [] {
    std::vector<Rule> R;
    const char *Env = std::getenv("CU2DCU_TEST_FAULT");
    if (!Env)
      return R;
    std::string Spec = Env;
    size_t Start = 0;
    while (Start <= Spec.size()) {
      size_t End = Spec.find(';', Start);
      std::string Item = Spec.substr(Start, End == std::string::npos ? std::string::npos
                                                                      : End - Start);
      size_t A = Item.find(':'), B = A == std::string::npos ? A : Item.find(':', A + 1);
      if (B != std::string::npos)
        R.push_back({Item.substr(0, A), Item.substr(A + 1, B - A - 1), Item.substr(B + 1)});
      if (End == std::string::npos)
        break;
      Start = End + 1;
    }
    return R;
  }();
  return Rules;
}

/// The WHAT of the first rule for Operation that matches Path, or "".
inline std::string injected(const char *Operation, const std::string &Path) {
  for (const Rule &R : rules())
    if (R.Operation == Operation && Path.find(R.Substring) != std::string::npos)
      return R.What;
  return "";
}

/// The errno to simulate for Operation on Path, or 0.
inline int injectedErrno(const char *Operation, const std::string &Path) {
  std::string What = injected(Operation, Path);
  if (What.empty())
    return 0;
  static const std::pair<const char *, int> Names[] = {
      {"EIO", EIO},       {"EACCES", EACCES}, {"ENOSPC", ENOSPC}, {"EROFS", EROFS},
      {"EXDEV", EXDEV},   {"EPERM", EPERM},   {"ENOENT", ENOENT}, {"EDQUOT", EDQUOT},
      {"EISDIR", EISDIR}, {"EMFILE", EMFILE}, {"ENOMEM", ENOMEM}};
  for (const auto &[Name, Code] : Names)
    if (What == Name)
      return Code;
  return EIO;
}

} // namespace cu2dcu::fault
