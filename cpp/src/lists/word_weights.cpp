#include "simhash/word_weights.h"

#include <algorithm>
#include <string_view>

#include "simhash/fingerprint.h"
#include "text/unicode.h"

namespace simhash {

namespace {

// Calls word(start, end) for each word [start, end) of list-normalized code points.
template <class Word>
void forEachWord(const char32_t* cps, size_t n, Word word) {
  for (size_t i = 0; i < n;) {
    if (cps[i] == U' ') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < n && cps[end] != U' ') ++end;
    word(i, end);
    i = end;
  }
}

uint64_t hashOfWord(const char32_t* cps, size_t n, std::vector<char>& utf8) {
  if (utf8.size() < 4 * n) utf8.resize(4 * n);
  size_t length = 0;
  for (size_t i = 0; i < n; ++i) length += unicode::encodeUtf8(cps[i], utf8.data() + length);
  return hashFeature(std::string_view(utf8.data(), length));
}

}  // namespace

unsigned wordWeight(uint32_t n, uint32_t df) {
  // floor(log2((n + 1) / (df + 1))): the largest k with (df + 1) 2^k <= n + 1.
  const uint64_t total = uint64_t{n} + 1, held = uint64_t{df} + 1;
  unsigned k = 0;
  while (k < WordWeights::kMaxWeight && (held << (k + 1)) <= total) ++k;
  return std::max(1u, k);
}

void WordWeights::count(const char32_t* cps, size_t n) {
  std::vector<char> utf8;
  const size_t first = pending_.size();
  forEachWord(cps, n, [&](size_t start, size_t end) { pending_.push_back(hashOfWord(cps + start, end - start, utf8)); });
  // Each word once a text.
  std::sort(pending_.begin() + static_cast<std::ptrdiff_t>(first), pending_.end());
  pending_.erase(std::unique(pending_.begin() + static_cast<std::ptrdiff_t>(first), pending_.end()), pending_.end());
  ++texts_;
}

void WordWeights::finish() {
  std::sort(pending_.begin(), pending_.end());
  // Each run of one hash is a word and the texts holding it; the hashes in place.
  size_t words = 0;
  counts_.resize(pending_.size());
  for (size_t k = 0; k < pending_.size();) {
    size_t end = k + 1;
    while (end < pending_.size() && pending_[end] == pending_[k]) ++end;
    counts_[words] = static_cast<uint32_t>(end - k);
    pending_[words++] = pending_[k];
    k = end;
  }
  pending_.resize(words);
  counts_.resize(words);
  hashes_ = std::move(pending_);
  std::vector<uint64_t>().swap(pending_);
}

bool WordWeights::assign(uint32_t texts, const uint64_t* hashes, const uint32_t* counts, size_t words) {
  for (size_t i = 0; i < words; ++i) {
    if ((i > 0 && hashes[i] <= hashes[i - 1]) || counts[i] == 0 || counts[i] > texts) return false;
  }
  texts_ = texts;
  hashes_.resize(words);
  counts_.resize(words);
  std::copy(hashes, hashes + words, hashes_.data());
  std::copy(counts, counts + words, counts_.data());
  return true;
}

std::unique_ptr<WordWeights> WordWeights::copy() const {
  auto weights = std::make_unique<WordWeights>();
  weights->assign(texts_, hashes_.data(), counts_.data(), hashes_.size());
  return weights;
}

unsigned WordWeights::weight(uint64_t wordHash) const {
  const auto it = std::lower_bound(hashes_.begin(), hashes_.end(), wordHash);
  const uint32_t df = it != hashes_.end() && *it == wordHash ? counts_[static_cast<size_t>(it - hashes_.begin())] : 0;
  return wordWeight(texts_, df);
}

[[gnu::noinline]] void bigramWeights(const char32_t* cps, size_t n, const WordWeights& weights, uint8_t* out) {
  std::vector<char> utf8;
  forEachWord(cps, n, [&](size_t start, size_t end) {
    const auto w = static_cast<uint8_t>(weights.weight(hashOfWord(cps + start, end - start, utf8)));
    // The bigram that enters the word from the space before it, and those starting in it
    // (the last one leaves it for the space after it).
    if (start > 0) out[start - 1] = w;
    for (size_t i = start; i < end; ++i) out[i] = w;
  });
}

}  // namespace simhash
