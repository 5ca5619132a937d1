// The one lookup table built from the YAML API maps under mappings/ and any
// user maps given with --map. Read-only once loaded, so it can be shared by
// all translation jobs without locking.
#pragma once

#include "core/HipVersion.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace cu2dcu {

enum class EntryKind { Function, Type, Enumerator, Macro, Header, Namespace, Variable };
enum class EntryStatus { Supported, Unsupported, Removed };

/// The role a CUDA warp function plays for the warp analysis and the warp
/// translator: an entry's `warp` key (docs/mapping-schema.md). The *Sync
/// roles and SyncWarp take the lane mask as their first argument.
enum class WarpFn {
  None,
  ShflSync, ShflUpSync, ShflDownSync, ShflXorSync,
  BallotSync, AnySync, AllSync, UniSync, SyncWarp, ActiveMask,
  MatchAnySync, MatchAllSync, ReduceSync,
  Shfl, ShflUp, ShflDown, ShflXor, Ballot, Any, All,
};

struct ApiEntry {
  std::string Cuda;
  std::string Hip;
  EntryKind Kind = EntryKind::Function;
  EntryStatus Status = EntryStatus::Supported;
  std::string Family;
  std::string Reason;
  std::string Note;
  std::optional<HipVersion> HipSince;
  std::string CudaSince;
  std::string CudaRemoved;
  std::optional<unsigned> SymbolArg;
  /// The argument that names a kernel, which HIP's C API takes as a
  /// const void * where CUDA has a template overload for the function.
  std::optional<unsigned> FunctionArg;
  /// The out-parameter CUDA takes as any T ** (a template overload) and HIP
  /// only as void **: a typed pointer there is cast to void **.
  std::optional<unsigned> OutPointerArg;
  std::string HipRequires; // header entries: a HIP header that must come first
  /// Header entries: a library the HIP header needs at link time where the
  /// CUDA one needed none (roctx64 for header-only NVTX 3).
  std::string Link;
  /// Header entries: macros defined before the HIP header, which select its
  /// CUDA-shaped API (hipBLAS's HIPBLAS_V2: hipDataType and hipComplex
  /// arguments, as cuBLAS takes).
  std::vector<std::string> HipDefines;
  /// Header entries: the AMD GPU targets the HIP library has code for
  /// (hipBLASLt has none for gfx906); empty: every target.
  std::vector<std::string> HipArchs;
  /// Macros: translated only where tested with defined()/#ifdef/#ifndef; a
  /// use of the value (__CUDA_ARCH__ >= 700) is kept and noted.
  bool DefinedOnly = false;
  /// A shim (mappings/shims/) that stands in where the target HIP has no
  /// equivalent: uses are renamed to it and its code is written into the file.
  std::string Shim;
  /// Macros: what a use of the value in an #if/#elif condition becomes
  /// (`#if __CUDACC__` -> `#if defined(__HIPCC__)`: HIP's NVIDIA path
  /// defines __HIPCC__ empty, so `#if __HIPCC__` would not compile there).
  std::string HipInCondition;
  /// For targets older than HipSince, which lack the HIP name: the HIP
  /// function a call becomes with its lane mask (first argument) dropped
  /// (__shfl_down_sync -> __shfl_down); for a call without arguments, the
  /// expression the whole call becomes (__activemask() -> __ballot(1)).
  std::string LegacyHip;
  /// The shim a 32-bit lane mask passes through where the HIP function takes
  /// a 64-bit one (HIP's *_sync warp functions).
  std::string MaskShim;
  /// A macro to define before HIP's headers for them to declare Hip, from
  /// HipSince until HipGuardUntil (HIP_ENABLE_WARP_SYNC_BUILTINS, 6.2 to 7.0).
  std::string HipGuard;
  std::optional<HipVersion> HipGuardUntil;
  /// Functions: the HIP name a call with this many arguments becomes, where
  /// HIP splits one CUDA function by its forms (hip_by_arity:
  /// cudaGraphInstantiate's 5-argument form is hipGraphInstantiate).
  std::map<unsigned, std::string> HipByArity;
  /// Functions: the values of parameters (by 0-based index) that CUDA
  /// defaults and HIP does not (default_args: cudaMalloc3DArray's flags,
  /// `{3: "0"}`), in HIP's spelling; a call that stops before them has them
  /// appended, up to the first count HIP takes.
  std::map<unsigned, std::string> DefaultArgs;
  /// Functions: the shim a call becomes when the CUDA overload it resolves
  /// to takes this first parameter type, which HIP's function lacks
  /// (shim_by_param: atomicAdd's `__half *` is cu2dcu_atomicAdd_half), or,
  /// keyed "N:TYPE", this type as its N-th parameter (0-based).
  std::map<std::string, std::string> ShimByParam;
  /// Functions: HIP's type of a parameter (by index) that is less
  /// const-qualified than CUDA's (qualifier_casts: cuMemcpyHtoD's source is
  /// hipMemcpyHtoD's `void *`). An argument C++ would not convert implicitly
  /// (one with a const HIP's type lacks, or differing from it in qualifiers
  /// only) is cast to it; HIP's function does not write through it either.
  std::map<unsigned, std::string> QualifierCasts;
  /// Types: the members of the CUDA struct that the HIP struct lacks, each
  /// with the first HIP version that has it, or none (missing_members:
  /// cudaDeviceProp's persistingL2CacheMaxSize is in hipDeviceProp_t from
  /// 6.4). A use is reported at the member access (AST mode).
  std::map<std::string, std::optional<HipVersion>> MissingMembers;
  /// Functions: the role of a CUDA warp function (`warp`); None for others.
  WarpFn Warp = WarpFn::None;
  std::string SourceFile; // map file and line, for conflict messages
  unsigned SourceLine = 0;
  unsigned SourceColumn = 0;

  bool isSupported() const { return Status != EntryStatus::Unsupported && !Hip.empty(); }
  /// Whether uses become the shim for this target: it has a shim, and no
  /// HIP name or only one newer than Target.
  bool usesShim(const HipVersion &Target) const {
    return !Shim.empty() && (!isSupported() || (HipSince && Target < *HipSince));
  }
  /// Whether Target predates the HIP name (hip_since).
  bool isNewerThan(const HipVersion &Target) const { return HipSince && Target < *HipSince; }
  /// Whether Target has no HIP name for this entry.
  bool isMissingIn(const HipVersion &Target) const { return !isSupported() || isNewerThan(Target); }
  /// Whether Target declares the HIP name only with the HipGuard macro.
  bool needsGuard(const HipVersion &Target) const {
    return !HipGuard.empty() && !isMissingIn(Target) && (!HipGuardUntil || Target < *HipGuardUntil);
  }
};

struct MapLoadIssue {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;
  bool IsError = true;
};

/// The issues found while loading map files: what the API maps and the
/// build-file maps share.
class MapIssues {
public:
  const std::vector<MapLoadIssue> &issues() const { return Issues; }
  bool hasErrors() const;

protected:
  void addIssue(const std::string &File, unsigned Line, unsigned Col, std::string Msg,
                bool IsError = true);
  /// Reads Path and loads its text with Load; an unreadable file is an
  /// issue ("cannot read " + What).
  bool loadFileText(const std::string &Path, const char *What,
                    llvm::function_ref<bool(const std::string &)> Load);
  /// The *.yaml files of Dir (yamlFilesOf); an unreadable directory is an
  /// issue ("cannot open " + What).
  std::optional<std::vector<std::string>> mapFilesOf(const std::string &Dir, const char *What);

  std::vector<MapLoadIssue> Issues;
};

/// The parameter a shim_by_param key names: "T" the first one's type, "N:T"
/// the N-th one's (0-based).
struct ShimParameter {
  unsigned Index = 0;
  llvm::StringRef Type;
};
ShimParameter shimParameter(llvm::StringRef Key);

/// Code cu2dcu writes into a translated file to provide, on both HIP
/// platforms, an API the target HIP lacks (mappings/shims/*.yaml).
struct ShimDefinition {
  std::string Name; // the identifier uses are renamed to
  std::string Description;
  std::vector<std::string> Includes;
  /// Shims whose code this one calls: written before it, once per file.
  std::vector<std::string> Uses;
  std::string Code;
  std::string SourceFile;
};

/// A function HIP declares on AMD that CUDA does not (mappings/collisions/):
/// a program's own definition of it collides with HIP's there.
struct HipDeclaredFunction {
  std::string Function;
  /// Parameter types without references and top-level const; "VECTOR" is one
  /// CUDA vector type, the same in each such parameter.
  std::vector<std::string> Parameters;
  std::string Header;
  HipVersion Since;

  /// "atomicMax(float *, float)"; Vector stands for VECTOR ("float4").
  std::string signature(const std::string &Vector = "VECTOR") const;
};

/// What a value is to the warp data-flow analysis (an idiom's `yields`).
enum class LaneValue { None, LaneIndex, LaneMask };

/// A PTX idiom the W64-INLINE-PTX check recognises in inline assembly, and
/// what replaces it in HIP (mappings/checks/inline_ptx.yaml).
struct PtxIdiom {
  std::string Ptx;  // the spelling searched for: "%laneid", "shfl.sync"
  std::string Hip;  // the HIP replacement; empty where HIP has none
  std::string Note; // what to do instead, where HIP has none
  /// A special register whose plain read (mov.u32 %0, %%laneid;) the finding
  /// offers to rewrite as an assignment of Hip.
  bool Fix = false;
  /// Lane-level PTX (lane registers, shuffles, votes), which the lexical scan
  /// reports without an AST.
  bool LaneLevel = false;
  /// What an asm output reading it holds, for the warp data-flow analysis.
  LaneValue Yields = LaneValue::None;
};

/// mappings/checks/inline_ptx.yaml as a whole.
struct InlinePtxRules {
  std::vector<PtxIdiom> Idioms; // in search order
  /// Text that marks assembly outside device code as PTX, not host assembly.
  std::vector<std::string> PtxMarkers;
  /// Macros only NVIDIA compiles define: PTX in their #if branch is left alone.
  std::vector<std::string> NvidiaOnlyMacros;

  /// Whether assembly text reads as PTX (one of PtxMarkers is in it).
  bool looksLikePtx(const std::string &Asm) const;
  /// The advice for PTX text: what each idiom in it becomes ("HIP
  /// replacement: '%laneid' -> __lane_id(); ..."), in search order, a longer
  /// idiom hiding the shorter ones inside its match; or, without a known
  /// idiom, to rewrite it.
  std::string adviceFor(const std::string &Asm) const;
};

/// A 32-bit bit function and its 64-bit form (W64-BALLOT-NARROW).
struct BitFunction {
  /// When the rename to Wide is a safe fix: always, only where the argument
  /// is 64-bit after the translation's fixes, or never (the code around the
  /// call assumes 32 bits).
  enum class Fix { Always, WhenWide, Never };
  std::string Narrow; // __popc
  std::string Wide;   // __popcll
  Fix SafeFix = Fix::Never;
  std::string Note;   // what else changes with 64 bits
};

/// mappings/checks/warp_names.yaml: the names the wavefront-64 checks treat
/// as lane values, and the spelling patterns of the lexical scan.
struct WarpNames {
  std::set<std::string> LaneIndexFunctions;      // __lane_id(), thread_rank()
  std::set<std::string> WavefrontLaneFunctions;  // __lane_id(): 0-63 on a wavefront
  std::set<std::string> LaneMaskFunctions;       // __ballot64(), __lanemask_lt()
  std::set<std::string> LanePreservingFunctions; // min(lane, n) is still a lane
  std::set<std::string> ThreadIndexParameters;   // lower case: a parameter `int tid`
  std::set<std::string> LaneIndexParameters;     // lower case: of those, `int lane`
  std::vector<BitFunction> BitFunctions;
  const BitFunction *bitFunction(const std::string &Narrow) const;
  /// Whether Name (either form) counts or finds lanes, which means the same
  /// on a 64-bit mask (its fix is not Never).
  bool readsMaskAsWhole(const std::string &Name) const;
  /// Case-insensitive llvm::Regex patterns over identifiers.
  std::string WarpSizeNames;    // WARP_SIZE, kWarpSize
  std::string LaneMaskNames;    // FULL_MASK
  std::string ThreadIndexNames; // threadIdx, tid, lane
  /// What a HIP compile for AMD GPUs decides: a macro's value, or nothing
  /// for a macro it leaves undefined (__HIP_PLATFORM_AMD__ = 1).
  std::map<std::string, std::optional<int64_t>> AmdCompileMacros;
  std::string AmdSwitchNames; // USE_ROCM, WITH_HIP: a project's own AMD path
  /// The shim a shuffle's 32-bit mask passes through in 32-lane groups.
  std::string LaneGroupMaskShim;
  /// A block collective's algorithm enumerator whose AMD form needs a block
  /// of whole wavefronts -> the one that works for any block size.
  std::map<std::string, std::string> WholeWavefrontAlgorithms;
};

/// One map file's validated entries and the issues found in it, before they
/// are merged into the tables: what the map cache stores.
struct MapFileContents {
  std::vector<ApiEntry> Entries;
  std::vector<std::string> ApiNamePatterns; // `api_names`
  std::vector<MapLoadIssue> Issues;
  bool Ok = true;
};

class ApiMap : public MapIssues {
public:
  /// Caches each loaded map file, keyed by its content, under Dir so that
  /// later runs skip the YAML parse (most of a small run's start-up time).
  /// Empty (the default) disables the cache.
  void setCacheDirectory(std::string Dir) { CacheDir = std::move(Dir); }
  /// The HIP version the output targets; set before loading. An entry that
  /// is `unsupported` with a `hip` name and `hip_since` (a name only newer
  /// HIP declares) is loaded as supported when Target has that version.
  void setTargetHip(HipVersion Target) { TargetHip = Target; }

  /// Loads one YAML map file. Later loads override earlier entries of the same
  /// CUDA name; overrides within one file are errors, across files notes.
  bool loadFile(const std::string &Path);
  /// Loads every *.yaml file of a directory, in name order, after the shims
  /// of its shims/ folder; then its collisions/ and checks/ folders.
  bool loadDirectory(const std::string &Dir);
  /// Loads one shim definition file.
  bool loadShimFile(const std::string &Path);
  /// Every shim a shim `uses` exists (a load error otherwise).
  bool checkShimUses();

  const ApiEntry *lookup(const std::string &CudaName) const;
  const ApiEntry *lookupHeader(const std::string &CudaHeader) const;
  const ShimDefinition *lookupShim(const std::string &Name) const;
  /// Functions HIP declares on AMD that CUDA does not (mappings/collisions/).
  const std::vector<HipDeclaredFunction> &hipDeclared() const { return HipDeclared; }
  /// The PTX idioms of inline assembly, in search order, and where PTX is
  /// (mappings/checks/inline_ptx.yaml).
  const std::vector<PtxIdiom> &ptxIdioms() const { return InlinePtx.Idioms; }
  const InlinePtxRules &inlinePtx() const { return InlinePtx; }
  /// mappings/checks/warp_names.yaml.
  const WarpNames &warpNames() const { return Names; }

  /// Whether Name matches a family's `api_names` pattern: a name of that API,
  /// which lexical mode reports when no entry covers it.
  bool looksLikeApiName(llvm::StringRef Name) const;

  /// Whether any entry renames a namespace (lets files skip that pass).
  bool hasNamespaces() const { return NamespaceCount > 0; }

  size_t size() const { return Entries.size(); }
  /// Entries in deterministic (name) order, for coverage and reports.
  std::vector<const ApiEntry *> entries() const;

private:
  bool loadText(const std::string &Text, const std::string &Origin);
  bool merge(MapFileContents Contents, const std::string &Origin);

  std::string CacheDir;
  HipVersion TargetHip; // 0.0 until set: every such entry stays unsupported

  std::unordered_map<std::string, ApiEntry> Entries;     // identifiers and namespaces
  std::unordered_map<std::string, ApiEntry> HeaderEntries; // #include names
  std::unordered_map<std::string, ShimDefinition> Shims;
  std::vector<HipDeclaredFunction> HipDeclared;
  InlinePtxRules InlinePtx;
  WarpNames Names;
  std::vector<std::string> ApiNamePatterns;
  std::shared_ptr<const llvm::Regex> ApiNames; // ApiNamePatterns as one alternation
  std::vector<std::string> ApiNamePrefixes;    // what a match of each pattern starts with
  unsigned NamespaceCount = 0;
};

/// The *.yaml files of Dir in name order (Dir/NAME, so paths stay as the
/// user wrote them); nullopt when Dir cannot be read.
std::optional<std::vector<std::string>> yamlFilesOf(const std::string &Dir);

/// A map file's bytes; nullopt when it cannot be read.
std::optional<std::string> readMapFile(const std::string &Path);

const char *kindName(EntryKind K);
const char *statusName(EntryStatus S);
/// The `warp` value that names Fn ("shfl_down_sync"); "?" for None.
const char *warpFnName(WarpFn Fn);
/// Whether Fn is one of the shuffles (__shfl*, with or without _sync).
bool isShuffleRole(WarpFn Fn);
/// Whether a function of role Fn takes the lane mask as its first argument
/// (the *Sync roles and SyncWarp).
bool takesLaneMask(WarpFn Fn);

} // namespace cu2dcu
