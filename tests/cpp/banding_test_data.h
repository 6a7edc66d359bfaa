#pragma once
// Test data and helpers shared by the tests of the banding searches (similar_groups_test.cpp,
// review_pairs_test.cpp).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "simhash/similar_groups.h"
#include "simhash/similarity.h"

namespace banding_test {

// Short texts as users deduplicate them: words of a small vocabulary (so unrelated texts
// share many shingles), each base followed by variants with 1-3 word edits, which span
// the whole range of similarity around the thresholds; plus texts that normalize to the
// same string or to nothing. Bases have minWords to maxWords words.
inline std::vector<std::string> shortTexts(unsigned seed, size_t bases, size_t minWords = 3, size_t maxWords = 25) {
  static const char* const kWords[] = {"the",  "cat",  "sat",   "on",    "mat",   "dog",  "ran",   "far",   "away", "from",
                                       "home", "and",  "then",  "came",  "back",  "to",   "sleep", "under", "a",    "tree",
                                       "big",  "red",  "house", "river", "light", "fast", "slow",  "green", "over", "hill"};
  std::mt19937 rng(seed);
  auto word = [&] { return std::string(kWords[std::uniform_int_distribution<size_t>(0, std::size(kWords) - 1)(rng)]); };
  std::vector<std::string> texts;
  for (size_t b = 0; b < bases; ++b) {
    std::vector<std::string> words(std::uniform_int_distribution<size_t>(minWords, maxWords)(rng));
    for (std::string& w : words) w = word();
    auto join = [](const std::vector<std::string>& ws) {
      std::string text;
      for (const std::string& w : ws) text += (text.empty() ? "" : " ") + w;
      return text;
    };
    texts.push_back(join(words));
    for (int v = std::uniform_int_distribution<int>(0, 3)(rng); v > 0; --v) {
      std::vector<std::string> edited = words;
      for (int e = std::uniform_int_distribution<int>(1, 3)(rng); e > 0; --e) {
        const size_t at = std::uniform_int_distribution<size_t>(0, edited.size() - 1)(rng);
        if (e % 3 == 0 && edited.size() > 1) edited.erase(edited.begin() + static_cast<long>(at));
        else if (e % 3 == 1) edited.insert(edited.begin() + static_cast<long>(at), word());
        else edited[at] = word();
      }
      texts.push_back(join(edited));
    }
  }
  texts.push_back("");
  texts.push_back("!!!");  // normalizes to nothing, as the empty text
  texts.push_back("The cat, sat!");
  texts.push_back("the cat sat");  // the same normalized text as the one before
  return texts;
}

// Paragraph-length texts of the same kind: bases of 80-120 words (about 400 characters,
// long sets: similar_groups.h kLongMeanShingles), where 1-3 word edits leave a variant
// at 0.9 or more; so every few bases, variants with up to a fifth of their words edited.
inline std::vector<std::string> longTexts(unsigned seed, size_t bases) {
  std::vector<std::string> texts = shortTexts(seed, bases, 80, 120);
  std::mt19937 rng(seed + 1);
  const size_t bodies = texts.size() - 4;  // the four texts shortTexts ends with stay last
  std::vector<std::string> edits;
  for (size_t t = 0; t < bodies; t += 5) {
    std::string edited = texts[t];
    for (int e = std::uniform_int_distribution<int>(2, 20)(rng); e > 0; --e) {
      const size_t at = std::uniform_int_distribution<size_t>(0, edited.size())(rng);
      edited.insert(at, std::uniform_int_distribution<int>(0, 1)(rng) ? " far " : " slow tree ");
    }
    edits.push_back(edited);
  }
  texts.insert(texts.begin() + static_cast<long>(bodies), edits.begin(), edits.end());
  return texts;
}

struct Built {
  std::vector<std::string> texts;
  simhash::ShingleSets sets;
  explicit Built(std::vector<std::string> all, const simhash::ShingleOptions& options = {}) : texts(std::move(all)) {
    std::string utf8;
    std::vector<uint32_t> offsets{0};
    for (const std::string& t : texts) {
      utf8 += t;
      offsets.push_back(static_cast<uint32_t>(utf8.size()));
    }
    sets.build(utf8.data(), offsets.data(), static_cast<uint32_t>(texts.size()), options);
  }
  uint32_t count() const { return static_cast<uint32_t>(texts.size()); }
};

// Every text's band keys, read once: whether texts a and b share a band (candidates).
class BandKeys {
 public:
  BandKeys(simhash::SimilarGroups& groups, unsigned bands, uint32_t count) : bands_(bands), keys_(size_t{bands} * count) {
    for (uint32_t i = 0; i < count; ++i) groups.bandKeys(i, keys_.data() + size_t{bands} * i);
  }
  bool shared(uint32_t a, uint32_t b) const {
    for (unsigned j = 0; j < bands_; ++j) {
      if (keys_[size_t{bands_} * a + j] == keys_[size_t{bands_} * b + j]) return true;
    }
    return false;
  }

 private:
  unsigned bands_;
  std::vector<uint32_t> keys_;
};

inline std::vector<uint32_t> run(simhash::SimilarGroups& groups, size_t budget) {
  while (!groups.run(budget)) {
  }
  return groups.takeLabels();
}

}  // namespace banding_test
