// Defaults file: server variables from a my.cnf, as mysqld reads them
// (`innosim run --defaults-file my.cnf`).
//
//   absl::StatusOr<DefaultsFile> f = ReadDefaultsFile("my.cnf", ServerFlavor::kMySql84);
//   auto a = CheckDefaultsEntries(*f, "my.cnf", flavor, &warnings);  // "my.cnf:7"
//   spec.settings.insert(spec.settings.end(), a->begin(), a->end());
//
// What is read (mysys/my_default.cc, and MariaDB's documentation of option
// groups):
//   - option groups: [mysqld] and [server] for both servers, plus
//     [mysqld-8.4] for MySQL 8.4, and [mariadb], [mariadbd], [mysqld-10.11]
//     and [mariadb-10.11] for MariaDB 10.11; every other group ([client],
//     [mysqldump], ...) is skipped. Group names are case-insensitive.
//   - `name = value`, `name=value` or `name` alone (a flag such as
//     skip_log_bin, which means ON); values may be quoted ('...' or "...");
//     units, ranges and prefixes are ServerSettings::Set's.
//   - comments: lines starting with # or ;, and a # after the value
//     (outside quotes).
//   - `!include FILE` and `!includedir DIR` are NOT followed: each gives a
//     warning naming the line (put the settings in the file you pass).
// A malformed line (`= 5`, `[mysqld` without its bracket, an option before
// any group) is an InvalidArgument naming the file and line number.
//
// ApplyServerVariable sets one variable through ServerSettings::Set (the
// one place that reads server variables: `loose-`, skip-/disable-/enable-,
// units and ranges) and adds the nearest known name to an unknown one.
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

// Sets one variable as the server takes it. NotFound for a variable the
// server does not have (with "did you mean" when one is close);
// InvalidArgument for a bad value. `origin` is recorded for the printout.
absl::Status ApplyServerVariable(ServerSettings* settings, std::string_view name, std::string_view value,
                                 std::string_view origin = "--set");

// The entries as assignments whose origin is "PATH:LINE", checked against
// the settings of `flavor`: a bad value is an error naming the file and
// line; a variable the model does not know (a real my.cnf has port,
// datadir, ...) is a warning naming the line, with the nearest known name,
// and is dropped. Clamps warn when the assignments are applied
// (ServerSettings::warnings), not here.
absl::StatusOr<std::vector<VariableAssignment>> CheckDefaultsEntries(const DefaultsFile& file,
                                                                      std::string_view path, ServerFlavor flavor,
                                                                      std::vector<std::string>* warnings);

}  // namespace innosim

#endif  // INNOSIM_SIM_DEFAULTS_FILE_H_
