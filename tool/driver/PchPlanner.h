// Chooses and builds the shared PCHs of a run (parse/SharedPch.h).
//
// For each wave of translation units the planner scans every unit's leading
// #include lines (parse/IncludePrefix.h), gives each unit the longest run of
// them that at least one other unit with the same flags starts with too, and
// builds the PCHs before the units are parsed, in parallel, recording what
// the preprocessor side of the translation finds in the project headers
// (PchTranslation). The runs form a trie; a PCH is built at each branch of
// it, chained to the PCH of the branch above, so each header is parsed about
// once per branch. A unit loads its PCH (and the chain below it) in a
// fraction of the time the headers take to parse. The PCHs live in a
// temporary directory removed with the planner.
#pragma once

#include "driver/TimeReport.h"
#include "driver/Translator.h"
#include "parse/IncludePrefix.h"
#include "parse/SharedPch.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cu2dcu {

class PchPlanner {
public:
  PchPlanner(const ApiMap &Map, const RunSettings &Settings,
             std::function<bool(const std::string &)> IsTranslated);
  ~PchPlanner();
  PchPlanner(const PchPlanner &) = delete;
  PchPlanner &operator=(const PchPlanner &) = delete;

  struct Choice {
    IncludePrefix Prefix;
    const SharedPch *Pch = nullptr; // none: parse the unit from scratch
  };
  /// One choice per unit; Texts[I] is the content of Files[I].
  std::vector<Choice> prepare(const std::vector<const InputFile *> &Files,
                              const std::vector<const std::string *> &Texts, StageTimes &Times);

private:
  using Key = std::pair<std::string, std::vector<std::string>>; // flags, PrefixInclude::Key
  /// A new PCH of the first Length includes of Prefix, chained to Base;
  /// null when no directory for PCHs can be made.
  SharedPch *addPch(Key Node, const InputFile &File, const IncludePrefix &Prefix, size_t Length,
                    SharedPch *Base);
  /// Each unit's PCH, or the longest of its chain that was built and can be
  /// used from the unit's directory, or none.
  void keepUsable(std::vector<Choice> &Choices, const std::vector<const InputFile *> &Files,
                  StageTimes &Times);
  void build(const std::vector<SharedPch *> &Todo, StageTimes &Times);
  void buildRound(const std::vector<SharedPch *> &Round, StageTimes &Times);

  const ApiMap &Map;
  const RunSettings &Settings;
  std::function<bool(const std::string &)> IsTranslated;
  std::string Dir; // empty until the first PCH is needed
  std::map<Key, std::unique_ptr<SharedPch>> Pchs;
};

} // namespace cu2dcu
