#pragma once
// Inverse document frequency weights learned from the caller's own corpus.
//
// A feature found in few documents says more about a text than one found in most, so
// with IDF weighting feature j weighs idf(h_j) per occurrence (`tf`) or once (`binary`)
// instead of 1. Weights are integers, so fingerprints are exact on every platform:
//   idf(h) = floor(kIdfScale * (ln((N + 1) / (df(h) + 1)) + 1) + 0.5)
// where N is the number of documents learned from and df(h) the number containing the
// feature with hash h; a feature never seen (df = 0) gets the largest weight, the
// table's unseenWeight(). Serialized tables carry their weights, so they fingerprint the
// same everywhere, whichever libm computed the logarithms.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "simhash/fingerprint.h"
#include "simhash/status.h"

namespace simhash {

constexpr double kIdfScale = 256;

/// Caller flags the JS layer sets (IdfTable::callerFlags): bit 0 NFKC, bit 1 Intl.Segmenter,
/// whose tokens reach the core in TokenizerMode::Separated.
constexpr uint8_t kCallerFlagNfkc = 1;
constexpr uint8_t kCallerFlagSegmenter = 2;
constexpr uint8_t kCallerFlagsKnown = kCallerFlagNfkc | kCallerFlagSegmenter;

/// Learned weights: feature hash -> integer weight, plus the options the features came from.
class IdfTable {
 public:
  /// The weight of a feature hash. Cost: O(log features()).
  uint32_t weight(uint64_t hash) const;
  uint32_t unseenWeight() const { return unseenWeight_; }
  uint32_t documents() const { return documents_; }
  size_t features() const { return hashes_.size(); }
  /// Options the weights were learned with; fingerprints must use the same tokenizer.
  const FingerprintOptions& options() const { return options_; }
  /// Preprocessing a caller applied before the core saw the text (kCallerFlag*): stored and
  /// compared, never applied by the core.
  uint8_t callerFlags() const { return callerFlags_; }

  /// Versioned, checksummed bytes (docs/formats.md "Serialized IDF format").
  std::vector<uint8_t> serialize() const;
  /// @return Ok, or CorruptData with a reason in `error` for truncated, damaged or
  /// inconsistent bytes; `out` is untouched then. Accepted are exactly the tables an
  /// IdfLearner can produce, field by field: known options and caller flags (the
  /// segmenter flag only with TokenizerMode::Separated), no features iff no documents,
  /// the unseen weight of N documents, each weight within those of 1..N documents.
  static Status deserialize(const uint8_t* data, size_t size, IdfTable& out, std::string& error);

 private:
  friend class IdfLearner;
  FingerprintOptions options_;
  uint8_t callerFlags_ = 0;
  uint32_t documents_ = 0;
  uint32_t unseenWeight_ = 1;
  std::vector<uint64_t> hashes_;   ///< sorted, distinct
  std::vector<uint32_t> weights_;  ///< weights_[i] belongs to hashes_[i]
};

/// Counts document frequencies, one document at a time. Memory: 8 bytes per distinct
/// feature of each document until table() is built.
class IdfLearner {
 public:
  /// @pre isValid(options.tokenizer); callerFlags <= kCallerFlagsKnown, with
  /// kCallerFlagSegmenter only in TokenizerMode::Separated.
  explicit IdfLearner(const FingerprintOptions& options, uint8_t callerFlags = 0);
  void addDocument(std::string_view utf8);
  /// The table for the documents so far. Cost: O(distinct features × log).
  IdfTable table() const;
  /// Frees the tokenizer's scratch buffers (the documents learned from stay).
  void releaseScratch();

 private:
  FingerprintOptions options_;
  uint8_t callerFlags_;
  FeatureExtractor extractor_;
  DistinctHashes distinct_;
  std::vector<uint64_t> seen_;  ///< each document's distinct feature hashes, appended
  uint32_t documents_ = 0;
};

}  // namespace simhash
