#include "simhash/review_pairs.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "bands/band_buckets.h"
#include "base/mix.h"
#include "base/radix.h"
#include "similarity/set_sketch.h"

namespace simhash {

namespace {

// Whether pair x comes before pair y in the result: more similar, then by (a, b).
bool before(const ReviewPair& x, const ReviewPair& y) {
  if (x.similarity != y.similarity) return x.similarity > y.similarity;
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}

}  // namespace

struct ReviewPairs::Impl {
  const ShingleSets* sets;
  // Each text's set size, label and mark side by side, so that a candidate is one read
  // rather than three (the paragraphs' review reads 97M of them).
  struct Text {
    uint32_t size, label;
    uint32_t seenBy;  // the text whose candidates last included this one, plus 1
  };
  std::vector<Text> texts;
  double review;
  unsigned rows, bands;
  MinHashBands signer;
  SetSketch sketcher;
  SketchFilter filter;
  // With a limit and sketches, a bitmap of each set too: the bar, well above the review
  // threshold once the list holds the limit, then sets aside exactly most of what the
  // sketches pass (a chance pair of two paragraphs' sets, 400 shingles each, bounds about
  // 0.5), which would otherwise each cost an exact test.
  SetSketch barSketcher;
  SketchFilter barFilter;
  std::vector<uint64_t> barBitmaps;  // SetSketch::kWords per text, when used
  // Two stages, each resumable: every text signed (its band keys, in buckets.spare, and its
  // sketch), then every text, by `order`, against the texts searched before it that share a
  // band key with it: each text is indexed in the buckets (band_buckets.h) once its step is
  // done, so that each bucket holds its texts by size.
  uint32_t signedUpTo = 0, done = 0;
  std::vector<uint32_t> order;  // the texts by their sets' sizes, then their indices: the search's order
  bool laidOut = false;
  BandBuckets buckets;
  std::vector<uint64_t> sketches;  // SetSketch::kWords per text
  std::vector<uint64_t> codes;
  // The pairs of groups found so far, each with its best pair of texts: open addressing
  // from the two labels (the lesser in the high half; never 0, as the labels differ) to
  // the pair's place in `best`.
  std::vector<uint64_t> slotGroups = std::vector<uint64_t>(1024, 0);
  std::vector<uint32_t> slotBest = std::vector<uint32_t>(1024);
  std::vector<ReviewPair> best;
  // With a limit: the limit-th best similarity of `best` once it holds that many (else 0),
  // made anew each time `limit` more pairs are recorded; candidates are decided against it.
  size_t limit = SIZE_MAX, recordedSinceBar = 0, mostPairs = SIZE_MAX;
  double mostProposals = HUGE_VAL;
  double bar = 0;
  std::vector<double> scratch;

  Impl(Banding banding, double review, size_t maxBucket)
      : rows(banding.rows), bands(banding.bands), signer(banding), filter(review), barFilter(review), buckets(banding.bands, maxBucket) {
    barSketcher.bitmaps = barFilter.bitmaps = true;
  }

  void raiseBar() {
    recordedSinceBar = 0;
    scratch.resize(best.size());
    for (size_t p = 0; p < best.size(); ++p) scratch[p] = best[p].similarity;
    std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(limit - 1), scratch.end(), std::greater<>());
    bar = scratch[limit - 1];
    // Above the review threshold, bitmaps test exactly at the bar: the search's own when
    // its summaries are bitmaps, else those made for the bar.
    if (bar > review) (filter.bitmaps ? filter : barFilter).raise(bar);
  }

  size_t slotOf(uint64_t groups) const {
    size_t slot = static_cast<size_t>(((mix64(groups) >> 32) * slotGroups.size()) >> 32);
    while (slotGroups[slot] != 0 && slotGroups[slot] != groups) slot = slot + 1 == slotGroups.size() ? 0 : slot + 1;
    return slot;
  }

  void grow() {
    std::vector<uint64_t> oldGroups(2 * slotGroups.size(), 0);
    std::vector<uint32_t> oldBest(oldGroups.size());
    oldGroups.swap(slotGroups);
    oldBest.swap(slotBest);
    for (size_t k = 0; k < oldGroups.size(); ++k) {
      if (oldGroups[k] == 0) continue;
      const size_t slot = slotOf(oldGroups[k]);
      slotGroups[slot] = oldGroups[k];
      slotBest[slot] = oldBest[k];
    }
  }

  // A pair of texts a < b (pair), of groups gy != gi: the best pair of their groups so far?
  void record(uint32_t gy, uint32_t gi, const ReviewPair& pair) {
    if (4 * (best.size() + 1) > 3 * slotGroups.size()) grow();
    const uint64_t groups = gy < gi ? uint64_t{gy} << 32 | gi : uint64_t{gi} << 32 | gy;
    const size_t slot = slotOf(groups);
    if (slotGroups[slot] == 0) {
      slotGroups[slot] = groups;
      slotBest[slot] = static_cast<uint32_t>(best.size());
      best.push_back(pair);
    } else if (before(pair, best[slotBest[slot]])) {
      best[slotBest[slot]] = pair;
    }
    if (++recordedSinceBar >= limit && best.size() >= limit) raiseBar();
  }

  // Text i's band keys and sketch; returns the work it took (units as SimilarGroups counts them).
  size_t sign(uint32_t i) {
    const uint32_t size = sets->size(i);
    if (codes.size() < size) codes.resize(size);  // grows only: resizing down and up would zero it
    sets->canonicalCodes(i, codes.data());
    signer.keys(codes.data(), size, buckets.spare(i));
    sketcher.make(codes.data(), size, sketches.data() + size_t{i} * SetSketch::kWords);
    if (!barBitmaps.empty()) barSketcher.make(codes.data(), size, barBitmaps.data() + size_t{i} * SetSketch::kWords);
    return rows * bands + SetSketch::kBins + 2 * size;
  }

  // Text i against the texts searched before it that share a band key with it, none larger
  // than it (texts are searched by their sets' sizes: `order`); returns the work it took.
  size_t step(uint32_t i) {
    const uint32_t size = texts[i].size;
    const uint32_t group = texts[i].label;
    const uint64_t* sketch = sketches.data() + size_t{i} * SetSketch::kWords;
    size_t work = 4 * bands;
    work += 2 * buckets.visitNewestFirst(i, [&](uint32_t y) {
      // What cannot reach the review threshold, or the bar once it is higher, is set aside
      // exactly before anything else is read: by sizes (the most selective: at a bar of
      // 0.82, 61% of the paragraphs' candidates), later by bitmaps; not by sketches (set_sketch.h).
      // J <= min / max = sizeY / size; the margin keeps the double quotient's rounding from
      // crossing the bar. The texts indexed before y under this key are no larger: none can.
      Text& other = texts[y];
      const uint32_t sizeY = other.size;
      if (sizeY < (bar > review ? bar : review) * (1 - 1e-9) * size) return false;
      if (other.seenBy == i + 1) return true;
      other.seenBy = i + 1;
      if (other.label == group) return true;
      if (bar > review && !barBitmaps.empty() &&
          !barFilter.mayReach(barBitmaps.data() + size_t{y} * SetSketch::kWords, sizeY, barBitmaps.data() + size_t{i} * SetSketch::kWords, size)) {
        return true;
      }
      if (!filter.mayReach(sketches.data() + size_t{y} * SetSketch::kWords, sizeY, sketch, size)) return true;
      work += 8 + size / 2;
      const uint32_t a = std::min(y, i), b = std::max(y, i);
      if (sets->atLeast(a, b, bar > review ? bar : review)) record(other.label, group, {a, b, sets->similarity(a, b)});
      return true;
    });
    buckets.index(i);
    return work;
  }
};

ReviewPairs::ReviewPairs(const ShingleSets& sets, std::vector<uint32_t> labels, double review, Banding banding, size_t limit,
                         size_t maxBucket, size_t mostPairs, double mostProposals)
    : impl_(new Impl(banding, review, maxBucket)) {
  Impl& m = *impl_;
  m.limit = limit;
  m.mostPairs = mostPairs;
  m.mostProposals = mostProposals;
  m.sets = &sets;
  m.sketcher.bitmaps = m.filter.bitmaps = builtSummarizedByBitmaps(sets);
  m.texts.resize(labels.size());
  std::vector<KeyedItem> bySize(labels.size()), scratch;
  for (uint32_t i = 0; i < labels.size(); ++i) {
    m.texts[i] = {sets.size(i), labels[i], 0};
    bySize[i] = {m.texts[i].size, i};
  }
  radixSort(bySize, scratch, 32);
  m.order.resize(bySize.size());
  for (size_t k = 0; k < bySize.size(); ++k) m.order[k] = bySize[k].item;
  m.review = review;
  const auto count = static_cast<uint32_t>(m.texts.size());
  m.buckets.reserve(count);
  m.sketches.resize(size_t{count} * SetSketch::kWords);
  if (limit != SIZE_MAX && !m.filter.bitmaps) m.barBitmaps.resize(size_t{count} * SetSketch::kWords);
}

ReviewPairs::~ReviewPairs() = default;
ReviewPairs::ReviewPairs(ReviewPairs&&) noexcept = default;
ReviewPairs& ReviewPairs::operator=(ReviewPairs&&) noexcept = default;

bool ReviewPairs::run(size_t workBudget) {
  Impl& m = *impl_;
  const auto count = static_cast<uint32_t>(m.texts.size());
  size_t work = 0;
  while (m.signedUpTo < count && work < workBudget) work += m.sign(m.signedUpTo++);
  if (m.signedUpTo < count) return false;
  if (!m.laidOut) {
    m.buckets.build(count);
    m.laidOut = true;
    work += 8 * size_t{count} * m.bands;
  }
  if (m.buckets.proposals() > m.mostProposals) return true;  // declined, with every text left
  while (m.done < count && work < workBudget && m.best.size() <= m.mostPairs) work += m.step(m.order[m.done++]);
  return m.done == count || m.best.size() > m.mostPairs;
}

double ReviewPairs::progress() const {
  const Impl& m = *impl_;
  // Signing is about a quarter of the work.
  return m.texts.empty() ? 1.0 : (m.signedUpTo + 3.0 * m.done) / (4.0 * static_cast<double>(m.texts.size()));
}

std::vector<ReviewPair> ReviewPairs::take(size_t limit, size_t& total) {
  const std::vector<ReviewPair>& best = impl_->best;
  total = best.size();
  // Two stable radix passes: by (a, b), then by similarity descending (the bits of a
  // non-negative double order as the double does).
  std::vector<KeyedItem> order(total), scratch;
  for (size_t p = 0; p < total; ++p) order[p].item = static_cast<uint32_t>(p);
  for (const bool bySimilarity : {false, true}) {
    for (KeyedItem& x : order) {
      const ReviewPair& pair = best[x.item];
      uint64_t bits;
      std::memcpy(&bits, &pair.similarity, sizeof bits);
      x.key = bySimilarity ? ~bits : uint64_t{pair.a} << 32 | pair.b;
    }
    radixSort(order, scratch, 64);
  }
  std::vector<ReviewPair> pairs;
  for (size_t p = 0; p < total && p < limit; ++p) pairs.push_back(best[order[p].item]);
  return pairs;
}

}  // namespace simhash
