#pragma once
// Random fingerprint sets with planted neighbours, shared by the index and pair tests.
#include <cstdint>
#include <algorithm>
#include <random>
#include <vector>

#include "simhash/hamming.h"

namespace simhash::testing {

/// fp with exactly `distance` distinct bits flipped.
inline uint64_t flipBits(uint64_t fp, unsigned distance, std::mt19937_64& rng) {
  uint64_t mask = 0;
  while (static_cast<unsigned>(__builtin_popcountll(mask)) < distance) mask |= uint64_t{1} << (rng() % 64);
  return fp ^ mask;
}

/// Fisher-Yates with rng() alone: std::shuffle's use of the generator differs between
/// standard libraries (libstdc++ natively, libc++ in the WASM build), and the tests must
/// see the same data in both.
template <class T>
void shuffle(std::vector<T>& items, std::mt19937_64& rng) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng() % i]);
}

/// `bases` random fingerprints, each followed by neighbours at every distance 0..maxPlanted,
/// then shuffled, so every distance around k occurs among the pairs.
inline std::vector<uint64_t> plantedSet(size_t bases, unsigned maxPlanted, std::mt19937_64& rng) {
  std::vector<uint64_t> fps;
  for (size_t i = 0; i < bases; ++i) {
    const uint64_t base = rng();
    fps.push_back(base);
    for (unsigned d = 0; d <= maxPlanted; ++d) fps.push_back(flipBits(base, d, rng));
  }
  shuffle(fps, rng);
  return fps;
}

}  // namespace simhash::testing
