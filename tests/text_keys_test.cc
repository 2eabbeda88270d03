// Text keys: CHAR(36) / VARCHAR(36) ascii_bin primary keys holding the
// canonical UUID text of a 16-byte stream (sim/table_parser.h, pk_text).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "model/record_format.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "sim/table_parser.h"
#include "sim/uuid.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

std::string TextTable(const std::string& type, const std::string& charset = "ascii",
                      const std::string& collate = " COLLATE ascii_bin") {
  return "CREATE TABLE t (id " + type + " CHARACTER SET " + charset + collate +
         " NOT NULL PRIMARY KEY, payload CHAR(100) CHARACTER SET ascii NOT NULL, created BIGINT NOT NULL)";
}

TEST(TextKeysTest, TextOrderIsTheBytesOrder) {
  // Binary comparison of the lowercase text (ascii_bin) orders keys as their
  // 16 bytes: the premise of keeping the 16-byte key for a 36-byte column.
  for (const char* name : {"uuidv4", "ulid", "uuidv1"}) {
    std::unique_ptr<KeyStream> s = MakeStream(name, 5);
    std::vector<Key> keys(5000);
    for (Key& k : keys) ASSERT_TRUE(s->Next(&k));
    for (size_t i = 1; i < keys.size(); ++i) {
      const std::string a = FormatUuid(keys[i - 1]), b = FormatUuid(keys[i]);
      ASSERT_EQ(keys[i - 1] < keys[i], a < b) << a << " " << b;
    }
  }
}

TEST(TextKeysTest, RecordsCarryThe36Bytes) {
  absl::StatusOr<TableSchema> c = ResolveTable(TextTable("CHAR(36)"), 16, TableOptions{});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->pk_text);
  EXPECT_EQ(c->pk_width, 36u);
  const RecordSizes cs = ClusteredRecordSizes(c->def);
  EXPECT_EQ(cs.leaf, 5u + 36u + 13u + 100u + 8u);  // fixed-length: no length byte
  EXPECT_EQ(cs.node_ptr, 5u + 36u + 4u);
  // VARCHAR(36) stores its 36 bytes (not --payload-bytes) and one length byte.
  TableOptions short_payload;
  short_payload.payload_bytes = 10;
  absl::StatusOr<TableSchema> v = ResolveTable(TextTable("VARCHAR(36)"), 16, short_payload);
  ASSERT_TRUE(v.ok()) << v.status();
  const RecordSizes vs = ClusteredRecordSizes(v->def);
  EXPECT_EQ(vs.leaf, cs.leaf + 1);
  EXPECT_EQ(vs.node_ptr, cs.node_ptr + 1);
  // latin1_bin as well.
  EXPECT_TRUE(ResolveTable(TextTable("CHAR(36)", "latin1", " COLLATE latin1_bin"), 16, TableOptions{}).ok());
}

TEST(TextKeysTest, OtherTextKeysAreRefusedByName) {
  for (const std::string& sql :
       {TextTable("CHAR(36)", "utf8mb4", ""), TextTable("CHAR(36)", "ascii", ""),
        TextTable("CHAR(32)"), TextTable("VARCHAR(40)"), TextTable("CHAR(36)", "ascii", " COLLATE ascii_general_ci")}) {
    absl::StatusOr<TableSchema> t = ResolveTable(sql, 16, TableOptions{});
    ASSERT_FALSE(t.ok()) << sql;
    EXPECT_NE(t.status().message().find("a text key must be CHAR(36) or VARCHAR(36) CHARACTER SET ascii COLLATE "
                                        "ascii_bin"),
              std::string::npos)
        << t.status();
  }
  absl::StatusOr<TableSchema> w = ResolveTable(TextTable("CHAR(36)"), 8, TableOptions{});
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("the text of a 16-byte UUID, but the stream gives 8-byte keys"),
            std::string::npos)
      << w.status();
}

TEST(TextKeysTest, ARunOnTextKeysHasMorePagesThanBinary) {
  RunSpec run;
  run.stream.name = "uuidv4";
  run.rows = 100000;
  run.flush = false;
  run.table = TextTable("CHAR(36)");
  absl::StatusOr<RunResult> text = innosim::Run(run);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE(text->table.find("id CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL"), std::string::npos)
      << text->table;
  run.table = "seed000";
  absl::StatusOr<RunResult> binary = innosim::Run(run);
  ASSERT_TRUE(binary.ok());
  // 20 more bytes per record (142 -> 162) and per node pointer.
  EXPECT_GT(text->report.primary.n_leaf_pages, binary->report.primary.n_leaf_pages);
}

}  // namespace
}  // namespace innosim
