#pragma once
// SimHash fingerprints (Charikar 2002), 64 bits.
//
// The definition is a public contract (docs/spec.md):
//   features(text, options) -> f_1..f_m  (byte strings, see tokenizer.h)
//   h_j   = XXH3_64bits(f_j) with seed 0
//   sum_i = sum over j of (+w_j if bit i of h_j is 1, else -w_j), bit 0 = least significant
//   bit i of the fingerprint = 1 iff sum_i > 0 (a tie, or no features, gives 0).
// Term-frequency weighting is w_j = 1 for every occurrence, so a feature seen three
// times weighs 3. Anyone with xxHash can reproduce a fingerprint from its features.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "simhash/tokenizer.h"

namespace simhash {

/// Version of the fingerprint definition. Any change to the bits some text and options
/// produce bumps it, is listed in the README changelog and comes with regenerated golden
/// vectors (tests/vectors), whose header carries this number.
///   1: first release.
///   2: texts without word or CJK features fall back to their characters; case folding
///      also folds full-width letters and digits to ASCII.
///   3: stripPunctuation, on by default: punctuation is removed before tokenizing, and
///      whitespace between two CJK characters with it.
///   4: blank texts (empty or whitespace only) have one feature, the empty byte string,
///      instead of none (fingerprint 0).
constexpr unsigned kFingerprintFormatVersion = 4;

/// How occurrences of a feature are weighted.
enum class Weighting : uint8_t {
  TermFrequency = 0,  ///< every occurrence adds weight 1
  Binary = 1          ///< a feature counts once however often it occurs (default: measured
                      ///< better, since repeated stopwords otherwise decide short texts)
};

struct FingerprintOptions {
  TokenizerOptions tokenizer;
  Weighting weighting = Weighting::Binary;
};

/// The one byte encoding of FingerprintOptions, shared by the serialized IDF header
/// (its bytes 6..10) and the JS layer (js/bindings/options.js): tokenizer mode, wordNgram,
/// charNgram, tokenizer flags (bit 0 caseFold, bit 1 stripPunctuation), weighting.
constexpr size_t kOptionBytes = 5;
void encodeOptions(const FingerprintOptions& options, uint8_t out[kOptionBytes]);
/// @return false, leaving `out` unchanged, when the bytes encode no valid options
/// (unknown mode, flag bit or weighting, n-gram size outside 1..kMaxNgram).
bool decodeOptions(const uint8_t in[kOptionBytes], FingerprintOptions& out);

/// XXH3_64bits(bytes) with seed 0: the hash of one feature.
uint64_t hashFeature(std::string_view feature);

/// SimHash of feature hashes, each with weight 1. Cost: O(count), branch-free, vectorized.
uint64_t simhashOfHashes(const uint64_t* hashes, size_t count);

/// simhashOfHashes of a list in which hashes[f] occurs counts[f] times. Cost: O(count).
uint64_t simhashOfCountedHashes(const uint64_t* hashes, const uint32_t* counts, size_t count);

/// SimHash of feature hashes with per-feature weights. Sums are IEEE-754 doubles added
/// in input order (no contraction), so results are identical on every platform.
/// @pre every weight is finite.
uint64_t simhashOfWeightedHashes(const uint64_t* hashes, const double* weights, size_t count);

class IdfTable;  // idf.h

/// The distinct feature hashes of one text, and how often each occurs, collected from the
/// extractor's batches. Reuses its buffers between texts; not thread-safe.
class DistinctHashes final : public FeatureSink {
 public:
  /// Starts an empty set; with `counting`, counts() says how often each hash occurred.
  void clear(bool counting);
  /// Hashes each feature (hashFeature) and keeps the first occurrence of each hash, in order
  /// of first occurrence. Cost: about one probe of an open-addressing set per feature.
  void take(const std::string_view* features, size_t count) override;
  size_t size() const { return size_; }
  const uint64_t* hashes() const { return hashes_.data(); }
  const uint32_t* counts() const { return counts_.data(); }

 private:
  void grow(size_t capacity);

  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> counts_;
  std::vector<uint32_t> slots_;  ///< 1 + the index of a hash in hashes_, 0 when empty
  size_t size_ = 0, capacity_ = 0;
  bool counting_ = false;
};

/// Computes fingerprints, reusing its buffers between calls. Not thread-safe; use one
/// per thread. Memory: about 20 bytes per distinct feature of the longest text, plus the
/// extractor's (tokenizer.h); assigning a new Fingerprinter frees it all.
class Fingerprinter {
 public:
  /// Fingerprint of UTF-8 text (invalid bytes are decoded as U+FFFD, see tokenizer.h).
  uint64_t fingerprint(std::string_view utf8, const FingerprintOptions& options);

  /// Fingerprint of caller-supplied features: tokens[j] weighs weights[j] (or 1 when
  /// `weights` is null). Tokens are hashed as given: no folding or splitting.
  /// @pre weights, when given, are finite.
  uint64_t fingerprintTokens(const std::string_view* tokens, const double* weights, size_t count);

  /// Fingerprint with IDF weights: the tokenizer and weighting are idf.options(), and a
  /// feature weighs idf.weight(hash) per occurrence (tf) or once (binary).
  uint64_t fingerprint(std::string_view utf8, const IdfTable& idf);


 private:
  FeatureExtractor extractor_;
  DistinctHashes distinct_;
  std::vector<uint64_t> hashes_;
  std::vector<double> weights_;
};

/// Convenience wrapper around a temporary Fingerprinter.
uint64_t fingerprint(std::string_view utf8, const FingerprintOptions& options = {});

}  // namespace simhash
