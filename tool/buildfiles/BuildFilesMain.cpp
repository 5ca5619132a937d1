// cu2dcu-buildfiles: translates one build file, for tests and corpus runs.
//   cu2dcu-buildfiles [--maps DIR] [--offload-arch GFX]... [--findings FILE] IN OUT
// The findings go to stderr (and, with --findings, to FILE as
// "LINE:COL SEVERITY CHECK-ID MESSAGE" lines). Exit 0 done, 2 usage or input error.
#include "buildfiles/BuildFiles.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace cu2dcu;

namespace {

int usage() {
  std::cerr << "usage: cu2dcu-buildfiles [--maps DIR] [--offload-arch GFX]... "
               "[--findings FILE] IN OUT\n";
  return 2;
}

bool readFile(const std::string &Path, std::string &Out) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  Out = Buffer.str();
  return bool(In);
}

} // namespace

int main(int argc, char **argv) {
  std::string Maps = CU2DCU_DEFAULT_BUILD_MAPS, FindingsPath;
  BuildOptions Opts;
  bool ArchGiven = false;
  std::vector<std::string> Paths;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    bool HasValue = I + 1 < argc;
    if (A == "--maps" && HasValue)
      Maps = argv[++I];
    else if (A == "--findings" && HasValue)
      FindingsPath = argv[++I];
    else if (A == "--offload-arch" && HasValue) {
      if (!ArchGiven)
        Opts.OffloadArchs.clear();
      ArchGiven = true;
      Opts.OffloadArchs.push_back(argv[++I]);
    } else if (!A.empty() && A[0] == '-')
      return usage();
    else
      Paths.push_back(A);
  }
  if (Paths.size() != 2)
    return usage();
  BuildFlagMap Map;
  Map.loadDirectory(Maps);
  for (const MapLoadIssue &I : Map.issues())
    std::cerr << I.File << ":" << I.Line << ":" << I.Column << ": "
              << (I.IsError ? "error" : "note") << ": " << I.Message << "\n";
  if (Map.hasErrors())
    return 2;
  std::optional<BuildFileKind> Kind = classifyBuildFile(Paths[0]);
  std::string Text;
  if (!Kind || !readFile(Paths[0], Text)) {
    std::cerr << Paths[0] << ": not a readable Makefile or CMake file\n";
    return 2;
  }
  BuildTranslation T = translateBuildFile(*Kind, Text, Paths[0], Map, Opts);
  std::ofstream(Paths[1], std::ios::binary) << T.Text;
  std::ofstream Findings;
  if (!FindingsPath.empty())
    Findings.open(FindingsPath);
  for (const Diagnostic &D : T.Findings) {
    std::cerr << D.File << ":" << D.Line << ":" << D.Column << ": " << severityName(D.Level)
              << ": " << D.Message << " [" << D.CheckId << "]\n";
    if (Findings)
      Findings << D.Line << ":" << D.Column << " " << severityName(D.Level) << " " << D.CheckId
               << " " << D.Message << "\n";
  }
  std::cerr << T.Changes << " change(s), " << T.Findings.size() << " finding(s)\n";
  return 0;
}
