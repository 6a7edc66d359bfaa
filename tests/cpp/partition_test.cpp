#include "hamming/partition.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include "random_data.h"
#include "simhash/hamming.h"

using simhash::Partition;

namespace {
size_t probesOf(const Partition& p) {
  size_t probes = 0;
  for (size_t i = 0; i < p.partCount(); ++i) probes += p.part(i).probes.size();
  return probes;
}

unsigned budgetOf(const Partition& p) {
  unsigned used = 0;
  for (size_t i = 0; i < p.partCount(); ++i) used += p.part(i).threshold + 1;
  return used;
}
}  // namespace

TEST_CASE("chosen partitions cover k + 1 with narrow parts, or scan", "[partition]") {
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u, 12u, 16u, 24u);
  const size_t n = GENERATE(size_t{10}, size_t{1000}, size_t{100000});
  const auto use = GENERATE(Partition::Use::Join, Partition::Use::Index, Partition::Use::Leaders);
  CAPTURE(k, n, use == Partition::Use::Join);
  std::mt19937_64 rng(k * 31 + n);
  std::vector<uint64_t> fps(n);
  for (uint64_t& fp : fps) fp = rng();
  const Partition p = Partition::choose(fps.data(), n, k, use);
  if (p.partCount() == 0) return;  // a scan
  CHECK(budgetOf(p) >= k + 1);
  for (size_t i = 0; i < p.partCount(); ++i) {
    CHECK(p.part(i).width <= Partition::kMaxWidth);
    CHECK(p.part(i).probes.size() >= 1);
    CHECK(p.part(i).probes.front() == 0);
  }
}

TEST_CASE("large sets use parts at moderate k, Manku's 4 x 16 bits at k = 3", "[partition]") {
  std::mt19937_64 rng(5);
  std::vector<uint64_t> fps(1000000);
  for (uint64_t& fp : fps) fp = rng();
  const Partition p3 = Partition::choose(fps.data(), fps.size(), 3, Partition::Use::Index);
  REQUIRE(p3.partCount() == 4);
  for (size_t i = 0; i < 4; ++i) CHECK(p3.part(i).threshold == 0);
  CHECK(Partition::choose(fps.data(), fps.size(), 12, Partition::Use::Index).partCount() > 0);
  CHECK(Partition::choose(fps.data(), fps.size(), 12, Partition::Use::Join).partCount() > 0);
  CHECK(Partition::choose(fps.data(), 10, 3, Partition::Use::Join).partCount() == 0);
}

// Leader grouping's buckets hold only the leaders so far, so its lookups price a probe
// higher than the index's, whose buckets hold every item: never more probes, and fewer
// where a wide partition's many probes would find next to nothing (dense clusters, k = 12).
TEST_CASE("leader lookups never take more probes than index lookups on the same data", "[partition]") {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> uniform(1000000), clustered(1000000), bases(10000);
  for (uint64_t& fp : uniform) fp = rng();
  for (uint64_t& base : bases) base = rng();
  for (uint64_t& fp : clustered) {
    fp = bases[rng() % bases.size()];
    for (unsigned flips = rng() % 13; flips > 0; --flips) fp ^= uint64_t{1} << (rng() % 64);
  }
  for (const auto* fps : {&uniform, &clustered}) {
    for (unsigned k = 0; k <= 24; k += 2) {
      CAPTURE(fps == &clustered, k);
      CHECK(probesOf(Partition::choose(fps->data(), fps->size(), k, Partition::Use::Leaders)) <=
            probesOf(Partition::choose(fps->data(), fps->size(), k, Partition::Use::Index)));
    }
  }
  CHECK(probesOf(Partition::choose(clustered.data(), clustered.size(), 12, Partition::Use::Leaders)) <
        probesOf(Partition::choose(clustered.data(), clustered.size(), 12, Partition::Use::Index)));
}

TEST_CASE("a pair within k is within threshold in exactly one first part", "[partition]") {
  std::mt19937_64 rng(7);
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u, 12u, 16u, 24u);
  const unsigned m = GENERATE(3u, 4u, 8u);
  // Thresholds: k + 1 dealt round-robin, some parts left at -1 when k is small.
  std::vector<int> t(m, -1);
  for (unsigned i = 0; i <= k; ++i) ++t[i % m];
  CAPTURE(k, m);
  const Partition p = Partition::withThresholds(k, m, t);
  // Each part's probes sorted: a's probe reaches b's key iff key(a) ^ key(b) is a probe.
  std::vector<std::vector<uint32_t>> sortedProbes;
  for (size_t i = 0; i < p.partCount(); ++i) {
    sortedProbes.emplace_back(p.part(i).probes.begin(), p.part(i).probes.end());
    std::sort(sortedProbes.back().begin(), sortedProbes.back().end());
  }
  for (int trial = 0; trial < 2000; ++trial) {
    const uint64_t a = rng();
    const uint64_t b = simhash::testing::flipBits(a, static_cast<unsigned>(rng() % (k + 1)), rng);
    size_t within = 0, first = 0;
    for (size_t i = 0; i < p.partCount(); ++i) {
      const bool in = static_cast<unsigned>(__builtin_popcountll((a ^ b) & p.part(i).mask)) <= p.part(i).threshold;
      // The probe list reaches b's key from a's exactly when the part is within threshold.
      const bool probed = std::binary_search(sortedProbes[i].begin(), sortedProbes[i].end(),
                                             static_cast<uint32_t>(p.key(a, i) ^ p.key(b, i)));
      CHECK(probed == in);
      within += in;
      if (in && p.isFirstPart(i, a ^ b)) ++first;
    }
    CHECK(within >= 1);
    CHECK(first == 1);
  }
}
