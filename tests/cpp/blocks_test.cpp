#include "blocks.h"

#include <catch2/catch.hpp>
#include <random>

#include "random_data.h"
#include "simhash/hamming.h"

using simhash::BlockLayout;

namespace {
uint64_t binomial(unsigned n, unsigned k) {
  uint64_t r = 1;
  for (unsigned i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}
}  // namespace

TEST_CASE("layouts have b > k blocks and one table per choice of b-k blocks", "[blocks]") {
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u);
  const size_t n = GENERATE(size_t{1000}, size_t{100000}, size_t{1000000});
  CAPTURE(k, n);
  const BlockLayout layout = BlockLayout::choose(n, k, 256);
  REQUIRE(layout.blockCount() > k);
  CHECK(layout.tableCount() == binomial(layout.blockCount(), k));
}

TEST_CASE("small sets are scanned rather than indexed", "[blocks]") {
  CHECK(BlockLayout::choose(0, 3, 64).blockCount() == 0);
  CHECK(BlockLayout::choose(10, 3, 64).blockCount() == 0);
  CHECK(BlockLayout::choose(1000000, 3, 64).blockCount() == 4);  // Manku's 4 tables of 16-bit keys
}

TEST_CASE("a pair within k shares the key of exactly the one table that claims it", "[blocks]") {
  std::mt19937_64 rng(7);
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u);
  const BlockLayout layout = BlockLayout::choose(1000000, k, 256);
  for (int trial = 0; trial < 2000; ++trial) {
    const uint64_t a = rng();
    const uint64_t b = simhash::testing::flipBits(a, static_cast<unsigned>(rng() % (k + 1)), rng);
    size_t claims = 0, shared = 0;
    for (size_t t = 0; t < layout.tableCount(); ++t) {
      const bool sameKey = layout.key(a, t) == layout.key(b, t);
      shared += sameKey;
      if (layout.isFirstSharedTable(t, a, b)) {
        ++claims;
        CHECK(sameKey);
      }
    }
    CAPTURE(k, a, b);
    CHECK(shared >= 1);
    CHECK(claims == 1);
  }
}
