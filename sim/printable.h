// Printable: user input quoted in a message, made safe for a terminal.
//
// An error message echoes what the user gave (a stream name, a path, a line
// of a my.cnf); raw control bytes in it (ESC sequences, carriage returns,
// NUL) would drive the terminal or split the one-line message. Printable
// keeps printable ASCII and valid UTF-8 and writes every other byte as
// \xNN: C0 controls (newline and tab too), DEL, the C1 controls
// (U+0080..U+009F), and bytes that are not valid UTF-8.
#ifndef INNOSIM_SIM_PRINTABLE_H_
#define INNOSIM_SIM_PRINTABLE_H_

#include <string>
#include <string_view>

namespace innosim {

std::string Printable(std::string_view text);

}  // namespace innosim

#endif  // INNOSIM_SIM_PRINTABLE_H_
