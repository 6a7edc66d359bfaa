#pragma once
#include <cstdint>

namespace simhash {

/// Number of differing bits between two fingerprints, 0..64. Compiles to one popcount
/// instruction where the target has one (x86 POPCNT, WASM i64.popcnt).
inline unsigned hammingDistance(uint64_t a, uint64_t b) {
  return static_cast<unsigned>(__builtin_popcountll(a ^ b));
}

}  // namespace simhash
