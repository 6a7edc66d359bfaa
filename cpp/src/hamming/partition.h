#pragma once
// Internal: the filters behind the exact pair search, the leader grouping and the index
// (the general pigeonhole principle of GPH: Qin, Xiao, Wang, Zhang, ICDE 2018).
//
// The 64 bits are split into m contiguous parts; part i has a threshold t_i >= -1 with
// sum(t_i + 1) = k + 1. Two fingerprints within distance k cannot differ in more than t_i
// bits of every part i (that would make at least sum(t_i + 1) = k + 1 bits), so some part
// has them within its threshold: looking, for every part, in the buckets whose keys lie
// within t_i of a fingerprint's part key finds every neighbour. Parts with t_i = -1 are
// never probed and are left out of partCount(). With every t_i = 0 this is Manku's
// k + 1 blocks; larger thresholds let fewer, wider parts carry a large k.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

class Partition {
 public:
  /// What the partition serves, which sets its cost model: a bucket-pair join over all
  /// items (findPairs), lookups among every stored item (the index), or lookups among the
  /// leaders found so far (leader grouping), whose buckets are mostly empty.
  enum class Use { Join, Index, Leaders };

  /// Part widths never exceed this, so a part's buckets fit a directory of 2^width offsets.
  static constexpr unsigned kMaxWidth = 24;

  struct Part {
    unsigned shift, width, threshold;
    uint64_t mask;                 ///< the part's bits in place (popcount(diff & mask) is its distance)
    std::vector<uint32_t> probes;  ///< every width-bit mask of popcount <= threshold, by popcount, 0 first
  };

  /// The cheapest partition for n fingerprints and maximum distance k, or a linear scan
  /// (partCount() == 0) when that is estimated cheaper. The cost of each candidate (part
  /// count m, thresholds) is estimated from the fingerprints themselves: the distribution
  /// of every part's distance over the pairs of a sample of up to 512 items (so skewed
  /// bits, clusters and duplicates raise the bucket occupancy the model sees), floored at
  /// what uniform bits would give; thresholds are then allotted by dynamic programming.
  /// Deterministic: the same input gives the same partition. Cost: O(min(n, 512)^2 × 71).
  /// @pre k <= 64; fingerprints holds n items (may be null when n == 0).
  static Partition choose(const uint64_t* fingerprints, size_t n, unsigned k, Use use);

  /// m equal parts with the given thresholds (-1 = not probed), for tests.
  /// @pre 3 <= m <= 64, thresholds.size() == m, sum(t_i + 1) >= k + 1, each t_i <= width.
  static Partition withThresholds(unsigned k, unsigned m, const std::vector<int>& thresholds);

  unsigned maxDistance() const { return maxDistance_; }
  size_t partCount() const { return parts_.size(); }
  const Part& part(size_t i) const { return parts_[i]; }

  /// The width(i)-bit key of a fingerprint in part i.
  uint32_t key(uint64_t fingerprint, size_t i) const {
    return static_cast<uint32_t>((fingerprint >> parts_[i].shift) & ((uint64_t{1} << parts_[i].width) - 1));
  }

  /// For two fingerprints whose XOR is `diff` and which are within part i's threshold in
  /// part i: true iff i is the first part where they are within threshold. Reporting a
  /// pair only from that part reports it exactly once, with no record of what was reported.
  bool isFirstPart(size_t i, uint64_t diff) const {
    for (size_t j = 0; j < i; ++j) {
      if (static_cast<unsigned>(__builtin_popcountll(diff & parts_[j].mask)) <= parts_[j].threshold) return false;
    }
    return true;
  }

  /// The cost model's estimate, in units of about one fingerprint comparison (for tests
  /// and benchmarks): per join, or per lookup.
  double estimatedCost() const { return cost_; }

 private:
  unsigned maxDistance_ = 0;
  double cost_ = 0;
  std::vector<Part> parts_;
};

}  // namespace simhash
