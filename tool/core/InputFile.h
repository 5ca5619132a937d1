// One file of the run: where it is read from, how it is shown, where it is
// written and whether it is translated. Discovery produces them; the driver,
// the output writer and the reports read them.
#pragma once

#include <string>
#include <vector>

namespace cu2dcu {

enum class FileAction { Translate, Copy };

struct InputFile {
  std::string Source;  // absolute, symlinks resolved (what is read)
  std::string Display; // as shown to the user: relative to the input root, as
                       // found there (a symlinked file keeps the link's name)
  std::string Output;  // absolute output path; empty when not writing
  FileAction Action = FileAction::Copy;
  bool IsHeader = false;
  std::vector<std::string> CompileFlags; // portable flags from the database or `--`
};

} // namespace cu2dcu
