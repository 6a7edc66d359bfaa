#include "similarity/set_sketch.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "simhash/similarity.h"
#include "simhash/word_weights.h"

using simhash::SetSketch;
using simhash::SketchFilter;

namespace {

// Two sets of `size` codes each sharing `shared` of them: J = shared / (2 size - shared).
struct SetPair {
  std::vector<uint64_t> a, b;
};

SetPair setPair(std::mt19937_64& rng, size_t size, size_t shared) {
  SetPair pair;
  for (size_t k = 0; k < shared; ++k) {
    const uint64_t code = rng();
    pair.a.push_back(code);
    pair.b.push_back(code);
  }
  for (size_t k = shared; k < size; ++k) {
    pair.a.push_back(rng());
    pair.b.push_back(rng());
  }
  return pair;
}

// The share of pairs at (size, shared) that the filter at `threshold` lets through.
double passed(std::mt19937_64& rng, size_t size, size_t shared, double threshold, int trials) {
  SetSketch sketch;
  const SketchFilter filter(threshold);
  uint64_t a[SetSketch::kWords], b[SetSketch::kWords];
  int through = 0;
  for (int t = 0; t < trials; ++t) {
    const SetPair pair = setPair(rng, size, shared);
    sketch.make(pair.a.data(), pair.a.size(), a);
    sketch.make(pair.b.data(), pair.b.size(), b);
    through += filter.mayReach(a, static_cast<uint32_t>(size), b, static_cast<uint32_t>(size));
  }
  return static_cast<double>(through) / trials;
}

}  // namespace

TEST_CASE("the sketch filter passes pairs at the threshold and sets aside pairs far below it", "[set_sketch]") {
  std::mt19937_64 rng(17);
  // At J = threshold (shared = 2 s n / (1 + s)), nearly every pair passes, small sets included.
  for (const size_t size : {3, 12, 40, 150, 600}) {
    for (const double threshold : {0.5, 0.7, 0.9}) {
      const auto shared = static_cast<size_t>(2 * threshold * size / (1 + threshold) + 0.999);
      CAPTURE(size, threshold, shared);
      CHECK(passed(rng, size, shared, threshold, 2000) >= 0.995);
    }
  }
  // Far below it, sets of a hundred shingles or more are mostly set aside.
  for (const size_t size : {150, 600}) {
    CAPTURE(size);
    CHECK(passed(rng, size, size / 10, 0.5, 2000) <= 0.02);   // J about 0.05
    CHECK(passed(rng, size, size / 3, 0.7, 2000) <= 0.02);    // J 0.2
  }
}

TEST_CASE("sketches depend on the set alone (order and repeats do not matter), the empty set too", "[set_sketch]") {
  SetSketch sketch;
  const std::vector<uint64_t> codes{5, 9, 1ull << 40, 77, 3};
  const std::vector<uint64_t> shuffled{77, 3, 9, 5, 1ull << 40, 9, 3};
  uint64_t a[SetSketch::kWords], b[SetSketch::kWords], none[SetSketch::kWords];
  sketch.make(codes.data(), codes.size(), a);
  sketch.make(shuffled.data(), shuffled.size(), b);
  CHECK(std::equal(a, a + SetSketch::kWords, b));
  CHECK(SketchFilter(1.0).mayReach(a, 5, b, 5));
  sketch.make(nullptr, 0, none);
  CHECK(SketchFilter(0.9).mayReach(none, 0, a, 5));  // an empty set is left to the exact test
}

TEST_CASE("bitmaps never set aside a pair that reaches the threshold, and set aside small sets far below it", "[set_sketch]") {
  std::mt19937_64 rng(29);
  SetSketch bitmap, sketch;
  bitmap.bitmaps = true;
  uint64_t a[SetSketch::kWords], b[SetSketch::kWords], sa[SetSketch::kWords], sb[SetSketch::kWords];
  // Every overlap of sets of sizes up to 300 (past the 512 bits' useful range), against the
  // exact quotient as ShingleSets::similarity computes it: a pair that reaches always passes.
  size_t farPairs = 0, farPassed = 0, farSketchPassed = 0, barSetAside = 0;
  for (const double threshold : {0.3, 0.5, 0.6, 0.8, 1.0}) {
    SketchFilter filter(threshold);
    filter.bitmaps = true;
    const SketchFilter sketchFilter(threshold);
    for (int trial = 0; trial < 3000; ++trial) {
      const size_t na = 1 + rng() % 300, nb = 1 + rng() % 300;
      const size_t shared = rng() % (std::min(na, nb) + 1);
      SetPair pair = setPair(rng, std::max(na, nb), shared);
      pair.a.resize(na);  // setPair's shared codes come first, so both keep them
      pair.b.resize(nb);
      pair.a.push_back(pair.a[0]);  // a repeat changes nothing
      bitmap.make(pair.a.data(), pair.a.size(), a);
      bitmap.make(pair.b.data(), pair.b.size(), b);
      const double similarity = static_cast<double>(shared) / static_cast<double>(na + nb - shared);
      const bool passes = filter.mayReach(a, static_cast<uint32_t>(na), b, static_cast<uint32_t>(nb));
      CAPTURE(threshold, na, nb, shared);
      if (similarity >= threshold) REQUIRE(passes);
      // Raised above its threshold (ReviewPairs' bar), it sets aside more, never what reaches it.
      const double bar = std::min(1.0, threshold + 0.2);
      SketchFilter raised = filter;
      raised.raise(bar);
      const bool passesBar = raised.mayReach(a, static_cast<uint32_t>(na), b, static_cast<uint32_t>(nb));
      if (similarity >= bar) REQUIRE(passesBar);
      if (passesBar) REQUIRE(passes);
      barSetAside += passes && !passesBar;
      if (na <= 60 && nb <= 60 && similarity < threshold / 2 && na + nb >= 40) {
        ++farPairs;
        farPassed += passes;
        sketch.make(pair.a.data(), pair.a.size(), sa);
        sketch.make(pair.b.data(), pair.b.size(), sb);
        farSketchPassed += sketchFilter.mayReach(sa, static_cast<uint32_t>(na), sb, static_cast<uint32_t>(nb));
      }
    }
  }
  // Small sets far below the threshold are nearly all set aside, more than by sketches.
  CAPTURE(farPairs, farPassed, farSketchPassed);
  CHECK(farPairs >= 300);
  CHECK(farPassed <= farPairs / 20);
  CHECK(farPassed < farSketchPassed);
  CAPTURE(barSetAside);
  CHECK(barSetAside >= 100);
}

TEST_CASE("a search summarizes by bitmaps when its texts' sets are small on average", "[set_sketch]") {
  const auto form = [](const std::vector<std::string>& texts, const simhash::ShingleOptions& options) {
    std::string utf8;
    std::vector<uint32_t> offsets{0};
    for (const std::string& text : texts) offsets.push_back(static_cast<uint32_t>((utf8 += text).size()));
    simhash::ShingleSets sets;
    sets.build(utf8.data(), offsets.data(), static_cast<uint32_t>(texts.size()), options);
    return simhash::summarizesByBitmaps(sets);
  };
  const std::string line = "a one-line synopsis of a package, about sixty bytes long";
  const std::string paragraph(400, 'x');
  CHECK(form({line, line + " too"}, {}));
  CHECK_FALSE(form({paragraph, line}, {}));
  // With word weights a bigram may count up to 8 times: names stay small, lines do not.
  simhash::WordWeights weights;
  weights.finish();
  simhash::ShingleOptions weighted = simhash::kShortStringOptions;
  weighted.weights = &weights;
  CHECK(form({"John Smith", "Jane Doe"}, weighted));
  CHECK_FALSE(form({line, line}, weighted));
}

TEST_CASE("a search over built sets summarizes by bitmaps when the built sets are small on average", "[set_sketch]") {
  const auto built = [](const std::vector<std::string>& texts, const simhash::ShingleOptions& options) {
    std::string utf8;
    std::vector<uint32_t> offsets{0};
    for (const std::string& text : texts) offsets.push_back(static_cast<uint32_t>((utf8 += text).size()));
    simhash::ShingleSets sets;
    sets.build(utf8.data(), offsets.data(), static_cast<uint32_t>(texts.size()), options);
    return std::make_pair(simhash::summarizesByBitmaps(sets), simhash::builtSummarizedByBitmaps(sets));
  };
  // The room counts every weighted bigram at the heaviest weight: one bigram repeated has
  // the room of 60 and a set of one bigram's copies.
  simhash::WordWeights weights;
  weights.finish();
  simhash::ShingleOptions weighted = simhash::kShortStringOptions;
  weighted.weights = &weights;
  const std::string repeated(60, 'x');
  CHECK(built({repeated, repeated}, weighted) == std::make_pair(false, true));
  // 400 letters of a pseudo-random sequence: about 400 distinct bigrams and their copies, too many for a bitmap.
  std::string varied;
  for (uint32_t x = 1; varied.size() < 400;) varied += static_cast<char>('a' + ((x = x * 1103515245u + 12345u) >> 16) % 26);
  CHECK(built({varied, varied}, weighted) == std::make_pair(false, false));
  // Unweighted sets are chosen for as before, by their room: 60 one-letter texts are small,
  // 200 are not.
  CHECK(built({repeated, repeated}, {}) == std::make_pair(true, true));
  CHECK(built({std::string(200, 'x')}, {}) == std::make_pair(false, false));
}
