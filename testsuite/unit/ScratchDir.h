// Scratch files for one unit test. CTest runs every test as its own process,
// several at once, so a fixed name under the shared temporary folder lets two
// tests overwrite each other's files (CI saw one remove another's folder).
// The folder is named after the test; CTest points TempDir() into the build
// tree.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace cu2dcu {

/// A fresh, empty folder of the running test alone.
inline std::filesystem::path scratchDir() {
  const ::testing::TestInfo *Test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string Name = std::string(Test->test_suite_name()) + "." + Test->name();
  std::filesystem::path Dir = std::filesystem::path(::testing::TempDir()) / Name;
  static std::filesystem::path Made;
  if (Made != Dir) {
    std::filesystem::remove_all(Dir);
    std::filesystem::create_directories(Dir);
    Made = Dir;
  }
  return Dir;
}

/// Path of Name in the running test's scratch folder.
inline std::string scratchPath(const std::string &Name) { return (scratchDir() / Name).string(); }

} // namespace cu2dcu
