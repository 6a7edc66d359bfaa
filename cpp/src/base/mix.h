#pragma once
// Internal: the 64-bit mix the banding searches hash with.
#include <cstdint>

namespace simhash {

/// MurmurHash3's finalizer: every input bit moves every output bit.
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDull;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ull;
  return x ^ (x >> 33);
}

}  // namespace simhash
