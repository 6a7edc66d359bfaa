#include "simhash/fingerprint.h"

#include <algorithm>
#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace simhash {

uint64_t hashFeature(std::string_view feature) { return XXH3_64bits(feature.data(), feature.size()); }

namespace {

// kSpread[v][t] = bit t of v, so eight table rows lay a 64-bit hash out as 64 bytes of
// 0/1, which plain loops over 64 lanes then add; compilers turn those loops into SIMD
// (SSE2 natively, SIMD128 in WebAssembly) instead of 64 shift-and-branch steps.
struct SpreadTable {
  alignas(8) uint8_t rows[256][8];
  constexpr SpreadTable() : rows{} {
    for (unsigned v = 0; v < 256; ++v)
      for (unsigned t = 0; t < 8; ++t) rows[v][t] = static_cast<uint8_t>((v >> t) & 1);
  }
};
constexpr SpreadTable kSpread;

inline void spreadBits(uint64_t hash, uint8_t* bits) {
  for (unsigned j = 0; j < 8; ++j) std::memcpy(bits + 8 * j, kSpread.rows[(hash >> (8 * j)) & 0xFF], 8);
}

}  // namespace

uint64_t simhashOfHashes(const uint64_t* hashes, size_t count) {
  // Byte counters absorb up to 255 features before they are widened into 32-bit totals.
  alignas(16) uint32_t totals[64] = {};
  size_t done = 0;
  while (done < count) {
    const size_t chunk = count - done < 255 ? count - done : 255;
    alignas(16) uint8_t counts[64] = {};
    for (size_t f = 0; f < chunk; ++f) {
      alignas(16) uint8_t bits[64];
      spreadBits(hashes[done + f], bits);
      for (unsigned i = 0; i < 64; ++i) counts[i] += bits[i];
    }
    for (unsigned i = 0; i < 64; ++i) totals[i] += counts[i];
    done += chunk;
  }
  // sum_i = ones - zeros = 2 * ones - count, compared in 64 bits so no count overflows.
  uint64_t fingerprint = 0;
  for (unsigned i = 0; i < 64; ++i) {
    fingerprint |= static_cast<uint64_t>(2 * static_cast<uint64_t>(totals[i]) > count) << i;
  }
  return fingerprint;
}

uint64_t simhashOfWeightedHashes(const uint64_t* hashes, const double* weights, size_t count) {
  alignas(16) double sums[64] = {};
  for (size_t f = 0; f < count; ++f) {
    alignas(16) uint8_t bits[64];
    spreadBits(hashes[f], bits);
    const double plus = weights[f], minus = -weights[f];
    for (unsigned i = 0; i < 64; ++i) sums[i] += bits[i] ? plus : minus;
  }
  uint64_t fingerprint = 0;
  for (unsigned i = 0; i < 64; ++i) fingerprint |= static_cast<uint64_t>(sums[i] > 0.0) << i;
  return fingerprint;
}

uint64_t Fingerprinter::fingerprint(std::string_view utf8, const FingerprintOptions& options) {
  const std::vector<std::string_view>& features = extractor_.extract(utf8, options.tokenizer);
  hashes_.resize(features.size());
  for (size_t j = 0; j < features.size(); ++j) hashes_[j] = hashFeature(features[j]);
  if (options.weighting == Weighting::Binary) {
    std::sort(hashes_.begin(), hashes_.end());
    hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  }
  return simhashOfHashes(hashes_.data(), hashes_.size());
}

uint64_t Fingerprinter::fingerprintTokens(const std::string_view* tokens, const double* weights,
                                          size_t count) {
  hashes_.resize(count);
  for (size_t j = 0; j < count; ++j) hashes_[j] = hashFeature(tokens[j]);
  return weights ? simhashOfWeightedHashes(hashes_.data(), weights, count)
                 : simhashOfHashes(hashes_.data(), count);
}

uint64_t fingerprint(std::string_view utf8, const FingerprintOptions& options) {
  Fingerprinter fingerprinter;
  return fingerprinter.fingerprint(utf8, options);
}

}  // namespace simhash
