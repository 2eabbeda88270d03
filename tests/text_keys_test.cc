// Text keys: CHAR(36) / VARCHAR(36) primary keys holding the canonical UUID
// text of a 16-byte stream (sim/table_parser.h, pk_text), in the character
// sets and collations the model takes (the servers' defaults among them).
#include <gtest/gtest.h>

#include <algorithm>
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
  for (const std::string& sql : {TextTable("CHAR(32)"), TextTable("VARCHAR(40)"), TextTable("CHAR(35)", "utf8mb4", "")}) {
    absl::StatusOr<TableSchema> t = ResolveTable(sql, 16, TableOptions{});
    ASSERT_FALSE(t.ok()) << sql;
    EXPECT_NE(t.status().message().find("a text key must be CHAR(36) or VARCHAR(36)"), std::string::npos)
        << t.status();
  }
  // A collation whose order differs for the UUID alphabet: "aa" is a-ring in Danish.
  absl::StatusOr<TableSchema> danish =
      ResolveTable(TextTable("CHAR(36)", "utf8mb4", " COLLATE utf8mb4_danish_ci"), 16, TableOptions{});
  ASSERT_FALSE(danish.ok());
  EXPECT_NE(danish.status().message().find("collation utf8mb4_danish_ci is not modelled for a text key"),
            std::string::npos)
      << danish.status();
  EXPECT_NE(danish.status().message().find("utf8mb4_0900_ai_ci"), std::string::npos) << danish.status();
  // Each server's own collations only.
  TableOptions mariadb;
  mariadb.profile = "mariadb-10.11";
  absl::StatusOr<TableSchema> uca900 =
      ResolveTable(TextTable("CHAR(36)", "utf8mb4", " COLLATE utf8mb4_0900_ai_ci"), 16, mariadb);
  ASSERT_FALSE(uca900.ok());
  EXPECT_NE(uca900.status().message().find("MariaDB 10.11 has no collation utf8mb4_0900_ai_ci"), std::string::npos)
      << uca900.status();
  absl::StatusOr<TableSchema> uca1400 =
      ResolveTable(TextTable("CHAR(36)", "utf8mb4", " COLLATE utf8mb4_uca1400_ai_ci"), 16, TableOptions{});
  ASSERT_FALSE(uca1400.ok());
  EXPECT_NE(uca1400.status().message().find("MySQL 8.4 has no collation"), std::string::npos) << uca1400.status();
  absl::StatusOr<TableSchema> w = ResolveTable(TextTable("CHAR(36)"), 8, TableOptions{});
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("the text of a 16-byte UUID, but the stream gives 8-byte keys"),
            std::string::npos)
      << w.status();
}

// The key's bytes in leaf records, node pointers and secondary entries, per
// character set: 36 bytes of text, and a length byte where the column is
// variable-length (VARCHAR; CHAR in utf8mb3/utf8mb4, trimmed to 36 bytes by
// row_mysql_store_col_in_innobase_format), fixed 36 in latin1/ascii CHAR.
TEST(TextKeysTest, KeyBytesPerCharacterSet) {
  struct Case {
    const char* type;
    const char* charset;  // "" = the table's / server's default
    const char* profile;
    const char* expect_type;
    uint32_t length_bytes;
    uint32_t max_bytes;
  } cases[] = {
      {"CHAR(36)", "", "mysql-8.4", "CHAR(36) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci", 1, 144},
      {"CHAR(36)", "", "mariadb-10.11", "CHAR(36) CHARACTER SET latin1 COLLATE latin1_swedish_ci", 0, 36},
      {"CHAR(36)", "utf8mb4", "mariadb-10.11", "CHAR(36) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci", 1, 144},
      {"CHAR(36)", "utf8mb3", "mysql-8.4", "CHAR(36) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci", 1, 108},
      {"CHAR(36)", "utf8", "mariadb-10.11", "CHAR(36) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci", 1, 108},
      {"CHAR(36)", "latin1", "mysql-8.4", "CHAR(36) CHARACTER SET latin1 COLLATE latin1_swedish_ci", 0, 36},
      {"CHAR(36)", "ascii", "mysql-8.4", "CHAR(36) CHARACTER SET ascii COLLATE ascii_general_ci", 0, 36},
      {"VARCHAR(36)", "utf8mb4", "mysql-8.4", "VARCHAR(36) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci", 1, 144},
      {"VARCHAR(36)", "latin1", "mariadb-10.11", "VARCHAR(36) CHARACTER SET latin1 COLLATE latin1_swedish_ci", 1, 36},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.charset + " " + c.profile);
    const std::string cs = *c.charset ? std::string(" CHARACTER SET ") + c.charset : "";
    const std::string sql = std::string("CREATE TABLE t (id ") + c.type + cs +
                            " NOT NULL PRIMARY KEY, payload CHAR(100) CHARACTER SET ascii NOT NULL, created BIGINT "
                            "NOT NULL, KEY k_created (created))";
    TableOptions o;
    o.profile = c.profile;
    absl::StatusOr<TableSchema> t = ResolveTable(sql, 16, o);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_TRUE(t->pk_text);
    const ColumnDef& id = t->def.columns[0];
    EXPECT_EQ(id.type, c.expect_type);
    EXPECT_EQ(id.stored_bytes, 36u);
    EXPECT_EQ(id.max_bytes, c.max_bytes);
    EXPECT_EQ(id.variable, c.length_bytes == 1);
    const RecordSizes cl = ClusteredRecordSizes(t->def);
    EXPECT_EQ(cl.leaf, 5u + c.length_bytes + 36u + 13u + 100u + 8u);
    EXPECT_EQ(cl.node_ptr, 5u + c.length_bytes + 36u + 4u);
    // k_created's entries: created + the PK's text (and its length byte).
    const RecordSizes sec = SecondaryRecordSizes(t->def, t->def.secondary[0]);
    EXPECT_EQ(sec.leaf, 5u + c.length_bytes + 8u + 36u);
    EXPECT_EQ(sec.node_ptr, 5u + c.length_bytes + 8u + 36u + 4u);
  }
  // The table's DEFAULT CHARSET / COLLATE reach a key without its own.
  TableOptions mariadb;
  mariadb.profile = "mariadb-10.11";
  absl::StatusOr<TableSchema> t = ResolveTable(
      "CREATE TABLE t (id CHAR(36) NOT NULL PRIMARY KEY) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin", 16, mariadb);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->def.columns[0].type, "CHAR(36) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
  EXPECT_TRUE(t->def.columns[0].variable);
  // CHARACTER SET on the column takes that set's default collation, not the table's.
  t = ResolveTable("CREATE TABLE t (id CHAR(36) CHARACTER SET latin1 NOT NULL PRIMARY KEY) COLLATE=utf8mb4_bin", 16,
                   mariadb);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->def.columns[0].type, "CHAR(36) CHARACTER SET latin1 COLLATE latin1_swedish_ci");
}

TEST(TextKeysTest, EveryAcceptedCollationIsTheServersOwn) {
  const std::vector<std::string> my = TextKeyCollations("mysql-8.4");
  const std::vector<std::string> ma = TextKeyCollations("mariadb-10.11");
  auto has = [](const std::vector<std::string>& v, const char* n) { return std::find(v.begin(), v.end(), n) != v.end(); };
  // The defaults of both servers are among them.
  for (const char* n : {"utf8mb4_0900_ai_ci", "utf8mb4_general_ci", "utf8mb3_general_ci", "latin1_swedish_ci",
                        "ascii_general_ci", "ascii_bin", "latin1_bin", "utf8mb4_bin"}) {
    EXPECT_TRUE(has(my, n)) << n;
  }
  for (const char* n : {"utf8mb4_general_ci", "utf8mb3_general_ci", "latin1_swedish_ci", "ascii_general_ci"}) {
    EXPECT_TRUE(has(ma, n)) << n;
  }
  EXPECT_FALSE(has(ma, "utf8mb4_0900_ai_ci"));
  EXPECT_FALSE(has(my, "utf8mb4_danish_ci"));
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
