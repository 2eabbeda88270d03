// The table `innosim compare` takes once for every engine, in portable
// SQL, and each engine's reading of it.
//
// Portable SQL is PostgreSQL's spelling of the common subset:
//   CREATE TABLE t (id uuid PRIMARY KEY, v varchar(100) NOT NULL, ...);
//   CREATE [UNIQUE] INDEX [name] ON t (col, ...)
// with the types bigint, integer/int, smallint, uuid, varchar(n), char(n)
// and timestamp. PostgreSQL reads it as it is. For InnoDB (MySQL's
// CREATE TABLE, one statement) PortableToInnodbSql writes uuid as
// BINARY(16) (the 16 bytes a UUID key takes in InnoDB) and each CREATE
// INDEX as a KEY inside the CREATE TABLE, named as PostgreSQL would name it
// (`<table>_<cols>_idx`, indexcmds.c ChooseIndexName) so the indexes carry
// the same names in both; anything else passes through for the engine's
// own parser to accept or refuse.
//
// Pure functions.
#ifndef INNOSIM_SIM_PORTABLE_TABLE_H_
#define INNOSIM_SIM_PORTABLE_TABLE_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace innosim {

// `sql` for InnoDB: one CREATE TABLE; InvalidArgument naming what cannot be
// carried over.
absl::StatusOr<std::string> PortableToInnodbSql(std::string_view sql);

// `sql` for PostgreSQL: unchanged ("seed000" and every other form the
// PostgreSQL parser takes).
absl::StatusOr<std::string> PortableToPostgresSql(std::string_view sql);

}  // namespace innosim

#endif  // INNOSIM_SIM_PORTABLE_TABLE_H_
