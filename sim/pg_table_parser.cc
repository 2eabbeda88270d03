#include "sim/pg_table_parser.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "model/key.h"
#include "model/postgres/page_layout.h"
#include "model/postgres/pg_type.h"

namespace innosim {
namespace {

using postgres::PgColumn;
using postgres::PgIndexSpec;
using postgres::PgType;

// This Abseil's string_view is its own type, not std::string_view.
absl::string_view A(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// pg_config_manual.h: NAMEDATALEN; identifiers keep NAMEDATALEN - 1 bytes.
constexpr size_t kNameDataLen = 64;
// heaptoast.h: TOAST_TUPLE_THRESHOLD = MaximumBytesPerTuple(TOAST_TUPLES_PER_PAGE
// = 4) = MAXALIGN_DOWN((BLCKSZ - MAXALIGN(SizeOfPageHeaderData + 4 *
// sizeof(ItemIdData))) / 4) = 2032: a longer row is compressed or toasted
// (heap_insert -> heap_toast_insert_or_update), which the model does not do.
constexpr int kToastTupleThreshold = postgres::MaxAlignDown(
    (postgres::kBlckSz - postgres::MaxAlign(postgres::kSizeOfPageHeaderData + 4 * postgres::kSizeOfItemIdData)) / 4);
static_assert(kToastTupleThreshold == 2032);
// model/postgres/nbtree.h BtIndexDesc: 1..8 key columns; table.cc: 1..64 columns.
constexpr size_t kMaxKeyColumns = 8;
constexpr size_t kMaxColumns = 64;
// utils/rel.h: HEAP_MIN_FILLFACTOR 10; nbtree.h BTREE_MIN_FILLFACTOR 10; both up to 100.
constexpr int kMaxFillfactor = 100;

// pg_mbcliplen for UTF-8: the longest prefix of at most `limit` bytes that
// does not split a character.
size_t ClipLen(std::string_view s, size_t limit) {
  if (s.size() <= limit) return s.size();
  size_t n = limit;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return n;
}

// scan.l truncate_identifier: NAMEDATALEN - 1 bytes.
std::string Truncate(std::string s) {
  s.resize(ClipLen(s, kNameDataLen - 1));
  return s;
}

// indexcmds.c makeObjectName: "name1_name2_label", the longer of name1 and
// name2 cut first until the whole fits NAMEDATALEN - 1; the label is never cut.
std::string MakeObjectName(std::string_view name1, std::optional<std::string_view> name2, std::string_view label) {
  size_t overhead = label.size() + 1 + (name2 ? 1 : 0);
  const size_t avail = kNameDataLen - 1 - overhead;
  size_t n1 = name1.size();
  size_t n2 = name2 ? name2->size() : 0;
  while (n1 + n2 > avail) {
    if (n1 > n2) {
      --n1;
    } else {
      --n2;
    }
  }
  n1 = ClipLen(name1, n1);
  std::string out(name1.substr(0, n1));
  if (name2) absl::StrAppend(&out, "_", A(name2->substr(0, ClipLen(*name2, n2))));
  absl::StrAppend(&out, "_", A(label));
  return out;
}

// indexcmds.c ChooseIndexColumnNames: a repeated column name gets 1, 2, ...
// appended; ChooseIndexNameAddition: the names joined by '_', stopping once
// NAMEDATALEN bytes are reached (makeObjectName cuts the rest).
std::string IndexNameAddition(const std::vector<std::string>& columns) {
  std::vector<std::string> chosen;
  for (const std::string& orig : columns) {
    std::string cur = orig;
    for (int i = 1; std::find(chosen.begin(), chosen.end(), cur) != chosen.end(); ++i) {
      const std::string num = absl::StrCat(i);
      cur = absl::StrCat(A(std::string_view(orig).substr(0, ClipLen(orig, kNameDataLen - 1 - num.size()))), num);
    }
    chosen.push_back(cur);
  }
  std::string buf;
  for (const std::string& name : chosen) {
    if (!buf.empty()) buf += '_';
    buf += name.substr(0, kNameDataLen - 1);
    if (buf.size() >= kNameDataLen) break;
  }
  return buf;
}

struct Token {
  enum Type { kWord, kNumber, kString, kPunct, kEnd } type = kEnd;
  std::string text;   // words folded to lower case unless quoted, then cut to 63 bytes
  std::string upper;  // upper-cased, for keywords (unquoted words only)
  bool quoted = false;
};

bool IdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool IdentCont(unsigned char c) { return IdentStart(c) || std::isdigit(c) || c == '$'; }

absl::StatusOr<std::vector<Token>> Tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {  // -- comment
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {  // /* comment */, nesting as scan.l does
      int depth = 0;
      while (i < s.size()) {
        if (s.compare(i, 2, "/*") == 0) {
          ++depth;
          i += 2;
        } else if (s.compare(i, 2, "*/") == 0) {
          i += 2;
          if (--depth == 0) break;
        } else {
          ++i;
        }
      }
      if (depth != 0) return absl::InvalidArgumentError("unterminated /* comment in the table definition");
      continue;
    }
    Token t;
    if (c == '"' || c == '\'') {
      std::string text;
      size_t j = i + 1;
      bool closed = false;
      while (j < s.size()) {
        if (s[j] == static_cast<char>(c)) {
          if (j + 1 < s.size() && s[j + 1] == static_cast<char>(c)) {  // doubled quote
            text += static_cast<char>(c);
            j += 2;
            continue;
          }
          closed = true;
          break;
        }
        text += s[j++];
      }
      if (!closed) {
        return absl::InvalidArgumentError(absl::StrCat("unterminated ", std::string(1, static_cast<char>(c)),
                                                       " quote in the table definition"));
      }
      i = j + 1;
      if (c == '"') {
        if (text.empty()) return absl::InvalidArgumentError("zero-length delimited identifier \"\"");
        t.type = Token::kWord;
        t.quoted = true;
        t.text = Truncate(std::move(text));
      } else {
        t.type = Token::kString;
        t.text = std::move(text);
      }
    } else if (IdentStart(c)) {
      size_t j = i;
      while (j < s.size() && IdentCont(static_cast<unsigned char>(s[j]))) ++j;
      t.type = Token::kWord;
      // scan.l downcase_identifier: ASCII letters fold to lower case.
      t.text = Truncate(absl::AsciiStrToLower(A(s.substr(i, j - i))));
      t.upper = absl::AsciiStrToUpper(t.text);
      i = j;
    } else if (std::isdigit(c)) {
      size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      t.type = Token::kNumber;
      t.text = std::string(s.substr(i, j - i));
      i = j;
    } else if (std::string_view("(),;.+-*/<>=~!@#%^&|`?:[]").find(static_cast<char>(c)) != std::string_view::npos) {
      t.type = Token::kPunct;
      t.text = std::string(1, static_cast<char>(c));
      ++i;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unexpected character '", std::string(1, static_cast<char>(c)),
                                                     "' in the table definition"));
    }
    out.push_back(std::move(t));
  }
  out.push_back(Token{});
  return out;
}

// A PRIMARY KEY or UNIQUE constraint, or a CREATE INDEX, before naming.
struct PendingIndex {
  std::string name;  // as given; empty: PostgreSQL chooses
  std::vector<std::string> columns;
  bool primary = false;
  bool unique = false;
  bool constraint = false;  // from CREATE TABLE (a constraint), not CREATE INDEX
  bool if_not_exists = false;
  bool nulls_not_distinct = false;
  bool deferrable = false;
  int fillfactor = postgres::kBtreeDefaultFillfactor;
  bool deduplicate_items = true;
  std::string with_text;  // WITH (...) as given, normalized
};

struct PendingColumn {
  PgColumn col;
  PgColumnValue value;
  bool char_type = false;  // char(n): blank-padded to n
  std::string identity;    // "ALWAYS" / "BY DEFAULT" or ""
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, const PgTableOptions& options) : t_(std::move(tokens)), options_(options) {}

  absl::StatusOr<PgSchema> Parse() {
    if (absl::Status s = CreateTable(); !s.ok()) return s;
    while (true) {
      if (AcceptPunct(";")) continue;
      if (Peek().type == Token::kEnd) break;
      if (absl::Status s = CreateIndex(); !s.ok()) return s;
    }
    return Finish();
  }

 private:
  const Token& Peek(size_t ahead = 0) const { return t_[std::min(pos_ + ahead, t_.size() - 1)]; }
  const Token& Next() {
    const Token& tok = t_[pos_];
    if (pos_ + 1 < t_.size()) ++pos_;
    return tok;
  }
  bool IsKeyword(const Token& tok, std::string_view kw) const {
    return tok.type == Token::kWord && !tok.quoted && tok.upper == kw;
  }
  bool Accept(std::string_view kw) {
    if (IsKeyword(Peek(), kw)) {
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
  static absl::Status Error(std::string msg) { return absl::InvalidArgumentError(msg); }
  absl::Status Expect(std::string_view kw, std::string_view where) {
    if (Accept(kw)) return absl::OkStatus();
    return Error(absl::StrCat("expected ", A(kw), " ", A(where), ", found ", Describe(Peek())));
  }

  absl::StatusOr<std::string> Name(std::string_view what) {
    const Token& tok = Peek();
    if (tok.type != Token::kWord) return Error(absl::StrCat("expected a ", A(what), ", found ", Describe(tok)));
    Next();
    return tok.text;
  }
  // [schema.]name: the last part.
  absl::StatusOr<std::string> QualifiedName(std::string_view what) {
    absl::StatusOr<std::string> n = Name(what);
    while (n.ok() && AcceptPunct(".")) n = Name(what);
    return n;
  }

  absl::StatusOr<int64_t> Number(std::string_view what) {
    const Token& tok = Peek();
    int64_t v = 0;
    if (tok.type != Token::kNumber || !absl::SimpleAtoi(tok.text, &v)) {
      return Error(absl::StrCat("expected a number for ", A(what), ", found ", Describe(tok)));
    }
    Next();
    return v;
  }

  // Skips a parenthesized group whose '(' is next (CHECK (...), sequence options).
  absl::Status SkipParens(std::string_view what) {
    if (!AcceptPunct("(")) return Error(absl::StrCat("expected '(' after ", A(what)));
    int depth = 1;
    while (depth > 0) {
      const Token& tok = Next();
      if (tok.type == Token::kEnd) return Error(absl::StrCat("unbalanced parentheses in ", A(what)));
      if (tok.type == Token::kPunct && tok.text == "(") ++depth;
      if (tok.type == Token::kPunct && tok.text == ")") --depth;
    }
    return absl::OkStatus();
  }

  // True at a word that starts a column constraint (where a DEFAULT
  // expression ends).
  bool AtConstraintKeyword() const {
    for (std::string_view kw : {"CONSTRAINT", "NOT", "NULL", "PRIMARY", "UNIQUE", "DEFAULT", "REFERENCES", "CHECK",
                                "GENERATED", "COLLATE", "DEFERRABLE", "INITIALLY"}) {
      if (IsKeyword(Peek(), kw)) return true;
    }
    return false;
  }

  // DEFAULT b_expr: a literal, NULL, a function call such as uuidv7(),
  // gen_random_uuid(), now(), nextval('s'::regclass), casts and operators.
  // Ignored: every row holds synthetic values.
  absl::Status SkipDefault(const std::string& column) {
    const Token& first = Peek();
    if (first.type == Token::kEnd || (first.type == Token::kPunct && first.text != "(" && first.text != "-" &&
                                      first.text != "+")) {
      return Error(absl::StrCat("column ", column, ": DEFAULT needs a value"));
    }
    int depth = 0;
    bool first_token = true;
    while (true) {
      const Token& tok = Peek();
      if (tok.type == Token::kEnd) break;
      if (depth == 0 && !first_token) {
        if (tok.type == Token::kPunct && (tok.text == "," || tok.text == ")")) break;
        if (AtConstraintKeyword()) break;
      }
      if (tok.type == Token::kPunct && tok.text == "(") ++depth;
      if (tok.type == Token::kPunct && tok.text == ")") {
        if (depth == 0) break;
        --depth;
      }
      if (depth == 0 && tok.type == Token::kPunct && tok.text == ";") break;
      Next();
      first_token = false;
    }
    if (depth != 0) return Error(absl::StrCat("column ", column, ": unbalanced parentheses in DEFAULT"));
    return absl::OkStatus();
  }

  // (n) after a type name.
  absl::StatusOr<std::optional<int64_t>> Typmod(const std::string& type) {
    if (!AcceptPunct("(")) return std::optional<int64_t>();
    absl::StatusOr<int64_t> n = Number(absl::StrCat(type, "'s length"));
    if (!n.ok()) return n.status();
    if (AcceptPunct(",")) return Error(absl::StrCat(type, "(m,n) is not supported"));
    if (!AcceptPunct(")")) return Error(absl::StrCat("expected ')' after ", type, "(", *n));
    return std::optional<int64_t>(*n);
  }

  // The type of column `c` (format_type's names, as pg_dump writes them).
  absl::Status Type(PendingColumn& c) {
    const Token& tok = Peek();
    const std::string name = c.col.name;
    if (tok.type != Token::kWord || tok.quoted) {
      return Error(absl::StrCat("column ", name, ": expected a type, found ", Describe(tok)));
    }
    const std::string w = tok.upper;
    Next();
    auto set = [&](PgType t, std::string shown) {
      c.col.type = t;
      c.value.type_name = std::move(shown);
    };
    auto varchar_length = [&](const std::string& shown) -> absl::Status {
      absl::StatusOr<std::optional<int64_t>> n = Typmod(shown);
      if (!n.ok()) return n.status();
      if (n->has_value()) {
        // varchar.c anychar_typmod_check: 1..MaxAttrSize (10485760).
        if (**n < 1) return Error(absl::StrCat("column ", name, ": length for type ", shown, " must be at least 1"));
        if (**n > 10485760) {
          return Error(absl::StrCat("column ", name, ": length for type ", shown, " cannot exceed 10485760"));
        }
        c.value.typmod = static_cast<int32_t>(**n);
      }
      return absl::OkStatus();
    };
    if (w == "BIGINT" || w == "INT8") {
      set(PgType::kInt8, "bigint");
    } else if (w == "INTEGER" || w == "INT" || w == "INT4") {
      set(PgType::kInt4, "integer");
    } else if (w == "SMALLINT" || w == "INT2") {
      set(PgType::kInt2, "smallint");
    } else if (w == "BIGSERIAL" || w == "SERIAL8" || w == "SERIAL" || w == "SERIAL4" || w == "SMALLSERIAL" ||
               w == "SERIAL2") {
      // parse_utilcmd.c transformColumnDefinition: serial is the integer
      // type, NOT NULL, DEFAULT nextval of a new sequence.
      const bool big = w == "BIGSERIAL" || w == "SERIAL8";
      const bool small = w == "SMALLSERIAL" || w == "SERIAL2";
      set(big ? PgType::kInt8 : small ? PgType::kInt2 : PgType::kInt4, big ? "bigint" : small ? "smallint" : "integer");
      c.value.sequence = true;
      c.col.nullable = false;
      serial_not_null_ = true;
    } else if (w == "UUID") {
      set(PgType::kUuid, "uuid");
    } else if (w == "TEXT") {
      set(PgType::kText, "text");
    } else if (w == "VARCHAR" || ((w == "CHARACTER" || w == "CHAR") && IsKeyword(Peek(), "VARYING"))) {
      Accept("VARYING");
      set(PgType::kVarchar, "character varying");
      if (absl::Status s = varchar_length("character varying"); !s.ok()) return s;
      if (c.value.typmod > 0) c.value.type_name = absl::StrCat("character varying(", c.value.typmod, ")");
    } else if (w == "CHARACTER" || w == "CHAR") {
      // bpchar: a varlena like varchar (typalign i, storage x), always
      // blank-padded to n characters; char without (n) is char(1).
      set(PgType::kVarchar, "character");
      c.char_type = true;
      if (absl::Status s = varchar_length("character"); !s.ok()) return s;
      if (c.value.typmod < 0) c.value.typmod = 1;
      c.value.type_name = absl::StrCat("character(", c.value.typmod, ")");
    } else if (w == "TIMESTAMPTZ" || w == "TIMESTAMP") {
      absl::StatusOr<std::optional<int64_t>> p = Typmod(absl::AsciiStrToLower(w));
      if (!p.ok()) return p.status();
      bool tz = w == "TIMESTAMPTZ";
      if (!tz && (IsKeyword(Peek(), "WITH") || IsKeyword(Peek(), "WITHOUT"))) {
        tz = Accept("WITH");
        if (!tz) Next();
        if (absl::Status s = Expect("TIME", "in TIMESTAMP WITH[OUT] TIME ZONE"); !s.ok()) return s;
        if (absl::Status s = Expect("ZONE", "in TIMESTAMP WITH[OUT] TIME ZONE"); !s.ok()) return s;
      }
      std::string shown = tz ? "timestamp with time zone" : "timestamp without time zone";
      if (p->has_value()) {
        if (**p < 0) return Error(absl::StrCat("column ", name, ": TIMESTAMP(", **p, ") precision must not be negative"));
        // timestamp.c anytimestamp_typmod_check: above MAX_TIMESTAMP_PRECISION
        // (6) it warns and uses 6.
        c.value.typmod = static_cast<int32_t>(std::min<int64_t>(**p, 6));
        shown = absl::StrCat(tz ? "timestamp(" : "timestamp(", c.value.typmod, tz ? ") with time zone" : ") without time zone");
      }
      set(tz ? PgType::kTimestamptz : PgType::kTimestamp, shown);
    } else if (w == "DATE") {
      set(PgType::kDate, "date");
    } else if (w == "BOOLEAN" || w == "BOOL") {
      set(PgType::kBool, "boolean");
    } else if (w == "BYTEA") {
      set(PgType::kBytea, "bytea");
    } else if (w == "REAL" || w == "FLOAT4") {
      set(PgType::kFloat4, "real");
    } else if (w == "DOUBLE") {
      if (absl::Status s = Expect("PRECISION", "after DOUBLE"); !s.ok()) return s;
      set(PgType::kFloat8, "double precision");
    } else if (w == "FLOAT8") {
      set(PgType::kFloat8, "double precision");
    } else if (w == "FLOAT") {
      // gram.y opt_float: float(1..24) is real, float(25..53) and float double precision.
      absl::StatusOr<std::optional<int64_t>> p = Typmod("float");
      if (!p.ok()) return p.status();
      if (p->has_value() && (**p < 1 || **p > 53)) {
        return Error(absl::StrCat("column ", name, ": precision for type float must be 1 to 53 bits"));
      }
      const bool real = p->has_value() && **p <= 24;
      set(real ? PgType::kFloat4 : PgType::kFloat8, real ? "real" : "double precision");
    } else {
      return Error(absl::StrCat("column ", name, ": type ", tok.text,
                                " is not supported (use bigint, integer, smallint, bigserial, serial, uuid, text, "
                                "varchar(n), char(n), timestamptz, timestamp, date, boolean, bytea, real or double "
                                "precision)"));
    }
    if (Peek().type == Token::kPunct && Peek().text == "[") {
      return Error(absl::StrCat("column ", name, ": array types are not supported"));
    }
    return absl::OkStatus();
  }

  // [WITH (fillfactor = N, deduplicate_items = on|off)] of an index.
  absl::Status IndexWith(PendingIndex& ix, const std::string& what) {
    if (!Accept("WITH")) return absl::OkStatus();
    if (!AcceptPunct("(")) return Error(absl::StrCat(what, ": expected '(' after WITH"));
    std::vector<std::string> shown;
    while (true) {
      absl::StatusOr<std::string> opt = Name(absl::StrCat(what, " storage parameter"));
      if (!opt.ok()) return opt.status();
      std::string value;
      if (AcceptPunct("=")) {
        const Token& v = Peek();
        if (v.type != Token::kWord && v.type != Token::kNumber && v.type != Token::kString) {
          return Error(absl::StrCat(what, ": ", *opt, " needs a value, found ", Describe(v)));
        }
        value = absl::AsciiStrToLower(v.text);
        Next();
      } else {
        value = "true";  // a boolean option without a value is true (reloptions.c)
      }
      if (*opt == "fillfactor") {
        int64_t ff = 0;
        if (!absl::SimpleAtoi(value, &ff) || ff < postgres::kBtreeMinFillfactor || ff > kMaxFillfactor) {
          return Error(absl::StrCat(what, ": fillfactor ", value, " is out of bounds: valid values are between \"10\" "
                                    "and \"100\""));
        }
        ix.fillfactor = static_cast<int>(ff);
        shown.push_back(absl::StrCat("fillfactor='", ff, "'"));
      } else if (*opt == "deduplicate_items") {
        // parse_bool (utils/adt/bool.c): on/off, true/false, yes/no, 1/0.
        if (value == "on" || value == "true" || value == "yes" || value == "1") {
          ix.deduplicate_items = true;
        } else if (value == "off" || value == "false" || value == "no" || value == "0") {
          ix.deduplicate_items = false;
        } else {
          return Error(absl::StrCat(what, ": invalid value for boolean option \"deduplicate_items\": ", value));
        }
        shown.push_back(absl::StrCat("deduplicate_items='", ix.deduplicate_items ? "on" : "off", "'"));
      } else {
        return Error(absl::StrCat(what, ": storage parameter ", *opt,
                                  " is not supported (btree indexes take fillfactor and deduplicate_items)"));
      }
      if (AcceptPunct(",")) continue;
      if (AcceptPunct(")")) break;
      return Error(absl::StrCat(what, ": expected ',' or ')' in WITH, found ", Describe(Peek())));
    }
    ix.with_text = absl::StrCat(" WITH (", absl::StrJoin(shown, ", "), ")");
    return absl::OkStatus();
  }

  // Index parameters of a PRIMARY KEY / UNIQUE constraint.
  absl::Status ConstraintIndexParams(PendingIndex& ix) {
    const std::string what = ix.primary ? "PRIMARY KEY" : "UNIQUE";
    while (true) {
      if (Accept("INCLUDE")) return Error(absl::StrCat(what, " ... INCLUDE is not modelled"));
      if (IsKeyword(Peek(), "WITH")) {
        if (ix.primary) {
          return Error("PRIMARY KEY ... WITH (...) is not supported: the model's primary key uses the default "
                       "fillfactor 90 and deduplication");
        }
        if (absl::Status s = IndexWith(ix, what); !s.ok()) return s;
        continue;
      }
      if (Accept("USING")) {
        if (!Accept("INDEX") || !Accept("TABLESPACE")) return Error(absl::StrCat(what, ": expected USING INDEX TABLESPACE"));
        if (absl::StatusOr<std::string> n = Name("tablespace"); !n.ok()) return n.status();
        continue;  // placement only
      }
      if (Accept("DEFERRABLE")) {
        ix.deferrable = true;
        continue;
      }
      if (IsKeyword(Peek(), "NOT") && IsKeyword(Peek(1), "DEFERRABLE")) {
        Next();
        Next();
        continue;
      }
      if (Accept("INITIALLY")) {
        if (!Accept("DEFERRED") && !Accept("IMMEDIATE")) return Error("expected DEFERRED or IMMEDIATE after INITIALLY");
        continue;
      }
      return absl::OkStatus();
    }
  }

  // UNIQUE [NULLS [NOT] DISTINCT]
  absl::Status NullsDistinct(PendingIndex& ix) {
    if (!Accept("NULLS")) return absl::OkStatus();
    ix.nulls_not_distinct = Accept("NOT");
    return Expect("DISTINCT", "after NULLS [NOT]");
  }

  // (col, ...) of a table constraint.
  absl::StatusOr<std::vector<std::string>> ColumnList(const std::string& what) {
    if (!AcceptPunct("(")) return Error(absl::StrCat("expected '(' and the columns of ", what));
    std::vector<std::string> cols;
    while (true) {
      absl::StatusOr<std::string> c = Name(absl::StrCat("column of ", what));
      if (!c.ok()) return c.status();
      cols.push_back(*c);
      if (AcceptPunct(",")) continue;
      if (AcceptPunct(")")) break;
      return Error(absl::StrCat(what, ": expected ',' or ')', found ", Describe(Peek())));
    }
    return cols;
  }

  // REFERENCES t [(col)] [MATCH ...] [ON DELETE|UPDATE action]... Returns "t(col)".
  absl::StatusOr<std::string> References() {
    absl::StatusOr<std::string> t = QualifiedName("referenced table");
    if (!t.ok()) return t.status();
    std::string target = *t;
    if (Peek().type == Token::kPunct && Peek().text == "(") {
      absl::StatusOr<std::vector<std::string>> cols = ColumnList(absl::StrCat("REFERENCES ", *t));
      if (!cols.ok()) return cols.status();
      target = absl::StrCat(*t, "(", absl::StrJoin(*cols, ", "), ")");
    }
    while (true) {
      if (Accept("MATCH")) {
        if (!Accept("FULL") && !Accept("PARTIAL") && !Accept("SIMPLE")) return Error("expected FULL, PARTIAL or SIMPLE after MATCH");
        continue;
      }
      if (IsKeyword(Peek(), "ON") && (IsKeyword(Peek(1), "DELETE") || IsKeyword(Peek(1), "UPDATE"))) {
        Next();
        Next();
        if (Accept("NO")) {
          if (absl::Status s = Expect("ACTION", "after ON DELETE/UPDATE NO"); !s.ok()) return s;
        } else if (Accept("RESTRICT") || Accept("CASCADE")) {
        } else if (Accept("SET")) {
          if (!Accept("NULL") && !Accept("DEFAULT")) return Error("expected NULL or DEFAULT after ON DELETE/UPDATE SET");
          if (Peek().type == Token::kPunct && Peek().text == "(") {
            if (absl::Status s = SkipParens("SET NULL/DEFAULT"); !s.ok()) return s;
          }
        } else {
          return Error(absl::StrCat("unknown referential action ", Describe(Peek())));
        }
        continue;
      }
      if (Accept("DEFERRABLE")) continue;
      if (IsKeyword(Peek(), "NOT") && IsKeyword(Peek(1), "DEFERRABLE")) {
        Next();
        Next();
        continue;
      }
      if (Accept("INITIALLY")) {
        if (!Accept("DEFERRED") && !Accept("IMMEDIATE")) return Error("expected DEFERRED or IMMEDIATE after INITIALLY");
        continue;
      }
      if (IsKeyword(Peek(), "NOT") && IsKeyword(Peek(1), "VALID")) {
        Next();
        Next();
        continue;
      }
      return target;
    }
  }

  absl::Status PrimaryKeyGiven(const std::string& name) {
    if (have_pk_) return Error(absl::StrCat("multiple primary keys for table \"", table_, "\" are not allowed"));
    have_pk_ = true;
    (void)name;
    return absl::OkStatus();
  }

  absl::Status CreateTable() {
    if (!Accept("CREATE")) return Error("the statement must start with CREATE TABLE");
    if (IsKeyword(Peek(), "TEMPORARY") || IsKeyword(Peek(), "TEMP") || IsKeyword(Peek(), "UNLOGGED") ||
        IsKeyword(Peek(), "GLOBAL") || IsKeyword(Peek(), "LOCAL")) {
      return Error(absl::StrCat("CREATE ", Peek().upper, " TABLE is not supported: write CREATE TABLE"));
    }
    if (!Accept("TABLE")) return Error(absl::StrCat("the statement must start with CREATE TABLE, found ", Describe(Peek())));
    if (Accept("IF")) {
      if (!Accept("NOT") || !Accept("EXISTS")) return Error("write IF NOT EXISTS");
    }
    absl::StatusOr<std::string> name = QualifiedName("table name");
    if (!name.ok()) return name.status();
    table_ = *name;
    if (!AcceptPunct("(")) {
      for (std::string_view kw : {"AS", "OF", "PARTITION"}) {
        if (IsKeyword(Peek(), kw)) return Error(absl::StrCat("CREATE TABLE ... ", A(kw), " is not supported: write the column list"));
      }
      return Error(absl::StrCat("expected '(' after the table name, found ", Describe(Peek())));
    }
    if (!AcceptPunct(")")) {
      while (true) {
        if (absl::Status s = Element(); !s.ok()) return s;
        if (AcceptPunct(",")) continue;
        if (AcceptPunct(")")) break;
        return Error(absl::StrCat("expected ',' or ')' in the column list, found ", Describe(Peek())));
      }
    }
    return TableOptionsClause();
  }

  absl::Status TableOptionsClause() {
    while (true) {
      const Token& tok = Peek();
      if (tok.type == Token::kEnd || (tok.type == Token::kPunct && tok.text == ";")) return absl::OkStatus();
      if (Accept("WITH")) {
        if (!AcceptPunct("(")) return Error("expected '(' after WITH");
        while (true) {
          absl::StatusOr<std::string> opt = Name("table storage parameter");
          if (!opt.ok()) return opt.status();
          std::string value = "true";
          if (AcceptPunct("=")) {
            const Token& v = Peek();
            if (v.type != Token::kWord && v.type != Token::kNumber && v.type != Token::kString) {
              return Error(absl::StrCat("table option ", *opt, " needs a value, found ", Describe(v)));
            }
            value = v.text;
            Next();
          }
          if (*opt == "fillfactor") {
            int64_t ff = 0;
            if (!absl::SimpleAtoi(value, &ff) || ff < postgres::kHeapMinFillfactor || ff > kMaxFillfactor) {
              return Error(absl::StrCat("table fillfactor ", value,
                                        " is out of bounds: valid values are between \"10\" and \"100\""));
            }
            fillfactor_ = static_cast<int>(ff);
          } else if (absl::StartsWith(*opt, "autovacuum_")) {
            // Vacuum settings: the model does no vacuum in an insert-only load.
          } else {
            return Error(absl::StrCat("table storage parameter ", *opt,
                                      " is not supported (fillfactor and autovacuum_* are)"));
          }
          if (AcceptPunct(",")) continue;
          if (AcceptPunct(")")) break;
          return Error(absl::StrCat("expected ',' or ')' in WITH, found ", Describe(Peek())));
        }
        continue;
      }
      if (IsKeyword(tok, "WITHOUT") && IsKeyword(Peek(1), "OIDS")) {
        Next();
        Next();
        continue;
      }
      if (Accept("USING")) {
        if (!Accept("HEAP")) return Error("only the heap table access method is modelled (USING heap)");
        continue;
      }
      if (Accept("TABLESPACE")) {
        if (absl::StatusOr<std::string> n = Name("tablespace"); !n.ok()) return n.status();
        continue;
      }
      return Error(absl::StrCat("after the column list: ", Describe(tok),
                                " is not supported (WITH (fillfactor = N) is)"));
    }
  }

  absl::Status Element() {
    std::string conname;
    if (Accept("CONSTRAINT")) {
      absl::StatusOr<std::string> n = Name("constraint name");
      if (!n.ok()) return n.status();
      conname = *n;
    }
    if (IsKeyword(Peek(), "PRIMARY") || IsKeyword(Peek(), "UNIQUE")) {
      PendingIndex ix;
      ix.primary = Accept("PRIMARY");
      if (ix.primary) {
        if (absl::Status s = Expect("KEY", "after PRIMARY"); !s.ok()) return s;
      } else {
        Next();
        if (absl::Status s = NullsDistinct(ix); !s.ok()) return s;
      }
      ix.unique = true;
      ix.constraint = true;
      ix.name = conname;
      absl::StatusOr<std::vector<std::string>> cols = ColumnList(ix.primary ? "PRIMARY KEY" : "UNIQUE");
      if (!cols.ok()) return cols.status();
      ix.columns = *cols;
      if (absl::Status s = ConstraintIndexParams(ix); !s.ok()) return s;
      if (ix.primary) {
        if (absl::Status s = PrimaryKeyGiven(conname); !s.ok()) return s;
      }
      constraints_.push_back(std::move(ix));
      return absl::OkStatus();
    }
    if (Accept("FOREIGN")) {
      if (absl::Status s = Expect("KEY", "after FOREIGN"); !s.ok()) return s;
      absl::StatusOr<std::vector<std::string>> cols = ColumnList("FOREIGN KEY");
      if (!cols.ok()) return cols.status();
      if (absl::Status s = Expect("REFERENCES", "after FOREIGN KEY (...)"); !s.ok()) return s;
      absl::StatusOr<std::string> target = References();
      if (!target.ok()) return target.status();
      // No index: PostgreSQL creates none for the referencing columns.
      foreign_keys_.push_back({*cols, *target});
      return absl::OkStatus();
    }
    if (Accept("CHECK")) {
      if (absl::Status s = SkipParens("CHECK"); !s.ok()) return s;
      if (IsKeyword(Peek(), "NO") && IsKeyword(Peek(1), "INHERIT")) {
        Next();
        Next();
      }
      return absl::OkStatus();
    }
    for (std::string_view kw : {"EXCLUDE", "LIKE"}) {
      if (IsKeyword(Peek(), kw)) {
        return Error(absl::StrCat(A(kw), " is not supported (PRIMARY KEY, UNIQUE, FOREIGN KEY and CHECK are)"));
      }
    }
    if (!conname.empty()) return Error(absl::StrCat("CONSTRAINT ", conname, ": expected PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK"));
    return Column();
  }

  absl::Status Column() {
    absl::StatusOr<std::string> name = Name("column name");
    if (!name.ok()) return name.status();
    PendingColumn c;
    c.col.name = *name;
    c.col.nullable = true;
    serial_not_null_ = false;
    if (absl::Status s = Type(c); !s.ok()) return s;
    std::string conname;
    while (true) {
      const Token& tok = Peek();
      if (tok.type == Token::kEnd || (tok.type == Token::kPunct && (tok.text == "," || tok.text == ")"))) break;
      if (Accept("CONSTRAINT")) {
        absl::StatusOr<std::string> n = Name("constraint name");
        if (!n.ok()) return n.status();
        conname = *n;
        continue;
      }
      if (IsKeyword(tok, "NOT") && IsKeyword(Peek(1), "DEFERRABLE")) {
        Next();
        Next();
      } else if (Accept("NOT")) {
        if (!Accept("NULL")) return Error(absl::StrCat("column ", *name, ": expected NULL after NOT"));
        c.col.nullable = false;
      } else if (Accept("NULL")) {
        if (serial_not_null_ || !c.identity.empty()) {
          return Error(absl::StrCat("column ", *name, ": conflicting NULL/NOT NULL declarations"));
        }
        c.col.nullable = true;
      } else if (IsKeyword(tok, "PRIMARY") || IsKeyword(tok, "UNIQUE")) {
        PendingIndex ix;
        ix.primary = Accept("PRIMARY");
        if (ix.primary) {
          if (absl::Status s = Expect("KEY", absl::StrCat("after PRIMARY in column ", *name)); !s.ok()) return s;
        } else {
          Next();
          if (absl::Status s = NullsDistinct(ix); !s.ok()) return s;
        }
        ix.unique = true;
        ix.constraint = true;
        ix.name = conname;
        ix.columns = {*name};
        if (absl::Status s = ConstraintIndexParams(ix); !s.ok()) return s;
        if (ix.primary) {
          if (absl::Status s = PrimaryKeyGiven(conname); !s.ok()) return s;
        }
        constraints_.push_back(std::move(ix));
      } else if (Accept("DEFAULT")) {
        if (absl::Status s = SkipDefault(*name); !s.ok()) return s;
      } else if (Accept("GENERATED")) {
        std::string kind;
        if (Accept("ALWAYS")) {
          kind = "ALWAYS";
        } else if (Accept("BY")) {
          if (absl::Status s = Expect("DEFAULT", "after GENERATED BY"); !s.ok()) return s;
          kind = "BY DEFAULT";
        } else {
          return Error(absl::StrCat("column ", *name, ": expected ALWAYS or BY DEFAULT after GENERATED"));
        }
        if (absl::Status s = Expect("AS", "after GENERATED ALWAYS/BY DEFAULT"); !s.ok()) return s;
        if (!Accept("IDENTITY")) {
          return Error(absl::StrCat("column ", *name, ": generated columns (GENERATED ALWAYS AS (expr)) are not "
                                    "supported; GENERATED ... AS IDENTITY is"));
        }
        // parse_utilcmd.c transformColumnDefinition: identity columns are
        // smallint, integer or bigint, NOT NULL, filled by a sequence.
        if (c.col.type != PgType::kInt2 && c.col.type != PgType::kInt4 && c.col.type != PgType::kInt8) {
          return Error(absl::StrCat("column ", *name, ": identity column type must be smallint, integer, or bigint"));
        }
        if (c.value.sequence) return Error(absl::StrCat("column ", *name, ": both serial and identity specified"));
        if (Peek().type == Token::kPunct && Peek().text == "(") {
          if (absl::Status s = SkipParens("identity sequence options"); !s.ok()) return s;
        }
        c.identity = kind;
        c.value.sequence = true;
        c.col.nullable = false;
      } else if (Accept("REFERENCES")) {
        absl::StatusOr<std::string> target = References();
        if (!target.ok()) return target.status();
        c.value.references = *target;
      } else if (Accept("CHECK")) {
        if (absl::Status s = SkipParens("CHECK"); !s.ok()) return s;
        if (IsKeyword(Peek(), "NO") && IsKeyword(Peek(1), "INHERIT")) {
          Next();
          Next();
        }
      } else if (Accept("COLLATE")) {
        // A deterministic collation (the only kind a CREATE TABLE alone can
        // name): the model compares text bytewise, which is the order of
        // the workload's values under any of them.
        if (absl::StatusOr<std::string> n = QualifiedName("collation"); !n.ok()) return n.status();
      } else if (Accept("DEFERRABLE")) {
      } else if (Accept("INITIALLY")) {
        if (!Accept("DEFERRED") && !Accept("IMMEDIATE")) return Error("expected DEFERRED or IMMEDIATE after INITIALLY");
      } else {
        return Error(absl::StrCat("column ", *name, ": ", Describe(tok), " is not supported"));
      }
      conname.clear();
    }
    columns_.push_back(std::move(c));
    return absl::OkStatus();
  }

  absl::Status CreateIndex() {
    if (!Accept("CREATE")) {
      return Error(absl::StrCat("after CREATE TABLE only CREATE INDEX statements are supported, found ", Describe(Peek())));
    }
    if (IsKeyword(Peek(), "TABLE")) {
      return Error("only one CREATE TABLE is supported: load the parent and child tables as separate runs");
    }
    PendingIndex ix;
    ix.unique = Accept("UNIQUE");
    if (!Accept("INDEX")) return Error(absl::StrCat("after CREATE TABLE only CREATE [UNIQUE] INDEX is supported, found ",
                                                    Describe(Peek())));
    Accept("CONCURRENTLY");  // the same index, built without blocking writes
    if (Accept("IF")) {
      if (!Accept("NOT") || !Accept("EXISTS")) return Error("write CREATE INDEX IF NOT EXISTS name");
      ix.if_not_exists = true;
    }
    if (!IsKeyword(Peek(), "ON")) {
      absl::StatusOr<std::string> n = Name("index name");
      if (!n.ok()) return n.status();
      ix.name = *n;
    } else if (ix.if_not_exists) {
      return Error("IF NOT EXISTS requires that you name the index");
    }
    if (absl::Status s = Expect("ON", "after CREATE INDEX [name]"); !s.ok()) return s;
    if (Accept("ONLY")) return Error("CREATE INDEX ... ON ONLY is for partitioned tables, which are not supported");
    absl::StatusOr<std::string> table = QualifiedName("table name");
    if (!table.ok()) return table.status();
    if (*table != table_) {
      return Error(absl::StrCat("CREATE INDEX on table ", *table, ", but the statement creates table ", table_));
    }
    const std::string what = absl::StrCat("index ", ix.name.empty() ? "on " + table_ : ix.name);
    if (Accept("USING")) {
      absl::StatusOr<std::string> am = Name("access method");
      if (!am.ok()) return am.status();
      if (*am != "btree") return Error(absl::StrCat(what, ": USING ", *am, " is not modelled (only btree)"));
    }
    if (!AcceptPunct("(")) return Error(absl::StrCat(what, ": expected '(' and the columns, found ", Describe(Peek())));
    while (true) {
      if (Peek().type == Token::kPunct && Peek().text == "(") {
        return Error(absl::StrCat(what, ": expression indexes are not supported"));
      }
      absl::StatusOr<std::string> c = Name(absl::StrCat("column of ", what));
      if (!c.ok()) return c.status();
      if (Peek().type == Token::kPunct && Peek().text == "(") {
        return Error(absl::StrCat(what, ": expression indexes such as ", *c, "(...) are not supported"));
      }
      if (Accept("COLLATE")) {
        if (absl::StatusOr<std::string> n = QualifiedName("collation"); !n.ok()) return n.status();
      }
      if (Accept("DESC")) return Error(absl::StrCat(what, ": DESC index columns are not supported"));
      Accept("ASC");
      if (Accept("NULLS")) {
        if (!Accept("LAST")) return Error(absl::StrCat(what, ": NULLS FIRST is not supported (NULLS LAST is the default)"));
      }
      if (Peek().type == Token::kWord) {
        return Error(absl::StrCat(what, ": operator class ", Peek().text, " is not supported (the default is used)"));
      }
      ix.columns.push_back(*c);
      if (AcceptPunct(",")) continue;
      if (AcceptPunct(")")) break;
      return Error(absl::StrCat(what, ": expected ',' or ')', found ", Describe(Peek())));
    }
    while (true) {
      if (Accept("INCLUDE")) return Error(absl::StrCat(what, ": INCLUDE columns are not modelled"));
      if (IsKeyword(Peek(), "NULLS")) {
        if (absl::Status s = NullsDistinct(ix); !s.ok()) return s;
        continue;
      }
      if (IsKeyword(Peek(), "WITH")) {
        if (absl::Status s = IndexWith(ix, what); !s.ok()) return s;
        continue;
      }
      if (Accept("TABLESPACE")) {
        if (absl::StatusOr<std::string> n = Name("tablespace"); !n.ok()) return n.status();
        continue;
      }
      if (Accept("WHERE")) return Error(absl::StrCat(what, ": partial indexes (WHERE) are not modelled"));
      break;
    }
    if (Peek().type != Token::kEnd && !(Peek().type == Token::kPunct && Peek().text == ";")) {
      return Error(absl::StrCat(what, ": ", Describe(Peek()), " is not supported"));
    }
    statements_.push_back(std::move(ix));
    return absl::OkStatus();
  }

  absl::StatusOr<size_t> ColumnIndex(const std::string& name, bool constraint) const {
    for (size_t i = 0; i < columns_.size(); ++i) {
      if (columns_[i].col.name == name) return i;
    }
    return Error(constraint ? absl::StrCat("column \"", name, "\" named in key does not exist")
                            : absl::StrCat("column \"", name, "\" does not exist"));
  }

  // indexcmds.c ChooseRelationName: makeObjectName, then label1, label2, ...
  // until no relation of the schema has the name.
  std::string ChooseRelationName(std::string_view name1, std::optional<std::string_view> name2, std::string_view label) {
    std::string name = MakeObjectName(name1, name2, label);
    for (int pass = 1; relations_.count(name) != 0; ++pass) {
      name = MakeObjectName(name1, name2, absl::StrCat(A(label), pass));
    }
    return name;
  }

  absl::StatusOr<PgSchema> Finish() {
    if (columns_.empty()) return Error("the table has no columns");
    if (columns_.size() > kMaxColumns) {
      return Error(absl::StrCat("the table has ", columns_.size(), " columns: the model handles up to ", kMaxColumns));
    }
    for (size_t i = 0; i < columns_.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (columns_[i].col.name == columns_[j].col.name) {
          return Error(absl::StrCat("column \"", columns_[i].col.name, "\" specified more than once"));
        }
      }
    }
    PgSchema out;
    out.spec.name = table_;
    out.spec.fillfactor = fillfactor_;
    // Stored lengths.
    if (options_.payload_bytes > static_cast<uint32_t>(kToastTupleThreshold)) {
      return Error(absl::StrCat("--payload-bytes ", options_.payload_bytes, " is over TOAST_TUPLE_THRESHOLD (",
                                kToastTupleThreshold, "): PostgreSQL would compress or TOAST such values, which the "
                                "model does not; give at most ", kToastTupleThreshold));
    }
    for (PendingColumn& c : columns_) {
      const bool varlena = postgres::TypeInfo(c.col.type).typlen < 0;
      if (!varlena) continue;
      const uint32_t n = c.value.typmod > 0 ? static_cast<uint32_t>(c.value.typmod) : 0;
      if (options_.payload_given && n > 0 && options_.payload_bytes > n) {
        return Error(absl::StrCat("--payload-bytes ", options_.payload_bytes, " does not fit column ", c.col.name, " ",
                                  c.value.type_name, ": the server refuses the row (value too long for type ",
                                  c.char_type ? "character" : "character varying", "(", n, ")); give at most ", n));
      }
      // char(n) is blank-padded to n (bpchar.c bpchar); varchar(n) and text
      // hold the payload, cut to n when the user did not choose it.
      if (c.char_type && n > static_cast<uint32_t>(kToastTupleThreshold)) {
        return Error(absl::StrCat("column ", c.col.name, " ", c.value.type_name, " is over TOAST_TUPLE_THRESHOLD (",
                                  kToastTupleThreshold, "), which the model does not handle (TOAST)"));
      }
      c.value.value_bytes = n > 0 ? std::min(options_.payload_bytes, n) : options_.payload_bytes;
      c.value.blank_padded = c.char_type;
      c.col.varlena_bytes = static_cast<int>(c.char_type ? n : c.value.value_bytes);
    }
    // heap_form_tuple's length of a row without nulls (heaptuple.c
    // heap_compute_data_size; MAXALIGNed header): over the TOAST threshold
    // heap_insert would compress or move values out of line.
    int64_t len = 0;
    for (const PendingColumn& c : columns_) {
      len = postgres::AddAttribute(static_cast<int>(len), c.col.type, c.col.varlena_bytes);
      if (len > kToastTupleThreshold) break;  // 64 columns of at most 2032 bytes: no overflow
    }
    len += postgres::MaxAlign(postgres::kSizeofHeapTupleHeader);
    if (len > kToastTupleThreshold) {
      return Error(absl::StrCat("a row takes ", len, " bytes, over TOAST_TUPLE_THRESHOLD (", kToastTupleThreshold,
                                "): PostgreSQL would compress or TOAST it, which the model does not; give a smaller "
                                "--payload-bytes"));
    }
    // The schema's relations: the serial / identity sequences (chosen at
    // transform time: transformColumnDefinition -> generateSerialExtraStmts,
    // ChooseRelationName(table, column, "seq")), then the table.
    for (const PendingColumn& c : columns_) {
      if (c.value.sequence) relations_.insert(ChooseRelationName(table_, c.col.name, "seq"));
    }
    relations_.insert(table_);
    // parse_utilcmd.c transformIndexConstraints: the primary key first, then
    // the other constraints in order, dropping one whose columns repeat an
    // earlier one (its name, if it had one and the earlier did not, goes to
    // the earlier).
    std::vector<PendingIndex> indexes;
    for (const PendingIndex& ix : constraints_) {
      if (ix.primary) indexes.push_back(ix);
    }
    for (const PendingIndex& ix : constraints_) {
      if (ix.primary) continue;
      bool keep = true;
      for (PendingIndex& prior : indexes) {
        if (prior.columns == ix.columns && prior.nulls_not_distinct == ix.nulls_not_distinct &&
            prior.deferrable == ix.deferrable) {
          if (prior.name.empty()) prior.name = ix.name;
          keep = false;
          break;
        }
      }
      if (keep) indexes.push_back(ix);
    }
    for (const PendingIndex& ix : statements_) indexes.push_back(ix);

    std::vector<std::string> index_sql;
    std::vector<std::string> constraint_sql;
    for (PendingIndex& ix : indexes) {
      const std::string label = ix.primary ? "PRIMARY KEY" : ix.constraint ? "UNIQUE" : "index";
      std::vector<size_t> cols;
      for (size_t k = 0; k < ix.columns.size(); ++k) {
        for (size_t j = 0; j < k; ++j) {
          if (ix.constraint && ix.columns[j] == ix.columns[k]) {
            return Error(absl::StrCat("column \"", ix.columns[k], "\" appears twice in ",
                                      ix.primary ? "primary key" : "unique", " constraint"));
          }
        }
        absl::StatusOr<size_t> c = ColumnIndex(ix.columns[k], ix.constraint);
        if (!c.ok()) return c.status();
        cols.push_back(*c);
      }
      if (cols.size() > kMaxKeyColumns) {
        return Error(absl::StrCat(label, " (", absl::StrJoin(ix.columns, ", "), ") has ", cols.size(),
                                  " key columns: the model handles up to ", kMaxKeyColumns));
      }
      // indexcmds.c ChooseIndexName.
      std::string name = ix.name;
      if (name.empty()) {
        if (ix.primary) {
          name = ChooseRelationName(table_, std::nullopt, "pkey");
        } else {
          name = ChooseRelationName(table_, IndexNameAddition(ix.columns), ix.constraint ? "key" : "idx");
        }
      } else if (relations_.count(name) != 0) {
        if (ix.if_not_exists) continue;  // NOTICE: relation already exists, skipping
        return Error(absl::StrCat("relation \"", name, "\" already exists: give the index another name"));
      }
      relations_.insert(name);
      // table.cc MakeIndexDesc: a fixed-length column takes its typlen in the
      // Key, a varlena its payload; all of it must fit a Key.
      int key_bytes = 0;
      for (size_t c : cols) {
        const PgColumn& col = columns_[c].col;
        const int typlen = postgres::TypeInfo(col.type).typlen;
        key_bytes += typlen > 0 ? typlen : col.varlena_bytes;
      }
      if (key_bytes > static_cast<int>(Key::kMaxBytes)) {
        return Error(absl::StrCat(label, " ", name, " (", absl::StrJoin(ix.columns, ", "), "): its key takes ",
                                  key_bytes, " bytes, the model holds up to ", Key::kMaxBytes,
                                  " (text and varchar count their payload: lower --payload-bytes or index fewer "
                                  "columns)"));
      }
      const std::string collist = absl::StrJoin(ix.columns, ", ");
      if (ix.primary) {
        for (size_t c : cols) columns_[c].col.nullable = false;  // a primary key column is NOT NULL
        out.spec.primary_key = cols;
        out.pk_name = name;
        out.pk_key_bytes = static_cast<uint32_t>(key_bytes);
        constraint_sql.push_back(absl::StrCat("CONSTRAINT ", name, " PRIMARY KEY (", collist, ")"));
        continue;
      }
      PgIndexSpec spec;
      spec.name = name;
      spec.columns = cols;
      spec.unique = ix.unique;
      spec.fillfactor = ix.fillfactor;
      spec.deduplicate_items = ix.deduplicate_items;
      out.spec.secondary.push_back(spec);
      const std::string nulls = ix.nulls_not_distinct ? " NULLS NOT DISTINCT" : "";
      if (ix.constraint) {
        constraint_sql.push_back(absl::StrCat("CONSTRAINT ", name, " UNIQUE", nulls, " (", collist, ")", ix.with_text));
      } else {
        index_sql.push_back(absl::StrCat("CREATE ", ix.unique ? "UNIQUE " : "", "INDEX ", name, " ON ", table_,
                                         " USING btree (", collist, ")", nulls, ix.with_text));
      }
    }
    // The normalized statements.
    std::vector<std::string> elems;
    for (const PendingColumn& c : columns_) {
      std::string e = absl::StrCat(c.col.name, " ", c.value.type_name);
      if (!c.identity.empty()) absl::StrAppend(&e, " GENERATED ", c.identity, " AS IDENTITY");
      if (!c.col.nullable) absl::StrAppend(&e, " NOT NULL");
      if (c.value.sequence && c.identity.empty()) absl::StrAppend(&e, " DEFAULT nextval(...)");
      if (!c.value.references.empty()) absl::StrAppend(&e, " REFERENCES ", c.value.references);
      elems.push_back(std::move(e));
      out.spec.columns.push_back(c.col);
      out.values.push_back(c.value);
    }
    for (std::string& s : constraint_sql) elems.push_back(std::move(s));
    for (const auto& [cols, target] : foreign_keys_) {
      for (const std::string& col : cols) {
        if (absl::StatusOr<size_t> c = ColumnIndex(col, true); !c.ok()) return c.status();
      }
      elems.push_back(absl::StrCat("FOREIGN KEY (", absl::StrJoin(cols, ", "), ") REFERENCES ", target));
    }
    out.sql = absl::StrCat("CREATE TABLE ", table_, " (", absl::StrJoin(elems, ", "), ")",
                           fillfactor_ != postgres::kHeapDefaultFillfactor
                               ? absl::StrCat(" WITH (fillfactor='", fillfactor_, "')")
                               : "");
    for (const std::string& s : index_sql) absl::StrAppend(&out.sql, "; ", s);
    return out;
  }

  std::vector<Token> t_;
  size_t pos_ = 0;
  PgTableOptions options_;
  std::string table_;
  int fillfactor_ = postgres::kHeapDefaultFillfactor;
  bool have_pk_ = false;
  bool serial_not_null_ = false;  // the column being parsed is serial
  std::vector<PendingColumn> columns_;
  std::vector<PendingIndex> constraints_;  // PRIMARY KEY / UNIQUE of CREATE TABLE, in order
  std::vector<PendingIndex> statements_;   // CREATE INDEX, in order
  std::vector<std::pair<std::vector<std::string>, std::string>> foreign_keys_;
  std::set<std::string> relations_;  // names taken in the schema
};

// The type a stream of `width`-byte keys fills, for messages.
std::string PgTypeForWidth(int width) {
  switch (width) {
    case 16:
      return "uuid";
    case 8:
      return "bigint";
    case 4:
      return "integer";
    case 2:
      return "smallint";
  }
  return "";
}

}  // namespace

absl::StatusOr<PgSchema> ParsePgTable(std::string_view sql, const PgTableOptions& options) {
  absl::StatusOr<std::vector<Token>> tokens = Tokenize(sql);
  if (!tokens.ok()) return tokens.status();
  Parser p(std::move(*tokens), options);
  return p.Parse();
}

std::string PgSeed000TableSql(int key_width) {
  return absl::StrCat("CREATE TABLE t (id ", key_width == 16 ? "uuid" : "bigint", " PRIMARY KEY)");
}

absl::StatusOr<PgSchema> ResolvePgTable(std::string_view arg, int key_width, const PgTableOptions& options) {
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(A(arg)));
  std::string sql;
  if (lower.empty() || lower == "seed000") {
    if (key_width != 8 && key_width != 16) {
      const std::string type = PgTypeForWidth(key_width);
      return absl::InvalidArgumentError(absl::StrCat(
          "--table seed000 has a bigint or uuid key but the stream gives ", key_width, "-byte keys: give --table ",
          type.empty() ? "'CREATE TABLE ...'" : absl::StrCat("'CREATE TABLE t (id ", type, " PRIMARY KEY)'")));
    }
    sql = PgSeed000TableSql(key_width);
  } else if (absl::StartsWith(lower, "create")) {
    sql = std::string(arg);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--table '", A(arg), "': use seed000 or CREATE TABLE / CREATE INDEX statements in quotes"));
  }
  absl::StatusOr<PgSchema> s = ParsePgTable(sql, options);
  if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("--table: ", s.status().message()));
  const std::string want = PgTypeForWidth(key_width);
  const std::string give = want.empty() ? "a table whose primary key has a stream's width"
                                        : absl::StrCat("id ", want, " PRIMARY KEY");
  if (s->spec.primary_key.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--table: the table needs a one-column PRIMARY KEY that holds the stream's ", key_width, "-byte keys (",
        s->spec.primary_key.empty() ? "it has none" : absl::StrCat("it has ", s->spec.primary_key.size(), " columns"),
        "): give ", give));
  }
  const PgColumn& pk = s->spec.columns[s->spec.primary_key[0]];
  const PgType t = pk.type;
  const bool keyable = t == PgType::kInt8 || t == PgType::kInt4 || t == PgType::kInt2 || t == PgType::kUuid;
  if (!keyable || static_cast<int>(s->pk_key_bytes) != key_width) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--table: primary key ", pk.name, " is ", s->values[s->spec.primary_key[0]].type_name,
        keyable ? absl::StrCat(" (", s->pk_key_bytes, " bytes)") : "", " but the stream gives ", key_width,
        "-byte keys: ", want.empty() ? "use a 16-, 8-, 4- or 2-byte stream" : absl::StrCat("use ", want, " for this stream")));
  }
  return s;
}

}  // namespace innosim
