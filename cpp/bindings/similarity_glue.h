#pragma once
// Glue for the similarity declarations at the end of bindings.cpp (similarity.h).
//
// Texts are one UTF-8 buffer and count + 1 byte offsets, pairs two uint32 index arrays, as
// everywhere in the bindings. The sets of one call live in one module-wide ShingleSets
// until _similarityRelease, which the JS layer calls in a finally block: running out of
// memory midway unwinds to JS without destructors, and the release still frees it all.
#include <cstdint>
#include <vector>

#include "simhash/similarity.h"

namespace similarity_glue {

inline simhash::ShingleSets& sets() {
  static simhash::ShingleSets instance;
  return instance;
}

// _similarityJoin's pairs, until _similarityRelease.
inline std::vector<uint32_t>& joined() {
  static std::vector<uint32_t> pairs;
  return pairs;
}

inline void release() {
  sets().clear();
  joined() = {};
}

template <class T>
T* at(uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

// out: pairCount bytes, 1 where similarity(a[p], b[p]) >= threshold.
inline void verifyPairs(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t a, uintptr_t b, uint32_t pairCount,
                        double threshold, uintptr_t out) {
  sets().buildForPairs(at<char>(utf8), at<uint32_t>(offsets), count, at<uint32_t>(a), at<uint32_t>(b), pairCount);
  for (uint32_t p = 0; p < pairCount; ++p) at<uint8_t>(out)[p] = sets().atLeast(at<uint32_t>(a)[p], at<uint32_t>(b)[p], threshold);
  sets().clear();
}

// out: pairCount doubles (8-byte aligned), similarity(a[p], b[p]).
inline void pairSimilarities(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t a, uintptr_t b, uint32_t pairCount,
                             uintptr_t out) {
  sets().buildForPairs(at<char>(utf8), at<uint32_t>(offsets), count, at<uint32_t>(a), at<uint32_t>(b), pairCount);
  for (uint32_t p = 0; p < pairCount; ++p) at<double>(out)[p] = sets().similarity(at<uint32_t>(a)[p], at<uint32_t>(b)[p]);
  sets().clear();
}

// Every pair i < j of the texts with similarity >= threshold > 0, as (i, j) words at
// _similarityResult(); returns the pair count.
inline uint32_t join(uintptr_t utf8, uintptr_t offsets, uint32_t count, double threshold) {
  release();
  sets().build(at<char>(utf8), at<uint32_t>(offsets), count);
  sets().pairsAtLeast(threshold, joined());
  sets().clear();
  return static_cast<uint32_t>(joined().size() / 2);
}

}  // namespace similarity_glue
