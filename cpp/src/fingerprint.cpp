#include "simhash/fingerprint.h"

#include <algorithm>

#include "simhash/idf.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace simhash {

uint64_t hashFeature(std::string_view feature) { return XXH3_64bits(feature.data(), feature.size()); }

void encodeOptions(const FingerprintOptions& options, uint8_t out[kOptionBytes]) {
  const TokenizerOptions& t = options.tokenizer;
  out[0] = static_cast<uint8_t>(t.mode);
  out[1] = t.wordNgram;
  out[2] = t.charNgram;
  out[3] = static_cast<uint8_t>((t.caseFold ? 1 : 0) | (t.stripPunctuation ? 2 : 0));
  out[4] = static_cast<uint8_t>(options.weighting);
}

bool decodeOptions(const uint8_t in[kOptionBytes], FingerprintOptions& out) {
  FingerprintOptions options;
  options.tokenizer.mode = static_cast<TokenizerMode>(in[0]);
  options.tokenizer.wordNgram = in[1];
  options.tokenizer.charNgram = in[2];
  options.tokenizer.caseFold = in[3] & 1;
  options.tokenizer.stripPunctuation = in[3] & 2;
  options.weighting = static_cast<Weighting>(in[4]);
  if (!isValid(options.tokenizer) || in[3] > 3 || in[4] > 1) return false;
  out = options;
  return true;
}

namespace {

// kSpread[v] holds bit t of v in byte t, so one 64-bit add bumps eight byte-wide bit
// counters at once (SIMD within a register): a feature costs eight loads and adds
// instead of 64 shift-and-branch steps. Measured faster than 128-bit byte vectors
// (shuffle, mask, compare, subtract) on x86-64 with GCC 12.
struct SpreadTable {
  uint64_t rows[256];
  constexpr SpreadTable() : rows{} {
    for (unsigned v = 0; v < 256; ++v)
      for (unsigned t = 0; t < 8; ++t) rows[v] |= static_cast<uint64_t>((v >> t) & 1) << (8 * t);
  }
};
constexpr SpreadTable kSpread;

// Adds the bits of `count` <= 255 hashes to eight SWAR lanes of byte counters.
inline void countBits(const uint64_t* hashes, size_t count, uint64_t lanes[8]) {
  for (size_t f = 0; f < count; ++f) {
    const uint64_t hash = hashes[f];
    for (unsigned j = 0; j < 8; ++j) lanes[j] += kSpread.rows[(hash >> (8 * j)) & 0xFF];
  }
}

}  // namespace

uint64_t simhashOfHashes(const uint64_t* hashes, size_t count) {
  constexpr uint64_t kEachByte = 0x0101010101010101ull;
  uint64_t fingerprint = 0;
  if (count <= 255) {
    // Most texts: compare the byte counters with count/2 in place. Bit i is set iff
    // ones > count/2, i.e. ones >= m; ones + 128 - m reaches 128 exactly then, without
    // carrying into the next byte, and a multiply gathers the eight high bits.
    uint64_t lanes[8] = {};
    countBits(hashes, count, lanes);
    const uint64_t bias = (128 - (count / 2 + 1)) * kEachByte;
    for (unsigned j = 0; j < 8; ++j) {
      const uint64_t high = ((lanes[j] + bias) >> 7) & kEachByte;
      fingerprint |= ((high * 0x0102040810204080ull) >> 56) << (8 * j);
    }
    return fingerprint;
  }
  // Byte counters absorb 255 hashes at a time before they are widened into 32-bit totals.
  uint32_t totals[64] = {};
  for (size_t done = 0; done < count; done += 255) {
    uint64_t lanes[8] = {};
    countBits(hashes + done, std::min<size_t>(255, count - done), lanes);
    for (unsigned i = 0; i < 64; ++i) totals[i] += (lanes[i / 8] >> (8 * (i % 8))) & 0xFF;
  }
  // sum_i = ones - zeros = 2 * ones - count, compared in 64 bits so nothing overflows.
  for (unsigned i = 0; i < 64; ++i) {
    fingerprint |= static_cast<uint64_t>(2 * static_cast<uint64_t>(totals[i]) > count) << i;
  }
  return fingerprint;
}

uint64_t simhashOfWeightedHashes(const uint64_t* hashes, const double* weights, size_t count) {
  alignas(16) double sums[64] = {};
  for (size_t f = 0; f < count; ++f) {
    const double plus = weights[f], minus = -weights[f];
    for (unsigned i = 0; i < 64; ++i) sums[i] += ((hashes[f] >> i) & 1) ? plus : minus;  // vectorizes as selects
  }
  uint64_t fingerprint = 0;
  for (unsigned i = 0; i < 64; ++i) fingerprint |= static_cast<uint64_t>(sums[i] > 0.0) << i;
  return fingerprint;
}

size_t DistinctHashes::collect(const std::vector<std::string_view>& features, bool counting) {
  // An open-addressing set keyed by the hash's own low bits (XXH3 output is uniform): about
  // a probe per feature, where sorting the hashes took a fifth of all fingerprinting time.
  // A slot holds 1 + the index of its hash in hashes_, 0 when empty.
  const size_t count = features.size();
  if (hashes_.size() < count) hashes_.resize(count);
  if (counting && counts_.size() < count) counts_.resize(count);
  size_t capacity = 64;
  while (capacity < 2 * count) capacity *= 2;
  if (slots_.size() < capacity) slots_.resize(capacity);
  uint32_t* const slots = slots_.data();
  std::fill(slots, slots + capacity, 0);
  const size_t mask = capacity - 1;
  size_t distinct = 0;
  for (size_t j = 0; j < count; ++j) {
    const uint64_t hash = hashFeature(features[j]);
    size_t slot = hash & mask;
    while (slots[slot] != 0 && hashes_[slots[slot] - 1] != hash) slot = (slot + 1) & mask;
    if (slots[slot] == 0) {
      slots[slot] = static_cast<uint32_t>(++distinct);
      hashes_[distinct - 1] = hash;
      if (counting) counts_[distinct - 1] = 0;
    }
    if (counting) ++counts_[slots[slot] - 1];
  }
  return distinct;
}

uint64_t Fingerprinter::fingerprint(std::string_view utf8, const FingerprintOptions& options) {
  const std::vector<std::string_view>& features = extractor_.extract(utf8, options.tokenizer);
  if (options.weighting == Weighting::Binary) {
    // Each distinct hash counts once; the sum does not depend on their order.
    const size_t distinct = distinct_.collect(features, false);
    return simhashOfHashes(distinct_.hashes(), distinct);
  }
  const size_t count = features.size();
  if (hashes_.size() < count) hashes_.resize(count);
  for (size_t j = 0; j < count; ++j) hashes_[j] = hashFeature(features[j]);
  return simhashOfHashes(hashes_.data(), count);
}

uint64_t Fingerprinter::fingerprintTokens(const std::string_view* tokens, const double* weights,
                                          size_t count) {
  hashes_.resize(count);
  for (size_t j = 0; j < count; ++j) hashes_[j] = hashFeature(tokens[j]);
  return weights ? simhashOfWeightedHashes(hashes_.data(), weights, count)
                 : simhashOfHashes(hashes_.data(), count);
}

uint64_t Fingerprinter::fingerprint(std::string_view utf8, const IdfTable& idf) {
  const std::vector<std::string_view>& features = extractor_.extract(utf8, idf.options().tokenizer);
  const size_t distinct = distinct_.collect(features, true);
  const uint64_t* const hashes = distinct_.hashes();
  const uint32_t* const counts = distinct_.counts();
  // One weight per distinct feature: integer-valued doubles, so the sums are exact and
  // the order of addition cannot change a bit.
  const bool perOccurrence = idf.options().weighting == Weighting::TermFrequency;
  weights_.clear();  // push_back: libstdc++'s ASan annotations misfire, under Clang, on resize within capacity
  for (size_t d = 0; d < distinct; ++d) {
    weights_.push_back(static_cast<double>(idf.weight(hashes[d])) * (perOccurrence ? static_cast<double>(counts[d]) : 1.0));
  }
  return simhashOfWeightedHashes(hashes, weights_.data(), distinct);
}

uint64_t fingerprint(std::string_view utf8, const FingerprintOptions& options) {
  Fingerprinter fingerprinter;
  return fingerprinter.fingerprint(utf8, options);
}

}  // namespace simhash
