#include "driver/UnitStore.h"
#include "core/Paths.h"
#include "core/ResultJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

namespace cu2dcu {

namespace json = llvm::json;

json::Value toJSON(const StoredUnit &U) {
  json::Array Reads;
  for (const auto &[Path, Digest] : U.Reads)
    Reads.push_back(json::Array{textToJSON(Path), Digest});
  return json::Object{{"key", U.Key}, {"reads", std::move(Reads)}, {"outcome", U.Outcome}};
}

bool fromJSON(const json::Value &V, StoredUnit &U, json::Path P) {
  json::ObjectMapper O(V, P);
  const json::Array *Reads = O ? V.getAsObject()->getArray("reads") : nullptr;
  if (!Reads || !O.map("key", U.Key) || !O.map("outcome", U.Outcome)) {
    P.report("expected a stored unit");
    return false;
  }
  for (const json::Value &R : *Reads) {
    const json::Array *Pair = R.getAsArray();
    std::string Path;
    std::optional<llvm::StringRef> Digest = Pair && Pair->size() == 2 ? (*Pair)[1].getAsString()
                                                                       : std::nullopt;
    if (!Digest || !textFromJSON((*Pair)[0], Path, P)) {
      P.report("expected [path, digest]");
      return false;
    }
    U.Reads.emplace_back(std::move(Path), Digest->str());
  }
  return true;
}

std::string digestOf(llvm::StringRef Bytes) {
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Bytes));
  return llvm::utohexstr(H.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(H.low64, /*LowerCase=*/true, 16);
}

std::string FileDigests::of(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Known.find(Path);
    if (It != Known.end())
      return It->second;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  std::string Digest = Buffer ? digestOf((*Buffer)->getBuffer()) : "missing";
  std::lock_guard<std::mutex> Guard(Lock);
  return Known.emplace(Path, Digest).first->second;
}

void UnitStore::add(StoredUnit Unit) {
  std::string Key = Unit.Key;
  Handed[Key] = std::move(Unit);
}

std::string UnitStore::entryPath(const std::string &Key) const {
  llvm::SmallString<256> Path(CacheDir);
  llvm::sys::path::append(Path, "units", Key.substr(0, 2), Key + ".json");
  return std::string(Path);
}

/// An entry is the digest of the rest, its key, its outcome as JSON (less
/// the read list) and its reads, a line each: "STATE<tab>PATH". A damaged or
/// truncated file fails the digest even where it still parses. The reads are
/// most of an entry (the CUDA, clang and system headers): as lines they cost
/// a warm run a split, not a JSON parse.
std::optional<StoredUnit> UnitStore::readEntry(const std::string &Key) const {
  if (CacheDir.empty())
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(entryPath(Key));
  if (!Buffer)
    return std::nullopt;
  auto [Check, Text] = (*Buffer)->getBuffer().split('\n');
  if (Check != digestOf(Text))
    return std::nullopt;
  auto [StoredKey, Rest] = Text.split('\n');
  auto [OutcomeText, Reads] = Rest.split('\n');
  StoredUnit Unit;
  llvm::Expected<UnitOutcome> Outcome = json::parse<UnitOutcome>(OutcomeText);
  if (!Outcome) {
    llvm::consumeError(Outcome.takeError());
    return std::nullopt;
  }
  if (StoredKey != Key)
    return std::nullopt;
  Unit.Key = Key;
  Unit.Outcome = std::move(*Outcome);
  Unit.Outcome.Reads.clear();
  for (llvm::StringRef Line : llvm::split(Reads, '\n')) {
    if (Line.empty()) // after the last line break
      continue;
    auto [State, Path] = Line.split('\t');
    Unit.Reads.emplace_back(Path.str(), State.str());
    Unit.Outcome.Reads.push_back(Path.str());
  }
  // A reuse is a use: pruning keeps the entries used most recently.
  int FD = -1;
  if (!llvm::sys::fs::openFileForRead(entryPath(Key), FD)) {
    (void)llvm::sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return Unit;
}

std::optional<UnitOutcome>
UnitStore::find(const std::string &Key,
                const std::function<std::string(const std::string &)> &Digest) {
  std::optional<StoredUnit> Unit;
  if (auto It = Handed.find(Key); It != Handed.end())
    Unit = It->second;
  else
    Unit = readEntry(Key);
  if (!Unit || Unit->Reads.empty())
    return std::nullopt;
  for (const auto &[Path, Was] : Unit->Reads)
    if (Digest(Path) != Was)
      return std::nullopt;
  ++Hits;
  Used.push_back(*Unit);
  // A reused outcome cost this run no parse.
  Unit->Outcome.Parse = Unit->Outcome.Match = StageTime();
  return std::move(Unit->Outcome);
}

void UnitStore::keep(const std::string &Key, const UnitOutcome &Outcome,
                     const std::function<std::string(const std::string &)> &Digest) {
  if (Outcome.Result.Failure == ParseFailure::Timeout ||
      Outcome.Result.Failure == ParseFailure::Crash || Outcome.Reads.empty())
    return;
  StoredUnit Unit{Key, {}, Outcome};
  for (const std::string &Path : Outcome.Reads)
    Unit.Reads.emplace_back(Path, Digest(Path));
  // A path with a line break cannot be a line of an entry: such a unit is
  // parsed again next time.
  bool Storable = llvm::none_of(Outcome.Reads, [](const std::string &Path) {
    return llvm::StringRef(Path).contains('\n');
  });
  if (!CacheDir.empty() && Storable) {
    UnitOutcome Stored = Outcome;
    Stored.Reads.clear();
    std::string Text = Key + "\n" + jsonText(toJSON(Stored)) + "\n";
    for (const auto &[Path, State] : Unit.Reads)
      Text += State + "\t" + Path + "\n";
    std::string Path = entryPath(Key);
    // A cache that cannot be written only costs time.
    if (!llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
      llvm::consumeError(llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
        OS << digestOf(Text) << '\n' << Text;
        return llvm::Error::success();
      }));
  }
  Used.push_back(std::move(Unit));
}

void UnitStore::prune(uint64_t LimitBytes) const {
  if (CacheDir.empty())
    return;
  struct Entry {
    llvm::sys::TimePoint<> Used;
    uint64_t Size;
    std::string Path;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(joinPath(CacheDir, "units"), EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(It->path(), Status) ||
        Status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    Entries.push_back({Status.getLastModificationTime(), Status.getSize(), It->path()});
    Total += Status.getSize();
  }
  if (Total <= LimitBytes)
    return;
  llvm::sort(Entries, [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  for (const Entry &E : Entries) {
    if (Total <= LimitBytes / 10 * 8)
      break;
    if (!llvm::sys::fs::remove(E.Path))
      Total -= E.Size;
  }
}

std::string digestOfTrees(const std::vector<std::string> &Paths) {
  std::string Text;
  FileDigests Digests;
  for (const std::string &Root : Paths) {
    std::vector<std::string> Files;
    std::error_code EC;
    if (llvm::sys::fs::is_directory(Root))
      for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
           It.increment(EC))
        Files.push_back(It->path());
    else
      Files.push_back(Root);
    llvm::sort(Files);
    for (const std::string &File : Files)
      Text += File.substr(Root.size()) + '\0' + Digests.of(File) + '\0';
  }
  return digestOf(Text);
}

std::string defaultUnitCacheDirectory() {
  llvm::SmallString<256> Dir;
  if (!llvm::sys::path::cache_directory(Dir))
    return std::string();
  llvm::sys::path::append(Dir, "cu2dcu");
  return std::string(Dir);
}

} // namespace cu2dcu
