#include "simhash/pairs.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include "blocks.h"
#include "random_data.h"
#include "simhash/hamming.h"

using namespace simhash;

namespace {

std::vector<Pair> bruteForcePairs(const std::vector<uint64_t>& fps, unsigned k) {
  std::vector<Pair> out;
  for (uint32_t a = 0; a < fps.size(); ++a)
    for (uint32_t b = a + 1; b < fps.size(); ++b) {
      const unsigned d = hammingDistance(fps[a], fps[b]);
      if (d <= k) out.push_back({a, b, d});
    }
  return out;
}

// The leader rule, literally: in index order, each item joins the earliest leader within k.
std::vector<uint32_t> bruteForceLeaders(const std::vector<uint64_t>& fps, unsigned k, size_t& skippedNeighbours) {
  std::vector<uint32_t> leaderOf(fps.size());
  for (uint32_t j = 0; j < fps.size(); ++j) {
    leaderOf[j] = j;
    bool sawNeighbour = false;
    for (uint32_t i = 0; i < j; ++i) {
      if (hammingDistance(fps[i], fps[j]) > k) continue;
      if (leaderOf[i] == i) {
        leaderOf[j] = i;
        skippedNeighbours += sawNeighbour;  // an earlier neighbour that was no leader was passed over
        break;
      }
      sawNeighbour = true;
    }
  }
  return leaderOf;
}

}  // namespace

TEST_CASE("leaderLabels equals the leader rule applied by brute force", "[pairs]") {
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u, 16u);
  const size_t bases = GENERATE(size_t{1}, size_t{50}, size_t{700}, size_t{2500});
  CAPTURE(k, bases);
  std::mt19937_64 rng(k * 104729 + bases);
  std::vector<uint64_t> fps = testing::plantedSet(bases, k + 2, rng);
  fps.push_back(fps.front());  // an exact duplicate
  size_t skipped = 0;
  const std::vector<uint32_t> expected = bruteForceLeaders(fps, k, skipped);
  REQUIRE(leaderLabels(fps.data(), fps.size(), k) == expected);
  // With neighbours planted at every distance up to k + 2, some item's earliest neighbour
  // is itself a follower, so the test tells "earliest leader" from "earliest neighbour".
  if (bases >= 700 && k >= 1) CHECK(skipped > 0);
}

TEST_CASE("every block layout gives the same leaders", "[pairs][blocks]") {
  const unsigned k = GENERATE(0u, 1u, 3u, 6u);
  std::mt19937_64 rng(k + 29);
  const std::vector<uint64_t> fps = testing::plantedSet(300, k + 2, rng);
  size_t skipped = 0;
  const std::vector<uint32_t> expected = bruteForceLeaders(fps, k, skipped);
  for (unsigned b = k + 1; b <= std::min(k + 6, 64u); ++b) {
    CAPTURE(k, b);
    REQUIRE(leaderLabels(fps.data(), fps.size(), BlockLayout::withBlocks(k, b)) == expected);
  }
  REQUIRE(leaderLabels(fps.data(), fps.size(), BlockLayout::withBlocks(k, 0)) == expected);
  CHECK(leaderLabels(nullptr, 0, k).empty());
}

TEST_CASE("leaderLabels: neighbours beyond k that look near when folded to 32 bits", "[pairs]") {
  // The lookup screens leaders by popcount of (x ^ x >> 32) truncated to 32 bits, which
  // never exceeds the distance; bits flipped in pairs 32 apart cancel there, so these
  // items pass the screen at distance 0 and must still be rejected by the full distance.
  const unsigned k = GENERATE(1u, 3u, 6u);
  CAPTURE(k);
  std::mt19937_64 rng(k + 71);
  std::vector<uint64_t> fps;
  for (int base = 0; base < 400; ++base) {
    const uint64_t fp = rng();
    fps.push_back(fp);
    for (unsigned pairsFlipped = 1; pairsFlipped <= k / 2 + 2; ++pairsFlipped) {
      uint64_t mask = 0;
      while (static_cast<unsigned>(__builtin_popcountll(mask)) < 2 * pairsFlipped) {
        const unsigned bit = rng() % 32;
        mask |= (uint64_t{1} << bit) | (uint64_t{1} << (bit + 32));
      }
      fps.push_back(fp ^ mask);  // distance 2 * pairsFlipped: within k for the first few only
    }
  }
  testing::shuffle(fps, rng);
  size_t skipped = 0;
  const std::vector<uint32_t> expected = bruteForceLeaders(fps, k, skipped);
  REQUIRE(leaderLabels(fps.data(), fps.size(), k) == expected);
  for (unsigned b = k + 1; b <= k + 3; ++b) REQUIRE(leaderLabels(fps.data(), fps.size(), BlockLayout::withBlocks(k, b)) == expected);
}

TEST_CASE("findPairs equals brute force on planted neighbours", "[pairs]") {
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u);
  const size_t bases = GENERATE(size_t{1}, size_t{50}, size_t{700}, size_t{2500});
  CAPTURE(k, bases);
  std::mt19937_64 rng(k * 7919 + bases);
  std::vector<uint64_t> fps = testing::plantedSet(bases, k + 2, rng);
  fps.push_back(fps.front());  // an exact duplicate
  const std::vector<Pair> expected = bruteForcePairs(fps, k);
  const std::vector<Pair> got = findPairs(fps.data(), fps.size(), k);
  CHECK(got.size() == expected.size());
  REQUIRE(got == expected);
  // Every planted distance 0..k occurs, so the test covers the boundary.
  std::vector<bool> distances(k + 1, false);
  for (const Pair& p : got) distances[p.distance] = true;
  for (unsigned d = 0; d <= k; ++d) CHECK(distances[d]);
}

TEST_CASE("every block layout finds the same pairs as brute force", "[pairs][blocks]") {
  // The automatic choice depends on n; forcing each b checks the layouts it could pick.
  const unsigned k = GENERATE(0u, 1u, 3u, 6u);
  std::mt19937_64 rng(k + 11);
  const std::vector<uint64_t> fps = testing::plantedSet(300, k + 2, rng);
  const std::vector<Pair> expected = bruteForcePairs(fps, k);
  for (unsigned b = k + 1; b <= std::min(k + 6, 64u); ++b) {
    CAPTURE(k, b);
    REQUIRE(findPairs(fps.data(), fps.size(), BlockLayout::withBlocks(k, b)) == expected);
  }
  REQUIRE(findPairs(fps.data(), fps.size(), BlockLayout::withBlocks(k, 0)) == expected);
}

TEST_CASE("findPairs on no or one fingerprint", "[pairs]") {
  const uint64_t one = 5;
  CHECK(findPairs(nullptr, 0, 3).empty());
  CHECK(findPairs(&one, 1, 3).empty());
}

TEST_CASE("identical fingerprints are all reported, each pair once", "[pairs]") {
  const std::vector<uint64_t> fps(50, 0xABCDEFull);
  const std::vector<Pair> got = findPairs(fps.data(), fps.size(), 3);
  CHECK(got.size() == 50 * 49 / 2);
  CHECK(got == bruteForcePairs(fps, 3));
}

TEST_CASE("component labels are each component's smallest index", "[pairs]") {
  // 0-3-5 chain, 1-4, 2 alone, 6-7
  const std::vector<Pair> pairs = {{3, 5, 1}, {0, 3, 2}, {1, 4, 0}, {6, 7, 3}};
  CHECK(componentLabels(8, pairs) == std::vector<uint32_t>{0, 1, 2, 0, 1, 0, 6, 6});
  CHECK(componentLabels(0, {}).empty());

  std::mt19937_64 rng(21);
  std::vector<Pair> random;
  const uint32_t n = 2000;
  for (int i = 0; i < 1500; ++i) {
    uint32_t a = rng() % n, b = rng() % n;
    if (a > b) std::swap(a, b);
    if (a != b) random.push_back({a, b, 0});
  }
  // Reference: repeat min-label propagation until nothing changes.
  std::vector<uint32_t> label(n);
  for (uint32_t i = 0; i < n; ++i) label[i] = i;
  for (bool changed = true; changed;) {
    changed = false;
    for (const Pair& p : random) {
      const uint32_t m = std::min(label[p.a], label[p.b]);
      if (label[p.a] != m || label[p.b] != m) changed = true;
      label[p.a] = label[p.b] = m;
    }
  }
  CHECK(componentLabels(n, random) == label);
}
