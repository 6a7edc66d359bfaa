#include "hamming/equal_fingerprints.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include "random_data.h"
#include "simhash/pairs.h"

using namespace simhash;

namespace {

// The grouping by its definition: each item's group is that of the first item with its fingerprint.
EqualGroups bruteForceGroups(const std::vector<uint64_t>& fps) {
  EqualGroups groups;
  groups.groupOf.resize(fps.size());
  for (uint32_t i = 0; i < fps.size(); ++i) {
    uint32_t first = i;
    for (uint32_t j = 0; j < i; ++j) {
      if (fps[j] == fps[i]) {
        first = j;
        break;
      }
    }
    if (first == i) {
      groups.groupOf[i] = static_cast<uint32_t>(groups.first.size());
      groups.first.push_back(i);
    } else {
      groups.groupOf[i] = groups.groupOf[first];
    }
  }
  return groups;
}

}  // namespace

TEST_CASE("equalGroups numbers groups by first occurrence, copies in sparse and crowded buckets", "[pairs]") {
  // copies: how many times each of a few fingerprints recurs (up to past the 32 a bucket
  // compares item by item), among distinct others.
  const unsigned copies = GENERATE(0u, 1u, 2u, 5u, 31u, 32u, 33u, 200u);
  const size_t distinct = GENERATE(as<size_t>{}, 0, 1, 7, 3000);
  CAPTURE(copies, distinct);
  std::mt19937_64 rng(copies * 31 + distinct);
  std::vector<uint64_t> fps;
  for (size_t i = 0; i < distinct; ++i) fps.push_back(rng());
  for (int repeated = 0; repeated < 3 && copies > 0; ++repeated) {
    const uint64_t fp = repeated == 0 || fps.empty() ? rng() : fps[rng() % fps.size()];
    fps.insert(fps.end(), copies, fp);
  }
  testing::shuffle(fps, rng);
  const EqualGroups got = equalGroups(fps.data(), fps.size());
  const EqualGroups expected = bruteForceGroups(fps);
  CHECK(got.first == expected.first);
  CHECK(got.groupOf == expected.groupOf);
}

TEST_CASE("findPairs lists the pairs of copies with their neighbours and counts the repeated items", "[pairs]") {
  const unsigned k = GENERATE(0u, 3u, 9u);
  CAPTURE(k);
  std::mt19937_64 rng(k + 5);
  std::vector<uint64_t> fps = testing::plantedSet(300, k + 1, rng);
  const size_t planted = fps.size();
  for (size_t i = 0; i < 40; ++i) fps.insert(fps.end(), 1 + i % 3, fps[rng() % planted]);  // copies of near neighbours
  fps.insert(fps.end(), 50, fps[0]);                                                         // a crowded bucket
  testing::shuffle(fps, rng);
  std::vector<Pair> expected;
  for (uint32_t a = 0; a < fps.size(); ++a) {
    for (uint32_t b = a + 1; b < fps.size(); ++b) {
      const unsigned d = hammingDistance(fps[a], fps[b]);
      if (d <= k) expected.push_back({a, b, d});
    }
  }
  size_t distinct = 0;
  for (size_t i = 0; i < fps.size(); ++i) distinct += std::find(fps.begin(), fps.begin() + i, fps[i]) == fps.begin() + i;
  std::vector<Pair> out;
  size_t repeated = 0;
  CHECK(findPairs(fps.data(), fps.size(), k, expected.size(), out, &repeated) == expected.size());
  CHECK(out == expected);
  CHECK(repeated == fps.size() - distinct);
  CHECK(findPairs(fps.data(), fps.size(), k, expected.size() - 1, out, &repeated) == expected.size());
  CHECK(out.empty());
}
