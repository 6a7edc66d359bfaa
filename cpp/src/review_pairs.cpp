#include "simhash/review_pairs.h"

#include <algorithm>

#include "band_chains.h"

namespace simhash {

namespace {

// A pair of texts in range: `groups` its two labels, the lesser in the high half.
struct Found {
  uint64_t groups;
  double similarity;
  uint32_t a, b;
};

// The order of the result: most similar first, then (a, b).
bool moreSimilar(const Found& x, const Found& y) {
  if (x.similarity != y.similarity) return x.similarity > y.similarity;
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}

// Pairs of the same groups together, the one the result keeps first.
bool byGroups(const Found& x, const Found& y) { return x.groups != y.groups ? x.groups < y.groups : moreSimilar(x, y); }

// Pairs found between folds before the next fold, at the least.
constexpr size_t kFoldEvery = 1 << 16;

}  // namespace

struct ReviewPairs::Impl {
  const ShingleSets* sets;
  std::vector<uint32_t> labels;
  double review, similarity;
  unsigned rows, bands;
  MinHashBands signer;
  BandChains chains;  // every text so far, by band key
  uint32_t done = 0;
  std::vector<uint32_t> seenBy;  // the text whose candidates last included each text, plus 1
  std::vector<uint32_t> keys;
  std::vector<uint64_t> candidates, codes;
  std::vector<Found> found;
  size_t folded = 0;  // found.size() after the last fold

  Impl(Banding banding) : rows(banding.rows), bands(banding.bands), signer(banding), chains(banding.bands), keys(banding.bands) {}

  // Keeps one pair per two groups: the most similar.
  void fold() {
    std::sort(found.begin(), found.end(), byGroups);
    found.erase(std::unique(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.groups == y.groups; }),
                found.end());
    folded = found.size();
  }

  // Text i against the earlier texts it shares a band with; returns the work it took
  // (units as SimilarGroups counts them).
  size_t step(uint32_t i) {
    const uint32_t size = sets->size(i);
    if (codes.size() < size) codes.resize(size);  // grows only: resizing down and up would zero it
    sets->canonicalCodes(i, codes.data());
    signer.keys(codes.data(), size, keys.data());
    candidates.clear();
    size_t work = 32 * bands + rows * bands + size + 4 * chains.collect(keys.data(), i + 1, seenBy, candidates);
    const uint32_t group = labels[i];
    for (const uint64_t candidate : candidates) {
      const auto y = static_cast<uint32_t>(candidate);
      if (labels[y] == group) continue;
      work += 8 + size / 2;
      if (!sets->atLeast(y, i, review)) continue;
      const double s = sets->similarity(y, i);
      if (s >= similarity) continue;  // a near-duplicate pair that another grouping decision kept apart
      const uint32_t other = labels[y];
      found.push_back({other < group ? uint64_t{other} << 32 | group : uint64_t{group} << 32 | other, s, y, i});
    }
    if (found.size() >= 2 * folded + kFoldEvery) fold();
    chains.index(i, keys.data());
    return work;
  }
};

ReviewPairs::ReviewPairs(const ShingleSets& sets, std::vector<uint32_t> labels, double review, double similarity,
                         Banding banding)
    : impl_(new Impl(banding)) {
  Impl& m = *impl_;
  m.sets = &sets;
  m.labels = std::move(labels);
  m.review = review;
  m.similarity = similarity;
  const auto count = static_cast<uint32_t>(m.labels.size());
  m.seenBy.assign(count, 0);
  m.chains.reserve(count);
}

ReviewPairs::~ReviewPairs() = default;
ReviewPairs::ReviewPairs(ReviewPairs&&) noexcept = default;
ReviewPairs& ReviewPairs::operator=(ReviewPairs&&) noexcept = default;

bool ReviewPairs::run(size_t workBudget) {
  Impl& m = *impl_;
  const auto count = static_cast<uint32_t>(m.labels.size());
  size_t work = 0;
  while (m.done < count && work < workBudget) work += m.step(m.done++);
  return m.done == count;
}

double ReviewPairs::progress() const {
  const Impl& m = *impl_;
  return m.labels.empty() ? 1.0 : static_cast<double>(m.done) / static_cast<double>(m.labels.size());
}

std::vector<ReviewPair> ReviewPairs::take(size_t limit, size_t& total) {
  Impl& m = *impl_;
  m.fold();
  total = m.found.size();
  std::sort(m.found.begin(), m.found.end(), moreSimilar);
  std::vector<ReviewPair> pairs;
  pairs.reserve(std::min(limit, total));
  for (size_t p = 0; p < total && p < limit; ++p) pairs.push_back({m.found[p].a, m.found[p].b, m.found[p].similarity});
  return pairs;
}

}  // namespace simhash
