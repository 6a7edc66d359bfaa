#pragma once
// Word weights of the short-string similarity (similarity.h Normalization::kList): a word
// that few texts of a list hold says more about a text than one that many hold (Inc, Corp,
// Street, a common first name), so each bigram of a word counts as many times as the word
// weighs (README "Similarity of short strings"):
//   weight(word) = min(8, max(1, floor(log2((N + 1) / (df + 1)))))
// N the texts learned from, df how many of them hold the word (0 for a word never seen).
// Words are the maximal runs of code points other than U+0020 of a list-normalized text,
// identified by XXH3_64bits (seed 0) of their UTF-8. Integer arithmetic only, so a table
// weighs identically in every build.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace simhash {

class WordWeights {
 public:
  static constexpr unsigned kMaxWeight = 8;

  /// Counts the words of one list-normalized text (code points cps[0, n)), each once.
  /// Counted words take effect at finish(). Cost O(n) plus 8 bytes a word until finish().
  /// @pre finish() not called yet.
  void count(const char32_t* cps, size_t n);
  /// Makes the table of the words counted. Cost O(W log W). @pre called once.
  void finish();

  /// A table of `texts` texts and words hashes[i] held by counts[i] of them. @return false
  /// (and the table unchanged) unless the hashes ascend strictly and every count is within
  /// 1..texts.
  bool assign(uint32_t texts, const uint64_t* hashes, const uint32_t* counts, size_t words);

  /// A copy of these weights. (The copy constructor is deleted: inlined at each use, copies
  /// took their share of the download.)
  std::unique_ptr<WordWeights> copy() const;
  WordWeights() = default;
  WordWeights(const WordWeights&) = delete;
  WordWeights& operator=(const WordWeights&) = delete;
  WordWeights(WordWeights&&) noexcept = default;
  WordWeights& operator=(WordWeights&&) noexcept = default;

  /// The weight of the word with this hash. Cost O(log words()).
  unsigned weight(uint64_t wordHash) const;
  uint32_t texts() const { return texts_; }
  size_t words() const { return hashes_.size(); }
  const std::vector<uint64_t>& hashes() const { return hashes_; }
  const std::vector<uint32_t>& counts() const { return counts_; }

 private:
  uint32_t texts_ = 0;
  std::vector<uint64_t> pending_;  ///< the hashes counted since the last finish()
  std::vector<uint64_t> hashes_;   ///< ascending, distinct
  std::vector<uint32_t> counts_;   ///< counts_[i]: the texts holding hashes_[i]
};

/// The weight of a word held by df of n texts (the definition above).
unsigned wordWeight(uint32_t n, uint32_t df);

/// For list-normalized code points cps[0, n): out[i] = the weight of the word the bigram
/// starting at i belongs to (that of cps[i], or of cps[i + 1] when cps[i] is U+0020), for
/// i < n - 1. Cost O(n) hashing plus a lookup a word.
void bigramWeights(const char32_t* cps, size_t n, const WordWeights& weights, uint8_t* out);

}  // namespace simhash
