// The PostgreSQL table a postgresql-* run loads (sim/pg_table_parser.h):
// column types, the index names PostgreSQL chooses, creation order, and
// one-line errors naming what is unsupported.
#include "sim/pg_table_parser.h"

#include <string>

#include "gtest/gtest.h"
#include "model/postgres/pg_type.h"

namespace innosim {
namespace {

using postgres::PgType;

PgSchema MustParse(const std::string& sql, uint32_t payload = 100, bool given = false) {
  PgTableOptions o;
  o.payload_bytes = payload;
  o.payload_given = given;
  absl::StatusOr<PgSchema> s = ParsePgTable(sql, o);
  EXPECT_TRUE(s.ok()) << sql << ": " << s.status();
  return s.ok() ? *s : PgSchema{};
}

std::string ParseError(const std::string& sql, PgTableOptions o = {}) {
  absl::StatusOr<PgSchema> s = ParsePgTable(sql, o);
  EXPECT_FALSE(s.ok()) << sql;
  if (s.ok()) return "";
  const std::string m(s.status().message());
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  return m;
}

std::vector<std::string> IndexNames(const PgSchema& s) {
  std::vector<std::string> names;
  for (const postgres::PgIndexSpec& ix : s.spec.secondary) names.push_back(ix.name);
  return names;
}

TEST(PgTableParser, Seed000IsAOneColumnPrimaryKeyTable) {
  for (int width : {8, 16}) {
    absl::StatusOr<PgSchema> s = ResolvePgTable("seed000", width, PgTableOptions{});
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->spec.name, "t");
    ASSERT_EQ(s->spec.columns.size(), 1u);
    EXPECT_EQ(s->spec.columns[0].name, "id");
    EXPECT_EQ(s->spec.columns[0].type, width == 8 ? PgType::kInt8 : PgType::kUuid);
    EXPECT_FALSE(s->spec.columns[0].nullable);  // a primary key column is NOT NULL
    EXPECT_EQ(s->spec.primary_key, std::vector<size_t>{0});
    EXPECT_EQ(s->pk_key_bytes, static_cast<uint32_t>(width));
    EXPECT_EQ(s->pk_name, "t_pkey");
    EXPECT_TRUE(s->spec.secondary.empty());
    EXPECT_EQ(s->sql, width == 8 ? "CREATE TABLE t (id bigint NOT NULL, CONSTRAINT t_pkey PRIMARY KEY (id))"
                                 : "CREATE TABLE t (id uuid NOT NULL, CONSTRAINT t_pkey PRIMARY KEY (id))");
  }
  absl::StatusOr<PgSchema> empty = ResolvePgTable("", 8, PgTableOptions{});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->spec.columns[0].type, PgType::kInt8);
}

TEST(PgTableParser, Seed002ChildTableIndexesItsParentIdAsPostgresNamesIt) {
  // The REFERENCES creates no index (PostgreSQL does not index referencing
  // columns); the CREATE INDEX without a name is <table>_<column>_idx.
  const PgSchema s = MustParse(
      "CREATE TABLE c (id bigint PRIMARY KEY, parent_id bigint NOT NULL REFERENCES p (id), payload text); "
      "CREATE INDEX ON c (parent_id)");
  EXPECT_EQ(s.pk_name, "c_pkey");
  ASSERT_EQ(s.spec.secondary.size(), 1u);
  EXPECT_EQ(s.spec.secondary[0].name, "c_parent_id_idx");
  EXPECT_EQ(s.spec.secondary[0].columns, std::vector<size_t>{1});
  EXPECT_FALSE(s.spec.secondary[0].unique);
  EXPECT_TRUE(s.spec.secondary[0].deduplicate_items);
  EXPECT_EQ(s.spec.secondary[0].fillfactor, 90);
  EXPECT_EQ(s.values[1].references, "p(id)");
  EXPECT_EQ(s.spec.columns[2].varlena_bytes, 100);  // repeat('x', 100)
  EXPECT_TRUE(s.spec.columns[2].nullable);
  EXPECT_NE(s.sql.find("CREATE INDEX c_parent_id_idx ON c USING btree (parent_id)"), std::string::npos) << s.sql;
}

TEST(PgTableParser, ConstraintAndIndexNamesFollowChooseIndexName) {
  const PgSchema s = MustParse(
      "CREATE TABLE t (id bigserial PRIMARY KEY, email text UNIQUE, a int, b int, UNIQUE (a, b));"
      "CREATE INDEX ON t (a, b); CREATE INDEX ON t (a, b); CREATE UNIQUE INDEX my_idx ON t USING btree (b);"
      "CREATE INDEX ON t (a, a)",
      20);
  EXPECT_EQ(s.pk_name, "t_pkey");
  // Constraints first (in order), then the CREATE INDEX statements; a name
  // already taken gets 1, 2, ... after its label (ChooseRelationName); a
  // repeated column gets a number (ChooseIndexColumnNames).
  EXPECT_EQ(IndexNames(s), (std::vector<std::string>{"t_email_key", "t_a_b_key", "t_a_b_idx", "t_a_b_idx1", "my_idx",
                                                     "t_a_a1_idx"}));
  EXPECT_TRUE(s.spec.secondary[0].unique);
  EXPECT_TRUE(s.spec.secondary[1].unique);
  EXPECT_FALSE(s.spec.secondary[2].unique);
  EXPECT_TRUE(s.spec.secondary[4].unique);
  EXPECT_EQ(s.spec.secondary[1].columns, (std::vector<size_t>{2, 3}));
  EXPECT_EQ(s.spec.secondary[5].columns, (std::vector<size_t>{2, 2}));
  // bigserial: bigint NOT NULL from a sequence named t_id_seq.
  EXPECT_EQ(s.spec.columns[0].type, PgType::kInt8);
  EXPECT_TRUE(s.values[0].sequence);
}

TEST(PgTableParser, AGivenNameIsKeptAndATakenDefaultNameMovesOn) {
  // t_x_idx is taken by the named index, so the unnamed one on x gets
  // t_x_idx1 (ChooseRelationName); the serial's sequence t_id_seq is no index.
  const PgSchema s = MustParse("CREATE TABLE t (id serial PRIMARY KEY, x int); CREATE INDEX ON t (id);"
                               "CREATE INDEX t_x_idx ON t (x); CREATE INDEX ON t (x)");
  EXPECT_EQ(IndexNames(s), (std::vector<std::string>{"t_id_idx", "t_x_idx", "t_x_idx1"}));
  // A name given twice is refused, as the server does.
  const std::string e = ParseError("CREATE TABLE t (id int PRIMARY KEY, x int); CREATE INDEX i ON t (x); "
                                   "CREATE INDEX i ON t (id)");
  EXPECT_NE(e.find("relation \"i\" already exists"), std::string::npos) << e;
  // ... unless IF NOT EXISTS: then the second is skipped.
  const PgSchema skip = MustParse("CREATE TABLE t (id int PRIMARY KEY, x int); CREATE INDEX i ON t (x); "
                                  "CREATE INDEX IF NOT EXISTS i ON t (id)");
  EXPECT_EQ(IndexNames(skip), std::vector<std::string>{"i"});
}

TEST(PgTableParser, RedundantUniqueConstraintsAreDropped) {
  // transformIndexConstraints: UNIQUE on the primary key's columns, or
  // repeating an earlier UNIQUE, makes no second index; a name it had goes
  // to the earlier unnamed one.
  const PgSchema s = MustParse("CREATE TABLE t (id bigint PRIMARY KEY UNIQUE, a int UNIQUE, "
                               "CONSTRAINT a_uniq UNIQUE (a), UNIQUE (a))");
  EXPECT_EQ(s.pk_name, "t_pkey");
  EXPECT_EQ(IndexNames(s), std::vector<std::string>{"a_uniq"});
  const PgSchema named_pk = MustParse("CREATE TABLE t (id bigint, CONSTRAINT pk PRIMARY KEY (id))");
  EXPECT_EQ(named_pk.pk_name, "pk");
}

TEST(PgTableParser, IdentifiersFoldToLowerCaseUnlessQuotedAndAreCutTo63Bytes) {
  const PgSchema s = MustParse("CREATE TABLE Public.Orders (ID BIGINT PRIMARY KEY, \"Email\" TEXT UNIQUE)", 16);
  EXPECT_EQ(s.spec.name, "orders");
  EXPECT_EQ(s.spec.columns[0].name, "id");
  EXPECT_EQ(s.spec.columns[1].name, "Email");
  EXPECT_EQ(IndexNames(s), std::vector<std::string>{"orders_Email_key"});
  // makeObjectName: the longer of table and columns is cut first so that
  // the name keeps NAMEDATALEN - 1 = 63 bytes and the whole label.
  const std::string table(60, 'a');
  const PgSchema l = MustParse("CREATE TABLE " + table + " (id int PRIMARY KEY, bbbbbbbbbb int); CREATE INDEX ON " +
                               table + " (bbbbbbbbbb)");
  ASSERT_EQ(l.spec.secondary.size(), 1u);
  EXPECT_EQ(l.spec.secondary[0].name, std::string(48, 'a') + "_bbbbbbbbbb_idx");
  EXPECT_EQ(l.pk_name, std::string(58, 'a') + "_pkey");
  const PgSchema cut = MustParse("CREATE TABLE " + std::string(70, 'z') + " (id int PRIMARY KEY)");
  EXPECT_EQ(cut.spec.name, std::string(63, 'z'));
}

TEST(PgTableParser, TypesReachPgColumnWithTheirAlignment) {
  const PgSchema s = MustParse(
      "CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), a bigint, b int4, c smallint, d boolean, "
      "e timestamptz NOT NULL DEFAULT now(), f timestamp(3) without time zone, g date, h text DEFAULT 'x'::text, "
      "i varchar(20), j character varying, k char(10), l bytea, m real, n double precision, o float(10), "
      "p serial, q bigint GENERATED ALWAYS AS IDENTITY (START WITH 10), r timestamp(3) with time zone, "
      "s int GENERATED BY DEFAULT AS IDENTITY, u uuid DEFAULT gen_random_uuid() NOT NULL)",
      4);
  const std::vector<PgType> want = {PgType::kUuid,   PgType::kInt8,      PgType::kInt4,   PgType::kInt2,
                                    PgType::kBool,   PgType::kTimestamptz, PgType::kTimestamp, PgType::kDate,
                                    PgType::kText,   PgType::kVarchar,   PgType::kVarchar, PgType::kVarchar,
                                    PgType::kBytea,  PgType::kFloat4,    PgType::kFloat8, PgType::kFloat4,
                                    PgType::kInt4,   PgType::kInt8,      PgType::kTimestamptz, PgType::kInt4,
                                    PgType::kUuid};
  ASSERT_EQ(s.spec.columns.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(s.spec.columns[i].type, want[i]) << s.spec.columns[i].name;
  // typalign from pg_type.dat: uuid c, int8 d, int4 i, int2 s, bool c.
  EXPECT_EQ(postgres::TypeInfo(s.spec.columns[0].type).typalign, 'c');
  EXPECT_EQ(postgres::TypeInfo(s.spec.columns[1].type).typalign, 'd');
  EXPECT_EQ(postgres::TypeInfo(s.spec.columns[2].type).typalign, 'i');
  EXPECT_EQ(postgres::TypeInfo(s.spec.columns[3].type).typalign, 's');
  // Payload 4: text, varchar(20) and varchar hold 4 bytes; char(10) is
  // blank-padded to 10.
  EXPECT_EQ(s.spec.columns[8].varlena_bytes, 4);
  EXPECT_EQ(s.spec.columns[9].varlena_bytes, 4);
  EXPECT_EQ(s.spec.columns[10].varlena_bytes, 4);
  EXPECT_EQ(s.spec.columns[11].varlena_bytes, 10);
  EXPECT_TRUE(s.values[11].blank_padded);
  EXPECT_EQ(s.values[11].value_bytes, 4u);
  EXPECT_EQ(s.spec.columns[12].varlena_bytes, 4);
  EXPECT_EQ(s.values[9].type_name, "character varying(20)");
  EXPECT_EQ(s.values[11].type_name, "character(10)");
  EXPECT_EQ(s.values[6].type_name, "timestamp(3) without time zone");
  EXPECT_EQ(s.values[6].typmod, 3);
  EXPECT_EQ(s.values[18].type_name, "timestamp(3) with time zone");
  // NOT NULL, serial and identity are not nullable; the rest are.
  EXPECT_FALSE(s.spec.columns[5].nullable);
  EXPECT_TRUE(s.spec.columns[6].nullable);
  EXPECT_FALSE(s.spec.columns[16].nullable);
  EXPECT_TRUE(s.values[16].sequence);
  EXPECT_FALSE(s.spec.columns[17].nullable);
  EXPECT_TRUE(s.values[17].sequence);
  EXPECT_TRUE(s.values[19].sequence);
  EXPECT_FALSE(s.spec.columns[20].nullable);
  EXPECT_FALSE(s.values[1].sequence);
}

TEST(PgTableParser, VarcharCutsTheDefaultPayloadAndRefusesOneTheUserGave) {
  EXPECT_EQ(MustParse("CREATE TABLE t (id int PRIMARY KEY, v varchar(20))", 100).spec.columns[1].varlena_bytes, 20);
  PgTableOptions o;
  o.payload_bytes = 100;
  o.payload_given = true;
  const std::string e = ParseError("CREATE TABLE t (id int PRIMARY KEY, v varchar(20))", o);
  EXPECT_NE(e.find("value too long for type character varying(20)"), std::string::npos) << e;
  EXPECT_NE(e.find("give at most 20"), std::string::npos) << e;
  const std::string c = ParseError("CREATE TABLE t (id int PRIMARY KEY, v char(5))", o);
  EXPECT_NE(c.find("character(5)"), std::string::npos) << c;
}

TEST(PgTableParser, FillfactorsAndDeduplicationReachTheSpec) {
  const PgSchema s = MustParse(
      "CREATE TABLE t (id bigint PRIMARY KEY, a bigint, CONSTRAINT a_u UNIQUE (a) WITH (fillfactor = 80)) "
      "WITH (fillfactor = 70, autovacuum_enabled = false);"
      "CREATE INDEX ia ON t (a) WITH (fillfactor = 50, deduplicate_items = off)");
  EXPECT_EQ(s.spec.fillfactor, 70);
  ASSERT_EQ(s.spec.secondary.size(), 2u);
  EXPECT_EQ(s.spec.secondary[0].name, "a_u");
  EXPECT_EQ(s.spec.secondary[0].fillfactor, 80);
  EXPECT_EQ(s.spec.secondary[1].fillfactor, 50);
  EXPECT_FALSE(s.spec.secondary[1].deduplicate_items);
  EXPECT_NE(s.sql.find("WITH (fillfactor='70')"), std::string::npos) << s.sql;
  EXPECT_NE(s.sql.find("deduplicate_items='off'"), std::string::npos) << s.sql;
  EXPECT_NE(ParseError("CREATE TABLE t (id int PRIMARY KEY) WITH (fillfactor = 5)").find("fillfactor 5"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX ON t (a) WITH (fillfactor = 101)")
                .find("fillfactor 101"),
            std::string::npos);
}

TEST(PgTableParser, CommentsConstraintsAndForeignKeysAreAccepted) {
  const PgSchema s = MustParse(
      "-- a child table\n"
      "CREATE TABLE IF NOT EXISTS c ( /* ids */ id bigint NOT NULL, parent_id uuid CONSTRAINT fk "
      "REFERENCES p ON DELETE CASCADE ON UPDATE NO ACTION, n int CHECK (n > 0), "
      "CONSTRAINT c_pk PRIMARY KEY (id), FOREIGN KEY (n) REFERENCES q (x) MATCH SIMPLE, CHECK (n < 10));");
  EXPECT_EQ(s.pk_name, "c_pk");
  EXPECT_TRUE(s.spec.secondary.empty());
  EXPECT_EQ(s.values[1].references, "p");
}

TEST(PgTableParser, UnsupportedPartsAreNamedInOneLine) {
  struct Case {
    std::string sql;
    std::string names;
  };
  const std::vector<Case> cases = {
      {"CREATE TABLE t (id numeric PRIMARY KEY)", "type numeric"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX ON t (a DESC)", "DESC"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX ON t (a) INCLUDE (id)", "INCLUDE"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX ON t (a) WHERE a > 0", "WHERE"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX ON t USING hash (a)", "USING hash"},
      {"CREATE TABLE t (id int PRIMARY KEY, a text); CREATE INDEX ON t (lower(a))", "expression"},
      {"CREATE TABLE t (id int PRIMARY KEY, a text); CREATE INDEX ON t (a text_pattern_ops)", "text_pattern_ops"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX ON u (a)", "table u"},
      {"CREATE TABLE p (id int PRIMARY KEY); CREATE TABLE c (id int PRIMARY KEY)", "only one CREATE TABLE"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int); CREATE INDEX ON t (b)", "column \"b\" does not exist"},
      {"CREATE TABLE t (id int PRIMARY KEY, UNIQUE (b))", "column \"b\" named in key does not exist"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int PRIMARY KEY)", "multiple primary keys"},
      {"CREATE TABLE t (id int PRIMARY KEY, id int)", "column \"id\" specified more than once"},
      {"CREATE TABLE t (id int PRIMARY KEY, UNIQUE (id, id))", "appears twice in unique constraint"},
      {"CREATE TABLE t (id int PRIMARY KEY, a text UNIQUE)", "t_a_key (a): its key takes 100 bytes"},
      {"CREATE TABLE t (id int PRIMARY KEY, a text, b text, c text, d text, e text, f text, g text, h text, i text, "
       "j text, k text, l text, m text, n text, o text, p text, q text, r text, s text, u text, v text)",
       "TOAST_TUPLE_THRESHOLD"},
      {"CREATE TABLE t (id int PRIMARY KEY, a text GENERATED ALWAYS AS (upper(a)) STORED)", "generated columns"},
      {"CREATE TABLE t (id text GENERATED ALWAYS AS IDENTITY)", "identity column type"},
      {"CREATE TEMPORARY TABLE t (id int)", "TEMPORARY"},
      {"CREATE TABLE t (id int PRIMARY KEY) PARTITION BY RANGE (id)", "'partition'"},
      {"CREATE TABLE t (id int PRIMARY KEY, a int[])", "array"},
      {"CREATE TABLE t (id int PRIMARY KEY, EXCLUDE USING gist (id WITH =))", "EXCLUDE"},
      {"CREATE TABLE t (id int PRIMARY KEY DEFAULT)", "DEFAULT needs a value"},
      {"CREATE TABLE t (id int PRIMARY KEY, a varchar(0))", "at least 1"},
      {"CREATE TABLE t (id int PRIMARY KEY WITH (fillfactor = 70))", "PRIMARY KEY ... WITH"},
      {"CREATE TABLE t ()", "no columns"},
      {"CREATE TABLE \"\" (id int)", "zero-length"},
      {"CREATE TABLE t (id int PRIMARY KEY, a text \"unterminated)", "unterminated"},
      {"DROP TABLE t", "CREATE TABLE"},
  };
  for (const Case& c : cases) {
    const std::string e = ParseError(c.sql);
    EXPECT_NE(e.find(c.names), std::string::npos) << c.sql << " -> " << e;
  }
}

TEST(PgTableParser, ResolveChecksThePrimaryKeyAgainstTheStreamWidth) {
  EXPECT_TRUE(ResolvePgTable("CREATE TABLE t (id integer PRIMARY KEY)", 4, PgTableOptions{}).ok());
  EXPECT_TRUE(ResolvePgTable("CREATE TABLE t (id bigserial PRIMARY KEY, x text)", 8, PgTableOptions{}).ok());
  auto error = [](const std::string& arg, int width) {
    absl::StatusOr<PgSchema> s = ResolvePgTable(arg, width, PgTableOptions{});
    EXPECT_FALSE(s.ok()) << arg;
    const std::string m = s.ok() ? "" : std::string(s.status().message());
    EXPECT_EQ(m.find('\n'), std::string::npos);
    return m;
  };
  EXPECT_NE(error("CREATE TABLE t (id uuid PRIMARY KEY)", 8).find("use bigint for this stream"), std::string::npos);
  EXPECT_NE(error("CREATE TABLE t (id bigint PRIMARY KEY)", 16).find("use uuid"), std::string::npos);
  EXPECT_NE(error("CREATE TABLE t (id varchar(16) PRIMARY KEY)", 16).find("primary key id is character varying(16)"),
            std::string::npos);
  EXPECT_NE(error("CREATE TABLE t (a int, b int, PRIMARY KEY (a, b))", 8).find("one-column PRIMARY KEY"),
            std::string::npos);
  EXPECT_NE(error("CREATE TABLE t (a bigint)", 8).find("it has none"), std::string::npos);
  EXPECT_NE(error("seed000", 4).find("CREATE TABLE t (id integer PRIMARY KEY)"), std::string::npos);
  EXPECT_NE(error("seed004", 8).find("use seed000 or CREATE TABLE"), std::string::npos);
  EXPECT_NE(error("CREATE TABLE t (id numeric PRIMARY KEY)", 8).find("--table: column id: type numeric"),
            std::string::npos);
}

}  // namespace
}  // namespace innosim
