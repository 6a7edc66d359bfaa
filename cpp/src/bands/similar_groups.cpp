#include "simhash/similar_groups.h"

#include <algorithm>

#include "bands/band_buckets.h"
#include "base/mix.h"
#include "similarity/set_sketch.h"

namespace simhash {

Banding bandingFor(double threshold, unsigned maxRows, size_t budget) {
  // The most rows: fewest chance candidates (a pair far below the threshold, at J, is a
  // candidate with probability about bands × J^rows), for more min-hashes to sign.
  // Powers by repeated multiplication: std::pow would add 2 KB to the WASM download.
  const auto most = static_cast<unsigned>(std::min<size_t>(kMaxMinHashes, std::max<size_t>(budget, 256)));
  for (unsigned rows = maxRows; rows >= 1; --rows) {
    double perBand = 1;
    for (unsigned r = 0; r < rows; ++r) perBand *= threshold;
    double missed = 1;  // (1 - perBand)^bands
    for (unsigned bands = 1; rows * bands <= most; ++bands) {
      missed *= 1 - perBand;
      if (1 - missed >= 0.995) {
        if (rows * bands <= budget || rows == 1) return {rows, bands};
        break;
      }
    }
  }
  return {1, most};
}

namespace {

size_t meanShingles(const ShingleSets& sets) { return sets.counted() == 0 ? 0 : sets.countedRoom() / sets.counted(); }
bool longSets(const ShingleSets& sets) { return meanShingles(sets) > kLongMeanShingles; }

}  // namespace

Banding bandingFor(double threshold, const ShingleSets& sets) {
  // Short unweighted sets: up to 5 rows within 128. Measured on 97,156 fortunes with edits
  // at 0.8 against the exact answer: 5 × 14 missed 28 of 114,202 pairs, 5 × 12 (0.99) 73;
  // 6 rows cost twice the signing for 1.0 candidate per text instead of 1.4, and 7 × 23
  // groups 1.5x slower.
  // Long sets (natural paragraphs share vocabulary and boilerplate) and weighted ones
  // (lists share given names, surnames and common words) draw far more chance candidates,
  // which cost more than signing. Native leader grouping (tests/bench/native_bench.cpp
  // `candidates`): Debian's 61,774 package descriptions (413 characters on average) at
  // 0.6 2.39 s with 5 × 66 against 8.78 s with 3 × 22, at 0.5 10.0 s with 4 × 83 against
  // 20.6 s with 3 × 40; their 61,774 synopses by the short measure at 0.6 2.31 s against
  // 4.72 s, 100,000 names 3.40 s against 9.99 s. (At 0.8 too, 7 × 23 would group the
  // descriptions in 0.80 s against 1.52 s, and the names in 1.06 s against 1.35 s.)
  // From kSketchBelow up, where dedup decides its candidates as the text index does, the
  // index's banding, so that both propose the same candidates (text_index.h: the stream
  // contract).
  if (threshold >= kSketchBelow || (!sets.weighted() && !longSets(sets))) return bandingFor(threshold);
  return bandingFor(threshold, 7, std::min<size_t>(kMaxMinHashes, std::max<size_t>(meanShingles(sets), 384)));
}

namespace {

constexpr uint32_t kNone = BandBuckets::kNone;
// A bin's minimum is a 32-bit value; above those, a bin with no shingle, and a mark on the
// values that densification copied (so copies are never copied again).
constexpr uint64_t kEmpty = uint64_t{1} << 32;
constexpr uint64_t kDensified = uint64_t{1} << 33;
constexpr unsigned kProbes = 64;  // precomputed probes per bin; past them, the next bins in turn

}  // namespace

MinHashBands::MinHashBands(Banding banding) : rows_(banding.rows), bands_(banding.bands) {
  const unsigned total = rows_ * bands_;
  probes_.resize(size_t{total} * kProbes);
  uint64_t state = 0x5EED5EED5EED5EEDull;
  for (uint32_t& probe : probes_) {
    state = mix64(state + 0x9E3779B97F4A7C15ull);
    probe = static_cast<uint32_t>(((state >> 32) * total) >> 32);
  }
  mins_.resize(total);
  open_.resize(total);
}

// One permutation hashing with optimal densification (Li, Owen, Zhang 2012; Shrivastava
// 2017): each shingle's 64-bit mix picks one of the K bins and competes for its minimum,
// so a text costs O(shingles + K) whatever K is; an empty bin then takes the minimum of
// the first non-empty bin along its own fixed pseudo-random probe sequence, which every
// text shares. Two texts' bins then agree with probability about J each.
void MinHashBands::keys(const uint64_t* codes, size_t size, uint32_t* out) {
  const unsigned total = rows_ * bands_;
  std::fill(mins_.begin(), mins_.end(), kEmpty);
  uint64_t* const m = mins_.data();
  for (size_t k = 0; k < size; ++k) {
    const uint64_t h = mix64(codes[k] ^ 0x2545F4914F6CDD1Dull);
    const size_t bin = static_cast<size_t>(((h >> 32) * total) >> 32);
    const uint64_t value = h & 0xFFFFFFFFull;
    // A select, not a branch: whether a shingle lowers its bin's minimum is a coin toss
    // early in a text, and mispredicting it cost a third of this loop (native, 200k texts).
    const uint64_t least = m[bin];
    m[bin] = value < least ? value : least;
  }
  if (size > 0) {
    // Each empty bin takes the first of its probes that a shingle filled (a bin densified
    // already holds a value above kEmpty, so it never counts). Probed breadth-first, two
    // probes of every bin still open a round, without a branch on whether they hit, which
    // is a coin toss: a loop per bin mispredicted its exit once a bin. Two probes a round
    // halve the rounds' bookkeeping (names at 0.6: 830 probes in 18 rounds a text, one at
    // a time; two at a time their signing took about 0.9x the time in WASM, a /tmp harness).
    static_assert(kProbes % 2 == 0, "probes taken two at a time");
    uint32_t* const open = open_.data();
    unsigned left = 0;
    for (unsigned j = 0; j < total; ++j) {
      open[left] = j;
      left += m[j] == kEmpty;
    }
    for (unsigned attempt = 0; left > 0 && attempt < kProbes; attempt += 2) {
      unsigned kept = 0;
      for (unsigned k = 0; k < left; ++k) {
        const uint32_t j = open[k];
        const uint32_t* const probe = probes_.data() + j * kProbes + attempt;
        const uint64_t a = m[probe[0]], b = m[probe[1]];
        const uint64_t value = a < kEmpty ? a : b;
        const bool filled = value < kEmpty;
        m[j] = filled ? value | kDensified : kEmpty;
        open[kept] = j;
        kept += !filled;
      }
      left = kept;
    }
    for (unsigned k = 0; k < left; ++k) {  // past the probes, the next bins in turn (tiny sets)
      const uint32_t j = open[k];
      uint64_t found = kEmpty;
      for (unsigned attempt = kProbes; found == kEmpty; ++attempt) {
        const unsigned from = (j + attempt) % total;
        if (m[from] < kEmpty) found = m[from];
      }
      m[j] = found | kDensified;
    }
  }
  // A band's key: its values folded by multiply-xor steps, then mixed once. Values are
  // below 2^34, so each step keeps all of the previous state and the new value.
  for (unsigned b = 0; b < bands_; ++b) {
    uint64_t h = b;
    for (unsigned r = 0; r < rows_; ++r) h = (h ^ m[b * rows_ + r]) * 0x9E3779B97F4A7C15ull + (h >> 29);
    const auto key = static_cast<uint32_t>(mix64(h));
    out[b] = key == 0 ? 1 : key;
  }
}

// Made at the first signing (of a set added, or by run(), banding() or bandKeys), once the sets have
// counted every text: the banding and the summaries are chosen then.
struct SimilarGroups::Impl {
  const ShingleSets* sets;
  double threshold;
  Grouping grouping;
  unsigned rows, bands;
  uint32_t count = 0;  // the sets' count, once run() starts
  bool started = false;
  uint32_t groupedUpTo = 0;
  uint32_t signedUpTo = 0;  // texts [0, signedUpTo) have their band keys in buckets.spare
  MinHashBands signer;
  // The indexed texts by band key, laid out when run() starts; until then buckets.spare(i)
  // holds text i's keys when i < signedUpTo.
  BandBuckets buckets;
  std::vector<uint32_t> labels;  // leader of each text so far, or its union-find parent
  std::vector<uint32_t> seenBy;  // the text whose candidates last included each text, plus 1
  std::vector<uint64_t> codes;
  // Each text's summary (set_sketch.h), made as it is signed, and the filter that sets
  // aside the candidates it shows below the threshold. Below kSketchBelow, where bands of
  // few rows propose many chance candidates: its bitmap when the texts are short, else
  // its sketch. From kSketchBelow up: its bitmap, which sets aside no pair that reaches
  // the threshold, so every candidate is decided as by atLeast alone (as the text index
  // decides it: the stream contract).
  SetSketch sketcher;
  SketchFilter filter;
  std::vector<uint64_t> sketches;
  uint64_t touched = 0;  // the sum of group()'s loads that bring candidates' summaries in, so that they are made

  Impl(const ShingleSets& s, double t, Grouping g, Banding banding)
      : sets(&s), threshold(t), grouping(g), rows(banding.rows), bands(banding.bands), signer(banding),
        buckets(banding.bands), filter(t) {
    sketcher.bitmaps = filter.bitmaps = t >= kSketchBelow || summarizesByBitmaps(s);
  }

  void reserve(uint32_t texts) {
    buckets.reserve(texts);
    if (sketches.size() < size_t{texts} * SetSketch::kWords) sketches.resize(size_t{texts} * SetSketch::kWords);
  }

  // Text i's band keys (to out[0, bands)) and sketch, from its set's canonical codes.
  void sign(uint32_t i, const uint64_t* setCodes, uint32_t size, uint32_t* out) {
    signer.keys(setCodes, size, out);
    sketcher.make(setCodes, size, sketches.data() + size_t{i} * SetSketch::kWords);
  }

  // The same from its stored set.
  void sign(uint32_t i, uint32_t* out) {
    const uint32_t size = sets->size(i);
    if (codes.size() < size) codes.resize(size);  // grows only: resizing down and up would zero it
    sets->canonicalCodes(i, codes.data());
    sign(i, codes.data(), size, out);
  }

  // Whether texts y and i may reach the threshold: their summaries' test, then the exact one.
  bool reaches(uint32_t y, uint32_t i) const {
    const uint64_t* sketch = sketches.data();
    if (!filter.mayReach(sketch + size_t{y} * SetSketch::kWords, sets->size(y), sketch + size_t{i} * SetSketch::kWords, sets->size(i))) {
      return false;
    }
    return sets->atLeast(y, i, threshold);
  }


  // ShingleSets::Observer: set i's keys, signed while its codes are at hand.
  void added(uint32_t i, const uint64_t* setCodes, uint32_t size) {
    if (i != signedUpTo || started) return;  // out of order: run() signs it from the sets
    reserve(std::max({i + 1, sets->count(), sets->counted()}));  // room for every text the sets will hold
    sign(i, setCodes, size, buckets.spare(i));
    ++signedUpTo;
  }

  // Signs the texts not signed as they were added, and lays out the buckets of all.
  void start() {
    count = sets->count();
    labels.resize(count);
    seenBy.assign(count, 0);
    reserve(count);
    for (; signedUpTo < count; ++signedUpTo) sign(signedUpTo, buckets.spare(signedUpTo));
    // In one round where all entries fit in 2^23 (100,000 names' 6.6M at 0.6): the
    // grouping's peak lies elsewhere then (the names' module after the call: 92 MiB against
    // 97), where 1M names' rounds of 2^23 ended 16 MiB higher, and the records' two
    // searches (ReviewPairs) 25 MiB.
    const size_t entries = size_t{count} * bands;
    buckets.build(count, entries <= 2 * BandBuckets::kAtOnce ? entries : BandBuckets::kAtOnce);
    started = true;
  }

  uint32_t find(uint32_t x) {
    while (labels[x] != x) x = labels[x] = labels[labels[x]];  // path halving
    return x;
  }

  // Text i's step of the grouping; returns the work it took, in units of about a signed
  // shingle's cost: a band's bucket looked up or indexed 2, a bucket entry read 2, a
  // verification 8 plus half a unit per shingle.
  size_t group(uint32_t i) {
    labels[i] = i;
    const uint32_t mark = i + 1;
    size_t work = 2 * bands;
    if (grouping == Grouping::Leader) {
      // The earliest leader that accepts i: the least accepting candidate, testing only
      // those below the least found so far, and reading a bucket only up to it (the
      // buckets hold their texts oldest first). Not sorting the candidates: a leader
      // tests all its candidates whatever their order, and at low thresholds most texts
      // lead; sorting took 14% of the descriptions' grouping at 0.5 (native), for 4% fewer
      // tests. The summaries and sizes of a bucket's texts new to the walk are loaded
      // before any is tested: independent loads, whose cache misses overlap, where each
      // test's branch on its own loads took them one at a time (docs/performance.md: 1M
      // names). Texts seen already are not loaded again: near-duplicates share most bands.
      uint32_t least = kNone;
      work += 2 * buckets.visitBuckets(i, [&](const uint32_t* texts, uint32_t n) {
        uint32_t below = 0;
        for (; below < n && texts[below] < least; ++below) {
          const uint32_t y = texts[below];
          if (seenBy[y] != mark) touched += sketches[size_t{y} * SetSketch::kWords] + sets->size(y);
        }
        uint32_t k = 0;
        for (; k < below && texts[k] < least; ++k) {
          const uint32_t y = texts[k];
          if (seenBy[y] == mark) continue;
          seenBy[y] = mark;
          work += 8 + sets->size(i) / 2;
          if (reaches(y, i)) least = y;
        }
        return k;
      });
      if (least != kNone) {
        labels[i] = least;
        return work;
      }
      buckets.index(i);
      return work + 2 * bands;
    }
    work += 2 * buckets.visit(i, [&](uint32_t y) {
      if (seenBy[y] == mark) return;
      seenBy[y] = mark;
      const uint32_t ry = find(y), ri = find(i);
      if (ry == ri) return;  // already joined: no test needed
      work += 8 + sets->size(i) / 2;
      if (!reaches(y, i)) return;
      // The smaller index becomes the root, so each root is its component's minimum.
      if (ry < ri) labels[ri] = ry;
      else labels[ry] = ri;
    });
    buckets.index(i);
    return work + 2 * bands;
  }
};

SimilarGroups::SimilarGroups(const ShingleSets& sets, double threshold, Grouping grouping, Banding banding)
    : sets_(&sets), threshold_(threshold), grouping_(grouping), banding_(banding) {}

SimilarGroups::SimilarGroups(const ShingleSets& sets, double threshold, Grouping grouping)
    : SimilarGroups(sets, threshold, grouping, Banding{0, 0}) {}

SimilarGroups::Impl& SimilarGroups::impl() {
  if (!impl_) {
    impl_.reset(new Impl(*sets_, threshold_, grouping_, banding_.rows == 0 ? bandingFor(threshold_, *sets_) : banding_));
  }
  return *impl_;
}

SimilarGroups::~SimilarGroups() = default;
SimilarGroups::SimilarGroups(SimilarGroups&&) noexcept = default;
SimilarGroups& SimilarGroups::operator=(SimilarGroups&&) noexcept = default;

bool SimilarGroups::run(size_t workBudget) {
  Impl& m = impl();
  if (!m.started) m.start();
  size_t work = 0;
  while (m.groupedUpTo < m.count && work < workBudget) work += m.group(m.groupedUpTo++);
  if (m.groupedUpTo < m.count) return false;
  if (m.grouping == Grouping::Components) {
    for (uint32_t i = 0; i < m.count; ++i) m.labels[i] = m.find(i);
  }
  return true;
}

double SimilarGroups::progress() const {
  const uint32_t count = sets_->count();
  return count == 0 ? 1.0 : static_cast<double>(impl_ ? impl_->groupedUpTo : 0) / count;
}

std::vector<uint32_t> SimilarGroups::takeLabels() {
  std::vector<uint32_t> labels;
  labels.swap(impl_->labels);
  return labels;
}

void SimilarGroups::added(uint32_t i, const uint64_t* codes, uint32_t size) { impl().added(i, codes, size); }

Banding SimilarGroups::banding() { return {impl().rows, impl().bands}; }

void SimilarGroups::bandKeys(uint32_t i, uint32_t* out) {
  Impl& m = impl();
  if (!m.started && i < m.signedUpTo) {
    std::copy_n(m.buckets.spare(i), m.bands, out);
  } else {
    m.reserve(std::max(i + 1, m.sets->count()));
    m.sign(i, out);
  }
}

}  // namespace simhash
