#include "simhash/review_pairs.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <utility>
#include <vector>

#include "banding_test_data.h"
#include "similarity/set_sketch.h"

using banding_test::BandKeys;
using banding_test::Built;
using banding_test::shortTexts;
using simhash::ReviewPair;
using simhash::ReviewPairs;
using simhash::SimilarGroups;

namespace simhash {
// In the type's namespace, where std::vector's == looks for it.
bool operator==(const ReviewPair& x, const ReviewPair& y) { return x.a == y.a && x.b == y.b && x.similarity == y.similarity; }
}  // namespace simhash

namespace {

std::vector<ReviewPair> runReview(ReviewPairs& review, size_t budget, size_t limit, size_t& total) {
  while (!review.run(budget)) {
  }
  return review.take(limit, total);
}

// review_pairs.h's rule applied by brute force to the pairs that `linked` accepts: for each
// two groups, their most similar pair at `review` or more (ties: least (a, b)), sorted
// most similar first, then by (a, b).
template <class Linked>
std::vector<ReviewPair> referencePairs(const Built& built, const std::vector<uint32_t>& labels, double review, Linked linked) {
  std::map<std::pair<uint32_t, uint32_t>, ReviewPair> best;
  for (uint32_t b = 0; b < built.count(); ++b) {
    for (uint32_t a = 0; a < b; ++a) {
      if (labels[a] == labels[b] || !linked(a, b)) continue;
      const double s = built.sets.similarity(a, b);
      if (s < review) continue;
      const auto groups = std::minmax(labels[a], labels[b]);
      auto [at, fresh] = best.emplace(groups, ReviewPair{a, b, s});
      const ReviewPair& held = at->second;
      if (!fresh && (s > held.similarity || (s == held.similarity && std::make_pair(a, b) < std::make_pair(held.a, held.b)))) {
        at->second = ReviewPair{a, b, s};
      }
    }
  }
  std::vector<ReviewPair> pairs;
  for (const auto& entry : best) pairs.push_back(entry.second);
  std::sort(pairs.begin(), pairs.end(), [](const ReviewPair& x, const ReviewPair& y) {
    if (x.similarity != y.similarity) return x.similarity > y.similarity;
    return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b);
  });
  return pairs;
}

std::vector<uint32_t> groupLabels(const Built& built, double similarity, SimilarGroups::Grouping grouping) {
  SimilarGroups groups(built.sets, similarity, grouping, simhash::bandingFor(similarity));
  return banding_test::run(groups, size_t{1} << 30);
}

}  // namespace

TEST_CASE("review pairs equal the rule applied to the candidate pairs", "[review_pairs]") {
  const double review = GENERATE(0.5, 0.6, 0.75);
  const auto grouping = GENERATE(SimilarGroups::Grouping::Leader, SimilarGroups::Grouping::Components);
  const double similarity = 0.8;
  CAPTURE(review, grouping == SimilarGroups::Grouping::Leader);
  const Built built(shortTexts(5, 300));
  const std::vector<uint32_t> labels = groupLabels(built, similarity, grouping);
  // The candidates' band keys: those of a grouping banded at the review threshold. (The
  // sketch filter sets aside no pair in range here, so the lists are equal.)
  SimilarGroups signer(built.sets, review, grouping, simhash::bandingFor(review));
  const BandKeys keys(signer, simhash::bandingFor(review).bands, built.count());
  const std::vector<ReviewPair> expected =
      referencePairs(built, labels, review, [&](uint32_t a, uint32_t b) { return keys.shared(a, b); });
  ReviewPairs reviewPairs(built.sets, labels, review, simhash::bandingFor(review));
  size_t total = 0;
  const std::vector<ReviewPair> pairs = runReview(reviewPairs, size_t{1} << 30, SIZE_MAX, total);
  CHECK(total == pairs.size());
  CHECK(expected.size() > 30);
  CHECK(pairs == expected);
}

TEST_CASE("review pairs hold nearly every pair of groups in range", "[review_pairs]") {
  const double review = GENERATE(0.5, 0.6);
  CAPTURE(review);
  const Built built(shortTexts(13, 500));
  const std::vector<uint32_t> labels = groupLabels(built, 0.8, SimilarGroups::Grouping::Leader);
  const std::vector<ReviewPair> all = referencePairs(built, labels, review, [](uint32_t, uint32_t) { return true; });
  ReviewPairs reviewPairs(built.sets, labels, review, simhash::bandingFor(review));
  size_t total = 0;
  const std::vector<ReviewPair> pairs = runReview(reviewPairs, size_t{1} << 30, SIZE_MAX, total);
  // Every pair listed is right: at review or more, of two groups, each two groups once.
  // (With leader grouping a pair may reach 0.8 across groups: a member and another
  // group's leader that is not near enough its own leader.)
  std::map<std::pair<uint32_t, uint32_t>, double> found;
  for (const ReviewPair& p : pairs) {
    CHECK(p.a < p.b);
    CHECK(labels[p.a] != labels[p.b]);
    CHECK(p.similarity == built.sets.similarity(p.a, p.b));
    CHECK(p.similarity >= review);
    CHECK(found.emplace(std::minmax(labels[p.a], labels[p.b]), p.similarity).second);
  }
  // Nearly every two groups in range are found, most through their most similar pair.
  size_t held = 0, atBest = 0;
  for (const ReviewPair& p : all) {
    const auto at = found.find(std::minmax(labels[p.a], labels[p.b]));
    if (at == found.end()) continue;
    ++held;
    atBest += at->second == p.similarity;
  }
  CAPTURE(all.size(), held, atBest);
  CHECK(all.size() > 200);
  CHECK(held >= 0.99 * all.size());
  CHECK(atBest >= 0.98 * all.size());
}

TEST_CASE("review pairs do not depend on the slices of work, and the limit keeps the most similar", "[review_pairs]") {
  const Built built(shortTexts(3, 150));
  const std::vector<uint32_t> labels = groupLabels(built, 0.8, SimilarGroups::Grouping::Leader);
  ReviewPairs whole(built.sets, labels, 0.5, simhash::bandingFor(0.5));
  ReviewPairs sliced(built.sets, labels, 0.5, simhash::bandingFor(0.5));
  ReviewPairs limited(built.sets, labels, 0.5, simhash::bandingFor(0.5));
  size_t total = 0, slicedTotal = 0, limitedTotal = 0;
  const std::vector<ReviewPair> expected = runReview(whole, size_t{1} << 30, SIZE_MAX, total);
  double progress = 0;
  while (!sliced.run(1)) {
    CHECK(sliced.progress() >= progress);
    progress = sliced.progress();
  }
  CHECK(sliced.progress() == 1.0);
  CHECK(sliced.take(SIZE_MAX, slicedTotal) == expected);
  CHECK(slicedTotal == total);
  const std::vector<ReviewPair> first = runReview(limited, size_t{1} << 30, 10, limitedTotal);
  CHECK(limitedTotal == total);
  REQUIRE(total > 10);
  CHECK(first == std::vector<ReviewPair>(expected.begin(), expected.begin() + 10));
  // Told its limit, the search decides candidates against the limit-th best found so far: the
  // same first pairs, at every limit, in slices or whole, and a total between the limit and all.
  for (const size_t limit : {size_t{1}, size_t{3}, size_t{10}, size_t{50}, total - 1, total, total + 5}) {
    for (const size_t budget : {size_t{1} << 30, size_t{50}}) {
      ReviewPairs told(built.sets, labels, 0.5, simhash::bandingFor(0.5), limit);
      size_t toldTotal = 0;
      const std::vector<ReviewPair> top = runReview(told, budget, limit, toldTotal);
      const size_t n = std::min(limit, total);
      CHECK(top == std::vector<ReviewPair>(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(n)));
      CHECK(toldTotal <= total);
      CHECK(toldTotal >= n);
      if (limit > total) CHECK(toldTotal == total);  // fewer than the limit: all of them, exactly
    }
  }
}

namespace {

// Singletons over texts with planted neighbours at every similarity (`bases` of each kind):
// thousands of pairs of groups; short texts summarized by bitmaps, long ones by sketches (the
// bar sets aside by sizes and bitmaps, never by sketches). Told a limit, the review gives the
// unlimited answer's first pairs and decides fewer.
void checkToldLimit(bool longSets, size_t shortBases, size_t longBases) {
  const Built built(longSets ? banding_test::longTexts(8, longBases) : shortTexts(8, shortBases));
  CAPTURE(longSets, built.count());
  REQUIRE(simhash::builtSummarizedByBitmaps(built.sets) == !longSets);
  std::vector<uint32_t> labels(built.count());
  for (uint32_t i = 0; i < built.count(); ++i) labels[i] = i;
  size_t total = 0;
  ReviewPairs whole(built.sets, labels, 0.5, simhash::bandingFor(0.5));
  const std::vector<ReviewPair> expected = runReview(whole, size_t{1} << 30, SIZE_MAX, total);
  CAPTURE(total);
  REQUIRE(total > 1000);
  for (const size_t limit : {size_t{1}, size_t{100}, size_t{1000}}) {  // out of several thousand
    ReviewPairs told(built.sets, labels, 0.5, simhash::bandingFor(0.5), limit);
    size_t toldTotal = 0;
    const std::vector<ReviewPair> top = runReview(told, size_t{1} << 30, limit, toldTotal);
    CHECK(top == std::vector<ReviewPair>(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(limit)));
    CHECK(toldTotal >= limit);
    CHECK(toldTotal < total);  // pairs below the bar were not decided
  }
}

}  // namespace

TEST_CASE("review pairs told their limit on many pairs of groups: the first ones exactly, fewer decided", "[review_pairs]") {
  checkToldLimit(GENERATE(false, true), 1200, 100);
}

// The same on five times the long texts (over a million pairs of them), the long suite's
// (npm run test:long).
TEST_CASE("review pairs told their limit on many pairs of groups, 500 long bases", "[review_pairs][.full]") {
  checkToldLimit(GENERATE(false, true), 1200, 500);
}

TEST_CASE("review pairs of no texts, one text, one group", "[review_pairs]") {
  const Built none(std::vector<std::string>{});
  ReviewPairs empty(none.sets, {}, 0.5, simhash::bandingFor(0.5));
  size_t total = 1;
  CHECK(runReview(empty, 1, SIZE_MAX, total).empty());
  CHECK(total == 0);
  CHECK(empty.progress() == 1.0);
  const Built alike(std::vector<std::string>{"the cat sat on the mat", "the cat sat on a mat", "the cat sat on the mat!"});
  ReviewPairs oneGroup(alike.sets, {0, 0, 0}, 0.5, simhash::bandingFor(0.5));
  CHECK(runReview(oneGroup, 1, SIZE_MAX, total).empty());
  ReviewPairs twoGroups(alike.sets, {0, 1, 0}, 0.5, simhash::bandingFor(0.5));
  const std::vector<ReviewPair> pairs = runReview(twoGroups, 1, SIZE_MAX, total);
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].a == 0);
  CHECK(pairs[0].b == 1);
  CHECK(pairs[0].similarity == alike.sets.similarity(0, 1));
}

TEST_CASE("a band key that more than maxBucket texts hold proposes none of them", "[review_pairs]") {
  // Twelve copies of one text share every band key; the pair of other texts shares keys of its own.
  std::vector<std::string> texts(12, "the same words in every copy");
  texts.push_back("a pair of texts nearly alike");
  texts.push_back("a pair of texts nearly alike!");
  const Built built(texts);
  std::vector<uint32_t> labels(texts.size());
  for (uint32_t i = 0; i < labels.size(); ++i) labels[i] = i;
  size_t total = 0;
  ReviewPairs every(built.sets, labels, 0.5, simhash::bandingFor(0.5));
  CHECK(runReview(every, 1, SIZE_MAX, total).size() == 12 * 11 / 2 + 1);
  ReviewPairs held(built.sets, labels, 0.5, simhash::bandingFor(0.5), SIZE_MAX, 12);
  CHECK(runReview(held, 1, SIZE_MAX, total).size() == 12 * 11 / 2 + 1);
  ReviewPairs capped(built.sets, labels, 0.5, simhash::bandingFor(0.5), SIZE_MAX, 11);
  const std::vector<ReviewPair> pairs = runReview(capped, 1, SIZE_MAX, total);
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].a == 12);
  CHECK(pairs[0].b == 13);
}

TEST_CASE("the search stops once it holds more than mostPairs pairs of groups, and decides nothing when the band keys propose more than mostProposals", "[review_pairs]") {
  // Forty copies of one text, each its own group: 780 pairs, each found as its later text's
  // step runs; the copies hold every key of the bands alike: 780 visits a band.
  std::vector<std::string> texts(40, "the same words in every copy");
  texts.push_back("a text unlike the others");
  const Built built(texts);
  std::vector<uint32_t> labels(texts.size());
  for (uint32_t i = 0; i < labels.size(); ++i) labels[i] = i;
  const simhash::Banding banding = simhash::bandingFor(0.5);
  size_t total = 0;
  ReviewPairs every(built.sets, labels, 0.5, banding, SIZE_MAX, SIZE_MAX, 780);
  CHECK(runReview(every, 1, SIZE_MAX, total).size() == 780);
  CHECK(total == 780);
  CHECK(every.progress() == 1.0);
  // Past 100 pairs at text 14's step (its 14 pairs make 105): texts 15 onwards are never searched.
  ReviewPairs stopped(built.sets, labels, 0.5, banding, SIZE_MAX, SIZE_MAX, 100);
  const std::vector<ReviewPair> pairs = runReview(stopped, 1, SIZE_MAX, total);
  CHECK(total == 105);
  CHECK(pairs.size() == 105);
  CHECK(std::all_of(pairs.begin(), pairs.end(), [](const ReviewPair& p) { return p.b <= 14; }));
  CHECK(stopped.progress() < 1.0);
  // Exactly as many proposals as allowed: searched; one more than allowed: nothing decided.
  const double proposals = banding.bands * 780.0;
  ReviewPairs within(built.sets, labels, 0.5, banding, SIZE_MAX, SIZE_MAX, SIZE_MAX, proposals);
  CHECK(runReview(within, 1, SIZE_MAX, total).size() == 780);
  CHECK(total == 780);
  ReviewPairs past(built.sets, labels, 0.5, banding, SIZE_MAX, SIZE_MAX, SIZE_MAX, proposals - 1);
  CHECK(runReview(past, 1, SIZE_MAX, total).empty());
  CHECK(total == 0);
  CHECK(past.progress() < 1.0);
}
