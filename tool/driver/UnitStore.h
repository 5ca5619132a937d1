// Unit outcomes kept for reuse: across runs (--cache DIR) and across the
// shards of a CI matrix (--shard K/N, then `cu2dcu merge-reports`).
//
// An outcome is reused only while everything it came from is unchanged: its
// key covers the unit's path and flags and the run's settings (tool binary,
// maps, translation options, the project's macro and name sets), and its
// read list records the content digest of every file the parse looked up,
// with whether the run translates it. A header's merged edits are not
// stored: the driver merges the units' outcomes again on every run, so a
// header shared by a reused unit and a re-parsed one is still right.
//
// The cache is safe to share and to damage: each entry is written to a
// temporary and renamed, carries a digest of its own text, and any entry
// that does not read back exactly is ignored (the unit is parsed).
#pragma once

#include "driver/UnitOutcome.h"

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cu2dcu {

struct StoredUnit {
  std::string Key;
  std::vector<std::pair<std::string, std::string>> Reads; // path, digest
  UnitOutcome Outcome;
};

llvm::json::Value toJSON(const StoredUnit &U);
bool fromJSON(const llvm::json::Value &V, StoredUnit &U, llvm::json::Path P);

/// A 128-bit digest as 32 hex digits.
std::string digestOf(llvm::StringRef Bytes);

/// Content digests of files, each file read once per run.
class FileDigests {
public:
  /// The digest of Path's content, or "missing".
  std::string of(const std::string &Path);

private:
  std::mutex Lock;
  std::map<std::string, std::string> Known;
};

class UnitStore {
public:
  /// CacheDir: the folder of the persistent cache, or empty for none.
  explicit UnitStore(std::string CacheDir) : CacheDir(std::move(CacheDir)) {}

  /// Outcomes handed over from elsewhere (the shards being merged).
  void add(StoredUnit Unit);
  /// The outcome stored under Key, if every file it read is as it was.
  /// Digest gives a file's current digest (FileDigests, and whether the
  /// run translates it).
  std::optional<UnitOutcome>
  find(const std::string &Key, const std::function<std::string(const std::string &)> &Digest);
  /// Records a fresh outcome (and writes it to the cache): a parse that timed
  /// out or crashed is not kept, since another try may succeed.
  void keep(const std::string &Key, const UnitOutcome &Outcome,
            const std::function<std::string(const std::string &)> &Digest);

  /// Keeps the cache within LimitBytes: the entries used least recently go
  /// first (a reuse counts as a use), down to 80% of the limit.
  void prune(uint64_t LimitBytes) const;

  /// Every outcome this run used, found or fresh, in the order it was used
  /// (what a shard hands to the merge).
  const std::vector<StoredUnit> &used() const { return Used; }
  unsigned hits() const { return Hits; }

private:
  std::optional<StoredUnit> readEntry(const std::string &Key) const;
  std::string entryPath(const std::string &Key) const;

  std::string CacheDir;
  std::map<std::string, StoredUnit> Handed;
  std::vector<StoredUnit> Used;
  unsigned Hits = 0;
};

/// One digest of the contents of these files and of every file under these
/// folders (with their relative paths), in a stable order.
std::string digestOfTrees(const std::vector<std::string> &Paths);

/// The default cache folder: $XDG_CACHE_HOME/cu2dcu or ~/.cache/cu2dcu.
std::string defaultUnitCacheDirectory();

} // namespace cu2dcu
