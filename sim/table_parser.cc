#include "sim/table_parser.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "model/big_rec.h"
#include "model/index_page.h"
#include "model/key.h"
#include "model/page_format.h"
#include "model/server_settings.h"
#include "sim/stream_registry.h"

namespace innosim {
namespace {

// This Abseil's string_view is its own type, not std::string_view.
absl::string_view A(std::string_view s) { return absl::string_view(s.data(), s.size()); }

struct Token {
  enum Type { kWord, kNumber, kString, kPunct, kEnd } type = kEnd;
  std::string text;   // words as written (quotes removed)
  std::string upper;  // upper-cased, for keywords
  bool quoted = false;
};

absl::StatusOr<std::vector<Token>> Tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {  // -- comment
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    Token t;
    if (c == '`' || c == '"' || c == '\'') {
      const size_t end = s.find(c, i + 1);
      if (end == std::string_view::npos) {
        return absl::InvalidArgumentError(absl::StrCat("unterminated ", std::string(1, c), " quote in the table definition"));
      }
      t.type = c == '\'' ? Token::kString : Token::kWord;
      t.quoted = true;
      t.text = std::string(s.substr(i + 1, end - i - 1));
      i = end + 1;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '$')) ++j;
      t.text = std::string(s.substr(i, j - i));
      t.type = std::all_of(t.text.begin(), t.text.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })
                   ? Token::kNumber
                   : Token::kWord;
      i = j;
    } else if (c == '(' || c == ')' || c == ',' || c == '=' || c == ';' || c == '.' || c == '-' || c == '+') {
      t.type = Token::kPunct;
      t.text = std::string(1, c);
      ++i;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unexpected character '", std::string(1, c),
                                                     "' in the table definition"));
    }
    t.upper = absl::AsciiStrToUpper(t.text);
    out.push_back(std::move(t));
  }
  out.push_back(Token{});
  return out;
}

// The character sets the model knows. mbmaxlen is InnoDB's DATA_MBMAXLEN
// of a column (the charset's mbmaxlen, dtype_get_mblen in data0type.h);
// mbminlen is 1 for all of them, so a CHAR(n) in a multi-byte set is stored
// trimmed of trailing spaces down to n bytes with a length byte
// (row_mysql_store_col_in_innobase_format, row0mysql.cc; dtype_get_fixed_size_low
// returns 0, "variable-length", for DATA_MYSQL with mbminlen != mbmaxlen).
// The default collation of each set: SHOW COLLATION's Default column on
// MariaDB 10.11, and on MySQL 8.4 the same except utf8mb4, whose default is
// default_collation_for_utf8mb4 = utf8mb4_0900_ai_ci ([Doc] "Unicode
// Support", "The utf8mb4 Character Set").
struct CharsetInfo {
  const char* name;
  uint32_t mbmaxlen;
  const char* default_collation_mysql;
  const char* default_collation_mariadb;
};
constexpr CharsetInfo kCharsets[] = {
    {"ascii", 1, "ascii_general_ci", "ascii_general_ci"},
    {"latin1", 1, "latin1_swedish_ci", "latin1_swedish_ci"},
    {"binary", 1, "binary", "binary"},
    {"utf8mb3", 3, "utf8mb3_general_ci", "utf8mb3_general_ci"},
    {"utf8mb4", 4, "utf8mb4_0900_ai_ci", "utf8mb4_general_ci"},
};

// "utf8" is utf8mb3 on both servers (MySQL 8.4: an alias of utf8mb3;
// MariaDB 10.11: old_mode UTF8_IS_UTF8MB3, the default); also in
// collation names (utf8_bin = utf8mb3_bin).
std::string CanonicalCharsetName(std::string_view name) {
  std::string l = absl::AsciiStrToLower(A(name));
  if (l == "utf8") return "utf8mb3";
  if (absl::StartsWith(l, "utf8_")) return "utf8mb3_" + l.substr(5);
  return l;
}

const CharsetInfo* FindCharset(std::string_view name) {
  const std::string l = CanonicalCharsetName(name);
  for (const CharsetInfo& c : kCharsets) {
    if (l == c.name) return &c;
  }
  return nullptr;
}

// Bytes per character of a character set (mbmaxlen), 0 if unknown.
uint32_t CharsetMaxLen(const std::string& cs) {
  const CharsetInfo* c = FindCharset(cs);
  return c == nullptr ? 0 : c->mbmaxlen;
}

// The collations a text primary key may have: each orders the canonical
// UUID text (lowercase hex digits and '-' at fixed places, 36 characters)
// exactly as its bytes, so the simulator keeps the 16-byte key's order
// (docs/key-streams.md, "Text keys", has the argument with its sources):
// InnoDB compares CHAR/VARCHAR fields with cmp_data (rem0cmp.cc), which for
// a non-binary collation calls the collation's strnncollsp (innobase_mysql_cmp;
// latin1_swedish_ci columns are DATA_CHAR/DATA_VARCHAR and take
// my_charset_latin1's strnncollsp). For these collations every character of
// the alphabet has one weight and the weights rise with the bytes:
// '-' < '0'..'9' < 'a'..'f' (the *_bin ones compare bytes; the 8-bit
// *_ci/_cs ones weigh through their sort_order table, latin1_swedish_ci and
// ascii_general_ci mapping a-f to A-F; *_general_ci
// maps through my_unicase_default to the uppercase code point; the UCA ones
// give '-' a punctuation weight below the digits and the digits below the
// Latin letters, without contractions in this alphabet). Two keys of the same
// length with '-' at the same places then differ first where their bytes do.
// A collation with a contraction in the alphabet sorts otherwise:
// utf8mb4_danish_ci sorts "aa" (as a-ring) after "ab". Any collation not
// listed here is refused by name. `mysql` / `mariadb`: the server has it.
struct CollationInfo {
  const char* name;
  const char* charset;
  bool mysql;
  bool mariadb;
};
constexpr CollationInfo kTextKeyCollations[] = {
    {"binary", "binary", true, true},
    {"ascii_bin", "ascii", true, true},
    {"ascii_general_ci", "ascii", true, true},
    {"latin1_bin", "latin1", true, true},
    {"latin1_swedish_ci", "latin1", true, true},
    {"latin1_general_ci", "latin1", true, true},
    {"latin1_general_cs", "latin1", true, true},
    {"utf8mb3_bin", "utf8mb3", true, true},
    {"utf8mb3_general_ci", "utf8mb3", true, true},
    {"utf8mb3_unicode_ci", "utf8mb3", true, true},
    {"utf8mb4_bin", "utf8mb4", true, true},
    {"utf8mb4_general_ci", "utf8mb4", true, true},
    {"utf8mb4_unicode_ci", "utf8mb4", true, true},
    {"utf8mb4_unicode_520_ci", "utf8mb4", true, true},
    // MySQL 8.0+'s UCA 9.0.0 collations (strings/uca900_data.h, DUCET 9.0.0;
    // NO PAD, and punctuation is not ignorable): DUCET orders punctuation
    // before digits before Latin letters, each group in code-point order
    // for this alphabet ([Doc] WEIGHT_STRING: 'a' 0x1C47, 'b' 0x1C60,
    // 'c' 0x1C7A under utf8mb4_0900_ai_ci). Not on MariaDB 10.11, so not
    // checked against a server here.
    {"utf8mb4_0900_ai_ci", "utf8mb4", true, false},
    {"utf8mb4_0900_as_ci", "utf8mb4", true, false},
    {"utf8mb4_0900_as_cs", "utf8mb4", true, false},
    {"utf8mb4_0900_bin", "utf8mb4", true, false},
    // MariaDB 10.10+'s UCA 14.0.0 collations; not on MySQL 8.4.
    {"utf8mb4_uca1400_ai_ci", "utf8mb4", false, true},
    {"utf8mb4_uca1400_as_cs", "utf8mb4", false, true},
};

const CollationInfo* FindTextKeyCollation(const std::string& name) {
  const std::string l = CanonicalCharsetName(name);
  for (const CollationInfo& c : kTextKeyCollations) {
    if (l == c.name) return &c;
  }
  return nullptr;
}

// The character set a collation name belongs to: its prefix up to the first
// '_' ("utf8mb4_general_ci" -> utf8mb4), "binary" for binary; empty if that
// prefix is no character set the model knows.
std::string CharsetOfCollation(const std::string& collation) {
  const std::string l = CanonicalCharsetName(collation);
  if (l == "binary") return l;
  const size_t us = l.find('_');
  const std::string cs = us == std::string::npos ? "" : l.substr(0, us);
  return FindCharset(cs) != nullptr ? cs : "";
}

// The profile's server is MariaDB (model/server_settings.h's flavor names).
bool IsMariaDbProfile(std::string_view profile) {
  return ServerFlavorByName(profile) == ServerFlavor::kMariaDb1011;
}

// The server's default character set, what a CREATE TABLE without CHARACTER
// SET gets (through the database's default, character_set_database, which
// CREATE DATABASE takes from character_set_server). MySQL 8.4: utf8mb4
// ([Doc] character_set_server). MariaDB 10.11 as Debian 12 builds it:
// latin1, what `mariadbd --no-defaults` reports for @@character_set_server
// (its compiled-in default; Debian's packaged
// /etc/mysql/mariadb.conf.d/50-server.cnf sets utf8mb4 / utf8mb4_general_ci,
// which a CREATE TABLE then states with DEFAULT CHARSET=utf8mb4).
std::string ServerDefaultCharset(const std::string& profile) {
  return IsMariaDbProfile(profile) ? "latin1" : "utf8mb4";
}

std::string DefaultCollation(const std::string& charset, const std::string& profile) {
  const CharsetInfo* c = FindCharset(charset);
  if (c == nullptr) return "";
  return IsMariaDbProfile(profile) ? c->default_collation_mariadb : c->default_collation_mysql;
}

struct PendingColumn {
  ColumnDef def;
  ColumnValue value;
  std::string base;              // type keyword
  uint32_t length = 0;           // n of CHAR/VARCHAR/BINARY
  std::optional<std::string> charset;
  std::optional<std::string> collation;  // lowercase, as written
  // TINYTEXT .. LONGTEXT, TINYBLOB .. LONGBLOB: the type's maximum bytes
  // (Field_blob: 2^8 - 1, 2^16 - 1, 2^24 - 1, 2^32 - 1); 0 for other types.
  uint32_t blob_max = 0;
  bool binary_blob = false;  // a BLOB type (no character set)
};

// The TEXT and BLOB types: name, maximum bytes, binary.
struct BlobType {
  const char* name;
  uint32_t max_bytes;
  bool binary;
};
constexpr BlobType kBlobTypes[] = {
    {"TINYTEXT", 255, false},       {"TEXT", 65535, false},       {"MEDIUMTEXT", 16777215, false},
    {"LONGTEXT", 4294967295u, false}, {"TINYBLOB", 255, true},      {"BLOB", 65535, true},
    {"MEDIUMBLOB", 16777215, true}, {"LONGBLOB", 4294967295u, true},
};
const BlobType* FindBlobType(std::string_view upper) {
  for (const BlobType& b : kBlobTypes) {
    if (upper == b.name) return &b;
  }
  return nullptr;
}

// The length bytes of a field in the server's row buffer (Field::pack_length):
// a VARCHAR of max bytes n keeps 1 length byte up to 255, else 2; a BLOB
// type its length (1-4 bytes, by type) and an 8-byte pointer
// (portable_sizeof_char_ptr). What the 65535-byte row limit counts.
uint64_t PackLength(const ColumnDef& d) {
  if (d.blob) {
    const uint32_t len_bytes = d.max_bytes <= 255 ? 1 : d.max_bytes <= 65535 ? 2 : d.max_bytes <= 16777215 ? 3 : 4;
    return 8 + len_bytes;
  }
  if (d.variable && !d.uuid_text) return static_cast<uint64_t>(d.max_bytes) + (d.max_bytes > 255 ? 2 : 1);
  return d.max_bytes;
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, const TableOptions& options)
      : t_(std::move(tokens)),
        options_(options),
        table_charset_(options.server_charset.empty() ? ServerDefaultCharset(options.profile)
                                                      : absl::AsciiStrToLower(options.server_charset)) {}

  absl::StatusOr<TableSchema> Parse() {
    if (!Accept("CREATE")) return Unsupported("the statement must start with CREATE TABLE");
    if (Accept("TEMPORARY")) return Unsupported("CREATE TEMPORARY TABLE is not supported: write CREATE TABLE");
    if (!Accept("TABLE")) return Unsupported("the statement must start with CREATE TABLE");
    if (Accept("IF")) {
      if (!Accept("NOT") || !Accept("EXISTS")) return Unsupported("write IF NOT EXISTS");
    }
    absl::StatusOr<std::string> name = Name("table name");
    if (!name.ok()) return name.status();
    if (Peek().text == ".") {  // db.table
      Next();
      name = Name("table name");
      if (!name.ok()) return name.status();
    }
    table_.name = *name;
    if (!AcceptPunct("(")) {
      if (Peek().upper == "LIKE" || Peek().upper == "AS" || Peek().upper == "SELECT") {
        return Unsupported(absl::StrCat("CREATE TABLE ... ", Peek().upper, " is not supported: write the column list"));
      }
      return Unsupported(absl::StrCat("expected '(' after the table name, found ", Describe(Peek())));
    }
    while (true) {
      if (absl::Status s = Element(); !s.ok()) return s;
      if (AcceptPunct(",")) continue;
      if (AcceptPunct(")")) break;
      return Unsupported(absl::StrCat("expected ',' or ')' in the column list, found ", Describe(Peek())));
    }
    if (absl::Status s = TableOptionsClause(); !s.ok()) return s;
    return Finish();
  }

 private:
  const Token& Peek(size_t ahead = 0) const { return t_[std::min(pos_ + ahead, t_.size() - 1)]; }
  const Token& Next() {
    const Token& tok = t_[pos_];
    if (pos_ + 1 < t_.size()) ++pos_;
    return tok;
  }
  bool Accept(std::string_view kw) {
    if (Peek().type == Token::kWord && !Peek().quoted && Peek().upper == kw) {
      Next();
      return true;
    }
    return false;
  }
  bool AcceptPunct(std::string_view p) {
    if (Peek().type == Token::kPunct && Peek().text == p) {
      Next();
      return true;
    }
    return false;
  }
  static std::string Describe(const Token& tok) {
    if (tok.type == Token::kEnd) return "the end of the statement";
    return absl::StrCat("'", tok.text, "'");
  }
  static absl::Status Unsupported(std::string msg) { return absl::InvalidArgumentError(msg); }

  absl::StatusOr<std::string> Name(std::string_view what) {
    const Token& tok = Peek();
    if (tok.type != Token::kWord) {
      return Unsupported(absl::StrCat("expected a ", A(what), ", found ", Describe(tok)));
    }
    Next();
    return tok.text;
  }

  absl::StatusOr<uint32_t> Number(std::string_view what) {
    const Token& tok = Peek();
    uint32_t v = 0;
    if (tok.type != Token::kNumber || !absl::SimpleAtoi(tok.text, &v)) {
      return Unsupported(absl::StrCat("expected a number for ", A(what), ", found ", Describe(tok)));
    }
    Next();
    return v;
  }

  // "(n)" after a type; `required` or optional.
  absl::StatusOr<std::optional<uint32_t>> Length(const std::string& type, bool required) {
    if (!AcceptPunct("(")) {
      if (required) return Unsupported(absl::StrCat(type, " needs a length, e.g. ", type, "(16)"));
      return std::optional<uint32_t>();
    }
    absl::StatusOr<uint32_t> n = Number(type + "'s length");
    if (!n.ok()) return n.status();
    if (AcceptPunct(",")) return Unsupported(absl::StrCat(type, "(m,d) is not supported"));
    if (!AcceptPunct(")")) return Unsupported(absl::StrCat("expected ')' after ", type, "(", *n));
    return std::optional<uint32_t>(*n);
  }

  // ( col [, col] ) of an index.
  absl::StatusOr<std::vector<std::string>> IndexColumns(const std::string& index) {
    if (!AcceptPunct("(")) return Unsupported(absl::StrCat("expected '(' and the columns of index ", index));
    std::vector<std::string> cols;
    while (true) {
      absl::StatusOr<std::string> c = Name(absl::StrCat("column of index ", index));
      if (!c.ok()) return c.status();
      if (Peek().text == "(") {
        return Unsupported(absl::StrCat("index ", index, ": column prefixes such as ", *c,
                                        "(10) are not supported"));
      }
      if (Accept("DESC")) return Unsupported(absl::StrCat("index ", index, ": DESC index columns are not supported"));
      Accept("ASC");
      cols.push_back(*c);
      if (AcceptPunct(",")) continue;
      if (AcceptPunct(")")) break;
      return Unsupported(absl::StrCat("index ", index, ": expected ',' or ')', found ", Describe(Peek())));
    }
    // Index options that do not change the tree: USING BTREE, COMMENT '...'.
    while (true) {
      if (Accept("USING")) {
        if (!Accept("BTREE")) return Unsupported(absl::StrCat("index ", index, ": only USING BTREE is supported"));
      } else if (Accept("COMMENT")) {
        if (Peek().type != Token::kString) return Unsupported("COMMENT needs a quoted string");
        Next();
      } else if (Accept("VISIBLE") || Accept("INVISIBLE")) {
      } else {
        break;
      }
    }
    return cols;
  }

  absl::Status Element() {
    if (Accept("CONSTRAINT")) {
      if (Peek().type == Token::kWord && Peek().upper != "PRIMARY" && Peek().upper != "UNIQUE") Next();
    }
    if (Peek().upper == "PRIMARY" && !Peek().quoted) {
      Next();
      if (!Accept("KEY")) return Unsupported("expected KEY after PRIMARY");
      absl::StatusOr<std::vector<std::string>> cols = IndexColumns("PRIMARY");
      if (!cols.ok()) return cols.status();
      if (!pk_.empty()) return Unsupported("the table has two PRIMARY KEY definitions");
      pk_ = *cols;
      return absl::OkStatus();
    }
    const bool unique = Peek().upper == "UNIQUE" && !Peek().quoted;
    if (unique || ((Peek().upper == "KEY" || Peek().upper == "INDEX") && !Peek().quoted)) {
      Next();
      if (unique) {
        if (!Accept("KEY")) Accept("INDEX");
      }
      std::string name;
      if (Peek().type == Token::kWord && Peek().text != "(") {
        absl::StatusOr<std::string> n = Name("index name");
        if (!n.ok()) return n.status();
        name = *n;
      }
      if (Accept("USING")) {
        if (!Accept("BTREE")) return Unsupported("only USING BTREE indexes are supported");
      }
      absl::StatusOr<std::vector<std::string>> cols = IndexColumns(name.empty() ? "(unnamed)" : name);
      if (!cols.ok()) return cols.status();
      if (name.empty()) name = cols->front();
      secondary_.push_back({name, *cols, unique});
      return absl::OkStatus();
    }
    for (std::string_view kw : {"FOREIGN", "FULLTEXT", "SPATIAL", "CHECK"}) {
      if (Peek().upper == kw && !Peek().quoted) {
        return Unsupported(absl::StrCat(A(kw), " is not supported (only PRIMARY KEY, KEY/INDEX and UNIQUE KEY)"));
      }
    }
    return Column();
  }

  absl::Status Column() {
    absl::StatusOr<std::string> name = Name("column name");
    if (!name.ok()) return name.status();
    PendingColumn c;
    c.def.name = *name;
    const Token& type = Peek();
    if (type.type != Token::kWord) {
      return Unsupported(absl::StrCat("column ", *name, ": expected a type, found ", Describe(type)));
    }
    c.base = type.upper;
    Next();
    if (c.base == "INTEGER") c.base = "INT";
    if (c.base == "BINARY" || c.base == "CHAR" || c.base == "VARCHAR") {
      absl::StatusOr<std::optional<uint32_t>> n = Length(c.base, c.base != "CHAR");
      if (!n.ok()) return n.status();
      c.length = n->value_or(1);
      if (c.length == 0) return Unsupported(absl::StrCat("column ", *name, ": ", c.base, "(0) holds nothing"));
      if (c.base == "BINARY" && c.length > 255) return Unsupported(absl::StrCat("column ", *name, ": BINARY(n) takes n <= 255"));
      if (c.base == "CHAR" && c.length > 255) return Unsupported(absl::StrCat("column ", *name, ": CHAR(n) takes n <= 255"));
      c.def.type = absl::StrCat(c.base, "(", c.length, ")");
      c.value.kind = c.base == "BINARY" ? ColumnKind::kBinary : c.base == "CHAR" ? ColumnKind::kChar : ColumnKind::kVarchar;
    } else if (c.base == "BIGINT" || c.base == "INT" || c.base == "MEDIUMINT" || c.base == "SMALLINT" ||
               c.base == "TINYINT") {
      absl::StatusOr<std::optional<uint32_t>> n = Length(c.base, false);  // display width, ignored
      if (!n.ok()) return n.status();
      c.value.kind = ColumnKind::kInteger;
      c.def.stored_bytes = c.base == "BIGINT" ? 8 : c.base == "INT" ? 4 : c.base == "MEDIUMINT" ? 3 : c.base == "SMALLINT" ? 2 : 1;
      c.def.type = c.base;
      if (Accept("UNSIGNED")) {
        c.value.is_unsigned = true;
        c.def.type += " UNSIGNED";
      } else if (Accept("SIGNED")) {
      }
      if (Accept("ZEROFILL")) return Unsupported(absl::StrCat("column ", *name, ": ZEROFILL is not supported"));
    } else if (const BlobType* b = FindBlobType(c.base); b != nullptr) {
      if (Peek().text == "(") {
        return Unsupported(absl::StrCat("column ", *name, ": ", c.base, "(M) is not supported: write TINYTEXT, TEXT, "
                                        "MEDIUMTEXT or LONGTEXT (BLOB: TINYBLOB ... LONGBLOB)"));
      }
      // A TEXT holds the payload's 'x's as a VARCHAR does; the record
      // format treats it as DATA_BLOB (DATA_BIG_COL whatever its length).
      c.value.kind = ColumnKind::kVarchar;
      c.def.blob = true;
      c.def.type = c.base;
      c.blob_max = b->max_bytes;
      c.binary_blob = b->binary;
    } else if (c.base == "DATETIME" || c.base == "TIMESTAMP") {
      absl::StatusOr<std::optional<uint32_t>> p = Length(c.base, false);
      if (!p.ok()) return p.status();
      c.value.fsp = p->value_or(0);
      if (c.value.fsp > 6) {
        return Unsupported(absl::StrCat("column ", *name, ": ", c.base, "(", c.value.fsp, "): precision is 0 to 6"));
      }
      c.value.kind = c.base == "DATETIME" ? ColumnKind::kDatetime : ColumnKind::kTimestamp;
      // MySQL 5.6.4+ temporal format: DATETIME 5 bytes, TIMESTAMP 4, plus
      // ceil(fsp / 2) bytes of fraction.
      c.def.stored_bytes = (c.base == "DATETIME" ? 5 : 4) + (c.value.fsp + 1) / 2;
      c.def.type = p->has_value() ? absl::StrCat(c.base, "(", c.value.fsp, ")") : c.base;
    } else {
      return Unsupported(absl::StrCat("column ", *name, ": type ", type.text,
                                      " is not supported (use BINARY, CHAR, VARCHAR, TEXT, BLOB, BIGINT, INT, "
                                      "DATETIME or TIMESTAMP)"));
    }
    c.def.nullable = true;
    // Attributes.
    while (true) {
      const Token& tok = Peek();
      if (tok.type == Token::kPunct || tok.type == Token::kEnd) break;
      if (Accept("NOT")) {
        if (!Accept("NULL")) return Unsupported(absl::StrCat("column ", *name, ": expected NULL after NOT"));
        c.def.nullable = false;
      } else if (Accept("NULL")) {
        c.def.nullable = true;
      } else if (Accept("AUTO_INCREMENT")) {
        if (c.value.kind != ColumnKind::kInteger) {
          return Unsupported(absl::StrCat("column ", *name, ": AUTO_INCREMENT needs an integer column"));
        }
        c.def.type += " AUTO_INCREMENT";
      } else if (Accept("PRIMARY")) {
        if (!Accept("KEY")) return Unsupported(absl::StrCat("column ", *name, ": expected KEY after PRIMARY"));
        if (!pk_.empty()) return Unsupported("the table has two PRIMARY KEY definitions");
        pk_ = {*name};
      } else if (Accept("KEY")) {  // a lone KEY in a column definition means PRIMARY KEY
        if (!pk_.empty()) return Unsupported("the table has two PRIMARY KEY definitions");
        pk_ = {*name};
      } else if (Accept("UNIQUE")) {
        Accept("KEY");
        secondary_.push_back({*name, {*name}, true});
      } else if (Accept("CHARACTER")) {
        if (!Accept("SET")) return Unsupported(absl::StrCat("column ", *name, ": expected SET after CHARACTER"));
        if (absl::Status s = Charset(&c); !s.ok()) return s;
      } else if (Accept("CHARSET")) {
        if (absl::Status s = Charset(&c); !s.ok()) return s;
      } else if (Accept("COLLATE")) {
        absl::StatusOr<std::string> coll = Name("collation");
        if (!coll.ok()) return coll.status();
        c.collation = absl::AsciiStrToLower(*coll);
      } else if (Accept("DEFAULT")) {
        if (absl::Status s = SkipValue(*name); !s.ok()) return s;
      } else if (Accept("ON")) {
        if (!Accept("UPDATE")) return Unsupported(absl::StrCat("column ", *name, ": expected UPDATE after ON"));
        if (absl::Status s = SkipValue(*name); !s.ok()) return s;
      } else if (Accept("COMMENT")) {
        if (Peek().type != Token::kString) return Unsupported("COMMENT needs a quoted string");
        Next();
      } else {
        return Unsupported(absl::StrCat("column ", *name, ": '", tok.text, "' is not supported"));
      }
    }
    columns_.push_back(std::move(c));
    return absl::OkStatus();
  }

  absl::Status Charset(PendingColumn* c) {
    absl::StatusOr<std::string> cs = Name("character set");
    if (!cs.ok()) return cs.status();
    if ((c->value.kind != ColumnKind::kChar && c->value.kind != ColumnKind::kVarchar) || c->binary_blob) {
      return Unsupported(absl::StrCat("column ", c->def.name, ": a character set applies to CHAR, VARCHAR and TEXT only"));
    }
    if (CharsetMaxLen(*cs) == 0) {
      return Unsupported(absl::StrCat("column ", c->def.name, ": character set ", *cs,
                                      " is not supported (use ascii, latin1, utf8mb3 or utf8mb4)"));
    }
    c->charset = absl::AsciiStrToLower(*cs);
    return absl::OkStatus();
  }

  // A DEFAULT / ON UPDATE value: a literal, NULL, or a function call such as
  // CURRENT_TIMESTAMP(3).
  absl::Status SkipValue(const std::string& column) {
    const Token& tok = Peek();
    if (tok.type == Token::kEnd || (tok.type == Token::kPunct && tok.text != "(" && tok.text != "-" && tok.text != "+")) {
      return Unsupported(absl::StrCat("column ", column, ": DEFAULT needs a value"));
    }
    if (tok.text == "(") return Unsupported(absl::StrCat("column ", column, ": expression defaults are not supported"));
    Next();
    if (tok.text == "-" || tok.text == "+") Next();  // a signed number
    if (AcceptPunct("(")) {
      while (Peek().type != Token::kEnd && !AcceptPunct(")")) Next();
    }
    return absl::OkStatus();
  }

  absl::Status TableOptionsClause() {
    while (true) {
      const Token& tok = Peek();
      if (tok.type == Token::kEnd) return absl::OkStatus();
      if (AcceptPunct(";")) {
        if (Peek().type != Token::kEnd) return Unsupported("only one statement is supported");
        return absl::OkStatus();
      }
      if (AcceptPunct(",")) continue;
      if (Accept("PARTITION")) return Unsupported("PARTITION BY is not supported");
      std::string opt = tok.upper;
      Next();
      if (opt == "DEFAULT") {
        opt = Peek().upper;
        Next();
      }
      if (opt == "CHARACTER") {
        if (!Accept("SET")) return Unsupported("expected SET after CHARACTER");
        opt = "CHARSET";
      }
      AcceptPunct("=");
      const Token& value = Peek();
      if (value.type == Token::kEnd || value.type == Token::kPunct) {
        return Unsupported(absl::StrCat("table option ", opt, " needs a value"));
      }
      Next();
      if (opt == "ENGINE" && value.upper != "INNODB") {
        return Unsupported(absl::StrCat("ENGINE=", value.text, " is not supported: the model is InnoDB"));
      }
      if (opt == "ROW_FORMAT" && value.upper != "DYNAMIC" && value.upper != "COMPACT" && value.upper != "DEFAULT") {
        return Unsupported(absl::StrCat("ROW_FORMAT=", value.text, " is not supported (use DYNAMIC or COMPACT)"));
      }
      if (opt == "ROW_FORMAT") {
        table_.row_format = value.upper == "COMPACT" ? RowFormat::kCompact : RowFormat::kDynamic;
      }
      if (opt == "STATS_PERSISTENT" || opt == "STATS_AUTO_RECALC") {
        // sql_yacc.yy ternary_option: 0, 1 or DEFAULT.
        std::optional<bool> v;
        if (value.text == "1") {
          v = true;
        } else if (value.text == "0") {
          v = false;
        } else if (value.upper != "DEFAULT") {
          return Unsupported(absl::StrCat(opt, "=", value.text, ": give 0, 1 or DEFAULT"));
        }
        (opt == "STATS_PERSISTENT" ? table_.stats_persistent : table_.stats_auto_recalc) = v;
      }
      if (opt == "STATS_SAMPLE_PAGES") {
        // ha_innodb.cc / sql_yacc.yy: 1..65535 or DEFAULT (0: the server's).
        uint32_t n = 0;
        if (value.upper != "DEFAULT" && (!absl::SimpleAtoi(value.text, &n) || n < 1 || n > 65535)) {
          return Unsupported(absl::StrCat("STATS_SAMPLE_PAGES=", value.text, ": give 1 to 65535 or DEFAULT"));
        }
        table_.stats_sample_pages = n;
      }
      if (opt == "KEY_BLOCK_SIZE" || opt == "COMPRESSION") {
        return Unsupported(absl::StrCat(opt, " (compression) is not supported"));
      }
      if (opt == "CHARSET") {
        if (CharsetMaxLen(value.text) == 0) {
          return Unsupported(absl::StrCat("character set ", value.text, " is not supported (use ascii, latin1, utf8mb3 or utf8mb4)"));
        }
        table_charset_ = absl::AsciiStrToLower(value.text);
        table_charset_given_ = true;
      }
      if (opt == "COLLATE") {
        if (CharsetOfCollation(value.text).empty()) {
          return Unsupported(absl::StrCat("COLLATE=", value.text, ": the collation of a character set the model does "
                                          "not know (use ascii, latin1, utf8mb3 or utf8mb4 collations)"));
        }
        table_collation_ = absl::AsciiStrToLower(value.text);
      }
    }
  }

  absl::StatusOr<uint32_t> ColumnIndex(const std::string& name, const std::string& index) const {
    for (uint32_t i = 0; i < table_.columns.size(); ++i) {
      if (absl::EqualsIgnoreCase(table_.columns[i].name, name)) return i;
    }
    return Unsupported(absl::StrCat("index ", index, " names column ", name, ", which the table does not have"));
  }

  // The table's default character set and collation: CHARSET= and COLLATE=
  // as given, a charset's default collation, a collation's charset, or the
  // server's default (the profile's) when neither is given.
  absl::Status ResolveTableDefaults() {
    if (!table_charset_given_ && table_collation_.empty() && !options_.server_charset.empty() &&
        CharsetMaxLen(table_charset_) == 0) {
      return Unsupported(absl::StrCat("character_set_server=", options_.server_charset,
                                      " is not a character set the model knows (ascii, latin1, utf8mb3, utf8mb4): "
                                      "name the table's CHARSET"));
    }
    if (table_collation_.empty()) {
      // A table that names neither takes the server's collation
      // (collation_server, through the database's default) when it belongs
      // to the server's character set; else the set's default collation.
      const std::string server_collation = absl::AsciiStrToLower(options_.server_collation);
      if (!table_charset_given_ && !server_collation.empty() &&
          CharsetOfCollation(server_collation) == CanonicalCharsetName(table_charset_)) {
        table_collation_ = server_collation;
      } else {
        table_collation_ = DefaultCollation(table_charset_, options_.profile);
      }
      return absl::OkStatus();
    }
    const std::string cs = CharsetOfCollation(table_collation_);
    if (table_charset_given_ && cs != CanonicalCharsetName(table_charset_)) {
      return Unsupported(absl::StrCat("COLLATE=", table_collation_, " is not a collation of CHARSET=", table_charset_,
                                      " (the server refuses it: ER_COLLATION_CHARSET_MISMATCH)"));
    }
    table_charset_ = cs;
    return absl::OkStatus();
  }

  // A CHAR/VARCHAR column's character set and collation, as the server
  // resolves them ([Doc] "Column Character Set and Collation"): CHARACTER SET
  // without COLLATE takes that set's default collation, COLLATE alone its
  // set, neither the table's defaults.
  absl::Status ResolveText(const PendingColumn& c, std::string* charset, std::string* collation) const {
    if (c.charset && c.collation) {
      const std::string cs = CharsetOfCollation(*c.collation);
      if (cs.empty() || cs != CanonicalCharsetName(*c.charset)) {
        return Unsupported(absl::StrCat("column ", c.def.name, ": COLLATE ", *c.collation,
                                        " is not a collation of character set ", *c.charset,
                                        " (the server refuses it: ER_COLLATION_CHARSET_MISMATCH)"));
      }
      *charset = *c.charset;
      *collation = *c.collation;
    } else if (c.charset) {
      *charset = *c.charset;
      *collation = DefaultCollation(*c.charset, options_.profile);
    } else if (c.collation) {
      *charset = CharsetOfCollation(*c.collation);
      if (charset->empty()) {
        return Unsupported(absl::StrCat("column ", c.def.name, ": COLLATE ", *c.collation,
                                        " belongs to a character set the model does not know (use ascii, latin1, "
                                        "utf8mb3 or utf8mb4)"));
      }
      *collation = *c.collation;
    } else {
      *charset = table_charset_;
      *collation = table_collation_;
    }
    return absl::OkStatus();
  }

  absl::StatusOr<TableSchema> Finish() {
    if (columns_.empty()) return Unsupported("the table has no columns");
    if (absl::Status s = ResolveTableDefaults(); !s.ok()) return s;
    TableSchema out;
    for (PendingColumn& c : columns_) {
      for (const ColumnDef& d : table_.columns) {
        if (absl::EqualsIgnoreCase(d.name, c.def.name)) return Unsupported(absl::StrCat("column ", c.def.name, " is defined twice"));
      }
      if (c.value.kind == ColumnKind::kBinary) {
        c.def.stored_bytes = c.def.max_bytes = c.length;
      } else if (c.def.blob) {
        if (!c.binary_blob) {
          std::string cs, coll;
          if (absl::Status s = ResolveText(c, &cs, &coll); !s.ok()) return s;
          if (c.charset) c.def.type += absl::StrCat(" CHARACTER SET ", cs);
        }
        // The payload a TEXT/BLOB takes is capped by the type's maximum
        // bytes (the workload's 'x's are one byte each).
        if (options_.payload_given && options_.payload_bytes > c.blob_max) {
          return Unsupported(absl::StrCat("--payload-bytes ", options_.payload_bytes, " does not fit ", c.def.name, " ",
                                          c.def.type, ": a server in strict mode refuses the row "
                                          "(ER_DATA_TOO_LONG); give at most ", c.blob_max));
        }
        c.def.max_bytes = c.blob_max;
        c.def.stored_bytes = std::min(options_.payload_bytes, c.blob_max);
        c.def.variable = true;
      } else if (c.value.kind == ColumnKind::kChar || c.value.kind == ColumnKind::kVarchar) {
        std::string cs, coll;
        if (absl::Status s = ResolveText(c, &cs, &coll); !s.ok()) return s;
        const uint32_t mb = CharsetMaxLen(cs);
        if (c.charset) c.def.type += absl::StrCat(" CHARACTER SET ", cs);
        // ER_TOO_BIG_FIELDLENGTH: a VARCHAR of more than 65535 bytes
        // (MAX_FIELD_VARCHARLENGTH) in its character set.
        if (c.value.kind == ColumnKind::kVarchar && static_cast<uint64_t>(c.length) * mb > 65535) {
          return Unsupported(absl::StrCat("Column length too big for column '", c.def.name, "' (max = ", 65535 / mb,
                                          "); use BLOB or TEXT instead (ER_TOO_BIG_FIELDLENGTH)"));
        }
        c.def.max_bytes = c.length * mb;
        if (c.value.kind == ColumnKind::kChar) {
          // Single-byte CHAR is fixed-length; multi-byte CHAR stores at
          // least n bytes (n for ASCII content) with a length byte.
          c.def.stored_bytes = c.length;
          c.def.variable = mb > 1;
        } else {
          if (options_.payload_given && options_.payload_bytes > c.length) {
            return Unsupported(absl::StrCat("--payload-bytes ", options_.payload_bytes, " does not fit ", c.def.name, " ",
                                            c.def.type, ": a server in strict mode refuses the row "
                                            "(ER_DATA_TOO_LONG); give at most ", c.length));
          }
          c.def.stored_bytes = std::min(options_.payload_bytes, c.length);
          c.def.variable = true;
        }
      } else {
        c.def.max_bytes = c.def.stored_bytes;
      }
      table_.columns.push_back(c.def);
      out.values.push_back(c.value);
    }
    if (pk_.empty()) {
      return Unsupported("the table needs a PRIMARY KEY (one column, the stream's key): InnoDB's hidden "
                         "DB_ROW_ID clustered index is not modelled");
    }
    if (pk_.size() != 1) {
      return Unsupported(absl::StrCat("PRIMARY KEY (", absl::StrJoin(pk_, ", "),
                                      ") has ", pk_.size(), " columns: the model supports a one-column primary key"));
    }
    absl::StatusOr<uint32_t> pk = ColumnIndex(pk_[0], "PRIMARY");
    if (!pk.ok()) return pk.status();
    // A PRIMARY KEY column is NOT NULL whatever it says.
    table_.columns[*pk].nullable = false;
    table_.primary = {"PRIMARY", {*pk}, true};
    for (const auto& [name, cols, unique] : secondary_) {
      IndexDef ix;
      ix.name = name;
      ix.unique = unique;
      for (const std::string& col : cols) {
        absl::StatusOr<uint32_t> c = ColumnIndex(col, name);
        if (!c.ok()) return c.status();
        ix.columns.push_back(*c);
      }
      for (const IndexDef& other : table_.secondary) {
        if (absl::EqualsIgnoreCase(other.name, ix.name)) return Unsupported(absl::StrCat("two indexes are named ", ix.name));
      }
      table_.secondary.push_back(std::move(ix));
    }
    // A CHAR(36) / VARCHAR(36) key holds the canonical text of a 16-byte
    // UUID. Under the collations of kTextKeyCollations the lowercase hex
    // digits and hyphens at fixed places sort exactly as the 16 bytes do, so
    // the 16-byte key keeps the order while the records carry the text's
    // bytes: 36 (one byte per character in every supported set), with a
    // length byte when the column is variable-length (VARCHAR, or CHAR in a
    // multi-byte set: row_mysql_store_col_in_innobase_format trims its
    // space padding to n bytes, and rec_get_converted_size_comp_prefix_low
    // counts one length byte while the column's maximum, n x mbmaxlen, is
    // <= 255 bytes).
    if (out.values[*pk].kind == ColumnKind::kChar || out.values[*pk].kind == ColumnKind::kVarchar) {
      const PendingColumn& c = columns_[*pk];
      std::string cs, coll;
      if (absl::Status s = ResolveText(c, &cs, &coll); !s.ok()) return s;
      cs = CanonicalCharsetName(cs);
      coll = CanonicalCharsetName(coll);
      const std::string shown = absl::StrCat(c.base, "(", c.length, ") CHARACTER SET ", cs, " COLLATE ", coll);
      if (c.length != 36) {
        return Unsupported(absl::StrCat("primary key column ", c.def.name, " is ", shown,
                                        ": a text key must be CHAR(36) or VARCHAR(36), the canonical UUID text of "
                                        "the stream's 16-byte keys; other lengths are not modelled"));
      }
      const CollationInfo* info = FindTextKeyCollation(coll);
      const bool mariadb = IsMariaDbProfile(options_.profile);
      if (info != nullptr && !(mariadb ? info->mariadb : info->mysql)) {
        return Unsupported(absl::StrCat("primary key column ", c.def.name, " is ", shown, ": ",
                                        mariadb ? "MariaDB 10.11" : "MySQL 8.4", " has no collation ", coll,
                                        " (profile ", options_.profile, ")"));
      }
      if (info == nullptr) {
        const std::vector<std::string> names = TextKeyCollations(options_.profile);
        return Unsupported(absl::StrCat(
            "primary key column ", c.def.name, " is ", shown, ": collation ", coll,
            " is not modelled for a text key (the model keeps the 16-byte order, which the UUID text has only "
            "under a collation that orders '-', 0-9 and a-f as their bytes; e.g. utf8mb4_danish_ci sorts \"aa\" "
            "after \"ab\"); use one of ", absl::StrJoin(names, ", ")));
      }
      ColumnDef& d = table_.columns[*pk];
      d.stored_bytes = 36;  // a VARCHAR key stores its text, not the payload
      d.max_bytes = 36 * CharsetMaxLen(cs);
      d.type = shown;
      d.uuid_text = true;
      out.pk_text = true;
    }
    out.pk_width = table_.columns[*pk].stored_bytes;
    if (table_.columns[*pk].variable && !out.pk_text) {
      return Unsupported(absl::StrCat("primary key column ", table_.columns[*pk].name, " is variable-length (",
                                      table_.columns[*pk].type, "): use BINARY(16) or BIGINT"));
    }
    if (options_.server_limits) {
      if (absl::Status s = CheckServerLimits(); !s.ok()) return s;
    }
    out.def = std::move(table_);
    return out;
  }

  // What the server refuses of a table that parses: in the order the
  // server checks (the SQL layer's, then InnoDB's at CREATE, then a row
  // that could never be inserted).
  absl::Status CheckServerLimits() const {
    // ER_BLOB_KEY_WITHOUT_LENGTH (mysql_prepare_create_table): an index on a
    // TEXT/BLOB needs a prefix length, which the model does not take.
    std::vector<const IndexDef*> indexes = {&table_.primary};
    for (const IndexDef& ix : table_.secondary) indexes.push_back(&ix);
    for (const IndexDef* ix : indexes) {
      for (uint32_t c : ix->columns) {
        if (table_.columns[c].blob) {
          return Unsupported(absl::StrCat("BLOB/TEXT column '", table_.columns[c].name,
                                          "' used in key specification without a key length "
                                          "(ER_BLOB_KEY_WITHOUT_LENGTH; index prefixes are not modelled)"));
        }
      }
    }
    // The key length InnoDB allows (ha_innobase::max_supported_key_length:
    // 3072 bytes from 16 KiB pages up, 1536 at 8 KiB, 768 at 4 KiB, for
    // DYNAMIC; COMPACT also limits each column to 767 bytes,
    // REC_ANTELOPE_MAX_INDEX_COL_LEN - 1): ER_TOO_LONG_KEY /
    // ER_INDEX_COLUMN_TOO_LONG at CREATE.
    const uint32_t max_key = options_.page_size >= 16384 ? 3072 : options_.page_size == 8192 ? 1536 : 768;
    for (const IndexDef* ix : indexes) {
      uint64_t key_len = 0;
      for (uint32_t c : ix->columns) {
        const ColumnDef& d = table_.columns[c];
        if (table_.row_format == RowFormat::kCompact && d.max_bytes > kDictAntelopeMaxIndexColLen - 1) {
          return Unsupported(absl::StrCat("Index column size too large. The maximum column size is 767 bytes. "
                                          "(ER_INDEX_COLUMN_TOO_LONG: column '", d.name, "' of index ", ix->name,
                                          " takes up to ", d.max_bytes, " bytes)"));
        }
        key_len += d.max_bytes;
      }
      if (key_len > max_key) {
        return Unsupported(absl::StrCat("Specified key was too long; max key length is ", max_key,
                                        " bytes (ER_TOO_LONG_KEY: index ", ix->name, " takes up to ", key_len,
                                        " bytes at innodb_page_size=", options_.page_size, ")"));
      }
    }
    // ER_TOO_BIG_ROWSIZE at the SQL layer: the row buffer (null bits, then
    // every field's pack length, BLOBs counting their pointer) over
    // HA_MAX_REC_LENGTH (65535).
    uint64_t reclength = 0;
    uint32_t n_nullable = 0;
    for (const ColumnDef& d : table_.columns) {
      reclength += PackLength(d);
      n_nullable += d.nullable ? 1 : 0;
    }
    reclength += (n_nullable + 7) / 8;
    if (reclength > 65535) {
      return Unsupported(absl::StrCat(
          "Row size too large. The maximum row size for the used table type, not counting BLOBs, is 65535. This "
          "includes storage overhead, check the manual. You have to change some columns to TEXT or BLOBs "
          "(ER_TOO_BIG_ROWSIZE: this table's row is ", reclength, " bytes)"));
    }
    // ER_TOO_MANY_FIELDS from InnoDB's create_table_def: more than
    // REC_MAX_N_USER_FIELDS (REC_MAX_N_FIELDS 1023 - 2 x DATA_N_SYS_COLS 3)
    // columns.
    constexpr size_t kRecMaxNUserFields = 1023 - 2 * 3;
    if (table_.columns.size() > kRecMaxNUserFields) {
      return Unsupported(absl::StrCat("Too many columns (ER_TOO_MANY_FIELDS: InnoDB takes at most ",
                                      kRecMaxNUserFields, " columns, this table has ", table_.columns.size(), ")"));
    }
    // dict_index_too_big_for_tree, for every index (innodb_strict_mode is
    // ON on both servers: the CREATE fails).
    for (const IndexDef* ix : indexes) {
      if (IndexTooBigForTree(*ix, ix == &table_.primary)) return RowSizeTooLarge();
    }
    // A row every off-page column could not bring under half a page
    // (dtuple_convert_big_rec returns NULL): the server accepts the CREATE
    // (its worst case counts such columns as 40 bytes) but refuses every
    // INSERT with the same error.
    const BigRec big = ConvertBigRec(table_, options_.page_size);
    if (!big.fits) {
      return Unsupported(absl::StrCat(RowSizeTooLarge().message(), " (every row: ", big.rec_size,
                                      " bytes on the page with the off-page columns out; DB_TOO_BIG_RECORD at "
                                      "INSERT)"));
    }
    return absl::OkStatus();
  }

  // The server's message for DB_TOO_BIG_RECORD (ha_innodb.cc
  // convert_error_code_to_mysql): the limit is half an empty page, or
  // REC_MAX_DATA_SIZE - 1 at 64 KiB.
  absl::Status RowSizeTooLarge() const {
    const bool compact = table_.row_format == RowFormat::kCompact;
    const uint32_t limit =
        options_.page_size == kUnivPageSizeMax ? kCompressedRecMaxDataSize - 1 : FreeSpaceOfEmpty(options_.page_size) / 2;
    return Unsupported(absl::StrCat("Row size too large (> ", limit, "). Changing some columns to TEXT or BLOB ",
                                    compact ? "or using ROW_FORMAT=DYNAMIC or ROW_FORMAT=COMPRESSED " : "",
                                    "may help. In current row format, BLOB prefix of ",
                                    compact ? kDictAntelopeMaxIndexColLen : 0,
                                    " bytes is stored inline. (ER_TOO_BIG_ROWSIZE at innodb_page_size=",
                                    options_.page_size, ")"));
  }

  // dict_index_too_big_for_tree (uncompressed, COMPACT/DYNAMIC): the
  // largest record the index could hold, field by field, with a clustered
  // index's variable-length fields over 40 bytes counted as 40 (they may go
  // off-page), against half an empty page (REC_MAX_DATA_SIZE - 1 at 64 KiB)
  // on leaves and, after the key fields, for node pointers.
  bool IndexTooBigForTree(const IndexDef& ix, bool clustered) const {
    const uint32_t page_rec_max = options_.page_size == kUnivPageSizeMax ? kCompressedRecMaxDataSize - 1
                                                                         : FreeSpaceOfEmpty(options_.page_size) / 2;
    // The index's fields: its key columns, then (clustered) DB_TRX_ID,
    // DB_ROLL_PTR and the other columns, or (secondary) the PK columns not
    // in the key.
    std::vector<int64_t> fields;  // column position, or -6 / -7 for the system columns
    for (uint32_t c : ix.columns) fields.push_back(c);
    const size_t n_unique = clustered ? ix.columns.size() : 0;
    if (clustered) {
      fields.push_back(-static_cast<int64_t>(kDataTrxIdLen));
      fields.push_back(-static_cast<int64_t>(kDataRollPtrLen));
      for (uint32_t c = 0; c < table_.columns.size(); ++c) {
        if (std::find(ix.columns.begin(), ix.columns.end(), c) == ix.columns.end()) fields.push_back(c);
      }
    } else {
      for (uint32_t c : table_.primary.columns) {
        if (std::find(ix.columns.begin(), ix.columns.end(), c) == ix.columns.end()) fields.push_back(c);
      }
    }
    uint32_t n_nullable = 0;
    for (int64_t f : fields) n_nullable += (f >= 0 && table_.columns[f].nullable) ? 1 : 0;
    uint64_t rec_max_size = kRecNewExtraBytes + (n_nullable + 7) / 8;
    // Secondary: dict_index_get_n_unique_in_tree is every field.
    const size_t unique_in_tree = clustered ? n_unique : fields.size();
    for (size_t i = 0; i < fields.size(); ++i) {
      const int64_t f = fields[i];
      uint64_t field_max_size = 0;
      uint64_t field_ext_max_size = 0;
      if (f < 0) {
        field_max_size = static_cast<uint64_t>(-f);
      } else {
        const ColumnDef& d = table_.columns[f];
        if (!d.variable) {
          field_max_size = d.max_bytes;  // fixed lengths are not encoded
        } else {
          field_max_size = d.max_bytes;
          field_ext_max_size = field_max_size < 256 ? 1 : 2;
          if (field_max_size > kBtrExternLocalStoredMaxSize && clustered) {
            field_max_size = kBtrExternLocalStoredMaxSize;
            field_ext_max_size = 1;
          }
        }
      }
      rec_max_size += field_ext_max_size + field_max_size;
      if (rec_max_size >= page_rec_max) return true;
      if (i + 1 == unique_in_tree && rec_max_size + kRecNodePtrSize >= page_rec_max) return true;
    }
    return false;
  }

  struct PendingIndex {
    std::string name;
    std::vector<std::string> columns;
    bool unique = false;
  };

  std::vector<Token> t_;
  size_t pos_ = 0;
  TableOptions options_;
  TableDef table_;
  std::vector<PendingColumn> columns_;
  std::vector<std::string> pk_;
  std::vector<PendingIndex> secondary_;
  // The table's default character set: the server's (ServerDefaultCharset)
  // until CHARSET= or COLLATE= says otherwise.
  std::string table_charset_;
  bool table_charset_given_ = false;
  std::string table_collation_;  // COLLATE=, else the charset's default
};

}  // namespace

std::vector<std::string> TextKeyCollations(std::string_view profile) {
  const bool mariadb = IsMariaDbProfile(profile);
  std::vector<std::string> names;
  for (const CollationInfo& k : kTextKeyCollations) {
    if (mariadb ? k.mariadb : k.mysql) names.push_back(k.name);
  }
  return names;
}

absl::StatusOr<TableSchema> ParseCreateTable(std::string_view sql, const TableOptions& options) {
  absl::StatusOr<std::vector<Token>> tokens = Tokenize(sql);
  if (!tokens.ok()) return tokens.status();
  Parser p(std::move(*tokens), options);
  return p.Parse();
}

std::string Seed004TableSql(int key_width) {
  return absl::StrCat("CREATE TABLE ", key_width == 8 ? "t_bigint" : "t_v4", " (",
                      key_width == 8 ? "id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY"
                                     : "id BINARY(16) NOT NULL PRIMARY KEY",
                      ", created_at DATETIME(3) NOT NULL, payload VARCHAR(200) NOT NULL, "
                      "KEY idx_created (created_at)) ENGINE=InnoDB");
}

namespace {

// The column type a stream of `width`-byte keys fills, for messages.
std::string TypeForWidth(int width) {
  switch (width) {
    case 16:
      return "BINARY(16)";
    case 8:
      return "BIGINT";
    case 4:
      return "INT";
    case 3:
      return "MEDIUMINT";
    case 2:
      return "SMALLINT";
    case 1:
      return "TINYINT";
  }
  return absl::StrCat("BINARY(", width, ")");
}

}  // namespace

absl::StatusOr<TableSchema> ResolveTable(std::string_view arg, int key_width, const TableOptions& options) {
  if (key_width < 1 || key_width > static_cast<int>(Key::kMaxBytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat("key width ", key_width, " is not supported (1 to ", Key::kMaxBytes, " bytes)"));
  }
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(A(arg)));
  const bool named = lower.empty() || lower == "seed000" || lower == "seed004";
  if (named && key_width != 8 && key_width != 16) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--table ", lower.empty() ? "seed000" : lower, " has a BINARY(16) or BIGINT key but the stream gives ", key_width,
        "-byte keys: give --table 'CREATE TABLE t (id ", TypeForWidth(key_width), " NOT NULL PRIMARY KEY, ...)'"));
  }
  if (lower.empty() || lower == "seed000") {
    // The model's seed-000 table (record sizes validated against the seed).
    TableSchema t;
    t.def = Seed000Table(key_width);
    t.values = {ColumnValue{key_width == 8 ? ColumnKind::kInteger : ColumnKind::kBinary, 0, false},
                ColumnValue{ColumnKind::kChar, 0, false}, ColumnValue{ColumnKind::kInteger, 0, false}};
    t.pk_width = static_cast<uint32_t>(key_width);
    return t;
  }
  std::string sql;
  if (lower == "seed004") {
    sql = Seed004TableSql(key_width);
  } else if (absl::StartsWith(lower, "create")) {
    sql = std::string(arg);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("--table '", A(arg),
                                                   "': use seed000, seed004 or a CREATE TABLE statement in quotes"));
  }
  absl::StatusOr<TableSchema> t = ParseCreateTable(sql, options);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat("--table: ", t.status().message()));
  const ColumnDef& pk = t->def.columns[t->def.primary.columns[0]];
  if (t->pk_text) {
    if (key_width == 16) return t;
    return absl::InvalidArgumentError(absl::StrCat("--table: primary key ", pk.name, " is ", pk.type,
                                                   ", the text of a 16-byte UUID, but the stream gives ", key_width,
                                                   "-byte keys: use a UUID or ULID stream"));
  }
  if (static_cast<int>(t->pk_width) != key_width) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--table: primary key ", pk.name, " is ", pk.type, " (", t->pk_width, " bytes) but the stream gives ",
        key_width, "-byte keys: use ", TypeForWidth(key_width), " for this stream"));
  }
  return t;
}

absl::Status BindStreamToTable(std::string_view table, StreamSpec* stream) {
  if (!ServerAssigns(stream->name)) return absl::OkStatus();
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(A(table)));
  if (!absl::StartsWith(lower, "create")) return absl::OkStatus();  // seed000, seed004: BIGINT
  TableOptions options;
  options.server_limits = false;  // the key's type only; the run checks the rest at its page size
  absl::StatusOr<TableSchema> t = ParseCreateTable(table, options);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat("--table: ", t.status().message()));
  const uint32_t pk = t->def.primary.columns[0];
  const ColumnValue& v = t->values[pk];
  if (v.kind != ColumnKind::kInteger) return absl::OkStatus();  // ResolveTable names the mismatch
  stream->autoinc_bytes = static_cast<uint8_t>(t->def.columns[pk].stored_bytes);
  stream->autoinc_unsigned = v.is_unsigned;
  return absl::OkStatus();
}

}  // namespace innosim
