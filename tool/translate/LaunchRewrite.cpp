#include "translate/LaunchRewrite.h"

namespace cu2dcu {

bool hasTopLevelComma(const std::string &Text, unsigned Begin, unsigned End) {
  int Depth = 0;
  for (unsigned I = Begin; I < End && I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}')
      --Depth;
    else if (C == ',' && Depth == 0)
      return true;
  }
  return false;
}

void rewriteLaunch(const LaunchSite &Site, const std::string &Text, FileFindings &Out) {
  const char *Name = "<<<>>>";
  Out.Edits.push_back({Site.CalleeBegin, 0,
                       Site.TemplatedCallee ? "hipLaunchKernelGGL((" : "hipLaunchKernelGGL(",
                       "launch", Name});
  Out.Edits.push_back({Site.OpenBegin, 3, Site.TemplatedCallee ? "), " : ", ", "launch-syntax", ""});
  // A config argument such as Grid<2, 3>::value would be split by the macro.
  for (const auto &[Begin, End] : Site.ConfigArgs)
    if (hasTopLevelComma(Text, Begin, End)) {
      Out.Edits.push_back({Begin, 0, "(", "launch-syntax", ""});
      Out.Edits.push_back({End, 0, ")", "launch-syntax", ""});
    }
  std::string Tail;
  for (size_t Written = Site.ConfigArgs.size(); Written < 4; ++Written)
    Tail += ", 0";
  if (Site.HasCallArgs)
    Tail += ", ";
  Out.Edits.push_back({Site.CloseBegin, Site.ArgsOpenEnd - Site.CloseBegin, Tail, "launch-syntax", ""});
}

} // namespace cu2dcu
