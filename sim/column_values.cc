#include "sim/column_values.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sim/key_stream.h"
#include "sim/nearest_name.h"

namespace innosim {
namespace {

constexpr char kSources[] = "time, time:ROWS_PER_SEC, key-time, rownum, const, random, pk or stream:NAME[@SEED]";

bool IsTemporal(ColumnKind k) { return k == ColumnKind::kDatetime || k == ColumnKind::kTimestamp; }

// "BINARY(16) column 'x'" for messages.
std::string Describe(const TableSchema& schema, uint32_t c) {
  return absl::StrCat(schema.def.columns[c].type, " column '", schema.def.columns[c].name, "'");
}

absl::Status Refuse(const TableSchema& schema, uint32_t c, const ColumnSource& s, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("--column ", s.column, "=", ColumnSourceText(s), ": the ",
                                                 Describe(schema, c), " cannot hold it: ", why));
}

}  // namespace

absl::StatusOr<ColumnSource> ParseColumnSource(absl::string_view text) {
  const size_t eq = text.find('=');
  if (eq == absl::string_view::npos || eq == 0 || eq + 1 == text.size()) {
    return absl::InvalidArgumentError(absl::StrCat("--column '", text, "': write NAME=SOURCE with SOURCE one of ",
                                                   kSources, " (e.g. --column created_at=time:1000)"));
  }
  ColumnSource c;
  c.column = std::string(absl::StripAsciiWhitespace(text.substr(0, eq)));
  const absl::string_view src = absl::StripAsciiWhitespace(text.substr(eq + 1));
  if (src == "time") {
    c.source = ValueSource::kRowTime;
  } else if (absl::StartsWith(src, "time:")) {
    c.source = ValueSource::kRowTime;
    double r = 0;
    if (!absl::SimpleAtod(src.substr(5), &r) || !(r > 0) || !std::isfinite(r)) {
      return absl::InvalidArgumentError(absl::StrCat("--column ", c.column, "=", src,
                                                     ": the rate after time: must be a positive number of rows "
                                                     "per second (e.g. time:1000)"));
    }
    c.rows_per_sec = r;
  } else if (src == "key-time") {
    c.source = ValueSource::kKeyTime;
  } else if (src == "rownum") {
    c.source = ValueSource::kRowNumber;
  } else if (src == "const") {
    c.source = ValueSource::kConstant;
  } else if (src == "random") {
    c.source = ValueSource::kRandom;
  } else if (src == "pk") {
    c.source = ValueSource::kPrimaryKey;
  } else if (absl::StartsWith(src, "stream:")) {
    c.source = ValueSource::kStream;
    absl::string_view name = src.substr(7);
    if (const size_t at = name.find('@'); at != absl::string_view::npos) {
      if (!absl::SimpleAtoi(name.substr(at + 1), &c.seed) || name.substr(at + 1).find('-') != absl::string_view::npos) {
        return absl::InvalidArgumentError(absl::StrCat("--column ", c.column, "=", src,
                                                       ": the seed after @ must be a whole number (e.g. "
                                                       "stream:uuidv7-counter@2)"));
      }
      name = name.substr(0, at);
    }
    c.stream = std::string(name);
    const std::vector<std::string>& names = GeneratorStreamNames();
    if (std::find(names.begin(), names.end(), c.stream) == names.end()) {
      return absl::InvalidArgumentError(absl::StrCat("--column ", c.column, "=", src, ": unknown stream '", c.stream,
                                                     "'", DidYouMean(c.stream, names), ": use ",
                                                     absl::StrJoin(names, ", ")));
    }
  } else {
    static const std::vector<std::string> kWords = {"time", "key-time", "rownum", "const", "random", "pk", "stream:"};
    return absl::InvalidArgumentError(absl::StrCat("--column ", c.column, "=", src, ": unknown source",
                                                   DidYouMean(std::string(src), kWords), ": use ", kSources));
  }
  return c;
}

std::string ColumnSourceText(const ColumnSource& c) {
  switch (c.source) {
    case ValueSource::kDefault:
      return "default";
    case ValueSource::kRowTime:
      return c.rows_per_sec > 0 ? absl::StrCat("time:", c.rows_per_sec) : "time";
    case ValueSource::kKeyTime:
      return "key-time";
    case ValueSource::kRowNumber:
      return "rownum";
    case ValueSource::kConstant:
      return "const";
    case ValueSource::kRandom:
      return "random";
    case ValueSource::kPrimaryKey:
      return "pk";
    case ValueSource::kStream:
      return c.seed == 1 ? absl::StrCat("stream:", c.stream) : absl::StrCat("stream:", c.stream, "@", c.seed);
  }
  return "default";
}

absl::Status CheckColumnSources(const TableSchema& schema, const std::vector<ColumnSource>& sources) {
  std::vector<std::string> names;
  for (const ColumnDef& d : schema.def.columns) names.push_back(d.name);
  const uint32_t pk = schema.def.primary.columns[0];
  std::vector<bool> seen(names.size(), false);
  for (const ColumnSource& s : sources) {
    uint32_t c = 0;
    while (c < names.size() && !absl::EqualsIgnoreCase(names[c], s.column)) ++c;
    if (c == names.size()) {
      return absl::InvalidArgumentError(absl::StrCat("--column ", s.column, ": the table has no such column",
                                                     DidYouMean(s.column, names), ": its columns are ",
                                                     absl::StrJoin(names, ", ")));
    }
    if (c == pk) {
      return absl::InvalidArgumentError(absl::StrCat("--column ", s.column,
                                                     ": that is the primary key, whose values are the key stream "
                                                     "(choose them with --stream)"));
    }
    if (seen[c]) {
      return absl::InvalidArgumentError(absl::StrCat("--column ", s.column, " is given twice: keep one"));
    }
    seen[c] = true;
    const ColumnValue& v = schema.values[c];
    const uint32_t width = schema.def.columns[c].stored_bytes;
    const bool bigint = v.kind == ColumnKind::kInteger && width == 8;
    switch (s.source) {
      case ValueSource::kDefault:
      case ValueSource::kConstant:
        break;
      case ValueSource::kRowTime:
      case ValueSource::kKeyTime:
        if (!IsTemporal(v.kind) && !bigint) {
          return Refuse(schema, c, s, "a time needs DATETIME, TIMESTAMP or BIGINT (ms since the epoch)");
        }
        break;
      case ValueSource::kRowNumber:
        if (v.kind != ColumnKind::kInteger) return Refuse(schema, c, s, "row numbers need an integer column");
        break;
      case ValueSource::kRandom:
        if (v.kind != ColumnKind::kBinary && v.kind != ColumnKind::kInteger) {
          return Refuse(schema, c, s, "random values need a BINARY or integer column");
        }
        break;
      case ValueSource::kPrimaryKey:
        if (v.kind != schema.values[pk].kind || width != schema.pk_width) {
          return Refuse(schema, c, s,
                        absl::StrCat("it must have the primary key's type, ", schema.def.columns[pk].type));
        }
        break;
      case ValueSource::kStream: {
        const int w = StreamKeyWidth(s.stream);
        const bool fits = w == 8 ? bigint : (v.kind == ColumnKind::kBinary && width == static_cast<uint32_t>(w));
        if (!fits) {
          return Refuse(schema, c, s,
                        absl::StrCat("stream ", s.stream, " has ", w, "-byte keys: use ",
                                     w == 8 ? "a BIGINT column" : "a BINARY(16) column"));
        }
        break;
      }
    }
  }
  return absl::OkStatus();
}

ValueSource SourceOf(const TableSchema& schema, uint32_t column, const std::vector<ColumnSource>& sources) {
  for (const ColumnSource& s : sources) {
    if (absl::EqualsIgnoreCase(s.column, schema.def.columns[column].name) && s.source != ValueSource::kDefault) {
      return s.source;
    }
  }
  switch (schema.values[column].kind) {
    case ColumnKind::kBinary:
      return ValueSource::kRandom;
    case ColumnKind::kChar:
    case ColumnKind::kVarchar:
      return ValueSource::kConstant;
    case ColumnKind::kInteger:
      return ValueSource::kRowNumber;
    case ColumnKind::kDatetime:
    case ColumnKind::kTimestamp:
      return ValueSource::kRowTime;
  }
  return ValueSource::kConstant;
}

}  // namespace innosim
