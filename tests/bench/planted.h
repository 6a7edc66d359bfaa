#pragma once
// The benchmark's fingerprint sets, generated identically here and in bench.js (plantedFingerprints):
// n fingerprints from splitmix64(seed); every 10th is a copy of the one before it with
// (i / 10) % (k + 1) bits flipped (bit positions from the same generator), so about 10% of
// the items have a planted neighbour within k.
#include <cstdint>
#include <vector>

namespace simhash::bench {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

inline std::vector<uint64_t> plantedFingerprints(size_t n, unsigned k, uint64_t seed) {
  std::vector<uint64_t> fps(n);
  uint64_t state = seed;
  for (size_t i = 0; i < n; ++i) {
    if (i % 10 == 9) {
      uint64_t fp = fps[i - 1];
      const unsigned flips = static_cast<unsigned>((i / 10) % (k + 1));
      uint64_t mask = 0;
      while (static_cast<unsigned>(__builtin_popcountll(mask)) < flips) mask |= uint64_t{1} << (splitmix64(state) % 64);
      fps[i] = fp ^ mask;
    } else {
      fps[i] = splitmix64(state);
    }
  }
  return fps;
}

}  // namespace simhash::bench
