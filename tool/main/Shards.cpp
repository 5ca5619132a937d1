#include "Shards.h"

#include "core/ResultJson.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

namespace cu2dcu {

namespace json = llvm::json;

namespace {

constexpr int ShardFormatVersion = 1;

/// Options of the merge, not of the shards: where output and reports go,
/// how the run gates, how fast it goes.
const llvm::StringSet<> MergeOwned = {
    "o",          "dry-run",     "diff",    "in-place", "json",      "sarif",
    "html",       "stats-csv",   "summary-md", "write-baseline", "baseline", "fail-on",
    "max-warnings", "quiet",     "progress", "time-report", "docs-url", "shard",
    "cache",      "no-cache",    "cache-limit-mb", "j", "parse-timeout", "no-pch"};

llvm::Error failure(const llvm::Twine &Message) {
  return llvm::createStringError(std::errc::invalid_argument, "%s", Message.str().c_str());
}

/// An argument's option name ("j" for -j4) and whether the next argument
/// is its value; an empty name for a positional argument.
std::pair<std::string, bool> optionOf(llvm::StringRef Arg) {
  if (!Arg.starts_with("-") || Arg == "-")
    return {"", false};
  llvm::StringRef Name = Arg.ltrim('-');
  bool HasInlineValue = Name.contains('=');
  Name = Name.split('=').first;
  auto &Options = llvm::cl::getRegisteredOptions();
  auto It = Options.find(Name);
  if (It == Options.end()) {
    // A prefix option with its value attached (-j4).
    if (Options.count(Name.take_front(1)))
      return {Name.take_front(1).str(), false};
    return {Name.str(), false};
  }
  bool NeedsValue = It->second->getValueExpectedFlag() == llvm::cl::ValueRequired;
  return {Name.str(), NeedsValue && !HasInlineValue};
}

/// Args without the options of Drop (with their values), or with only them
/// (Keep).
std::vector<std::string> selectOptions(const std::vector<std::string> &Args, bool Keep) {
  std::vector<std::string> Selected;
  for (size_t I = 0; I < Args.size(); ++I) {
    auto [Name, TakesNext] = optionOf(Args[I]);
    bool Owned = !Name.empty() && MergeOwned.contains(Name);
    size_t Count = TakesNext && I + 1 < Args.size() ? 2 : 1;
    if (Owned == Keep)
      Selected.insert(Selected.end(), Args.begin() + I, Args.begin() + I + Count);
    I += Count - 1;
  }
  return Selected;
}

struct ShardFile {
  ShardSpec Shard;
  std::string Tool;
  std::vector<std::string> ToolArgs, CompilerArgs;
  std::vector<StoredUnit> Units;
};

bool fromJSON(const json::Value &V, ShardFile &F, json::Path P) {
  json::ObjectMapper O(V, P);
  const json::Value *Shard = O ? V.getAsObject()->get("shard") : nullptr;
  std::optional<int64_t> Version = O ? V.getAsObject()->getInteger("formatVersion") : std::nullopt;
  if (!Shard || V.getAsObject()->getString("format") != "cu2dcu-shard" ||
      Version != ShardFormatVersion) {
    P.report("not a cu2dcu shard file of format version 1");
    return false;
  }
  json::ObjectMapper S(*Shard, P.field("shard"));
  return S.map("index", F.Shard.Index) && S.map("count", F.Shard.Count) &&
         O.map("tool", F.Tool) && O.map("arguments", F.ToolArgs) &&
         O.map("compilerArgs", F.CompilerArgs) && O.map("units", F.Units);
}

} // namespace

llvm::Expected<ShardSpec> parseShardSpec(llvm::StringRef Text) {
  auto [K, N] = Text.split('/');
  ShardSpec Spec;
  if (K.getAsInteger(10, Spec.Index) || N.getAsInteger(10, Spec.Count) || Spec.Index < 1 ||
      Spec.Index > Spec.Count)
    return failure("--shard '" + Text + "' is not K/N with 1 <= K <= N");
  return Spec;
}

llvm::Error writeShardFile(const std::string &Path, ShardSpec Shard,
                           const std::vector<std::string> &ToolArgs,
                           const std::vector<std::string> &CompilerArgs,
                           const std::vector<StoredUnit> &Units, const std::string &ToolVersion) {
  json::Array Stored;
  for (const StoredUnit &U : Units)
    Stored.push_back(toJSON(U));
  json::Value Root = json::Object{
      {"format", "cu2dcu-shard"},
      {"formatVersion", ShardFormatVersion},
      {"tool", ToolVersion},
      {"shard", json::Object{{"index", Shard.Index}, {"count", Shard.Count}}},
      {"arguments", ToolArgs},
      {"compilerArgs", CompilerArgs},
      {"units", std::move(Stored)}};
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << Root << "\n";
    return llvm::Error::success();
  });
}

MergeRequest splitMergeArguments(const std::vector<std::string> &Args) {
  MergeRequest Request;
  for (size_t I = 0; I < Args.size(); ++I) {
    auto [Name, TakesNext] = optionOf(Args[I]);
    if (Name.empty()) {
      Request.ShardFiles.push_back(Args[I]);
      continue;
    }
    Request.OwnArgs.push_back(Args[I]);
    if (TakesNext && I + 1 < Args.size())
      Request.OwnArgs.push_back(Args[++I]);
  }
  return Request;
}

llvm::Expected<MergedShards> readShards(const MergeRequest &Request,
                                        const std::string &ToolVersion) {
  if (Request.ShardFiles.empty())
    return failure("merge-reports needs the shard files (--shard K/N --json FILE)");
  std::vector<ShardFile> Shards;
  for (const std::string &Path : Request.ShardFiles) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return failure("cannot read shard file '" + Path + "': " + Buffer.getError().message());
    llvm::Expected<ShardFile> Shard = json::parse<ShardFile>((*Buffer)->getBuffer());
    if (!Shard)
      return failure("'" + Path + "': " + llvm::toString(Shard.takeError()));
    if (Shard->Tool != ToolVersion)
      return failure("'" + Path + "' was written by cu2dcu " + Shard->Tool + ", this is " +
                     ToolVersion);
    Shards.push_back(std::move(*Shard));
  }
  const ShardFile &First = Shards.front();
  std::vector<std::string> Deciding = selectOptions(First.ToolArgs, /*Keep=*/false);
  std::vector<bool> Seen(First.Shard.Count + 1, false);
  MergedShards Merged;
  for (size_t I = 0; I < Shards.size(); ++I) {
    ShardFile &S = Shards[I];
    const std::string &Path = Request.ShardFiles[I];
    if (S.Shard.Count != First.Shard.Count)
      return failure("'" + Path + "' is a shard of " + llvm::Twine(S.Shard.Count) + ", not of " +
                     llvm::Twine(First.Shard.Count));
    if (Seen[S.Shard.Index])
      return failure("shard " + llvm::Twine(S.Shard.Index) + " is given twice ('" + Path + "')");
    Seen[S.Shard.Index] = true;
    if (selectOptions(S.ToolArgs, false) != Deciding || S.CompilerArgs != First.CompilerArgs)
      return failure("'" + Path + "' translates with other options than '" +
                     Request.ShardFiles.front() + "'");
    std::move(S.Units.begin(), S.Units.end(), std::back_inserter(Merged.Units));
  }
  for (unsigned K = 1; K <= First.Shard.Count; ++K)
    if (!Seen[K])
      return failure("shard " + llvm::Twine(K) + "/" + llvm::Twine(First.Shard.Count) +
                     " is missing");
  Merged.ToolArgs = Deciding;
  llvm::append_range(Merged.ToolArgs, Request.OwnArgs);
  Merged.CompilerArgs = First.CompilerArgs;
  return Merged;
}

} // namespace cu2dcu
