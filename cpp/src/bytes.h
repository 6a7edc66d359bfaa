#pragma once
// Internal: little-endian fields of the serialized formats (index.h, idf.h).
#include <cstdint>
#include <string_view>
#include <vector>

#include "simhash/fingerprint.h"

namespace simhash::bytes {

inline void putLE(std::vector<uint8_t>& out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

inline uint64_t getLE(const uint8_t* data, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(data[i]) << (8 * i);
  return value;
}

/// XXH3_64bits with seed 0, the feature hash: one copy of xxHash in the binary, not one
/// per file that includes it.
inline uint64_t checksum(const uint8_t* data, size_t size) {
  return hashFeature(std::string_view(reinterpret_cast<const char*>(data), size));
}

}  // namespace simhash::bytes
