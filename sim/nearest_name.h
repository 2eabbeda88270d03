// NearestName: the "did you mean" of every place that takes a name from a
// user (subcommands, server variables, experiment-file keys).
//
//   NearestName("innodb_buffer_pol_size", names)  // "innodb_buffer_pool_size"
//   DidYouMean("strem", {"stream", "rows"})        // " (did you mean 'stream'?)"
//
// The distance is Damerau-Levenshtein (optimal string alignment: an adjacent
// swap counts one edit), case-insensitive, with '-' and '_' the same. A
// candidate is offered only when it is close: at most a third of the longer
// name's length, and at most 3 edits. Pure functions.
#ifndef INNOSIM_SIM_NEAREST_NAME_H_
#define INNOSIM_SIM_NEAREST_NAME_H_

#include <string>
#include <string_view>
#include <vector>

namespace innosim {

// Edits between a and b (see above).
size_t EditDistance(std::string_view a, std::string_view b);
// The closest candidate, or "" when none is close enough. Ties: the first.
std::string NearestName(std::string_view name, const std::vector<std::string>& candidates);
// " (did you mean 'X'?)" or "".
std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace innosim

#endif  // INNOSIM_SIM_NEAREST_NAME_H_
