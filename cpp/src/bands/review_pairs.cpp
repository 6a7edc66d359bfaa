#include "simhash/review_pairs.h"

#include <algorithm>
#include <cstring>
#include <functional>

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
  // Two stages, each resumable: every text signed (its band keys and its sketch), then
  // every text against the earlier texts that share a band key with it. The band index
  // is static once built, so it is laid out flat rather than chained: entries (key << 32
  // | text) grouped by the top bits of the key, in text order within a group, so that a
  // lookup reads one short contiguous run instead of chasing links across memory.
  uint32_t signedUpTo = 0, done = 0;
  std::vector<uint32_t> keys;      // bands per text: the band keys
  std::vector<uint64_t> sketches;  // SetSketch::kWords per text
  unsigned shift = 32;             // a key's group: key >> shift
  std::vector<uint32_t> starts;    // each group's first entry, then the end
  std::vector<uint64_t> entries;
  std::vector<uint32_t> runs;    // per band of the text stepped: its key's group's first entry, then its end
  uint64_t touched = 0;          // the entries read ahead (kept, so that the reads are)
  std::vector<uint64_t> codes;
  // The pairs of groups found so far, each with its best pair of texts: open addressing
  // from the two labels (the lesser in the high half; never 0, as the labels differ) to
  // the pair's place in `best`.
  std::vector<uint64_t> slotGroups = std::vector<uint64_t>(1024, 0);
  std::vector<uint32_t> slotBest = std::vector<uint32_t>(1024);
  std::vector<ReviewPair> best;
  // With a limit: the limit-th best similarity of `best` once it holds that many (else 0),
  // made anew each time `limit` more pairs are recorded; candidates are decided against it.
  size_t limit = SIZE_MAX, recordedSinceBar = 0;
  size_t maxBucket = SIZE_MAX;
  double bar = 0;
  std::vector<double> scratch;

  Impl(Banding banding, double review)
      : rows(banding.rows), bands(banding.bands), signer(banding), filter(review), barFilter(review) {
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

  // Texts y < i of groups gy != gi at similarity s: the best pair of their groups so far?
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
    signer.keys(codes.data(), size, keys.data() + size_t{i} * bands);
    sketcher.make(codes.data(), size, sketches.data() + size_t{i} * SetSketch::kWords);
    if (!barBitmaps.empty()) barSketcher.make(codes.data(), size, barBitmaps.data() + size_t{i} * SetSketch::kWords);
    return rows * bands + SetSketch::kBins + 2 * size;
  }

  // The flat band index of every text's keys: about 4 entries a group.
  void index() {
    const size_t count = keys.size();
    unsigned bits = 1;
    while (bits < 30 && (size_t{4} << bits) < count) ++bits;
    shift = 32 - bits;
    starts.assign((size_t{1} << bits) + 1, 0);
    for (const uint32_t key : keys) ++starts[(key >> shift) + 1];
    for (size_t g = 1; g < starts.size(); ++g) starts[g] += starts[g - 1];
    entries.resize(count);
    std::vector<uint32_t> at(starts.begin(), starts.end() - 1);
    for (size_t e = 0; e < count; ++e) entries[at[keys[e] >> shift]++] = uint64_t{keys[e]} << 32 | (e / bands);
  }

  // Text i against the earlier texts it shares a band key with; returns the work it took.
  size_t step(uint32_t i) {
    const uint32_t size = texts[i].size;
    const uint32_t group = texts[i].label;
    const uint64_t* sketch = sketches.data() + size_t{i} * SetSketch::kWords;
    size_t work = 16 * bands;
    // Each key's group located, then its first entry read, in loops of reads that do not
    // depend on one another, so that their cache misses (the index is large) overlap
    // instead of following one another.
    for (unsigned b = 0; b < bands; ++b) {
      const uint32_t g = keys[size_t{i} * bands + b] >> shift;
      runs[2 * b] = starts[g];
      runs[2 * b + 1] = starts[g + 1];
    }
    for (unsigned b = 0; b < bands; ++b) touched += runs[2 * b] < runs[2 * b + 1] ? entries[runs[2 * b]] : 0;
    for (unsigned b = 0; b < bands; ++b) {
      const uint32_t key = keys[size_t{i} * bands + b];
      const uint64_t* const from = entries.data() + runs[2 * b];
      const uint64_t* const to = entries.data() + runs[2 * b + 1];
      if (maxBucket != SIZE_MAX) {
        size_t held = 0;
        for (const uint64_t* e = from; e < to; ++e) held += *e >> 32 == key;
        if (held > maxBucket) continue;
      }
      for (const uint64_t* e = from; e < to; ++e) {
        const auto y = static_cast<uint32_t>(*e);
        if (y >= i) break;  // texts in order within a group: the rest are later texts
        if (*e >> 32 != key) continue;
        // What cannot reach the review threshold, or the bar once it is higher, is set
        // aside exactly before anything else is read: by sizes (the most selective: at a bar of
        // 0.82, 61% of the paragraphs' candidates), later by bitmaps; not by sketches (set_sketch.h).
        // J <= min / max; the margin keeps the double quotient's rounding from crossing the bar.
        Text& other = texts[y];
        const uint32_t sizeY = other.size;
        const double least = std::min(sizeY, size), most = std::max(sizeY, size);
        if (least < (bar > review ? bar : review) * (1 - 1e-9) * most || other.seenBy == i + 1) continue;
        other.seenBy = i + 1;
        work += 2;
        if (other.label == group) continue;
        if (bar > review && !barBitmaps.empty() &&
            !barFilter.mayReach(barBitmaps.data() + size_t{y} * SetSketch::kWords, sizeY, barBitmaps.data() + size_t{i} * SetSketch::kWords, size)) {
          continue;
        }
        if (!filter.mayReach(sketches.data() + size_t{y} * SetSketch::kWords, sizeY, sketch, size)) continue;
        work += 8 + size / 2;
        if (!sets->atLeast(y, i, bar > review ? bar : review)) continue;
        record(other.label, group, {y, i, sets->similarity(y, i)});
      }
    }
    return work;
  }
};

ReviewPairs::ReviewPairs(const ShingleSets& sets, std::vector<uint32_t> labels, double review, Banding banding, size_t limit,
                         size_t maxBucket)
    : impl_(new Impl(banding, review)) {
  Impl& m = *impl_;
  m.limit = limit;
  m.maxBucket = maxBucket;
  m.sets = &sets;
  m.sketcher.bitmaps = m.filter.bitmaps = builtSummarizedByBitmaps(sets);
  m.texts.resize(labels.size());
  for (uint32_t i = 0; i < labels.size(); ++i) m.texts[i] = {sets.size(i), labels[i], 0};
  m.review = review;
  const auto count = static_cast<uint32_t>(m.texts.size());
  m.runs.resize(2 * size_t{m.bands});
  m.keys.resize(size_t{count} * m.bands);
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
  if (m.entries.size() < m.keys.size()) {
    m.index();
    work += 8 * m.keys.size();
  }
  while (m.done < count && work < workBudget) work += m.step(m.done++);
  return m.done == count;
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
