// Simulated against reference figures: the one comparison `experiment`
// (published figures) and `measure` (a real server's counters) make.
//
// RelativeError(simulated, reference) = (simulated - reference) / reference,
// and where the reference is 0, where that quotient is undefined:
//   both 0                    -> 0 (the figures agree)
//   reference 0, simulated x  -> +infinity: no relative bound holds, so
//                                WithinTolerance is false and the error is
//                                shown as "n/a" (JSON null)
// A NaN reference (an experiment's "shown, not published") gives NaN, which
// is within no tolerance either; callers skip such rows.
#ifndef INNOSIM_SIM_COMPARE_H_
#define INNOSIM_SIM_COMPARE_H_

#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_format.h"

namespace innosim {

inline double RelativeError(double simulated, double reference) {
  if (reference == 0) return simulated == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return (simulated - reference) / reference;
}

// |error| <= tolerance; false for an infinite or NaN error.
inline bool WithinTolerance(double error, double tolerance) { return std::fabs(error) <= tolerance; }

// "+1.23%", or "n/a" where the error is infinite (a reference of 0).
inline std::string FormatRelativeError(double error) {
  if (std::isinf(error)) return "n/a";
  return absl::StrFormat("%+.2f%%", 100.0 * error);
}

}  // namespace innosim

#endif  // INNOSIM_SIM_COMPARE_H_
