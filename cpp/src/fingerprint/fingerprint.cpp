#include "simhash/fingerprint.h"

#include <algorithm>
#include <cstring>

#include "base/bytes.h"
#include "simhash/idf.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace simhash {

namespace bytes {

// XXH3_64bits (seed 0, the default secret) streamed as XXH3_hashLong_64b_internal computes
// it for inputs over 240 bytes: every 1,024-byte block but the last is accumulated and
// scrambled; the last is kept until digest(), which accumulates its stripes and the
// input's last 64 bytes, then merges. Inputs of 240 bytes or less are hashed whole by
// XXH3_64bits. Written here on xxHash's own steps rather than with its streaming API,
// which inlines into 4 KB of gzipped WASM.
namespace {
constexpr size_t kStripe = XXH_STRIPE_LEN;
constexpr size_t kStripesPerBlock = (sizeof(XXH3_kSecret) - kStripe) / XXH_SECRET_CONSUME_RATE;
constexpr size_t kBlock = kStripe * kStripesPerBlock;

// The one place the stream accumulates stripes: each inlined copy of xxHash's loop costs
// about a kilobyte of WASM.
XXH_NO_INLINE void accumulate(xxh_u64* acc, const uint8_t* stripes, size_t count, const uint8_t* secret) {
  XXH3_accumulate(acc, stripes, secret, count, XXH3_accumulate_512);
}
}  // namespace

// XXH3_64bits over the steps below rather than xxHash's own long-input loop: inlined, that
// loop was a second copy of the accumulation in the download (about 2.5 KB of WASM).
uint64_t hashLong(const uint8_t* input, size_t length) {
  alignas(XXH_ACC_ALIGN) xxh_u64 acc[XXH_ACC_NB] = XXH3_INIT_ACC;
  const size_t blocks = (length - 1) / kBlock;
  for (size_t b = 0; b < blocks; ++b) {
    accumulate(acc, input + b * kBlock, kStripesPerBlock, XXH3_kSecret);
    XXH3_scrambleAcc(acc, XXH3_kSecret + sizeof(XXH3_kSecret) - kStripe);
  }
  accumulate(acc, input + blocks * kBlock, ((length - 1) - kBlock * blocks) / kStripe, XXH3_kSecret);
  accumulate(acc, input + length - kStripe, 1, XXH3_kSecret + sizeof(XXH3_kSecret) - kStripe - XXH_SECRET_LASTACC_START);
  return XXH3_mergeAccs(acc, XXH3_kSecret + XXH_SECRET_MERGEACCS_START, length * XXH_PRIME64_1);
}

struct StreamingChecksum::State {
  alignas(XXH_ACC_ALIGN) xxh_u64 acc[XXH_ACC_NB] = XXH3_INIT_ACC;
  // The last 64 bytes of the blocks consumed, then up to a block not yet consumed: the
  // input's last stripe may reach back into the consumed ones.
  alignas(8) uint8_t kept[kStripe + kBlock];
  size_t pending = 0;  // bytes at kept + kStripe
  uint64_t total = 0;

  // Accumulates and scrambles `count` whole blocks.
  void consume(const uint8_t* blocks, size_t count) {
    for (size_t b = 0; b < count; ++b) {
      accumulate(acc, blocks + b * kBlock, kStripesPerBlock, XXH3_kSecret);
      XXH3_scrambleAcc(acc, XXH3_kSecret + sizeof(XXH3_kSecret) - kStripe);
    }
  }
};

StreamingChecksum::StreamingChecksum() : state_(std::make_unique<State>()) {}
StreamingChecksum::~StreamingChecksum() = default;

void StreamingChecksum::update(const uint8_t* data, size_t size) {
  State& s = *state_;
  s.total += size;
  while (size > 0) {
    if (s.pending == kBlock) {  // a whole block with input after it
      s.consume(s.kept + kStripe, 1);
      std::memcpy(s.kept, s.kept + kBlock, kStripe);
      s.pending = 0;
    }
    if (s.pending == 0 && size > kBlock) {  // whole blocks straight from the input, all but the last
      const size_t blocks = (size - 1) / kBlock;
      s.consume(data, blocks);
      std::memcpy(s.kept, data + blocks * kBlock - kStripe, kStripe);
      data += blocks * kBlock;
      size -= blocks * kBlock;
    }
    const size_t count = std::min(kBlock - s.pending, size);
    std::memcpy(s.kept + kStripe + s.pending, data, count);
    s.pending += count;
    data += count;
    size -= count;
  }
}

uint64_t StreamingChecksum::digest() const {
  const State& s = *state_;
  const uint8_t* last = s.kept + kStripe;
  if (s.total <= XXH3_MIDSIZE_MAX) return hashFeature(std::string_view(reinterpret_cast<const char*>(last), s.pending));  // all of it is kept
  alignas(XXH_ACC_ALIGN) xxh_u64 acc[XXH_ACC_NB];
  std::memcpy(acc, s.acc, sizeof(acc));
  accumulate(acc, last, (s.pending - 1) / kStripe, XXH3_kSecret);
  accumulate(acc, last + s.pending - kStripe, 1, XXH3_kSecret + sizeof(XXH3_kSecret) - kStripe - XXH_SECRET_LASTACC_START);
  return XXH3_mergeAccs(acc, XXH3_kSecret + XXH_SECRET_MERGEACCS_START, s.total * XXH_PRIME64_1);
}

}  // namespace bytes

// XXH3_64bits(feature), seed 0, as XXH3_64bits_internal dispatches it.
uint64_t hashFeature(std::string_view feature) {
  const auto* input = reinterpret_cast<const xxh_u8*>(feature.data());
  const size_t length = feature.size();
  if (length <= 16) return XXH3_len_0to16_64b(input, length, XXH3_kSecret, 0);
  if (length <= 128) return XXH3_len_17to128_64b(input, length, XXH3_kSecret, sizeof(XXH3_kSecret), 0);
  if (length <= XXH3_MIDSIZE_MAX) return XXH3_len_129to240_64b(input, length, XXH3_kSecret, sizeof(XXH3_kSecret), 0);
  return bytes::hashLong(input, length);
}

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

uint64_t simhashOfCountedHashes(const uint64_t* hashes, const uint32_t* counts, size_t count) {
  // As simhashOfHashes, a hash adding its count to the byte counters at once: a count of c
  // is c occurrences, so the result is simhashOfHashes over every occurrence.
  uint64_t totals[64] = {}, occurrences = 0, lanes[8] = {};
  unsigned inLanes = 0;  // occurrences in the byte counters, at most 255
  auto spill = [&] {
    for (unsigned i = 0; i < 64; ++i) totals[i] += (lanes[i / 8] >> (8 * (i % 8))) & 0xFF;
    std::fill(lanes, lanes + 8, 0);
    inLanes = 0;
  };
  for (size_t f = 0; f < count; ++f) {
    occurrences += counts[f];
    for (uint32_t left = counts[f]; left > 0;) {
      const unsigned take = std::min<uint32_t>(left, 255 - inLanes);
      for (unsigned j = 0; j < 8; ++j) lanes[j] += kSpread.rows[(hashes[f] >> (8 * j)) & 0xFF] * take;
      inLanes += take;
      left -= take;
      if (inLanes == 255) spill();
    }
  }
  spill();
  uint64_t fingerprint = 0;
  for (unsigned i = 0; i < 64; ++i) fingerprint |= static_cast<uint64_t>(2 * totals[i] > occurrences) << i;
  return fingerprint;
}

[[gnu::noinline]] uint64_t simhashOfWeightedHashes(const uint64_t* hashes, const double* weights, size_t count) {
  alignas(16) double sums[64] = {};
  for (size_t f = 0; f < count; ++f) {
    const double plus = weights[f], minus = -weights[f];
    for (unsigned i = 0; i < 64; ++i) sums[i] += ((hashes[f] >> i) & 1) ? plus : minus;  // vectorizes as selects
  }
  uint64_t fingerprint = 0;
  for (unsigned i = 0; i < 64; ++i) fingerprint |= static_cast<uint64_t>(sums[i] > 0.0) << i;
  return fingerprint;
}

void DistinctHashes::clear(bool counting) {
  counting_ = counting;
  size_ = 0;
  capacity_ = 0;
  grow(64);
}

[[gnu::noinline]] void DistinctHashes::grow(size_t capacity) {
  // Slots are rebuilt from hashes_ in a table of the new size.
  if (slots_.size() < capacity) slots_.resize(capacity);
  uint32_t* const slots = slots_.data();
  std::fill(slots, slots + capacity, 0);
  capacity_ = capacity;
  const size_t mask = capacity - 1;
  for (size_t d = 0; d < size_; ++d) {
    size_t slot = hashes_[d] & mask;
    while (slots[slot] != 0) slot = (slot + 1) & mask;
    slots[slot] = static_cast<uint32_t>(d + 1);
  }
}

void DistinctHashes::take(const std::string_view* features, size_t count) {
  // An open-addressing set keyed by the hash's own low bits (XXH3 output is uniform): about
  // a probe per feature, where sorting the hashes took a fifth of all fingerprinting time.
  // Room for the batch to be all new, first: the loop does not check.
  const size_t most = size_ + count;
  size_t capacity = capacity_;
  while (capacity < 2 * most) capacity *= 2;
  if (hashes_.size() < most) hashes_.resize(std::max(most, 2 * hashes_.size()));
  if (counting_ && counts_.size() < most) counts_.resize(std::max(most, 2 * counts_.size()));
  if (capacity != capacity_) grow(capacity);
  uint32_t* const slots = slots_.data();
  uint64_t* const hashes = hashes_.data();
  const size_t mask = capacity_ - 1;
  size_t distinct = size_;
  for (size_t j = 0; j < count; ++j) {
    const uint64_t hash = hashFeature(features[j]);
    size_t slot = hash & mask;
    while (slots[slot] != 0 && hashes[slots[slot] - 1] != hash) slot = (slot + 1) & mask;
    if (slots[slot] == 0) {
      slots[slot] = static_cast<uint32_t>(++distinct);
      hashes[distinct - 1] = hash;
      if (counting_) counts_[distinct - 1] = 0;
    }
    if (counting_) ++counts_[slots[slot] - 1];
  }
  size_ = distinct;
}

uint64_t Fingerprinter::fingerprint(std::string_view utf8, const FingerprintOptions& options) {
  const bool perOccurrence = options.weighting == Weighting::TermFrequency;
  distinct_.clear(perOccurrence);
  extractor_.extract(utf8, options.tokenizer, distinct_);
  if (!perOccurrence) return simhashOfHashes(distinct_.hashes(), distinct_.size());  // each distinct hash once
  return simhashOfCountedHashes(distinct_.hashes(), distinct_.counts(), distinct_.size());
}

uint64_t Fingerprinter::fingerprintTokens(const std::string_view* tokens, const double* weights,
                                          size_t count) {
  hashes_.resize(count);
  for (size_t j = 0; j < count; ++j) hashes_[j] = hashFeature(tokens[j]);
  return weights ? simhashOfWeightedHashes(hashes_.data(), weights, count)
                 : simhashOfHashes(hashes_.data(), count);
}

uint64_t Fingerprinter::fingerprint(std::string_view utf8, const IdfTable& idf) {
  distinct_.clear(true);
  extractor_.extract(utf8, idf.options().tokenizer, distinct_);
  const size_t distinct = distinct_.size();
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
