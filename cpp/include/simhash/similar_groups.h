#pragma once
// Grouping by exact similarity (similarity.h) with candidates from MinHash banding.
//
// Candidates: each text's shingle set gets K = rows × bands min-hashes (one permutation
// hashing with densification: each shingle's hash competes in one of K bins) of its
// shingles' canonical codes (similarity.h), so a text's keys depend on the text alone;
// the min-hashes are cut into `bands` bands of `rows`, and two texts are candidates when
// some band key of one equals some band key of the other (32-bit keys, of any band: a key
// collision adds a candidate, never loses one). A pair with Jaccard similarity J is a candidate with probability about
// 1 - (1 - J^rows)^bands (Broder 1997; Indyk and Motwani 1998), which bandingFor keeps at
// 0.995 or more for J at the threshold. Decisions: ShingleSets::atLeast, exact.
// The result is the grouping rule applied to the candidate pairs whose similarity reaches
// the threshold; it depends only on the texts (and their order), never on slicing.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "simhash/similarity.h"

namespace simhash {

/// Below this threshold (where bandingFor has 3 or 4 rows and proposes many chance
/// candidates) SimilarGroups sets aside, before the exact test, the candidates whose sets'
/// 512-bit summaries (set_sketch.h) show them below it: bitmaps, when the texts are short,
/// which bound the intersection exactly; else sketches (more than 99.5% of pairs at exactly
/// the threshold pass, small sets included; of the 74,649 pairs at 0.5 or more among 97k
/// fortunes' band candidates, none was set aside). From it up, bitmaps, which set aside no
/// pair that reaches the threshold: every candidate is decided as the text index decides it.
constexpr double kSketchBelow = 0.7;

/// rows × bands min-hashes per text. @pre 1 <= rows, 1 <= bands, rows * bands <= kMaxMinHashes.
struct Banding {
  unsigned rows;
  unsigned bands;
};
constexpr unsigned kMaxMinHashes = 1024;

/// The banding at `threshold`: the most rows, up to maxRows, with
/// 1 - (1 - threshold^rows)^bands >= 0.995 within `budget` min-hashes (one row: within
/// max(budget, 256)). The defaults are the text index's banding (0.8: 5 × 14), which its
/// bytes and the shared index's layout store. @pre 0 < threshold <= 1, maxRows >= 1.
Banding bandingFor(double threshold, unsigned maxRows = 5, size_t budget = 128);

/// Sets that average more shingles than this (ShingleSets::countedRoom per text) are long.
constexpr size_t kLongMeanShingles = 256;

/// dedup's banding over the texts the sets have counted: the text index's at kSketchBelow
/// and above, and for short unweighted sets; below kSketchBelow, for long sets and for
/// weighted ones (the short measure), up to 7 rows within as many min-hashes as the sets
/// average shingles, 384 at least and kMaxMinHashes at most (0.6: 5 × 66; 0.5: 4 × 83).
Banding bandingFor(double threshold, const ShingleSets& sets);

/// The band keys of shingle sets (MinHashBands::keys), shared by SimilarGroups and
/// TextIndex (text_index.h) so that both propose the same candidates for the same texts.
/// Holds the densification probes: 256 bytes per min-hash.
class MinHashBands {
 public:
  /// @pre banding as Banding requires.
  explicit MinHashBands(Banding banding);
  Banding banding() const { return {rows_, bands_}; }
  /// The band keys (never 0) of the set whose shingles have canonical codes
  /// codes[0, size) (kCanonicalBits; any order, repeats allowed: the keys depend only on
  /// the set), written to out[0, bands). Cost O(size + rows × bands).
  void keys(const uint64_t* codes, size_t size, uint32_t* out);

 private:
  unsigned rows_, bands_;
  std::vector<uint32_t> probes_;  // each bin's probe sequence for densification, from a fixed seed
  std::vector<uint64_t> mins_;    // scratch: the bins of one set
  std::vector<uint32_t> open_;    // scratch: its bins not yet densified
};

/// Labels of texts by similarity: leader grouping (texts in index order; each joins the
/// earliest leader whose similarity with it reaches the threshold among its candidates,
/// or leads) or components (connected components of the candidate pairs that reach it,
/// labelled by their smallest index), in resumable slices.
/// Memory: 4 bytes and a bit per band and 72 bytes per text, plus 4 bytes per (text, band) whose key another
/// text's band shares and 4 per such key (band_buckets.h). @pre texts × bands < 2^32.
///
/// A text's signature costs O(its shingles + K). Passed as the observer of the sets'
/// addTexts, the groups sign each set as it is built (its codes at hand); run() signs
/// the others from the stored sets.
class SimilarGroups : public ShingleSets::Observer {
 public:
  enum class Grouping { Leader, Components };
  /// @pre by the first run(), `sets` built for every text (before this or with this as
  /// the observer of their addTexts), then unchanged and alive while run() is called;
  /// 0 < threshold <= 1.
  /// The banding is bandingFor(threshold, sets), chosen at the first signing (the sets
  /// have counted every text by then); or `banding` when given.
  SimilarGroups(const ShingleSets& sets, double threshold, Grouping grouping);
  SimilarGroups(const ShingleSets& sets, double threshold, Grouping grouping, Banding banding);
  ~SimilarGroups();
  SimilarGroups(SimilarGroups&&) noexcept;
  SimilarGroups& operator=(SimilarGroups&&) noexcept;

  /// Works until done or about workBudget units are spent (a unit is about the cost of one
  /// shingle signed: 10-20 ns in WASM); returns true when done.
  bool run(size_t workBudget);
  /// ShingleSets::Observer: signs set i now. Sets added out of order, or after run()
  /// started, are left for run() to sign.
  void added(uint32_t i, const uint64_t* codes, uint32_t size) override;
  /// Fraction of the work done, 0..1.
  double progress() const;
  /// The labels (label[i] = the leader or component minimum of text i). @pre run() returned true.
  std::vector<uint32_t> takeLabels();
  /// The banding: given, or bandingFor(threshold, sets). @pre the sets have counted every text.
  Banding banding();
  /// The band keys of text i, written to out[0, banding().bands): two texts are candidates
  /// when some band's keys are equal. For tests and benchmarks. Cost: the text's
  /// min-hashes, or a copy of those signed as the set was built (before run()).
  /// @pre set i built.
  void bandKeys(uint32_t i, uint32_t* out);

 private:
  struct Impl;
  Impl& impl();  // made at the first signing
  const ShingleSets* sets_;
  double threshold_;
  Grouping grouping_;
  Banding banding_;  // 0 × 0: bandingFor(threshold_, *sets_)
  std::unique_ptr<Impl> impl_;
};

}  // namespace simhash
