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

enum class Data { Uniform, BiasedBits, Clustered, Duplicates };

inline const char* nameOf(Data data) {
  switch (data) {
    case Data::Uniform: return "uniform";
    case Data::BiasedBits: return "biased bits";
    case Data::Clustered: return "clustered";
    case Data::Duplicates: return "duplicates";
  }
  return "";
}

// About `bases` × (planted + 1) fingerprints, each base followed by neighbours at every
// distance in [k - 2, k + 2] (clamped to 0..64) and shuffled, so every distance around k
// occurs. The bases are:
// - Uniform: uniform random;
// - BiasedBits: the high 40 bits set with probability 7/8 each (real SimHash bits are
//   skewed: many fingerprints share most of some parts, crowding their buckets);
// - Clustered: within 2k + 4 bits of one of 8 centres;
// - Duplicates: uniform, each repeated 4 times.
inline std::vector<uint64_t> makeSet(Data data, size_t bases, unsigned k, std::mt19937_64& rng) {
  std::vector<uint64_t> centres(8);
  for (uint64_t& c : centres) c = rng();
  std::vector<uint64_t> fps;
  for (size_t i = 0; i < bases; ++i) {
    uint64_t base = rng();
    if (data == Data::BiasedBits) base |= (rng() | rng() | rng()) << 24;
    if (data == Data::Clustered) base = flipBits(centres[i % 8], static_cast<unsigned>(rng() % (2 * k + 5)), rng);
    fps.push_back(base);
    if (data == Data::Duplicates) fps.insert(fps.end(), 3, base);
    for (unsigned d = k < 2 ? 0 : k - 2; d <= std::min(k + 2, 64u); ++d) fps.push_back(flipBits(base, d, rng));
  }
  std::shuffle(fps.begin(), fps.end(), rng);
  return fps;
}

}  // namespace simhash::testing
