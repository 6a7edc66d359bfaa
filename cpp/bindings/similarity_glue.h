#pragma once
// Glue for the similarity declarations of bindings.cpp (similarity.h).
//
// Texts are one UTF-8 buffer and count + 1 byte offsets, pairs two uint32 index arrays, as
// everywhere in the bindings. Every call owns its shingle sets: a call that ends in one go
// builds them in a local ShingleSets, and a dedup, whose sets outlive its slices, holds a
// ShingleSets handle (searches.h shingleSetsCreate). Nothing here is module-wide, so calls
// that overlap on one instance (a dedup waiting between its slices, and whatever runs
// meanwhile) never see each other's sets. Running out of memory unwinds through the
// destructors (out_of_memory.cpp), so a failed call frees its sets.
#include <cstdint>
#include <vector>

#include "helpers.h"
#include "simhash/similarity.h"

namespace similarity_glue {

using simhash::bindings::at;

// out: pairCount bytes, 1 where similarity(a[p], b[p]) >= threshold.
inline void verifyPairs(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t a, uintptr_t b, uint32_t pairCount,
                        double threshold, uintptr_t out, uint32_t measure, uintptr_t weights) {
  simhash::ShingleSets sets;
  sets.buildForPairs(at<char>(utf8), at<uint32_t>(offsets), count, at<uint32_t>(a), at<uint32_t>(b), pairCount,
                     simhash::bindings::shingleOptionsOf(measure, weights));
  for (uint32_t p = 0; p < pairCount; ++p) at<uint8_t>(out)[p] = sets.atLeast(at<uint32_t>(a)[p], at<uint32_t>(b)[p], threshold);
}

// out: pairCount doubles (8-byte aligned), similarity(a[p], b[p]).
inline void pairSimilarities(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t a, uintptr_t b, uint32_t pairCount,
                             uintptr_t out, uint32_t measure, uintptr_t weights) {
  simhash::ShingleSets sets;
  sets.buildForPairs(at<char>(utf8), at<uint32_t>(offsets), count, at<uint32_t>(a), at<uint32_t>(b), pairCount,
                     simhash::bindings::shingleOptionsOf(measure, weights));
  for (uint32_t p = 0; p < pairCount; ++p) at<double>(out)[p] = sets.similarity(at<uint32_t>(a)[p], at<uint32_t>(b)[p]);
}

// Every pair i < j of the texts with similarity >= threshold > 0, as (i, j) words in the
// result buffer (helpers.h); returns the pair count.
inline uint32_t join(uintptr_t utf8, uintptr_t offsets, uint32_t count, double threshold, uint32_t measure) {
  simhash::ShingleSets sets;
  sets.build(at<char>(utf8), at<uint32_t>(offsets), count, simhash::bindings::shingleOptionsOf(measure));
  std::vector<uint32_t> pairs;
  sets.pairsAtLeast(threshold, pairs);
  simhash::bindings::result().assign(pairs.begin(), pairs.end());
  return static_cast<uint32_t>(pairs.size() / 2);
}

}  // namespace similarity_glue
