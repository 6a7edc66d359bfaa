#pragma once
// Pairs of groups for a person to review: what a grouping by similarity kept apart.
//
// Given the texts' shingle sets (similarity.h) and a grouping of them (any labels: texts
// with equal labels are one group), ReviewPairs finds each two groups that some pair of
// their texts, one from each, joins with a similarity of at least `review`, and reports
// each two groups once, through their most similar such pair (ties: the least
// (a, b)). Candidates come from MinHash banding of the sets at `review` (similar_groups.h:
// bandingFor(review, sets) keeps a pair at J = review with probability 0.995 or more, higher
// ones more surely) over every text, not only a grouping's leaders; every candidate of
// another group that the sets' summaries (set_sketch.h) do not rule out is decided exactly. The result
// depends only on the texts, their order and the labels, never on slicing.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "simhash/similar_groups.h"
#include "simhash/similarity.h"

namespace simhash {

/// One pair of groups to review: texts a < b, one of each group, and their similarity.
struct ReviewPair {
  uint32_t a, b;
  double similarity;
};

/// The review pairs of a grouping, in resumable slices: every text signed (its band keys
/// and a 512-bit summary of its set: a bitmap when the texts are short, else a sketch), then
/// each text, in the order of their sets' sizes, against the texts searched before it that
/// share a band key with it, each key's newest first and only while they are large enough
/// to reach `review` (or the bar, below) beside it. A candidate of another
/// group whose bitmap bounds it below `review`, or whose sketch shows it far below (more than
/// 3 standard deviations: set_sketch.h), is set aside unverified; the others are
/// decided exactly. With a `limit`, once that many pairs of groups are found, a candidate
/// is decided against the limit-th best similarity found so far instead (the bar, which only
/// rises), since one below it cannot enter the first `limit`: they are those the search
/// without a limit would give first, and the pairs found beyond them a lower bound of the
/// rest. Above the review threshold the bar sets candidates aside exactly, by sizes and by
/// bitmaps (made beside the sketches for that). Memory: 4 bytes and a bit per (text, band),
/// 4 more per (text, band) whose key another shares and 4 per such key (band_buckets.h),
/// 80 per text (144 with a limit and sketches; 32 more while the order by size is made),
/// and about 40 per pair of groups found.
class ReviewPairs {
 public:
  /// `limit`: the pairs take() will be asked for at most (SIZE_MAX: every one).
  /// `maxBucket`: a band key that more texts hold proposes none of them (a part many texts
  /// share, such as a common first name and a city, rather than a near-duplicate; a pair at
  /// J = review shares bands × review^rows keys on average, so it is still found through
  /// the others, unless most of its keys are such parts). SIZE_MAX: every key proposes.
  /// `mostPairs`: the search stops once it holds more pairs of groups; `mostProposals`: it
  /// stops before deciding any candidate when the band keys propose more (BandBuckets::
  /// proposals; a double, as they pass 2^32 where size_t has 32 bits). Bounds on memory and
  /// time where nearly every text is like every other, or many are alike by chance (short
  /// texts of a small vocabulary), whose pairs and candidates grow with the square of the
  /// texts: past either, run() returns true with texts left unsearched (progress() below 1;
  /// the last text may cross mostPairs), and take() gives what was found. SIZE_MAX, HUGE_VAL: never.
  /// @pre `sets` built for texts [0, labels.size()), unchanged and alive while run() is
  /// called; 0 < review <= 1; labels.size() × banding.bands < 2^32; limit >= 1.
  ReviewPairs(const ShingleSets& sets, std::vector<uint32_t> labels, double review, Banding banding,
              size_t limit = SIZE_MAX, size_t maxBucket = SIZE_MAX, size_t mostPairs = SIZE_MAX,
              double mostProposals = HUGE_VAL);
  ~ReviewPairs();
  ReviewPairs(ReviewPairs&&) noexcept;
  ReviewPairs& operator=(ReviewPairs&&) noexcept;

  /// Works until done (or past mostPairs) or about workBudget units are spent (units as
  /// SimilarGroups::run); returns true when done.
  bool run(size_t workBudget);
  /// Fraction of the work done, 0..1.
  double progress() const;
  /// The pairs of groups, most similar first, then by (a, b): the first `limit` of them.
  /// `total` receives how many were found: all there are when fewer than the constructor's
  /// limit were, else at least the limit and a lower bound of all. @pre run() returned
  /// true; limit at most the constructor's.
  std::vector<ReviewPair> take(size_t limit, size_t& total);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simhash
