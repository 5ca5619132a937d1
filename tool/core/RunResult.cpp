#include "core/RunResult.h"

namespace cu2dcu {

const char *stageName(Stage S) {
  switch (S) {
  case Stage::Discover:
    return "discover";
  case Stage::Maps:
    return "maps";
  case Stage::Pch:
    return "pch";
  case Stage::Parse:
    return "parse";
  case Stage::Match:
    return "match";
  case Stage::Rewrite:
    return "rewrite";
  case Stage::Write:
    return "write";
  case Stage::Report:
    return "report";
  }
  return "?";
}

const char *fileStatusName(FileStatus S) {
  switch (S) {
  case FileStatus::Translated:
    return "translated";
  case FileStatus::Unchanged:
    return "unchanged";
  case FileStatus::Copied:
    return "copied";
  case FileStatus::Failed:
    return "failed";
  }
  return "?";
}

} // namespace cu2dcu
