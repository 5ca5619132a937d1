#include "mapping/MapCache.h"
#include "mapping/MapLoaderDigest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace cu2dcu {

namespace json = llvm::json;

namespace {

json::Object encodeEntry(const ApiEntry &E) {
  json::Object O{{"cuda", E.Cuda},          {"kind", int(E.Kind)},   {"status", int(E.Status)},
                 {"line", E.SourceLine},    {"column", E.SourceColumn}};
  auto Put = [&](const char *Key, const std::string &Value) {
    if (!Value.empty())
      O[Key] = Value;
  };
  Put("hip", E.Hip);
  Put("family", E.Family);
  Put("reason", E.Reason);
  Put("note", E.Note);
  Put("cuda_since", E.CudaSince);
  Put("cuda_removed", E.CudaRemoved);
  Put("hip_requires", E.HipRequires);
  Put("link", E.Link);
  Put("shim", E.Shim);
  Put("hip_in_condition", E.HipInCondition);
  for (auto [Key, List] : {std::pair{"hip_defines", &E.HipDefines}, {"hip_archs", &E.HipArchs}})
    if (!List->empty())
      O[Key] = json::Array(*List);
  Put("legacy_hip", E.LegacyHip);
  Put("mask_shim", E.MaskShim);
  Put("hip_guard", E.HipGuard);
  if (E.HipSince)
    O["hip_since"] = E.HipSince->str();
  if (E.HipGuardUntil)
    O["hip_guard_until"] = E.HipGuardUntil->str();
  if (E.SymbolArg)
    O["symbol_arg"] = *E.SymbolArg;
  if (E.FunctionArg)
    O["function_arg"] = *E.FunctionArg;
  if (E.OutPointerArg)
    O["out_pointer_arg"] = *E.OutPointerArg;
  if (E.DefinedOnly)
    O["defined_only"] = true;
  if (E.Warp != WarpFn::None)
    O["warp"] = int(E.Warp);
  for (auto [Key, Forms] : {std::pair{"hip_by_arity", &E.HipByArity}, {"qualifier_casts", &E.QualifierCasts}, {"default_args", &E.DefaultArgs}})
    if (!Forms->empty()) {
      json::Object Encoded;
      for (const auto &[Index, Name] : *Forms)
        Encoded[std::to_string(Index)] = Name;
      O[Key] = std::move(Encoded);
    }
  if (!E.MissingMembers.empty()) {
    json::Object Members;
    for (const auto &[Member, Since] : E.MissingMembers)
      Members[Member] = Since ? json::Value(Since->str()) : json::Value(nullptr);
    O["missing_members"] = std::move(Members);
  }
  if (!E.ShimByParam.empty()) {
    json::Object Shims;
    for (const auto &[Param, Shim] : E.ShimByParam)
      Shims[Param] = Shim;
    O["shim_by_param"] = std::move(Shims);
  }
  return O;
}

std::string text(const json::Object &O, llvm::StringRef Key) {
  std::optional<llvm::StringRef> S = O.getString(Key);
  return S ? S->str() : std::string();
}

/// hip_by_arity, qualifier_casts and shim_by_param, whose keys are an
/// argument count or index and a parameter type, and missing_members; false
/// when one is not as encodeEntry writes it.
bool decodeForms(const json::Object &O, ApiEntry &E) {
  for (auto [Key, Forms] : {std::pair{"hip_by_arity", &E.HipByArity}, {"qualifier_casts", &E.QualifierCasts}, {"default_args", &E.DefaultArgs}})
    if (const json::Object *Encoded = O.getObject(Key))
      for (const auto &[Number, Value] : *Encoded) {
        unsigned N = 0;
        std::optional<llvm::StringRef> Name = Value.getAsString();
        if (llvm::StringRef(Number).getAsInteger(10, N) || !Name)
          return false;
        (*Forms)[N] = Name->str();
      }
  if (const json::Object *Members = O.getObject("missing_members"))
    for (const auto &[Member, Since] : *Members) {
      std::optional<llvm::StringRef> Version = Since.getAsString();
      if (!Version && !Since.getAsNull())
        return false;
      E.MissingMembers[Member.str()] =
          Version ? HipVersion::parse(Version->str()) : std::nullopt;
    }
  if (const json::Object *Shims = O.getObject("shim_by_param"))
    for (const auto &[Param, Shim] : *Shims) {
      std::optional<llvm::StringRef> Name = Shim.getAsString();
      if (!Name)
        return false;
      E.ShimByParam[Param.str()] = Name->str();
    }
  return true;
}

std::optional<ApiEntry> decodeEntry(const json::Object &O, const std::string &Origin) {
  std::optional<int64_t> Kind = O.getInteger("kind"), Status = O.getInteger("status");
  std::optional<int64_t> Line = O.getInteger("line"), Column = O.getInteger("column");
  if (!Kind || !Status || !Line || !Column || *Kind < 0 || *Kind > int(EntryKind::Variable) ||
      *Status < 0 || *Status > int(EntryStatus::Removed))
    return std::nullopt;
  ApiEntry E;
  E.Cuda = text(O, "cuda");
  E.Hip = text(O, "hip");
  E.Kind = EntryKind(*Kind);
  E.Status = EntryStatus(*Status);
  E.Family = text(O, "family");
  E.Reason = text(O, "reason");
  E.Note = text(O, "note");
  E.CudaSince = text(O, "cuda_since");
  E.CudaRemoved = text(O, "cuda_removed");
  E.HipRequires = text(O, "hip_requires");
  E.Link = text(O, "link");
  E.Shim = text(O, "shim");
  E.HipInCondition = text(O, "hip_in_condition");
  for (auto [Key, List] : {std::pair{"hip_defines", &E.HipDefines}, {"hip_archs", &E.HipArchs}})
    if (const json::Array *Words = O.getArray(Key))
      for (const json::Value &Word : *Words)
        if (std::optional<llvm::StringRef> Name = Word.getAsString())
          List->push_back(Name->str());
  E.LegacyHip = text(O, "legacy_hip");
  E.MaskShim = text(O, "mask_shim");
  E.HipGuard = text(O, "hip_guard");
  if (std::optional<llvm::StringRef> Since = O.getString("hip_since"))
    E.HipSince = HipVersion::parse(Since->str());
  if (std::optional<llvm::StringRef> Until = O.getString("hip_guard_until"))
    E.HipGuardUntil = HipVersion::parse(Until->str());
  if (std::optional<int64_t> Arg = O.getInteger("symbol_arg"))
    E.SymbolArg = unsigned(*Arg);
  if (std::optional<int64_t> Arg = O.getInteger("function_arg"))
    E.FunctionArg = unsigned(*Arg);
  if (std::optional<int64_t> Arg = O.getInteger("out_pointer_arg"))
    E.OutPointerArg = unsigned(*Arg);
  E.DefinedOnly = O.getBoolean("defined_only").value_or(false);
  if (!decodeForms(O, E))
    return std::nullopt;
  if (std::optional<int64_t> Warp = O.getInteger("warp")) {
    if (*Warp <= int(WarpFn::None) || *Warp > int(WarpFn::All))
      return std::nullopt;
    E.Warp = WarpFn(*Warp);
  }
  E.SourceFile = Origin;
  E.SourceLine = unsigned(*Line);
  E.SourceColumn = unsigned(*Column);
  return E;
}

json::Object encodeIssue(const MapLoadIssue &I) {
  return json::Object{{"line", I.Line}, {"column", I.Column}, {"message", I.Message},
                      {"error", I.IsError}};
}

std::optional<MapLoadIssue> decodeIssue(const json::Object &O, const std::string &Origin) {
  std::optional<int64_t> Line = O.getInteger("line"), Column = O.getInteger("column");
  std::optional<llvm::StringRef> Message = O.getString("message");
  std::optional<bool> IsError = O.getBoolean("error");
  if (!Line || !Column || !Message || !IsError)
    return std::nullopt;
  return MapLoadIssue{Origin, unsigned(*Line), unsigned(*Column), Message->str(), *IsError};
}

std::string cachePath(const std::string &Dir, const std::string &Key) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "map-" + Key + ".json");
  return std::string(Path);
}

std::optional<MapFileContents> decode(const json::Value &Root, const std::string &Origin) {
  const json::Object *O = Root.getAsObject();
  const json::Array *Entries = O ? O->getArray("entries") : nullptr;
  const json::Array *Issues = O ? O->getArray("issues") : nullptr;
  const json::Array *ApiNames = O ? O->getArray("api_names") : nullptr;
  std::optional<bool> Ok = O ? O->getBoolean("ok") : std::nullopt;
  if (!Entries || !Issues || !ApiNames || !Ok)
    return std::nullopt;
  MapFileContents Contents;
  Contents.Ok = *Ok;
  for (const json::Value &V : *ApiNames) {
    std::optional<llvm::StringRef> Pattern = V.getAsString();
    if (!Pattern)
      return std::nullopt;
    Contents.ApiNamePatterns.push_back(Pattern->str());
  }
  Contents.Entries.reserve(Entries->size());
  for (const json::Value &V : *Entries) {
    std::optional<ApiEntry> E = V.getAsObject() ? decodeEntry(*V.getAsObject(), Origin) : std::nullopt;
    if (!E)
      return std::nullopt;
    Contents.Entries.push_back(std::move(*E));
  }
  for (const json::Value &V : *Issues) {
    std::optional<MapLoadIssue> I = V.getAsObject() ? decodeIssue(*V.getAsObject(), Origin) : std::nullopt;
    if (!I)
      return std::nullopt;
    Contents.Issues.push_back(std::move(*I));
  }
  return Contents;
}

} // namespace

std::string mapCacheKey(const std::string &Text) {
  uint64_t Content = llvm::xxh3_64bits(llvm::StringRef(Text));
  uint64_t Loader = llvm::xxh3_64bits(llvm::StringRef(CU2DCU_MAP_LOADER_DIGEST));
  return llvm::utohexstr(Content, /*LowerCase=*/true) + "-" +
         llvm::utohexstr(Loader, /*LowerCase=*/true);
}

std::optional<MapFileContents> readCachedMap(const std::string &Dir, const std::string &Key,
                                             const std::string &Origin) {
  auto Buffer = llvm::MemoryBuffer::getFile(cachePath(Dir, Key));
  if (!Buffer)
    return std::nullopt;
  llvm::Expected<json::Value> Root = json::parse((*Buffer)->getBuffer());
  if (!Root) {
    llvm::consumeError(Root.takeError());
    return std::nullopt;
  }
  return decode(*Root, Origin);
}

void writeCachedMap(const std::string &Dir, const std::string &Key,
                    const MapFileContents &Contents) {
  if (llvm::sys::fs::create_directories(Dir))
    return;
  json::Array Entries, Issues;
  for (const ApiEntry &E : Contents.Entries)
    Entries.push_back(encodeEntry(E));
  for (const MapLoadIssue &I : Contents.Issues)
    Issues.push_back(encodeIssue(I));
  json::Value Root(json::Object{{"ok", Contents.Ok},
                                {"api_names", json::Array(Contents.ApiNamePatterns)},
                                {"entries", std::move(Entries)},
                                {"issues", std::move(Issues)}});
  // A unique temporary renamed over the final name: a concurrent run reads
  // either no file or a whole one.
  std::string Final = cachePath(Dir, Key);
  llvm::SmallString<256> Temp;
  int FD = -1;
  if (llvm::sys::fs::createUniqueFile(Final + ".%%%%%%.tmp", FD, Temp))
    return;
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Root;
    Out.close();
    if (Out.has_error()) {
      Out.clear_error();
      llvm::sys::fs::remove(Temp);
      return;
    }
  }
  if (llvm::sys::fs::rename(Temp, Final))
    llvm::sys::fs::remove(Temp);
}

std::string defaultMapCacheDirectory() {
  llvm::SmallString<256> Dir;
  if (!llvm::sys::path::cache_directory(Dir))
    return std::string();
  llvm::sys::path::append(Dir, "cu2dcu", "maps");
  return std::string(Dir);
}

} // namespace cu2dcu
