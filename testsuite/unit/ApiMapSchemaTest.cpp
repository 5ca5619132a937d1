// Holds the C++ map loader to mappings/schema/maps.schema.json, the one
// description of the map format: the same keys, kinds and statuses, and the
// same verdict on every case of testsuite/maps/schema_cases.json (which
// maps.schema.cases runs through the schema itself with mappings/tools/schema.py).
#include "mapping/ApiMap.h"
#include "mapping/InlinePtxMap.h"
#include "mapping/MapKeys.h"
#include "mapping/WarpNamesMap.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include "ScratchDir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace cu2dcu;

namespace {

llvm::json::Value readJson(const char *Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return nullptr;
  llvm::Expected<llvm::json::Value> Value = llvm::json::parse((*Buffer)->getBuffer());
  if (!Value) {
    llvm::consumeError(Value.takeError());
    return nullptr;
  }
  return std::move(*Value);
}

std::set<std::string> keysOf(const llvm::json::Object *Properties) {
  std::set<std::string> Keys;
  if (Properties)
    for (const auto &KV : *Properties)
      Keys.insert(KV.first.str());
  return Keys;
}

std::set<std::string> stringsOf(const llvm::json::Array *Values) {
  std::set<std::string> Strings;
  if (Values)
    for (const llvm::json::Value &V : *Values)
      Strings.insert(V.getAsString().value_or("").str());
  return Strings;
}

/// Each case of the agreement file CasesPath (more than MinCases): Load, given
/// the case's file as text (JSON is YAML: it is loaded as it is written),
/// accepts it exactly when the case says the schema does.
void expectLoaderAgrees(const char *CasesPath, size_t MinCases,
                        llvm::function_ref<bool(const std::string &)> Load) {
  llvm::json::Value Cases = readJson(CasesPath);
  ASSERT_NE(Cases.getAsArray(), nullptr) << "cannot read " << CasesPath;
  ASSERT_GT(Cases.getAsArray()->size(), MinCases);
  for (const llvm::json::Value &Case : *Cases.getAsArray()) {
    const llvm::json::Object &C = *Case.getAsObject();
    EXPECT_EQ(Load(llvm::formatv("{0}", *C.get("map")).str()), *C.getBoolean("valid"))
        << C.getString("name").value_or("").str();
  }
}

class ApiMapSchemaTest : public ::testing::Test {
protected:
  void SetUp() override {
    Schema = readJson(CU2DCU_MAP_SCHEMA);
    ASSERT_NE(Schema.getAsObject(), nullptr) << "cannot read " << CU2DCU_MAP_SCHEMA;
    Entry = Schema.getAsObject()->getObject("$defs")->getObject("entry");
    ASSERT_NE(Entry, nullptr);
  }
  const llvm::json::Object *entryProperty(llvm::StringRef Key) const {
    return Entry->getObject("properties")->getObject(Key);
  }
  llvm::json::Value Schema = nullptr;
  const llvm::json::Object *Entry = nullptr;
};

TEST_F(ApiMapSchemaTest, LoaderKnowsTheSchemasKeys) {
  EXPECT_EQ(keysOf(Schema.getAsObject()->getObject("properties")), mapFileKeys());
  EXPECT_EQ(keysOf(Entry->getObject("properties")), mapEntryKeys());
}

TEST_F(ApiMapSchemaTest, LoaderKnowsTheSchemasKindsAndStatuses) {
  std::set<std::string> Kinds, Statuses;
  for (EntryKind K : {EntryKind::Function, EntryKind::Type, EntryKind::Enumerator,
                      EntryKind::Macro, EntryKind::Header, EntryKind::Namespace,
                      EntryKind::Variable})
    Kinds.insert(kindName(K));
  for (EntryStatus S : {EntryStatus::Supported, EntryStatus::Unsupported, EntryStatus::Removed})
    Statuses.insert(statusName(S));
  EXPECT_EQ(stringsOf(entryProperty("kind")->getArray("enum")), Kinds);
  EXPECT_EQ(stringsOf(entryProperty("status")->getArray("enum")), Statuses);
}

TEST_F(ApiMapSchemaTest, LoaderKnowsTheSchemasWarpRoles) {
  std::set<std::string> Roles;
  for (int Fn = int(WarpFn::None) + 1; Fn <= int(WarpFn::All); ++Fn)
    Roles.insert(warpFnName(WarpFn(Fn)));
  EXPECT_EQ(Roles.size(), size_t(WarpFn::All)); // every role has a name of its own
  EXPECT_EQ(stringsOf(entryProperty("warp")->getArray("enum")), Roles);
}

TEST_F(ApiMapSchemaTest, LoaderAcceptsAndRejectsAsTheSchema) {
  expectLoaderAgrees(CU2DCU_SCHEMA_CASES, 30, [](const std::string &Text) {
    std::string Path = scratchPath("schema_case.yaml");
    std::ofstream(Path) << Text;
    ApiMap Map;
    return Map.loadFile(Path);
  });
}

/// A checks/ file's schema names the keys its loader knows: at the top, and
/// in the definition Def (its entries).
void expectSchemaKeys(const char *SchemaPath, const char *Def,
                      const std::set<std::string> &FileKeys,
                      const std::set<std::string> &DefKeys) {
  llvm::json::Value Schema = readJson(SchemaPath);
  ASSERT_NE(Schema.getAsObject(), nullptr) << "cannot read " << SchemaPath;
  EXPECT_EQ(keysOf(Schema.getAsObject()->getObject("properties")), FileKeys);
  const llvm::json::Object *Entry = Schema.getAsObject()->getObject("$defs")->getObject(Def);
  ASSERT_NE(Entry, nullptr) << Def;
  EXPECT_EQ(keysOf(Entry->getObject("properties")), DefKeys);
}

/// The loader of a checks/ file takes and leaves the cases as its schema does.
template <typename Contents, typename Loader>
void expectChecksLoaderAgrees(const char *CasesPath, size_t MinCases, Loader Load) {
  expectLoaderAgrees(CasesPath, MinCases, [&](const std::string &Text) {
    Contents Out;
    std::vector<MapLoadIssue> Issues;
    bool Loaded = Load(Text, "case", Out, Issues);
    EXPECT_EQ(Loaded, Issues.empty());
    return Loaded;
  });
}

// The inline PTX idioms (mappings/checks/inline_ptx.yaml) and the warp names
// (mappings/checks/warp_names.yaml) against their schemas.
TEST(ChecksSchemaTest, LoadersKnowTheSchemasKeys) {
  expectSchemaKeys(CU2DCU_INLINE_PTX_SCHEMA, "entry", inlinePtxFileKeys(), inlinePtxEntryKeys());
  expectSchemaKeys(CU2DCU_WARP_NAMES_SCHEMA, "bit_function", warpNamesFileKeys(),
                   warpNamesBitFunctionKeys());
}

TEST(ChecksSchemaTest, LoadersAcceptAndRejectAsTheSchemas) {
  expectChecksLoaderAgrees<InlinePtxRules>(CU2DCU_INLINE_PTX_CASES, 20, loadInlinePtx);
  expectChecksLoaderAgrees<WarpNames>(CU2DCU_WARP_NAMES_CASES, 12, loadWarpNames);
}

TEST(WarpNamesSchemaTest, LoaderRejectsAPatternThatIsNoRegularExpression) {
  // What the schema cannot say: the loader compiles each pattern.
  WarpNames Names;
  std::vector<MapLoadIssue> Issues;
  EXPECT_FALSE(loadWarpNames("family: warp_names\nwarp_size_names: 'warp_(size'\n"
                             "lane_mask_names: mask\nthread_index_names: tid\n",
                             "bad.yaml", Names, Issues));
  ASSERT_EQ(Issues.size(), 1u);
  EXPECT_EQ(Issues[0].Line, 2u);
  EXPECT_NE(Issues[0].Message.find("warp_size_names is not a regular expression"),
            std::string::npos);
}

} // namespace
