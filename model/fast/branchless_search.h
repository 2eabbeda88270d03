// BranchlessLowerBound: the position of a key head among a page's sorted
// key heads (model/key.h), by a branch-free search, a speed device.
//
// What it computes: the number of keys below k, std::lower_bound's index:
// where page_cur_search_with_match finds the insert position of a new key
// (the answer InnoDB's binary search over the directory and linear search
// within a group gives). No result depends on how it is found:
// tests/branchless_search_equivalence_test.cc compares it with
// std::lower_bound on every length 0..300.
//
// What it buys: for a random key, every probe of an ordinary binary search
// is a coin toss for the branch predictor; here the probes select the next
// position through masks, and three probes of each step depend only on the
// previous step, so their loads overlap: half the dependent loads of a
// binary search. Measured in model/fast/README.md, "The page directory and the
// key search".
//
// Contract: keys[0..n) sorted ascending, without duplicates or with (the
// answer is the first key not below k either way); keys[n] must be readable
// memory (its value does not matter: the search may load it and then
// discards what it read). IndexPage's block holds the owner words right
// after the keys, all of it initialised (model/fast/page_pool.h), so
// keys[n] is always readable there.
#ifndef INNOSIM_MODEL_FAST_BRANCHLESS_SEARCH_H_
#define INNOSIM_MODEL_FAST_BRANCHLESS_SEARCH_H_

#include <cstdint>

#include "model/key.h"

namespace innosim {

// a < b as one 128-bit comparison (a subtract with borrow, no branch).
inline bool KeyBelow(const KeyHalf& a, const KeyHalf& b) {
  using U = unsigned __int128;
  return ((U{a.hi} << 64) | a.lo) < ((U{b.hi} << 64) | b.lo);
}

// Shar's layout: one probe aligns the rest to a power of two; then each step
// quarters it with three probes. Probes compare the high halves only (one
// 64-bit compare); keys whose high half equals k's are few and adjacent, and
// are stepped over afterwards.
inline uint32_t BranchlessLowerBound(const KeyHalf* keys, uint32_t n, const KeyHalf& k) {
  if (n == 0) return 0;
  const uint64_t hi = k.hi;
  // All ones when the key at i is below k, else 0.
  auto below = [&](uint32_t i) { return uint32_t{0} - static_cast<uint32_t>(keys[i].hi < hi); };
  const uint32_t log = 31 - static_cast<uint32_t>(__builtin_clz(n));
  uint32_t step = uint32_t{1} << log;
  // Invariant from here: at <= (keys below k) <= at + step.
  uint32_t at = (n - step) & below(step - 1);
  if (log & 1) {
    step >>= 1;
    at += step & below(at + step - 1);
  }
  while (step >= 4) {
    const uint32_t q = step >> 2;
    at += (q & below(at + q - 1)) + (q & below(at + 2 * q - 1)) + (q & below(at + 3 * q - 1));
    step = q;
  }
  // Now at <= (keys whose high half is below k's) <= at + 1. The keys at at
  // and at + 1 are compared whole, at once: each is below k either by its
  // high half or, sharing k's high half (a time-ordered key often shares it
  // with a neighbour), by its low half. One level of loads where a step
  // over the high halves and a step over equal high halves took two; a
  // third key below k sharing the high half is rare. Positions at or past n
  // do not count; at + 1 is read only when it is below n, and keys[n] may be
  // read (the contract above).
  const uint32_t next = at + 1;
  const uint32_t next_read = next < n ? next : at;
  at += static_cast<uint32_t>(at < n) & static_cast<uint32_t>(KeyBelow(keys[at], k));
  at += static_cast<uint32_t>(next < n) & static_cast<uint32_t>(KeyBelow(keys[next_read], k));
  while (at < n && KeyBelow(keys[at], k)) ++at;
  return at;
}

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_BRANCHLESS_SEARCH_H_
