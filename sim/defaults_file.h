// Defaults file: server variables from a my.cnf, as mysqld reads them
// (`innosim run --defaults-file my.cnf`).
//
//   absl::StatusOr<DefaultsFile> f = ReadDefaultsFile("my.cnf", ServerFlavor::kMySql84);
//   for (const DefaultsEntry& e : f->entries) spec.settings.emplace_back(e.name, e.value);
//
// What is read (mysys/my_default.cc, and MariaDB's documentation of option
// groups):
//   - option groups: [mysqld] and [server] for both servers, plus
//     [mysqld-8.4] for MySQL 8.4, and [mariadb], [mariadbd], [mysqld-10.11]
//     and [mariadb-10.11] for MariaDB 10.11; every other group ([client],
//     [mysqldump], ...) is skipped. Group names are case-insensitive.
//   - `name = value`, `name=value` or `name` alone (a flag such as
//     skip_log_bin, which means ON); values may be quoted ('...' or "...");
//     K/M/G suffixes are left to ServerSettings::Set.
//   - comments: lines starting with # or ;, and a # after the value
//     (outside quotes).
//   - `!include FILE` and `!includedir DIR` are NOT followed: each gives a
//     warning naming the line (put the settings in the file you pass).
// A malformed line (`= 5`, `[mysqld` without its bracket, an option before
// any group) is an InvalidArgument naming the file and line number.
//
// ApplyServerVariable sets one variable as mysqld would take it: `loose-`
// prefixes, and the skip-/disable-/enable- prefixes of boolean options
// (`skip-innodb-doublewrite` = innodb_doublewrite=OFF).
//
// Pure functions apart from reading the file; no thread-safety concerns.
#ifndef INNOSIM_SIM_DEFAULTS_FILE_H_
#define INNOSIM_SIM_DEFAULTS_FILE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "model/server_settings.h"

namespace innosim {

struct DefaultsEntry {
  std::string name;
  std::string value;  // "" for a flag without a value
  int line = 0;
};

struct DefaultsFile {
  std::vector<DefaultsEntry> entries;  // in file order (later ones win)
  std::vector<std::string> warnings;   // "my.cnf:7: !includedir ... not followed"
};

// The option groups a server reads, lower case.
std::vector<std::string> DefaultsGroups(ServerFlavor flavor);

// Parses the text of a defaults file; `path` names it in messages.
absl::StatusOr<DefaultsFile> ParseDefaultsFile(std::string_view text, std::string_view path, ServerFlavor flavor);
// Reads and parses a defaults file.
absl::StatusOr<DefaultsFile> ReadDefaultsFile(const std::string& path, ServerFlavor flavor);

// Sets one variable with mysqld's option prefixes. NotFound for a variable
// the model does not know; InvalidArgument for a bad value.
absl::Status ApplyServerVariable(ServerSettings* settings, std::string_view name, std::string_view value);

// Checks the entries against the settings of `flavor`: an entry with a bad
// value is an error naming the file and line; an unknown variable becomes a
// warning and is dropped. Returns the entries to apply.
absl::StatusOr<std::vector<DefaultsEntry>> CheckDefaultsEntries(const DefaultsFile& file, std::string_view path,
                                                                 ServerFlavor flavor,
                                                                 std::vector<std::string>* warnings);

}  // namespace innosim

#endif  // INNOSIM_SIM_DEFAULTS_FILE_H_
