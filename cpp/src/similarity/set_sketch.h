#pragma once
// Internal: 512-bit summaries of shingle sets, to set aside before exact verification the
// candidate pairs that cannot reach a similarity: a sketch (b-bit minwise hashing: Li and
// König, WWW 2010) or, for short texts, a bitmap. Used where candidates come from low
// thresholds' bands, which propose many chance pairs (ReviewPairs: at 0.5, 450 candidates
// a text on 97k fortunes, of which 1 in 600 reaches 0.5).
//
// A set's sketch: one permutation hashing of its canonical codes into kBins bins (each
// code's 64-bit mix picks a bin and competes for its minimum), empty bins densified by
// rotation (the next non-empty bin to the right, its value marked with the distance:
// Shrivastava and Li, ICML 2014), and 2 bits of each bin's value kept. Two sets' bins agree
// with probability about J, and otherwise their 2 bits agree 1 time in 4, so a bin's 2 bits
// agree with probability p(J) = J + (1 - J) / 4.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

class ShingleSets;

/// Whether a search over the texts of `sets` summarizes them by bitmaps rather than by
/// sketches (SetSketch::bitmaps, SketchFilter::bitmaps): when the counted texts' sets can
/// have at most kBitmapMeanShingles shingles on average (ShingleSets::countedRoom). A bitmap
/// bounds exactly and, for sets of a few dozen shingles, sets aside far more than a sketch,
/// whose few filled bins say little; for larger sets it fills up and says little. One form
/// for a whole search, so any two summaries compare.
constexpr size_t kBitmapMeanShingles = 128;
bool summarizesByBitmaps(const ShingleSets& sets);

/// The same choice for a search over sets all built (ReviewPairs), which knows their sizes.
/// Weighted sets: bitmaps when they hold at most kBitmapBuiltMeanShingles shingles on
/// average, as their room counts each bigram at the heaviest weight: on 95,503 contacts' name
/// fields joined (168 weighted shingles a set, 286 of room) at 0.6, 0.6M of 16.6M candidates
/// reach the exact test against 2.6M by sketches. Other sets as summarizesByBitmaps: bitmaps
/// of 100k fortunes (about 140 shingles a set) made their review at 0.5 1.2-1.35x slower.
constexpr size_t kBitmapBuiltMeanShingles = 256;
bool builtSummarizedByBitmaps(const ShingleSets& sets);

class SetSketch {
 public:
  static constexpr unsigned kBins = 256;
  static constexpr unsigned kWords = 2 * kBins / 64;  // uint64 words per sketch

  /// Makes bitmaps instead of sketches: bit h(code) of 512 for each shingle (h a fixed
  /// hash). Two bitmaps bound the sets' intersection exactly: a shingle of A whose bit B's
  /// bitmap lacks is not in B, so |A ∩ B| <= |A| - popcount(A & ~B) (the bitmap filter of
  /// Sandes, Teodoro and Melo, "Bitmap Filter: Speeding up Exact Set Similarity Joins with
  /// Bitwise Operations").
  bool bitmaps = false;

  /// The sketch (or bitmap) of the set whose shingles have canonical codes codes[0, size)
  /// (any order, repeats allowed), written to out[0, kWords). Cost O(size + kBins).
  void make(const uint64_t* codes, size_t size, uint64_t* out);

 private:
  std::vector<uint64_t> mins_ = std::vector<uint64_t>(kBins);
};

/// Whether two sets of sizes na and nb (distinct shingles) whose sketches are a and b may
/// reach similarity `threshold`: false only when the sketches agree in fewer bins than
/// kBins × p(threshold) by more than kDeviations standard deviations of that count. The
/// deviation is that of neff = n × kBins / (n + kBins) independent bins, n = min(na, nb):
/// sets smaller than the bins fill only some of them (rotation copies the rest), and that
/// n bounds what the sketch sees, so the test only errs for sets far below the threshold.
/// Cost: 8 XORs and popcounts.
class SketchFilter {
 public:
  static constexpr double kDeviations = 3.0;
  /// @pre 0 < threshold <= 1.
  explicit SketchFilter(double threshold);
  /// Compares bitmaps (SetSketch::bitmaps) instead: false only when their bound on the
  /// intersection cannot reach the threshold, so it never sets aside a pair that reaches it.
  bool bitmaps = false;
  bool mayReach(const uint64_t* a, uint32_t na, const uint64_t* b, uint32_t nb) const;
  /// Bitmaps compare their exact bound with `threshold` from now on. Sketches keep the
  /// constructor's: their test errs now and then, and at a higher threshold it would set
  /// aside pairs that a test at the first one passes.
  void raise(double threshold) { threshold_ = threshold; }

 private:
  double threshold_;
  double expected_;  // kBins × p(threshold)
  double variance_;  // kBins × p (1 - p), the count's variance at neff = kBins
};

}  // namespace simhash
