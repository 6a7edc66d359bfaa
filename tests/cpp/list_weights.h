#pragma once
// Test helper: word weights learned from a list, as dedup learns them for the short measure.
#include <string>
#include <vector>

#include "simhash/similarity.h"
#include "simhash/word_weights.h"

namespace list_weights {

inline simhash::WordWeights learnWeights(const std::vector<std::string>& list) {
  simhash::WordWeights weights;
  std::vector<char32_t> cps;
  for (const std::string& text : list) {
    simhash::normalizeForSimilarity(text, cps, simhash::Normalization::kList);
    weights.count(cps.data(), cps.size());
  }
  weights.finish();
  return weights;
}

}  // namespace list_weights
