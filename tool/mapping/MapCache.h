// A cache of validated map files, so that a run does not parse the same YAML
// again: yaml-cpp takes about 0.2 s for the shipped maps, which is most of
// the start-up of a small project's run. Entries are keyed by the file's
// content and by the loader's own source, so an edited map or a changed
// loader never reads a stale entry.
#pragma once

#include "mapping/ApiMap.h"

#include <optional>
#include <string>

namespace cu2dcu {

/// The key of a map file with this text; stable across runs and paths.
std::string mapCacheKey(const std::string &Text);

/// The cached contents under Key, with Origin as their file; nullopt when
/// absent or unreadable (the caller then parses the YAML).
std::optional<MapFileContents> readCachedMap(const std::string &Dir, const std::string &Key,
                                             const std::string &Origin);

/// Stores Contents under Key, atomically; a cache that cannot be written is
/// skipped silently, since it only saves time.
void writeCachedMap(const std::string &Dir, const std::string &Key,
                    const MapFileContents &Contents);

/// The default cache folder: $XDG_CACHE_HOME/cu2dcu/maps or ~/.cache/...;
/// empty when the platform has none.
std::string defaultMapCacheDirectory();

} // namespace cu2dcu
