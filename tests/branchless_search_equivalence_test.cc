// Equivalence of the branch-free search (model/fast/branchless_search.h)
// with std::lower_bound: on every array length 0..300, random keys, keys
// sharing their high halves (time-ordered keys often do), and arrays full of
// duplicates, probed with present keys, absent ones between them, and keys
// below and above all of them.
#include "model/fast/branchless_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "model/key.h"

namespace innosim {
namespace {

// How the keys of an array are drawn.
enum class Draw { kRandom, kFewHighHalves, kDuplicateHeavy };

KeyHalf DrawKey(Draw draw, std::mt19937_64& rng) {
  switch (draw) {
    case Draw::kRandom:
      return KeyHalf{rng(), rng()};
    case Draw::kFewHighHalves:
      // Three high halves: long runs of keys that differ in the low half only.
      return KeyHalf{100 + rng() % 3, rng() % 1000};
    case Draw::kDuplicateHeavy:
      // Five distinct keys in all, so most keys repeat.
      return KeyHalf{rng() % 5, rng() % 2};
  }
  return KeyHalf{};
}

void CheckEveryLength(Draw draw, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (uint32_t n = 0; n <= 300; ++n) {
    // n keys, then one more slot: the search may read keys[n] (its
    // contract); filled with a key that would change the answer if counted.
    std::vector<KeyHalf> keys(n + 1);
    for (uint32_t i = 0; i < n; ++i) keys[i] = DrawKey(draw, rng);
    std::sort(keys.begin(), keys.begin() + n);
    keys[n] = KeyHalf{0, 0};
    std::vector<KeyHalf> probes;
    for (uint32_t i = 0; i < n; ++i) probes.push_back(keys[i]);         // present
    for (int i = 0; i < 64; ++i) probes.push_back(DrawKey(draw, rng));  // mostly absent
    for (uint32_t i = 0; i < n; ++i) {                                  // just above and just below a present key
      probes.push_back(KeyHalf{keys[i].hi, keys[i].lo + 1});
      if (keys[i].lo > 0) probes.push_back(KeyHalf{keys[i].hi, keys[i].lo - 1});
    }
    probes.push_back(KeyHalf{0, 0});
    probes.push_back(KeyHalf{~uint64_t{0}, ~uint64_t{0}});
    for (const KeyHalf& k : probes) {
      const auto want = static_cast<uint32_t>(std::lower_bound(keys.begin(), keys.begin() + n, k) - keys.begin());
      ASSERT_EQ(BranchlessLowerBound(keys.data(), n, k), want)
          << "n=" << n << " key=" << k.hi << ":" << k.lo << " draw=" << static_cast<int>(draw);
    }
  }
}

TEST(BranchlessSearchEquivalenceTest, RandomKeysEveryLength) { CheckEveryLength(Draw::kRandom, 1); }

TEST(BranchlessSearchEquivalenceTest, KeysSharingHighHalvesEveryLength) { CheckEveryLength(Draw::kFewHighHalves, 2); }

TEST(BranchlessSearchEquivalenceTest, DuplicateHeavyKeysEveryLength) { CheckEveryLength(Draw::kDuplicateHeavy, 3); }

}  // namespace
}  // namespace innosim
