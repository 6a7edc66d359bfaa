#include "simhash/pairs.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <random>
#include <string>

#include "hamming/partition.h"
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

using testing::Data;
using testing::makeSet;
using testing::nameOf;

// Thresholds summing to k + 1 over m parts, dealt round-robin (parts past k + 1 get -1).
Partition dealt(unsigned k, unsigned m) {
  std::vector<int> t(m, -1);
  for (unsigned i = 0; i <= k; ++i) ++t[i % m];
  return Partition::withThresholds(k, m, t);
}

std::vector<Pair> runInSlices(PairSearch& search, size_t budget) {
  std::vector<Pair> pairs;
  size_t calls = 0;
  while (!search.run(budget, &pairs)) ++calls;
  CHECK(search.progress() == 1.0);
  sortPairs(pairs);
  return pairs;
}

}  // namespace

namespace {

// The part counts the exhaustive check forces on the search, beyond what choose() picks.
constexpr unsigned kForcedPartCounts[] = {3, 4, 5, 8, 16};

// Every forced partition, the pair search in slices and leader lookups, against brute force;
// three parts only with `threeParts`: they give the widest directories (2^21-2^22 buckets
// per part, whatever the items), 0.5-1.5 s a k under ASan, more as the probes grow with k.
void checkForcedPartitions(unsigned k, const std::vector<uint64_t>& fps, bool threeParts) {
  const std::vector<Pair> expected = bruteForcePairs(fps, k);
  size_t skipped = 0;
  const std::vector<uint32_t> leaders = bruteForceLeaders(fps, k, skipped);
  for (unsigned m : kForcedPartCounts) {
    if (m == 3 && !threeParts) continue;
    CAPTURE(m);
    const Partition partition = dealt(k, m);
    PairSearch search(fps.data(), fps.size(), partition);
    REQUIRE(runInSlices(search, 300) == expected);
    LeaderSearch lookups(fps.data(), fps.size(), k, LeaderSearch::Path::Lookups, &partition);
    lookups.run(SIZE_MAX);
    REQUIRE(lookups.takeLabels() == leaders);
  }
}

// findPairs, leaderLabels and both leader paths against brute force on 150 bases of each
// data kind, with neighbours planted at distances k - 2 .. k + 2; then every forced
// partition (three-part ones with `threeParts`): on each kind's 150 bases (full), or on
// `forcedBases` bases of each kind, the four kinds together (one directory build per
// partition instead of four).
void checkAgainstBruteForce(unsigned k, size_t forcedBases, bool full, bool threeParts) {
  CAPTURE(k, forcedBases);
  std::vector<uint64_t> together;
  for (Data data : {Data::Uniform, Data::BiasedBits, Data::Clustered, Data::Duplicates}) {
    CAPTURE(nameOf(data));
    std::mt19937_64 rng(k * 7919 + static_cast<unsigned>(data));
    const std::vector<uint64_t> fps = makeSet(data, 150, k, rng);
    const std::vector<Pair> expected = bruteForcePairs(fps, k);
    REQUIRE(findPairs(fps.data(), fps.size(), k) == expected);
    size_t skipped = 0;
    const std::vector<uint32_t> leaders = bruteForceLeaders(fps, k, skipped);
    REQUIRE(leaderLabels(fps.data(), fps.size(), k) == leaders);
    // Both leader paths, whatever the sample would pick.
    for (auto path : {LeaderSearch::Path::Pairs, LeaderSearch::Path::Lookups}) {
      LeaderSearch search(fps.data(), fps.size(), k, path);
      while (!search.run(500)) {
      }
      REQUIRE(search.takeLabels() == leaders);
    }
    // Every planted distance k-2..k (those within k) occurs.
    std::vector<bool> distances(k + 1, false);
    for (const Pair& p : expected) distances[p.distance] = true;
    for (unsigned d = k < 2 ? 0 : k - 2; d <= k; ++d) CHECK(distances[d]);
    // Forced partitions reach what choose() does not pick at this size: every part count,
    // thresholds from -1 up.
    if (full) {
      checkForcedPartitions(k, fps, threeParts);
    } else {
      const std::vector<uint64_t> forced = forcedBases == 150 ? fps : makeSet(data, forcedBases, k, rng);
      together.insert(together.end(), forced.begin(), forced.end());
    }
  }
  if (!full) checkForcedPartitions(k, together, threeParts);
}

// A forced partition's join and lookups cost items × probes, plus a directory of 2^width
// buckets per part (2^21-2^22 for 3 parts) whatever the items. The probes of the dealt
// partitions grow from 5 at k = 0 to about 10^6 at k = 24 (3 parts with thresholds 7-8), so
// one size is either trivial at small k or minutes long at large k. This sizes each kind's
// share to about 3 × 10^5 base-probes, between 1 and 150 bases: 150 up to k = 8, 21 at
// k = 12, 1 from k = 18 on (each base brings its neighbours at k - 2 .. k + 2).
size_t forcedBasesAt(unsigned k) {
  size_t probes = 0;
  for (unsigned m : kForcedPartCounts) {
    const Partition partition = dealt(k, m);
    for (size_t i = 0; i < partition.partCount(); ++i) probes += partition.part(i).probes.size();
  }
  return std::clamp<size_t>(300000 / probes, 1, 150);
}

}  // namespace

TEST_CASE("findPairs and leaderLabels and components equal brute force at every k from 0 to 24", "[pairs]") {
  const unsigned k = GENERATE(range(0u, 25u));
  checkAgainstBruteForce(k, forcedBasesAt(k), false, false);
}

// Three-part partitions at one k of each remainder of k / 3 (how the thresholds spread over
// the parts), one small, one middle and one large (18: 0.7 s under ASan, where 24 took 1.5 s).
TEST_CASE("three-part partitions equal brute force at k = 2, 10 and 18", "[pairs]") {
  const unsigned k = GENERATE(2u, 10u, 18u);
  checkAgainstBruteForce(k, forcedBasesAt(k), false, true);
}

// The same with the forced partitions on 150 bases of each kind at every k, the long
// suite's (npm run test:long).
TEST_CASE("findPairs and leaderLabels and components equal brute force at every k from 0 to 24, 150 bases each", "[pairs][.full]") {
  const unsigned k = GENERATE(range(0u, 25u));
  checkAgainstBruteForce(k, 150, true, true);
}

TEST_CASE("leader search with an acceptance test equals the rule with the test, on both paths", "[pairs]") {
  // An item joins the earliest leader within k that the test accepts. The test here is a
  // fixed pseudo-random relation of the pair (about 2 in 3 accepted), as a similarity is.
  const unsigned k = GENERATE(0u, 3u, 8u, 12u, 16u);
  const Data data = GENERATE(Data::Uniform, Data::Clustered, Data::Duplicates);
  CAPTURE(k, nameOf(data));
  std::mt19937_64 rng(k * 131 + static_cast<unsigned>(data));
  const std::vector<uint64_t> fps = makeSet(data, 150, k, rng);
  const auto accept = [](void*, uint32_t leader, uint32_t item) { return (leader * 2654435761u ^ item * 40503u) % 3 != 0; };
  std::vector<uint32_t> expected(fps.size());
  for (uint32_t j = 0; j < fps.size(); ++j) {
    expected[j] = j;
    for (uint32_t i = 0; i < j; ++i) {
      if (hammingDistance(fps[i], fps[j]) <= k && expected[i] == i && accept(nullptr, i, j)) {
        expected[j] = i;
        break;
      }
    }
  }
  size_t joined = 0;
  for (uint32_t j = 0; j < fps.size(); ++j) joined += expected[j] != j;
  CHECK(joined > 0);
  for (auto path : {LeaderSearch::Path::Pairs, LeaderSearch::Path::Lookups}) {
    LeaderSearch search(fps.data(), fps.size(), k, path);
    search.setAccept(accept, nullptr);
    while (!search.run(300)) {
    }
    REQUIRE(search.takeLabels() == expected);
  }
  LeaderSearch chosen(fps.data(), fps.size(), k);
  chosen.setAccept(accept, nullptr);
  while (!chosen.run(SIZE_MAX)) {
  }
  REQUIRE(chosen.takeLabels() == expected);
}

TEST_CASE("chosen partitions on larger sets equal brute force", "[pairs]") {
  const unsigned k = GENERATE(0u, 3u, 6u, 8u, 10u, 12u, 16u);
  const Data data = GENERATE(Data::Uniform, Data::BiasedBits, Data::Clustered);
  CAPTURE(k, nameOf(data));
  std::mt19937_64 rng(k * 104729 + static_cast<unsigned>(data));
  const std::vector<uint64_t> fps = makeSet(data, 1200, k, rng);  // about 7,000 items
  const std::vector<Pair> expected = bruteForcePairs(fps, k);
  PairSearch probe(fps.data(), fps.size(), k);
  CAPTURE(probe.partCount());
  REQUIRE(findPairs(fps.data(), fps.size(), k) == expected);
  size_t skipped = 0;
  const std::vector<uint32_t> leaders = bruteForceLeaders(fps, k, skipped);
  REQUIRE(leaderLabels(fps.data(), fps.size(), k) == leaders);
  LeaderSearch lookups(fps.data(), fps.size(), k, LeaderSearch::Path::Lookups);
  lookups.run(SIZE_MAX);
  REQUIRE(lookups.takeLabels() == leaders);
  // With neighbours planted at every distance around k, some item's earliest neighbour is
  // itself a follower, so the test tells "earliest leader" from "earliest neighbour".
  if (k >= 1) CHECK(skipped > 0);
  CHECK(componentLabels(fps.size(), findPairs(fps.data(), fps.size(), k)) == componentLabels(fps.size(), expected));
}

namespace {

// Each shard count's searches, each run in slices of each budget, together equal findPairs
// on `bases` clustered bases (and their neighbours) at k, itself checked by brute force once.
void checkShards(unsigned k, size_t bases) {
  CAPTURE(k, bases);
  std::mt19937_64 rng(k + 100 * bases);
  const std::vector<uint64_t> fps = makeSet(Data::Clustered, bases, k, rng);
  const std::vector<Pair> expected = findPairs(fps.data(), fps.size(), k);
  REQUIRE(expected == bruteForcePairs(fps, k));
  for (unsigned shards : {1u, 2u, 3u, 7u}) {
    for (size_t budget : {size_t{1}, size_t{1000}, SIZE_MAX}) {
      CAPTURE(shards, budget);
      std::vector<Pair> all;
      for (unsigned s = 0; s < shards; ++s) {
        PairSearch search(fps.data(), fps.size(), k, s, shards);
        std::vector<Pair> part = runInSlices(search, budget);
        CHECK(search.pairsFound() == part.size());
        all.insert(all.end(), part.begin(), part.end());
      }
      sortPairs(all);
      REQUIRE(all == expected);  // no pair twice, none missing
    }
  }
}

}  // namespace

TEST_CASE("shards are disjoint and together equal findPairs and slices resume exactly", "[pairs]") {
  checkShards(GENERATE(0u, 3u, 8u, 12u, 24u), 150);
}

// The same on 400 bases, the long suite's (npm run test:long).
TEST_CASE("shards are disjoint and together equal findPairs and slices resume exactly, 400 bases", "[pairs][.full]") {
  checkShards(GENERATE(0u, 3u, 8u, 12u, 24u), 400);
}

namespace {

// Part 0 (the low 16 bits of 4 x 16) with threshold 2; the rest of k + 1 dealt to parts 1-3.
Partition lowPartThreshold2(unsigned k) {
  std::vector<int> t = {2, -1, -1, -1};
  for (unsigned i = 3; i <= k; ++i) ++t[1 + i % 3];
  return Partition::withThresholds(k, 4, t);
}

// `sizes[key]` items in the bucket of each low-16-bit key (empty ones too), every other one
// followed by a neighbour at distance k - 2 .. k + 2 (bits anywhere: some stay in the
// bucket, some move to a neighbouring one).
std::vector<uint64_t> bucketsOfSizes(const std::vector<uint32_t>& sizes, unsigned k, std::mt19937_64& rng) {
  std::vector<uint64_t> fps;
  for (uint32_t key = 0; key < sizes.size(); ++key) {
    for (uint32_t i = 0; i < sizes[key]; ++i) {
      const uint64_t fp = (rng() << 16) | key;
      fps.push_back(fp);
      if (i % 2 == 0) fps.push_back(testing::flipBits(fp, static_cast<unsigned>(k - 2 + rng() % 5), rng));
    }
  }
  testing::shuffle(fps, rng);
  return fps;
}

}  // namespace

TEST_CASE("bucket pairs of every size from 0 to 9, groups of four with tails, equal brute force", "[pairs]") {
  // Candidates are compared four at a time, a last group of 1-3 masked: these buckets give
  // every remainder on both sides of a bucket pair, next to empty buckets.
  const unsigned k = GENERATE(2u, 5u, 9u, 12u);
  const size_t budget = GENERATE(size_t{1}, size_t{7}, SIZE_MAX);
  CAPTURE(k, budget);
  std::mt19937_64 rng(k * 31 + budget % 97);
  std::vector<uint32_t> sizes(64);
  for (uint32_t key = 0; key < sizes.size(); ++key) sizes[key] = key % 10;
  const std::vector<uint64_t> fps = bucketsOfSizes(sizes, k, rng);
  PairSearch search(fps.data(), fps.size(), lowPartThreshold2(k));
  REQUIRE(runInSlices(search, budget) == bruteForcePairs(fps, k));
}

TEST_CASE("large buckets are compared in blocks of rows that resume exactly", "[pairs]") {
  // Two buckets of 2,500 items a bit apart: each step takes a block of a few rows.
  const unsigned k = GENERATE(3u, 8u);
  const size_t budget = GENERATE(size_t{1}, size_t{5000}, SIZE_MAX);
  CAPTURE(k, budget);
  std::mt19937_64 rng(k + budget % 89);
  const std::vector<uint64_t> fps = bucketsOfSizes({2500, 2500, 3, 0, 1}, k, rng);
  PairSearch search(fps.data(), fps.size(), lowPartThreshold2(k));
  REQUIRE(runInSlices(search, budget) == bruteForcePairs(fps, k));
}

TEST_CASE("findPairs with maxPairs stores at most that many and counts them all", "[pairs]") {
  std::vector<uint64_t> fps(3000, 0x1234);  // 4,498,500 pairs at distance 0
  for (size_t i = 0; i < 100; ++i) fps.push_back(i * 0x9E3779B97F4A7C15ull);
  const size_t total = 3000 * 2999 / 2 + bruteForcePairs(std::vector<uint64_t>(fps.begin() + 3000, fps.end()), 3).size();
  std::vector<Pair> out;
  CHECK(findPairs(fps.data(), fps.size(), 3, 1000, out) == total);
  CHECK(out.empty());
  CHECK(findPairs(fps.data(), fps.size(), 3, 0, out) == total);
  CHECK(out.empty());
  CHECK(findPairs(fps.data(), fps.size(), 3, total, out) == total);
  CHECK(out.size() == total);
  CHECK(std::is_sorted(out.begin(), out.end(), [](const Pair& x, const Pair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }));
}

TEST_CASE("leaderLabels on dense near-duplicates takes the lookup path", "[pairs]") {
  std::mt19937_64 rng(3);
  const unsigned k = GENERATE(3u, 12u);
  std::vector<uint64_t> fps;
  const uint64_t centre = rng();
  for (int i = 0; i < 4000; ++i) fps.push_back(testing::flipBits(centre, static_cast<unsigned>(rng() % (k + 3)), rng));
  LeaderSearch search(fps.data(), fps.size(), k);
  CHECK_FALSE(search.usesPairs());
  size_t skipped = 0;
  const std::vector<uint32_t> expected = bruteForceLeaders(fps, k, skipped);
  while (!search.run(777)) {
  }
  CHECK(search.takeLabels() == expected);
}

TEST_CASE("leaderLabels with neighbours beyond k that look near when folded to 32 bits", "[pairs]") {
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
  for (unsigned m : {3u, 4u, 8u}) {
    const Partition partition = dealt(k, m);
    LeaderSearch lookups(fps.data(), fps.size(), k, LeaderSearch::Path::Lookups, &partition);
    lookups.run(SIZE_MAX);
    REQUIRE(lookups.takeLabels() == expected);
  }
}

TEST_CASE("findPairs on no or one fingerprint", "[pairs]") {
  const uint64_t one = 5;
  CHECK(findPairs(nullptr, 0, 3).empty());
  CHECK(findPairs(&one, 1, 3).empty());
  CHECK(leaderLabels(nullptr, 0, 3).empty());
  CHECK(leaderLabels(&one, 1, 3) == std::vector<uint32_t>{0});
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

TEST_CASE("item shards over repeated fingerprints: each lists its items' pairs, and together they equal findPairs", "[pairs]") {
  const unsigned k = GENERATE(0u, 3u, 8u, 12u);
  const unsigned shards = GENERATE(1u, 2u, 3u);
  const unsigned copies = GENERATE(0u, 1u, 40u);
  CAPTURE(k, shards, copies);
  std::mt19937_64 rng(k + 100 * shards + 7 * copies);
  std::vector<uint64_t> fps = makeSet(Data::Clustered, 300, k, rng);
  // Copies of some fingerprints, scattered: groups of 2 up to copies + 1 items.
  for (unsigned c = 0; c < copies; ++c) fps.insert(fps.begin() + static_cast<std::ptrdiff_t>(rng() % fps.size()), fps[rng() % fps.size()]);
  const std::vector<Pair> expected = bruteForcePairs(fps, k);
  REQUIRE(findPairs(fps.data(), fps.size(), k) == expected);
  std::vector<Pair> all;
  uint64_t counted = 0;
  for (unsigned s = 0; s < shards; ++s) {
    const EqualFingerprints groups(fps.data(), fps.size());
    CHECK(groups.repeated() == fps.size() - groups.distinct().size());
    PairSearch search(groups.distinct().data(), groups.distinct().size(), k, s, shards);
    const std::vector<Pair> groupPairs = runInSlices(search, 1000);
    uint64_t total = s == 0 ? groups.pairsWithinGroups() : 0;
    for (const Pair& p : groupPairs) total += groups.itemPairs(p);
    const std::vector<Pair> items = groups.expand(groupPairs, s == 0);
    CHECK(items.size() == total);
    CHECK(std::is_sorted(items.begin(), items.end(), [](const Pair& x, const Pair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }));
    counted += total;
    all.insert(all.end(), items.begin(), items.end());
  }
  CHECK(counted == expected.size());
  sortPairs(all);
  REQUIRE(all == expected);  // no pair twice, none missing, copies' pairs included
}
