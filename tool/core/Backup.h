// The backup --in-place keeps of each file it changes: discovery skips it,
// the output writer writes it and --restore puts it back.
#pragma once

namespace cu2dcu {

/// Suffix of the backup --in-place keeps of each file it changes.
inline constexpr const char *BackupSuffix = ".cu2dcu-orig";

} // namespace cu2dcu
