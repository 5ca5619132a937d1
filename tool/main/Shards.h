// --shard K/N and `cu2dcu merge-reports`: a CI matrix splits a run's units
// among N jobs; each writes its units' outcomes to a shard file, and one
// merge job runs the whole pipeline on them, parsing nothing a shard parsed,
// so its output and reports are those a single run would have written.
//
// A shard file records the shard's command line. The options that decide
// what is translated (inputs, -p, maps, --hip-version, --fix-wave64, the
// compiler arguments after --) must be the same in every shard and are taken
// from there; the options that decide what the merge writes and how it gates
// (-o, the report files, --baseline, --fail-on, -j) are the merge's own.
#pragma once

#include "driver/Translator.h"
#include "driver/UnitStore.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cu2dcu {

/// "K/N" with 1 <= K <= N.
llvm::Expected<ShardSpec> parseShardSpec(llvm::StringRef Text);

/// Writes a shard file: the shard, its command line (ToolArgs after the
/// program name, and the compiler arguments) and the outcomes it used.
llvm::Error writeShardFile(const std::string &Path, ShardSpec Shard,
                           const std::vector<std::string> &ToolArgs,
                           const std::vector<std::string> &CompilerArgs,
                           const std::vector<StoredUnit> &Units, const std::string &ToolVersion);

struct MergeRequest {
  std::vector<std::string> ShardFiles;
  std::vector<std::string> OwnArgs; // the merge's own options
};

/// Splits `merge-reports` arguments into shard files and the merge's options.
MergeRequest splitMergeArguments(const std::vector<std::string> &Args);

struct MergedShards {
  std::vector<std::string> ToolArgs;     // the command line of the merged run
  std::vector<std::string> CompilerArgs; // after --
  std::vector<StoredUnit> Units;
};

/// Reads every shard of one matrix (each K of N exactly once, same tool,
/// same run-deciding options) and the command line of the merged run.
llvm::Expected<MergedShards> readShards(const MergeRequest &Request,
                                        const std::string &ToolVersion);

} // namespace cu2dcu
