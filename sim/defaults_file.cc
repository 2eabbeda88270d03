#include "sim/defaults_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "sim/bounded_read.h"
#include "sim/output_file.h"
#include "absl/strings/str_split.h"
#include "sim/nearest_name.h"

namespace innosim {
namespace {

// This Abseil's string_view is its own type, not std::string_view.
absl::string_view A(std::string_view s) { return absl::string_view(s.data(), s.size()); }
std::string_view S(absl::string_view s) { return std::string_view(s.data(), s.size()); }

std::string Normalize(std::string_view name) {
  std::string n = absl::AsciiStrToLower(absl::StripAsciiWhitespace(A(name)));
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

// Removes a trailing "# comment" outside quotes (my_default.cc,
// remove_end_comment).
std::string_view StripEndComment(std::string_view s) {
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      return s.substr(0, i);
    }
  }
  return s;
}

std::string Unquote(std::string_view v) {
  v = S(absl::StripAsciiWhitespace(A(v)));
  if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) {
    return std::string(v.substr(1, v.size() - 2));
  }
  return std::string(v);
}

}  // namespace

std::vector<std::string> DefaultsGroups(ServerFlavor flavor) {
  if (flavor == ServerFlavor::kMariaDb1011) {
    return {"mysqld", "server", "mariadb", "mariadbd", "mysqld-10.11", "mariadb-10.11"};
  }
  return {"mysqld", "server", "mysqld-8.4"};
}

absl::StatusOr<DefaultsFile> ParseDefaultsFile(std::string_view text, std::string_view path, ServerFlavor flavor) {
  const std::vector<std::string> groups = DefaultsGroups(flavor);
  DefaultsFile out;
  bool in_group = false;   // inside a group the server reads
  bool any_group = false;  // a group header has been seen
  int line_no = 0;
  for (absl::string_view raw_a : absl::StrSplit(A(text), '\n')) {
    ++line_no;
    const std::string where = absl::StrCat(A(path), ":", line_no, ": ");
    std::string_view line = S(absl::StripAsciiWhitespace(raw_a));
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '!') {
      const std::string_view directive = line.substr(0, line.find_first_of(" \t"));
      if (directive == "!include" || directive == "!includedir") {
        out.warnings.push_back(absl::StrCat(where, A(directive), " is not followed: put the settings in this file"));
        continue;
      }
      return absl::InvalidArgumentError(absl::StrCat(where, "unknown directive '", A(directive),
                                                     "' (only !include and !includedir exist)"));
    }
    line = S(absl::StripAsciiWhitespace(A(StripEndComment(line))));
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']') {
        return absl::InvalidArgumentError(absl::StrCat(where, "malformed group header '", A(line),
                                                       "': write [mysqld]"));
      }
      const std::string group = absl::AsciiStrToLower(absl::StripAsciiWhitespace(A(line.substr(1, line.size() - 2))));
      if (group.empty()) return absl::InvalidArgumentError(absl::StrCat(where, "empty group header '[]'"));
      in_group = std::find(groups.begin(), groups.end(), group) != groups.end();
      any_group = true;
      continue;
    }
    if (!any_group) {
      return absl::InvalidArgumentError(absl::StrCat(where, "option '", A(line),
                                                     "' before any group: put it under [mysqld]"));
    }
    const size_t eq = line.find('=');
    std::string name = Normalize(eq == std::string_view::npos ? line : line.substr(0, eq));
    if (name.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(where, "'", A(line), "' has no variable name: write NAME = VALUE"));
    }
    if (name.find_first_of(" \t[]") != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat(where, "malformed line '", A(line), "': write NAME = VALUE"));
    }
    if (!in_group) continue;
    out.entries.push_back({name, eq == std::string_view::npos ? "" : Unquote(line.substr(eq + 1)), line_no});
  }
  return out;
}

absl::StatusOr<DefaultsFile> ReadDefaultsFile(const std::string& path, ServerFlavor flavor) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("--defaults-file ", path, " is a folder: give the my.cnf file itself"));
  }
  NoteInputFile(path);  // an output naming it is refused (sim/output_file.h)
  absl::StatusOr<std::string> text =
      ReadFileBounded(path, kMaxConfigFileBytes, absl::StrCat("--defaults-file ", path));
  if (!text.ok()) return text.status();
  return ParseDefaultsFile(*text, path, flavor);
}

absl::Status ApplyServerVariable(ServerSettings* settings, std::string_view name, std::string_view value,
                                 std::string_view origin) {
  absl::Status s = settings->Set(name, value, origin);
  if (!absl::IsNotFound(s)) return s;
  std::string n = Normalize(name);
  if (absl::StartsWith(n, "loose_")) n = n.substr(6);
  return absl::NotFoundError(
      absl::StrCat(s.message(), DidYouMean(n, ServerSettings::VariableNames(settings->flavor))));
}

absl::StatusOr<std::vector<VariableAssignment>> CheckDefaultsEntries(const DefaultsFile& file,
                                                                      std::string_view path, ServerFlavor flavor,
                                                                      std::vector<std::string>* warnings) {
  std::vector<VariableAssignment> keep;
  ServerSettings scratch = ServerSettings::Defaults(flavor);
  for (const DefaultsEntry& e : file.entries) {
    const std::string origin = absl::StrCat(A(path), ":", e.line);
    absl::Status s = ApplyServerVariable(&scratch, e.name, e.value, origin);
    if (absl::IsNotFound(s)) {
      // A real my.cnf holds many variables the model has no use for (port,
      // datadir, socket...): they are named, not fatal.
      if (warnings != nullptr) {
        warnings->push_back(absl::StrCat(origin, ": ", s.message(), ": not known to the model; ignored"));
      }
      continue;
    }
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat(origin, ": ", s.message()));
    keep.push_back({e.name, e.value, origin});
  }
  return keep;
}

}  // namespace innosim
