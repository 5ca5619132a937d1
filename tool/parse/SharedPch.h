// Precompiled headers shared by the translation units of one run.
//
// Most of the time spent on a CUDA unit goes to parsing the headers it starts
// with: the CUDA runtime wrapper, the C++ library, cuBLAS, Thrust, CUB, and
// the project headers that pull them in. Units that start with the same
// #include lines (IncludePrefix.h) under the same flags load those headers
// from one PCH, built at the start of the run with exactly the arguments of
// the units themselves (cudaParseArgs) and deleted at its end.
//
// The output must not depend on it:
//  - the PCH holds exactly what the unit's first lines include, in order;
//  - the unit's own #include lines are processed again after the PCH, so
//    each must then do nothing: the build includes every header a second
//    time and watches that this produces no token, macro or pragma, and
//    that a project header (or any file the run translates) is skipped
//    outright, since the translation would see it again; a header that
//    fails ends the prefix, and the PCH is built again without it (libstdc++'s
//    <cstdio> is fine: its guard follows its own #includes);
//  - a unit whose directory holds a file that one of the PCH's header lookups
//    would have found first (-I<its directory> comes first) does not use it;
//  - what the preprocessor callbacks find in project headers while the PCH is
//    built is recorded and handed to every unit that uses it (the driver does
//    that, see PchPlanner), since they do not run again for those headers;
//  - a unit whose parse with the PCH sees its #include lines differently from
//    the scan, or fails, is parsed again without it; units with -include
//    flags get no PCH (the driver's own -include of the CUDA runtime wrapper
//    is include-guarded);
//  - the PCHs are chained (Base) along shared prefixes; each build loads its
//    base, so a unit's PCH also stands for its base's headers.
// The CTest bench/pch-identical compares runs with and without PCHs, and
// docs/performance.md has the measurements.
#pragma once

#include "core/TranslationResult.h"
#include "parse/CudaToolchain.h"
#include "parse/IncludePrefix.h"

#include "clang/Lex/PPCallbacks.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class FileManager;
class FileEntryRef;
}

namespace cu2dcu {

struct SharedPch {
  std::vector<std::string> Flags;     // compile flags of its units (part of the key)
  std::vector<std::string> Includes;  // #include operands, in order (PrefixInclude::Spelling)
  /// A PCH of the first Base->Includes.size() of them, which this one is
  /// chained to: the build loads it and parses only the rest.
  const SharedPch *Base = nullptr;
  std::string HeaderPath;             // the generated header that includes them
  std::string PchPath;
  bool Ok = false;
  std::string Why;                    // why it was not built
  // The next four cover this PCH's own includes after a build, and the whole
  // chain once the driver has added the base's (inheritFromBase).
  std::vector<std::string> Resolved;  // identity of each include's file (resolvedIdentity)
  std::string MustSkip;               // per include, '1': a translated file, skipped again
  std::set<std::string> ShadowNames;  // names a unit's directory could resolve first
  // Filled by the driver: what its preprocessor callbacks found in the
  // project headers during the build, for the units to take over.
  TranslationResult Translated;
  std::vector<std::string> TranslatedFiles; // real paths of the project headers entered
  /// Every file its build looked up: a unit that loads it depends on them,
  /// though clang does not look up a PCH's system headers again.
  std::vector<std::string> Reads;
  bool WholeUnit = false;                   // TraversalScope: walk the whole unit
};

/// The absolute paths of every file Files looked up, in order.
std::vector<std::string> filesLookedUp(const clang::FileManager &Files);

/// Builds Pch.PchPath (and Pch.HeaderPath) from Pch.Includes once, on top of
/// Pch.Base if it has one (which must be built). OnBeginSource may add
/// preprocessor callbacks; IsTranslated tells the files of the run. Sets
/// FirstNotReentrant to the index of the first include whose second
/// inclusion is not a no-op (or -1); the caller then cuts the prefix there
/// and builds again.
bool buildSharedPch(SharedPch &Pch, const CudaToolchain &Toolchain,
                    const std::function<void(clang::CompilerInstance &)> &OnBeginSource,
                    const std::function<bool(const std::string &)> &IsTranslated,
                    int &FirstNotReentrant);

/// Prepends what Pch.Base covers to Pch's own Resolved, ShadowNames,
/// Translated, TranslatedFiles and WholeUnit, after Pch was built.
void inheritFromBase(SharedPch &Pch);

/// What must match between the PCH build and a unit for an #include: the
/// file's real path, and the real path of the directory it was found in
/// (its own quoted #includes are looked up there).
std::string resolvedIdentity(clang::FileEntryRef File);

/// False when a header lookup of the PCH build could find a different file
/// in Dir, which a unit there searches first (-I<its directory>).
bool pchUsableFrom(const SharedPch &Pch, const std::string &Dir);

/// Arguments for parsing File with the PCH (cudaParseArgs plus -include-pch).
std::vector<std::string> cudaParseArgsWithPch(const CudaToolchain &Toolchain,
                                              const std::string &File,
                                              const std::vector<std::string> &UserArgs,
                                              const SharedPch &Pch);

/// Watches the parse of a unit with Pch: each of its first #include lines
/// that the PCH holds must resolve to the file the PCH build found and be
/// skipped. Attach with attach() before parsing; verified() afterwards.
class PrefixCheck {
public:
  PrefixCheck(const IncludePrefix &Prefix, const SharedPch &Pch);
  void attach(clang::CompilerInstance &CI);
  bool verified() const { return !Failed && Remaining == 0; }
  const std::string &why() const { return Why; }
  void fail(std::string Reason);

private:
  class Callbacks;
  std::vector<PrefixInclude> Expected; // the first Pch.Includes.size() of the unit's
  std::vector<bool> Met;
  const SharedPch &Pch;
  unsigned Remaining = 0;
  bool Failed = false;
  std::string Why;
};

} // namespace cu2dcu
