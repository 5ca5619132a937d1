#include "mapping/WarpNamesMap.h"

#include "mapping/FamilyFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <optional>

namespace cu2dcu {

namespace {

const std::set<std::string> FileKeys = {
    "family",          "lane_index_functions", "wavefront_lane_functions", "lane_mask_functions", "lane_preserving_functions",
    "thread_index_parameters", "lane_index_parameters", "bit_functions", "warp_size_names", "lane_mask_names",
    "thread_index_names", "amd_compile_macros", "amd_switch_names", "lane_group_mask_shim",
    "whole_wavefront_algorithms"};
const std::set<std::string> BitFunctionKeys = {"narrow", "wide", "fix", "note"};
const std::set<std::string> AlgorithmKeys = {"cuda", "any_block"};

/// Root[Key], a required regular expression.
bool readPattern(FamilyFileReader &Reader, const YAML::Node &Root, const char *Key,
                 std::string &Out) {
  Out = yamlScalar(Root, Key);
  std::string Error;
  if (Out.empty())
    return Reader.fail(Root.Mark(), std::string("a warp_names file gives '") + Key + "'");
  if (!llvm::Regex(Out).isValid(Error))
    return Reader.fail(Root[Key].Mark(),
                       std::string(Key) + " is not a regular expression: " + Error);
  return true;
}

std::optional<BitFunction> readBitFunction(const YAML::Node &N, std::string &Error) {
  if (!N.IsMap() || !knownKeys(N, BitFunctionKeys, Error)) {
    Error = Error.empty() ? "a bit function is a mapping" : Error;
    return std::nullopt;
  }
  BitFunction F{yamlScalar(N, "narrow"), yamlScalar(N, "wide"), BitFunction::Fix::Never,
                yamlScalar(N, "note")};
  std::string Fix = yamlScalar(N, "fix");
  if (F.Narrow.empty() || F.Wide.empty())
    Error = "a bit function gives 'narrow' and 'wide'";
  else if (Fix == "always" || Fix == "when_wide")
    F.SafeFix = Fix == "always" ? BitFunction::Fix::Always : BitFunction::Fix::WhenWide;
  else if (Fix != "never")
    Error = "'" + F.Narrow + "': fix is always, when_wide or never";
  return Error.empty() ? std::optional<BitFunction>(F) : std::nullopt;
}

bool readBitFunctions(FamilyFileReader &Reader, const YAML::Node &Root, WarpNames &Out) {
  YAML::Node List = Root["bit_functions"];
  if (!List)
    return true;
  if (!List.IsSequence())
    return Reader.fail(List.Mark(), "bit_functions is a list");
  for (const YAML::Node &N : List) {
    std::string Error;
    std::optional<BitFunction> F = readBitFunction(N, Error);
    if (!F)
      return Reader.fail(N.Mark(), Error);
    Out.BitFunctions.push_back(std::move(*F));
  }
  return true;
}

bool readParameters(FamilyFileReader &Reader, const YAML::Node &Root, WarpNames &Out) {
  std::vector<std::string> Names;
  if (!Reader.strings(Root, "thread_index_parameters", Names))
    return false;
  for (const std::string &Name : Names)
    Out.ThreadIndexParameters.insert(llvm::StringRef(Name).lower());
  Names.clear();
  if (!Reader.strings(Root, "lane_index_parameters", Names))
    return false;
  for (const std::string &Name : Names)
    Out.LaneIndexParameters.insert(llvm::StringRef(Name).lower());
  return true;
}

/// amd_compile_macros: NAME, NAME=VALUE or !NAME.
bool readAmdCompileMacros(FamilyFileReader &Reader, const YAML::Node &Root, WarpNames &Out) {
  std::vector<std::string> Entries;
  if (!Reader.strings(Root, "amd_compile_macros", Entries))
    return false;
  for (llvm::StringRef Entry : Entries) {
    auto [Name, Value] = Entry.split('=');
    int64_t Number = 1;
    if (Name.consume_front("!") && Value.empty())
      Out.AmdCompileMacros[Name.str()] = std::nullopt;
    else if (!Name.empty() && (Value.empty() || !Value.getAsInteger(0, Number)))
      Out.AmdCompileMacros[Name.str()] = Number;
    else
      return Reader.fail(Root["amd_compile_macros"].Mark(),
                         "'" + Entry.str() + "': an amd_compile_macros entry is NAME, "
                         "NAME=NUMBER or !NAME");
  }
  return true;
}

bool readWholeWavefrontAlgorithms(FamilyFileReader &Reader, const YAML::Node &Root,
                                   WarpNames &Out) {
  YAML::Node List = Root["whole_wavefront_algorithms"];
  if (!List)
    return true;
  if (!List.IsSequence())
    return Reader.fail(List.Mark(), "whole_wavefront_algorithms is a list");
  for (const YAML::Node &N : List) {
    std::string Error;
    if (!N.IsMap() || !knownKeys(N, AlgorithmKeys, Error) || yamlScalar(N, "cuda").empty() ||
        yamlScalar(N, "any_block").empty())
      return Reader.fail(N.Mark(), Error.empty() ? "a whole_wavefront_algorithms entry gives "
                                                   "'cuda' and 'any_block'"
                                                 : Error);
    Out.WholeWavefrontAlgorithms[yamlScalar(N, "cuda")] = yamlScalar(N, "any_block");
  }
  return true;
}

bool readLaneGroupMaskShim(const YAML::Node &Root, WarpNames &Out) {
  Out.LaneGroupMaskShim = yamlScalar(Root, "lane_group_mask_shim");
  return true;
}

} // namespace

const BitFunction *WarpNames::bitFunction(const std::string &Narrow) const {
  for (const BitFunction &F : BitFunctions)
    if (F.Narrow == Narrow)
      return &F;
  return nullptr;
}

bool WarpNames::readsMaskAsWhole(const std::string &Name) const {
  return llvm::any_of(BitFunctions, [&](const BitFunction &F) {
    return F.SafeFix != BitFunction::Fix::Never && (F.Narrow == Name || F.Wide == Name);
  });
}

const std::set<std::string> &warpNamesFileKeys() { return FileKeys; }
const std::set<std::string> &warpNamesBitFunctionKeys() { return BitFunctionKeys; }

bool loadWarpNames(const std::string &Text, const std::string &Path, WarpNames &Out,
                   std::vector<MapLoadIssue> &Issues) {
  FamilyFileReader Reader(Path, Issues);
  return Reader.read(Text, "warp_names", FileKeys, [&](const YAML::Node &Root) {
    return Reader.strings(Root, "lane_index_functions", Out.LaneIndexFunctions) &&
           Reader.strings(Root, "wavefront_lane_functions", Out.WavefrontLaneFunctions) &&
           Reader.strings(Root, "lane_mask_functions", Out.LaneMaskFunctions) &&
           Reader.strings(Root, "lane_preserving_functions", Out.LanePreservingFunctions) &&
           readParameters(Reader, Root, Out) && readBitFunctions(Reader, Root, Out) &&
           readPattern(Reader, Root, "warp_size_names", Out.WarpSizeNames) &&
           readPattern(Reader, Root, "lane_mask_names", Out.LaneMaskNames) &&
           readPattern(Reader, Root, "thread_index_names", Out.ThreadIndexNames) &&
           readAmdCompileMacros(Reader, Root, Out) &&
           readLaneGroupMaskShim(Root, Out) && readWholeWavefrontAlgorithms(Reader, Root, Out) &&
           (!Root["amd_switch_names"] ||
            readPattern(Reader, Root, "amd_switch_names", Out.AmdSwitchNames));
  });
}

} // namespace cu2dcu
