#include "simhash/similar_groups.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bands/band_buckets.h"
#include "banding_test_data.h"
#include "list_weights.h"
#include "simhash/word_weights.h"

using simhash::Banding;
using simhash::ShingleSets;
using simhash::SimilarGroups;
using banding_test::BandKeys;
using banding_test::Built;
using banding_test::run;
using banding_test::shortTexts;

namespace {

// The grouping rules of similar_groups.h applied to the pairs that `linked` accepts, by
// brute force over all pairs.
template <class Linked>
std::vector<uint32_t> referenceLabels(uint32_t count, SimilarGroups::Grouping grouping, Linked linked) {
  std::vector<uint32_t> labels(count);
  if (grouping == SimilarGroups::Grouping::Leader) {
    for (uint32_t i = 0; i < count; ++i) {
      labels[i] = i;
      for (uint32_t leader = 0; leader < i; ++leader) {
        if (labels[leader] == leader && linked(leader, i)) {
          labels[i] = leader;
          break;
        }
      }
    }
    return labels;
  }
  std::iota(labels.begin(), labels.end(), 0u);
  auto find = [&](uint32_t x) {
    while (labels[x] != x) x = labels[x];
    return x;
  };
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t j = i + 1; j < count; ++j) {
      if (!linked(i, j)) continue;
      const uint32_t ri = find(i), rj = find(j);
      if (ri < rj) labels[rj] = ri;
      else if (rj < ri) labels[ri] = rj;
    }
  }
  for (uint32_t i = 0; i < count; ++i) labels[i] = find(i);
  return labels;
}

}  // namespace

TEST_CASE("bandingFor reaches 0.995 recall at the threshold within the min-hash budget", "[similar_groups]") {
  for (double threshold = 0.05; threshold <= 1.0001; threshold += 0.05) {
    const Banding banding = simhash::bandingFor(std::min(threshold, 1.0));
    CAPTURE(threshold, banding.rows, banding.bands);
    CHECK(banding.rows >= 1);
    CHECK(banding.bands >= 1);
    CHECK(banding.rows * banding.bands <= simhash::kMaxMinHashes);
    const double recall = 1 - std::pow(1 - std::pow(std::min(threshold, 1.0), banding.rows), banding.bands);
    if (banding.rows * banding.bands < simhash::kMaxMinHashes) CHECK(recall >= 0.995);
  }
  CHECK(simhash::bandingFor(0.8).rows == 5);
  CHECK(simhash::bandingFor(0.8).bands == 14);
}

TEST_CASE("bandingFor with more rows and min-hashes: the most rows within the budget", "[similar_groups]") {
  for (double threshold = 0.05; threshold <= 1.0001; threshold += 0.05) {
    const double s = std::min(threshold, 1.0);
    for (const size_t budget : {size_t{384}, size_t{413}, size_t{1000}}) {
      const Banding banding = simhash::bandingFor(s, 7, budget);
      CAPTURE(s, budget, banding.rows, banding.bands);
      CHECK(banding.rows >= simhash::bandingFor(s).rows);
      CHECK(banding.rows <= 7);
      CHECK(banding.rows * banding.bands <= std::max<size_t>(budget, banding.rows == 1 ? 256 : 0));
      const double recall = 1 - std::pow(1 - std::pow(s, banding.rows), banding.bands);
      CHECK(recall >= 0.995);
      if (banding.rows < 7) {  // one more row would not fit
        const double perBand = std::pow(s, banding.rows + 1);
        const double bandsNeeded = std::ceil(std::log(0.005) / std::log(1 - perBand) - 1e-9);
        CHECK((banding.rows + 1) * bandsNeeded > budget);
      }
    }
  }
  CHECK(simhash::bandingFor(0.8, 7, 413).rows == 7);
  CHECK(simhash::bandingFor(0.8, 7, 413).bands == 23);
  CHECK(simhash::bandingFor(0.6, 7, 413).rows == 5);
  CHECK(simhash::bandingFor(0.6, 7, 413).bands == 66);
}

TEST_CASE("bandingFor the sets: the text index's from 0.7 and for short unweighted sets, more rows below for long or weighted ones", "[similar_groups]") {
  const Built shortSets(shortTexts(3, 200));
  const Built longSets(banding_test::longTexts(3, 40));
  simhash::WordWeights weights;
  weights.finish();
  simhash::ShingleOptions weighted = simhash::kShortStringOptions;
  weighted.weights = &weights;
  const Built weightedSets(shortTexts(3, 200), weighted);
  for (const double threshold : {0.5, 0.6, 0.7, 0.8, 0.9}) {
    CAPTURE(threshold);
    const Banding index = simhash::bandingFor(threshold);
    const Banding ofShort = simhash::bandingFor(threshold, shortSets.sets);
    CHECK(ofShort.rows == index.rows);
    CHECK(ofShort.bands == index.bands);
    for (const Built* built : {&longSets, &weightedSets}) {
      const simhash::ShingleSets& sets = built->sets;
      const Banding more = simhash::bandingFor(threshold, sets);
      const size_t mean = sets.countedRoom() / sets.counted();
      CAPTURE(mean, more.rows, more.bands);
      if (threshold >= simhash::kSketchBelow) {
        CHECK(more.rows == index.rows);
        CHECK(more.bands == index.bands);
        continue;
      }
      CHECK(more.rows > index.rows);
      const Banding expected = simhash::bandingFor(threshold, 7, std::min<size_t>(simhash::kMaxMinHashes, std::max<size_t>(mean, 384)));
      CHECK(more.rows == expected.rows);
      CHECK(more.bands == expected.bands);
    }
  }
}

TEST_CASE("grouping equals the rule applied to the candidate pairs that reach the threshold", "[similar_groups]") {
  const double threshold = GENERATE(0.5, 0.6, 0.7, 0.8, 0.9, 1.0);
  const auto grouping = GENERATE(SimilarGroups::Grouping::Leader, SimilarGroups::Grouping::Components);
  // Short, long, and short by the short measure with its weights (weighted sets, whose
  // candidates are tested by their bigram words first).
  const int kind = GENERATE(0, 1, 2);
  const bool long_ = kind == 1;
  CAPTURE(threshold, grouping == SimilarGroups::Grouping::Leader, kind);
  const std::vector<std::string> texts = long_ ? banding_test::longTexts(7, 60) : shortTexts(7, 250);
  const simhash::WordWeights weights = list_weights::learnWeights(texts);
  simhash::ShingleOptions options;
  if (kind == 2) {
    options = simhash::kShortStringOptions;
    options.weights = &weights;
  }
  const Built built(texts, options);
  SimilarGroups groups(built.sets, threshold, grouping);  // the banding of these sets
  const std::vector<uint32_t> labels = run(groups, size_t{1} << 30);
  const Banding chosen = simhash::bandingFor(threshold, built.sets);
  CHECK(groups.banding().rows == chosen.rows);
  CHECK(groups.banding().bands == chosen.bands);
  CHECK((chosen.rows > simhash::bandingFor(threshold).rows) == ((long_ || kind == 2) && threshold < simhash::kSketchBelow));
  const BandKeys keys(groups, chosen.bands, built.count());
  const std::vector<uint32_t> expected = referenceLabels(built.count(), grouping, [&](uint32_t a, uint32_t b) {
    return keys.shared(a, b) && built.sets.atLeast(a, b, threshold);
  });
  CHECK(labels == expected);
  // The texts that normalize alike are grouped; the two empty ones too.
  const uint32_t last = built.count() - 1;
  CHECK(labels[last] == labels[last - 1]);
  CHECK(labels[last - 2] == labels[last - 3]);
}

TEST_CASE("candidates hold nearly every pair that reaches the threshold", "[similar_groups]") {
  // Each pair at J >= s is a candidate with probability >= 0.99 when J = s, more above;
  // measured here on pairs of every similarity the edits make.
  const double threshold = GENERATE(0.5, 0.6, 0.7, 0.8, 0.9);
  const bool long_ = GENERATE(false, true);
  CAPTURE(threshold, long_);
  const Built built(long_ ? banding_test::longTexts(11, 150) : shortTexts(11, 600));
  SimilarGroups groups(built.sets, threshold, SimilarGroups::Grouping::Leader);
  run(groups, size_t{1} << 30);
  const BandKeys keys(groups, groups.banding().bands, built.count());
  size_t reaching = 0, candidates = 0;
  for (uint32_t i = 0; i < built.count(); ++i) {
    for (uint32_t j = i + 1; j < built.count(); ++j) {
      if (!built.sets.atLeast(i, j, threshold)) continue;
      ++reaching;
      candidates += keys.shared(i, j);
    }
  }
  CAPTURE(reaching, candidates);
  CHECK(reaching > 200);
  CHECK(candidates >= 0.98 * reaching);
}

TEST_CASE("the labels do not depend on the slices of work", "[similar_groups]") {
  const auto grouping = GENERATE(SimilarGroups::Grouping::Leader, SimilarGroups::Grouping::Components);
  const Built built(shortTexts(3, 120));
  SimilarGroups whole(built.sets, 0.8, grouping, simhash::bandingFor(0.8));
  SimilarGroups sliced(built.sets, 0.8, grouping, simhash::bandingFor(0.8));
  const std::vector<uint32_t> expected = run(whole, size_t{1} << 30);
  double progress = 0;
  while (!sliced.run(1)) {
    CHECK(sliced.progress() >= progress);
    progress = sliced.progress();
  }
  CHECK(sliced.progress() == 1.0);
  CHECK(sliced.takeLabels() == expected);
}

TEST_CASE("no texts, one text", "[similar_groups]") {
  const Built none(std::vector<std::string>{});
  SimilarGroups empty(none.sets, 0.8, SimilarGroups::Grouping::Leader, simhash::bandingFor(0.8));
  CHECK(run(empty, 1).empty());
  const Built one(std::vector<std::string>{"just one text"});
  SimilarGroups single(one.sets, 0.8, SimilarGroups::Grouping::Components, simhash::bandingFor(0.8));
  CHECK(run(single, 1) == std::vector<uint32_t>{0});
}

TEST_CASE("sets signed as addTexts builds them group as sets signed by run()", "[similar_groups]") {
  // Observing from the first slice, or only from the second (the first slice's texts are
  // then signed by run(), and the second's, out of order, too).
  const auto grouping = GENERATE(SimilarGroups::Grouping::Leader, SimilarGroups::Grouping::Components);
  const bool fromFirstSlice = GENERATE(true, false);
  CAPTURE(grouping == SimilarGroups::Grouping::Leader, fromFirstSlice);
  const Built built(shortTexts(5, 300));
  SimilarGroups prebuilt(built.sets, 0.8, grouping, simhash::bandingFor(0.8));
  const std::vector<uint32_t> expected = run(prebuilt, size_t{1} << 30);

  std::string utf8;
  std::vector<uint32_t> offsets{0};
  for (const std::string& t : built.texts) {
    utf8 += t;
    offsets.push_back(static_cast<uint32_t>(utf8.size()));
  }
  const uint32_t cut[] = {0, built.count() / 3, 2 * built.count() / 3, built.count()};
  ShingleSets sets;
  for (int s = 0; s < 3; ++s) sets.countTexts(utf8.data(), offsets.data() + cut[s], cut[s + 1] - cut[s]);
  SimilarGroups observing(sets, 0.8, grouping, simhash::bandingFor(0.8));
  for (int s = 0; s < 3; ++s) {
    const bool observed = fromFirstSlice || s > 0;
    sets.addTexts(utf8.data(), offsets.data() + cut[s], cut[s + 1] - cut[s], nullptr, observed ? &observing : nullptr);
  }
  REQUIRE(sets.count() == built.count());
  const unsigned bands = simhash::bandingFor(0.8).bands;
  size_t sameKeys = 0;
  for (uint32_t i = 0; i < built.count(); ++i) {
    std::vector<uint32_t> signedWhenBuilt(bands), signedFromSet(bands);
    observing.bandKeys(i, signedWhenBuilt.data());
    prebuilt.bandKeys(i, signedFromSet.data());
    sameKeys += signedWhenBuilt == signedFromSet;
  }
  CHECK(sameKeys == built.count());
  CHECK(run(observing, 1000) == expected);
}

TEST_CASE("two calls' sets and groupings interleaved a slice at a time label as each alone", "[similar_groups]") {
  // 150 and 180 bases: several slices of each call, in turns, in seconds under ASan.
  // What the bindings do when calls overlap on one instance: each dedup owns its
  // ShingleSets and SimilarGroups, built and run a slice at a time in turns, while a call
  // between the slices (sh.similarities) builds and frees sets of its own.
  const auto grouping = GENERATE(SimilarGroups::Grouping::Leader, SimilarGroups::Grouping::Components);
  CAPTURE(grouping == SimilarGroups::Grouping::Leader);
  struct Call {
    std::string utf8;
    std::vector<uint32_t> offsets{0};
    std::vector<uint32_t> alone;
    ShingleSets sets;
    explicit Call(const std::vector<std::string>& texts, SimilarGroups::Grouping grouping) {
      for (const std::string& t : texts) {
        utf8 += t;
        offsets.push_back(static_cast<uint32_t>(utf8.size()));
      }
      const Built built(texts);
      SimilarGroups groups(built.sets, 0.8, grouping, simhash::bandingFor(0.8));
      alone = run(groups, size_t{1} << 30);
    }
    uint32_t count() const { return static_cast<uint32_t>(offsets.size() - 1); }
  };
  Call calls[] = {Call(shortTexts(7, 150), grouping), Call(shortTexts(8, 180), grouping)};
  auto between = [&] {  // a call that ends in one go, between the slices
    ShingleSets own;
    own.buildForPairs(calls[1].utf8.data(), calls[1].offsets.data(), calls[1].count(), std::vector<uint32_t>{0, 1}.data(),
                      std::vector<uint32_t>{2, 3}.data(), 2);
    CHECK(own.similarity(0, 2) >= 0);
  };
  constexpr uint32_t kSlice = 64;
  for (Call& call : calls) {
    for (uint32_t at = 0; at < call.count(); at += kSlice) {
      call.sets.countTexts(call.utf8.data(), call.offsets.data() + at, std::min(kSlice, call.count() - at));
      between();
    }
  }
  SimilarGroups groups[] = {SimilarGroups(calls[0].sets, 0.8, grouping, simhash::bandingFor(0.8)),
                            SimilarGroups(calls[1].sets, 0.8, grouping, simhash::bandingFor(0.8))};
  const uint32_t most = std::max(calls[0].count(), calls[1].count());
  for (uint32_t at = 0; at < most; at += kSlice) {
    for (int c = 0; c < 2; ++c) {
      if (at >= calls[c].count()) continue;
      calls[c].sets.addTexts(calls[c].utf8.data(), calls[c].offsets.data() + at, std::min(kSlice, calls[c].count() - at), nullptr,
                             &groups[c]);
      between();
    }
  }
  bool done[] = {false, false};
  while (!done[0] || !done[1]) {
    for (int c = 0; c < 2; ++c) {
      if (!done[c]) done[c] = groups[c].run(50);
      between();
    }
  }
  CHECK(groups[0].takeLabels() == calls[0].alone);
  CHECK(groups[1].takeLabels() == calls[1].alone);
}

namespace {

// BandBuckets' visits, proposals and layout against references, for `count` texts of
// `bands` keys from an alphabet of `alphabet`: buckets from none to thousands of entries.
void checkBandBuckets(unsigned bands, uint32_t alphabet, uint32_t count) {
  const size_t atOnce = GENERATE(size_t{1} << 20, size_t{64});  // all partitions at once, or a few at a time
  const size_t mostHeld = GENERATE(SIZE_MAX, size_t{5});
  CAPTURE(bands, alphabet, count, atOnce, mostHeld);
  std::mt19937 random(bands * 7919 + alphabet);
  std::vector<uint32_t> keys(size_t{count} * bands);
  for (uint32_t& key : keys) key = 1 + random() % alphabet * 0x9E3779B1u;  // over every top byte
  std::map<uint32_t, size_t> held;  // entries per key, of every text
  for (const uint32_t key : keys) ++held[key];
  simhash::BandBuckets buckets(bands, mostHeld);
  buckets.reserve(count);
  for (uint32_t i = 0; i < count; ++i) std::copy_n(keys.data() + size_t{i} * bands, bands, buckets.spare(i));
  buckets.build(count, atOnce);
  double proposals = 0;
  for (const auto& [key, entries] : held) proposals += entries * (entries - 1) / 2.0;
  REQUIRE(buckets.proposals() == proposals);
  std::map<uint32_t, std::vector<uint32_t>> indexed;  // key -> the indexed texts, once per entry of theirs
  std::vector<uint32_t> visited;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t* mine = keys.data() + size_t{i} * bands;
    visited.clear();
    const size_t read = buckets.visit(i, [&](uint32_t y) { visited.push_back(y); });
    // y once for each entry of y under a key of each band of i, as the buckets hold them.
    std::vector<uint32_t> expected;
    for (unsigned b = 0; b < bands; ++b) {
      const auto entries = indexed.find(mine[b]);
      if (entries != indexed.end() && held[mine[b]] <= mostHeld) expected.insert(expected.end(), entries->second.begin(), entries->second.end());
    }
    std::sort(visited.begin(), visited.end());
    std::sort(expected.begin(), expected.end());
    REQUIRE(visited == expected);
    REQUIRE(read == expected.size());
    // Newest first, each bucket until a text indexed before i / 2 (that one visited too):
    // texts are indexed in index order here. Asked of every fourth text, which meets buckets
    // of every size as the others do, at a quarter of the cost (ASan: 20 s for all).
    const auto older = [&](uint32_t y) { return y < i / 2; };
    if (i % 4 == 0) {
      visited.clear();
      const size_t newestRead = buckets.visitNewestFirst(i, [&](uint32_t y) { visited.push_back(y); return !older(y); });
      expected.clear();
      for (unsigned b = 0; b < bands; ++b) {
        const auto entries = indexed.find(mine[b]);
        if (entries == indexed.end() || held[mine[b]] > mostHeld) continue;
        for (auto y = entries->second.rbegin(); y != entries->second.rend(); ++y) {
          expected.push_back(*y);
          if (older(*y)) break;
        }
      }
      std::sort(visited.begin(), visited.end());
      std::sort(expected.begin(), expected.end());
      REQUIRE(visited == expected);
      REQUIRE(newestRead == expected.size());
    }
    if (i % 3 != 2) {  // only two texts in three are indexed
      buckets.index(i);
      for (unsigned b = 0; b < bands; ++b) indexed[mine[b]].push_back(i);
    }
  }
}

}  // namespace

TEST_CASE("BandBuckets::visit gives every indexed text once per key it shares, whatever the buckets' sizes, and no key held more than mostHeld, newest first until told, and counts its proposals", "[similar_groups]") {
  // Keys from a small alphabet, so buckets hold from none to thousands of entries; bands
  // from 1 to 9 on 300 texts (9 bands: buckets of 1,350 entries at alphabet 2), 83 on 60
  // (buckets of 2,500).
  const unsigned bands = GENERATE(1u, 3u, 8u, 9u, 83u);
  checkBandBuckets(bands, GENERATE(2u, 50u, 5000u), bands > 9 ? 60 : 300);
}

TEST_CASE("BandBuckets::visit and its proposals against references, 83 bands of 200 texts", "[similar_groups][.full]") {
  checkBandBuckets(83, GENERATE(2u, 50u, 5000u), 200);
}

TEST_CASE("BandBuckets::visit and its proposals against references, up to 9 bands of 600 texts", "[similar_groups][.full]") {
  checkBandBuckets(GENERATE(1u, 3u, 8u, 9u), GENERATE(2u, 50u, 5000u), 600);
}
