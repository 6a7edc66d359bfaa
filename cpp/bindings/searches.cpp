#include "searches.h"

#include <cstring>
#include <vector>

#include "helpers.h"
#include "simhash/pairs.h"
#include "simhash/review_pairs.h"
#include "simhash/similar_groups.h"

namespace simhash::bindings {

namespace {

struct PairSearchHandle {
  PairSearch search;
  std::vector<Pair> found;
};

struct LeaderSearchHandle {
  LeaderSearch search;
  const ShingleSets* sets;
  double similarity;
};

// LeaderSearch::Accept of a similarity dedup: the texts' sets of the search's handle.
bool similarEnough(void* handle, uint32_t leader, uint32_t item) {
  const auto& h = *static_cast<LeaderSearchHandle*>(handle);
  return h.sets->atLeast(leader, item, h.similarity);
}

// Found pairs above this many bytes are given back when cleared, not kept for reuse.
constexpr size_t kKeepFoundBytes = 1 << 20;

}  // namespace

uintptr_t pairSearchCreate(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, unsigned shard, unsigned shards) {
  return reinterpret_cast<uintptr_t>(new PairSearchHandle{PairSearch(at<uint64_t>(fingerprints), count, maxDistance, shard, shards), {}});
}

bool pairSearchRun(uintptr_t search, double workBudget) {
  PairSearchHandle& h = *at<PairSearchHandle>(search);
  return h.search.run(static_cast<size_t>(workBudget), &h.found);
}

double pairSearchProgress(uintptr_t search) { return at<PairSearchHandle>(search)->search.progress(); }

uint32_t pairSearchVerify(uintptr_t search, uintptr_t setsHandle, double threshold) {
  std::vector<Pair>& found = at<PairSearchHandle>(search)->found;
  const ShingleSets& sets = *at<ShingleSets>(setsHandle);
  size_t kept = 0;
  for (const Pair& p : found) {
    if (sets.atLeast(p.a, p.b, threshold)) found[kept++] = p;
  }
  found.resize(kept);
  return static_cast<uint32_t>(kept);
}

uint32_t pairSearchFound(uintptr_t search) { return static_cast<uint32_t>(at<PairSearchHandle>(search)->found.size()); }
uintptr_t pairSearchFoundAddress(uintptr_t search) { return reinterpret_cast<uintptr_t>(at<PairSearchHandle>(search)->found.data()); }

void pairSearchClear(uintptr_t search) {
  std::vector<Pair>& found = at<PairSearchHandle>(search)->found;
  if (found.capacity() * sizeof(Pair) > kKeepFoundBytes) found = {};
  else found.clear();
}

void pairSearchDelete(uintptr_t search) { delete at<PairSearchHandle>(search); }

uintptr_t equalFingerprintsCreate(uintptr_t fingerprints, uint32_t count) {
  return reinterpret_cast<uintptr_t>(new EqualFingerprints(at<uint64_t>(fingerprints), count));
}

uintptr_t equalFingerprintsDistinct(uintptr_t groups) { return reinterpret_cast<uintptr_t>(at<EqualFingerprints>(groups)->distinct().data()); }
uint32_t equalFingerprintsDistinctCount(uintptr_t groups) { return static_cast<uint32_t>(at<EqualFingerprints>(groups)->distinct().size()); }
uint32_t equalFingerprintsRepeated(uintptr_t groups) { return static_cast<uint32_t>(at<EqualFingerprints>(groups)->repeated()); }

double equalFingerprintsExpand(uintptr_t groups, uintptr_t groupPairs, uint32_t count, bool withinGroups, double maxPairs) {
  const EqualFingerprints& equal = *at<EqualFingerprints>(groups);
  const Pair* given = at<Pair>(groupPairs);
  uint64_t total = withinGroups ? equal.pairsWithinGroups() : 0;
  for (uint32_t p = 0; p < count; ++p) total += equal.itemPairs(given[p]);
  if (static_cast<double>(total) > maxPairs) return static_cast<double>(total);
  const std::vector<Pair> pairs = equal.expand(std::vector<Pair>(given, given + count), withinGroups);
  ResultWords& words = result();
  words.resize(3 * pairs.size());
  std::memcpy(words.data(), pairs.data(), pairs.size() * sizeof(Pair));
  return static_cast<double>(pairs.size());
}

void equalFingerprintsDelete(uintptr_t groups) { delete at<EqualFingerprints>(groups); }

uintptr_t leaderSearchCreate(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t sets, double similarity) {
  auto* handle = new LeaderSearchHandle{LeaderSearch(at<uint64_t>(fingerprints), count, maxDistance), at<ShingleSets>(sets), similarity};
  if (similarity > 0) handle->search.setAccept(&similarEnough, handle);
  return reinterpret_cast<uintptr_t>(handle);
}

bool leaderSearchRun(uintptr_t search, double workBudget) { return at<LeaderSearchHandle>(search)->search.run(static_cast<size_t>(workBudget)); }
double leaderSearchProgress(uintptr_t search) { return at<LeaderSearchHandle>(search)->search.progress(); }

void leaderSearchTake(uintptr_t search, uintptr_t out) {
  const std::vector<uint32_t> labels = at<LeaderSearchHandle>(search)->search.takeLabels();
  std::copy(labels.begin(), labels.end(), at<uint32_t>(out));
}

bool leaderSearchUsesPairs(uintptr_t search) { return at<LeaderSearchHandle>(search)->search.usesPairs(); }

double leaderSearchPairBound(double items) { return static_cast<double>(LeaderSearch::pairBound(static_cast<size_t>(items))); }

void leaderSearchDelete(uintptr_t search) { delete at<LeaderSearchHandle>(search); }

uintptr_t similarGroupsCreate(uintptr_t sets, double threshold, bool components) {
  const auto grouping = components ? SimilarGroups::Grouping::Components : SimilarGroups::Grouping::Leader;
  return reinterpret_cast<uintptr_t>(new SimilarGroups(*at<ShingleSets>(sets), threshold, grouping));
}

bool similarGroupsRun(uintptr_t groups, double workBudget) { return at<SimilarGroups>(groups)->run(static_cast<size_t>(workBudget)); }
double similarGroupsProgress(uintptr_t groups) { return at<SimilarGroups>(groups)->progress(); }

void similarGroupsTake(uintptr_t groups, uintptr_t out) {
  const std::vector<uint32_t> labels = at<SimilarGroups>(groups)->takeLabels();
  std::copy(labels.begin(), labels.end(), at<uint32_t>(out));
}

void similarGroupsDelete(uintptr_t groups) { delete at<SimilarGroups>(groups); }

uintptr_t reviewPairsCreate(uintptr_t sets, uintptr_t labels, uint32_t count, double review, double limit, uint32_t maxBucket,
                            double mostPairs, double mostProposals) {
  const uint32_t* groups = at<uint32_t>(labels);
  const auto bound = [](double n) { return n >= 0x1p32 ? SIZE_MAX : static_cast<size_t>(n); };
  return reinterpret_cast<uintptr_t>(new ReviewPairs(*at<ShingleSets>(sets), std::vector<uint32_t>(groups, groups + count),
                                                     review, bandingFor(review, *at<ShingleSets>(sets)), bound(limit), maxBucket,
                                                     bound(mostPairs), mostProposals));
}

bool reviewPairsRun(uintptr_t review, double workBudget) { return at<ReviewPairs>(review)->run(static_cast<size_t>(workBudget)); }
double reviewPairsProgress(uintptr_t review) { return at<ReviewPairs>(review)->progress(); }

double reviewPairsTake(uintptr_t review, double limit) {
  size_t total = 0;
  const std::vector<ReviewPair> pairs = at<ReviewPairs>(review)->take(static_cast<size_t>(limit), total);
  const size_t n = pairs.size();
  ResultWords& words = result();
  words.resize(4 * n);  // n doubles (8-aligned: the buffer starts aligned), then the a's and the b's
  auto* similarities = reinterpret_cast<double*>(words.data());
  uint32_t* a = words.data() + 2 * n;
  for (size_t p = 0; p < n; ++p) {
    similarities[p] = pairs[p].similarity;
    a[p] = pairs[p].a;
    a[n + p] = pairs[p].b;
  }
  return static_cast<double>(total);
}

void reviewPairsDelete(uintptr_t review) { delete at<ReviewPairs>(review); }

uintptr_t shingleSetsCreate() { return reinterpret_cast<uintptr_t>(new ShingleSets()); }
void shingleSetsDelete(uintptr_t sets) { delete at<ShingleSets>(sets); }

void shingleSetsCount(uintptr_t sets, uintptr_t utf8, uintptr_t offsets, uint32_t count, uint32_t measure, uintptr_t weights) {
  at<ShingleSets>(sets)->countTexts(at<char>(utf8), at<uint32_t>(offsets), count, shingleOptionsOf(measure, weights));
}

void shingleSetsAdd(uintptr_t sets, uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t groups) {
  at<ShingleSets>(sets)->addTexts(at<char>(utf8), at<uint32_t>(offsets), count, nullptr,
                                  groups == 0 ? nullptr : at<SimilarGroups>(groups));
}

void shingleSetsSimilarities(uintptr_t sets, uintptr_t a, uintptr_t b, uint32_t count, uintptr_t out) {
  const ShingleSets& built = *at<ShingleSets>(sets);
  const uint32_t* first = at<uint32_t>(a);
  const uint32_t* second = at<uint32_t>(b);
  double* similarities = at<double>(out);
  for (uint32_t i = 0; i < count; i++) similarities[i] = built.similarity(first[i], second[i]);
}

}  // namespace simhash::bindings
