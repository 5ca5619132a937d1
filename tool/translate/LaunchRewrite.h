// Turns one kernel<<<config>>>(args) launch into hipLaunchKernelGGL(...).
// Both the AST matcher and the lexical pass locate the pieces; this emits the
// edits, touching only the launch punctuation so that edits inside the
// arguments (renamed APIs, nested expressions) never overlap.
#pragma once

#include "core/Options.h"
#include "core/TranslationResult.h"

#include <string>
#include <utility>
#include <vector>

namespace cu2dcu {

struct LaunchSite {
  unsigned CalleeBegin = 0;      // first byte of the kernel expression
  unsigned CalleeEnd = 0;        // one past its last byte
  unsigned OpenBegin = 0;        // the '<<<' token
  unsigned CloseBegin = 0;       // the '>>>' token
  unsigned ArgsOpenEnd = 0;      // one past the '(' of the call arguments
  std::vector<std::pair<unsigned, unsigned>> ConfigArgs; // [begin, end) as written
  bool HasCallArgs = false;
  bool TemplatedCallee = false;
};

void rewriteLaunch(const LaunchSite &Site, const std::string &Text, FileFindings &Out);

/// True when Text[Begin, End) has a comma outside parentheses, brackets and
/// braces, which would split a macro argument.
bool hasTopLevelComma(const std::string &Text, unsigned Begin, unsigned End);

} // namespace cu2dcu
