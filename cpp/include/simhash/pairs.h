#pragma once
// Bulk near-duplicate search over a list of fingerprints.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace simhash {

struct Pair {
  uint32_t a, b;  ///< item indices, a < b
  uint32_t distance;
  bool operator==(const Pair& o) const { return a == o.a && b == o.b && distance == o.distance; }
};
static_assert(sizeof(Pair) == 12, "a pair is three uint32 words, as JS lists them");

/// Every pair i < j with hammingDistance(fps[i], fps[j]) <= maxDistance, each once,
/// sorted by (a, b). Exact: equal to the brute-force answer. Identical fingerprints are
/// pairs at distance 0 (n copies of one make n(n-1)/2 pairs); they are searched once, so
/// copies cost what their pairs take to list, not a search of each. Bound the output with
/// the overload below.
/// Cost: grouping the equal fingerprints (equalGroups: O(count)), a PairSearch over the
/// distinct ones run to the end, the pairs of copies listed, then sortPairs. Memory: 12
/// bytes per pair, twice while sorting, plus the search's 12 bytes per fingerprint and
/// the grouping's 16.
/// @pre count < 2^32, maxDistance <= 64.
std::vector<Pair> findPairs(const uint64_t* fingerprints, size_t count, unsigned maxDistance);

/// As above, bounded: returns the number of pairs within maxDistance. When it is at most
/// maxPairs, `out` holds them, sorted; otherwise `out` is left empty and the search still
/// runs to the end to count them (maxPairs = 0 counts without storing any). Pairs of
/// copies are counted without being listed, so memory never exceeds about twice what
/// maxPairs + count pairs take, whatever the input. `repeated`, when not null, receives
/// the number of items whose fingerprint an earlier item has.
/// @pre count < 2^32, maxDistance <= 64.
uint64_t findPairs(const uint64_t* fingerprints, size_t count, unsigned maxDistance, uint64_t maxPairs, std::vector<Pair>& out,
                   size_t* repeated = nullptr);

/// Items grouped by equal fingerprint: what findPairs searches (each distinct fingerprint
/// once), and the pairs of items behind the pairs of groups it finds. A worker pool's
/// shards each hold one: each searches its shard of distinct() and lists its own item
/// pairs, so the pairs of copies are listed where the search runs.
class EqualFingerprints {
 public:
  /// Cost: equalGroups (a hashed counting sort, O(count)). Memory: 8 bytes per distinct
  /// fingerprint and 8 per item, 16 more per item while grouping. @pre count < 2^32.
  EqualFingerprints(const uint64_t* fingerprints, size_t count);
  /// One fingerprint per group, groups numbered in order of first occurrence.
  const std::vector<uint64_t>& distinct() const { return distinct_; }
  /// Items whose fingerprint an earlier item has.
  size_t repeated() const { return members_.size() - distinct_.size(); }
  /// Item pairs behind a pair of groups (a != b), or within group a (a == b).
  uint64_t itemPairs(const Pair& groups) const;
  /// Item pairs within the groups: copies of one fingerprint, at distance 0.
  uint64_t pairsWithinGroups() const { return pairsWithinGroups_; }
  /// The item pairs behind `groupPairs` (pairs of distinct groups, as a PairSearch over
  /// distinct() finds them) and, with withinGroups, the pairs of copies, sorted by (a, b).
  /// Memory: 12 bytes per item pair, twice while sorting (groupPairs is released first).
  std::vector<Pair> expand(std::vector<Pair> groupPairs, bool withinGroups) const;

 private:
  std::vector<uint64_t> distinct_;
  // Group g's items are members_[firstMember_[g] .. firstMember_[g + 1]), ascending.
  std::vector<uint32_t> firstMember_, members_;
  uint64_t pairsWithinGroups_ = 0;
};

/// Sorts pairs by (a, b) (LSD radix sort on the indices; stable). Cost: O(pairs), one
/// scratch copy. The union of a PairSearch's shards, sorted, equals findPairs.
void sortPairs(std::vector<Pair>& pairs);

/// The leader rule over pairs sorted by (a, b), a < b: in index order each item joins the
/// earliest leader it is paired with, or is a leader. @pre leaderOf[i] == i for every item
/// (a leader, so far). In (a, b) order every pair (i, a) with i < a comes before a's own
/// pairs, so when a's pairs come up, whether a is a leader is settled, and the first leader
/// to reach b is b's earliest. O(pairs). LeaderSearch's pair path, and the leader grouping
/// of listed pairs (a pool's shards, sh.groupLabels), both apply it.
void leaderOfSortedPairs(const Pair* pairs, size_t count, uint32_t* leaderOf);

class Partition;

/// The exact pair search behind findPairs, in resumable slices and disjoint shards.
///
/// How it works: the 64 bits are split into parts with per-part thresholds t_i (the
/// general pigeonhole principle, GPH: any pair within k is within t_i in some part i),
/// chosen by a cost model from the data (Partition::choose). One part at a time, the
/// items are counting-sorted by the part's key; every bucket is then compared block-wise
/// with itself and with each bucket whose key lies within t_i of its own, and a pair is
/// reported only from the first part whose threshold it meets, so each pair comes out
/// exactly once and nothing remembers what was reported. When no partition beats it,
/// the search is a plain scan of all pairs.
///
/// Slices: run() stops once it has spent about workBudget units (one unit is about one
/// comparison of two fingerprints: roughly 0.5-1 ns native, 0.7-1.5 ns WASM); a step is
/// never cut, and the largest step is O(count) units (a block of rows against one bucket,
/// at most max(min(count, 2^16), that bucket's size) comparisons, or one counting sort
/// of all fingerprints by a part key), so a budget of 10^7 keeps a
/// call to tens of milliseconds. Shards: shard s of S takes a fixed, disjoint share of
/// the buckets (of the scan's rows when there are no parts); the union of the S shards'
/// pairs is exactly findPairs' answer, so S workers that each hold all fingerprints can
/// split the search (each one still sorts every part: O(count) per part and shard).
class PairSearch {
 public:
  /// Chooses the partition at once (Partition::choose: O(512² × 71) work at most, a few
  /// ms). @pre `fingerprints` stays valid and unchanged while run() is called;
  /// count < 2^32; maxDistance <= 64; shard < shards.
  PairSearch(const uint64_t* fingerprints, size_t count, unsigned maxDistance, unsigned shard = 0, unsigned shards = 1);
  /// The same search over a given partition rather than the chosen one (tests and
  /// benchmarks: the answer is the same for every partition of the same k).
  PairSearch(const uint64_t* fingerprints, size_t count, const Partition& partition, unsigned shard = 0, unsigned shards = 1);
  ~PairSearch();
  PairSearch(PairSearch&&) noexcept;
  PairSearch& operator=(PairSearch&&) noexcept;

  /// Appends the pairs found next (unsorted; a < b in each) to *out, or only counts them
  /// when out is null, until the search is done or about workBudget units are spent.
  /// @return done(). Memory: 12 to 16 bytes per fingerprint and 4 per bucket of the part
  /// in hand (released when done), besides what *out grows to.
  bool run(size_t workBudget, std::vector<Pair>* out);
  bool done() const { return done_; }
  /// Pairs found so far by this shard.
  size_t pairsFound() const { return found_; }
  /// Fraction of the estimated work done, in [0, 1]; 1 once done().
  double progress() const;
  /// Parts of the partition in use (0 = a plain scan), for tests and benchmarks.
  size_t partCount() const;

 private:
  void sortPart();
  void compareBlock(uint32_t from, uint32_t to, uint32_t y, uint32_t end, unsigned k, std::vector<Pair>* out);
  void considerGroup(uint32_t x, uint32_t y, uint32_t count, unsigned k, std::vector<Pair>* out);
  static constexpr uint32_t kPadding = 3;

  const uint64_t* fingerprints_;
  uint32_t count_;
  unsigned maxDistance_, shard_, shards_;
  std::unique_ptr<Partition> partition_;
  double estimatedWork_ = 1, workDone_ = 0;
  size_t found_ = 0;
  bool done_ = false, sorted_ = false;
  size_t part_ = 0, probe_ = 0, occupied_ = 0;
  uint32_t x_ = 0, row_ = 0;
  std::vector<uint64_t> sortedFingerprints_;
  std::vector<uint32_t> sortedItems_, bucketStart_, occupiedBuckets_;
};

/// Leader grouping (dedup's default): items are taken in index order, and each joins the
/// earliest *leader* within maxDistance, or becomes a leader itself when there is none.
/// result[j] is that leader's index (j itself for a leader). Exact: equal to applying the
/// rule to findPairs' answer. Cost and memory: those of LeaderSearch.
/// @pre count < 2^32, maxDistance <= 64.
std::vector<uint32_t> leaderLabels(const uint64_t* fingerprints, size_t count, unsigned maxDistance);

/// leaderLabels in resumable slices. It takes one of two paths, both exact:
/// - few pairs (estimated from a sample: at most 24 × count): a PairSearch, then the
///   leader rule over the pairs sorted by (a, b) (an item a that is still a leader when
///   its pairs come up is final, and the first such a claims each unclaimed b). Cost:
///   the pair search, plus O(pairs). Memory: 12 bytes per pair, 24 while sorting (at
///   most 24 × count + 2^16 are kept: past that the search is abandoned for the second
///   path).
/// - dense near-duplicates: items in index order are looked up among the leaders so far
///   (leaders are pairwise more than maxDistance apart, so there are few of them), by a
///   scan of the leaders while that is cheaper, else by probing per-part buckets that
///   hold the leaders (Partition::Use::Leaders). Cost: O(count × min(leaders, probes)).
///   Memory: 8 bytes per item and part, 8 per bucket, 12 per leader.
/// A worker pool parallelises the first path by sharding its PairSearch (each worker
/// returns its pairs; the caller sorts their union with sortPairs and applies the rule,
/// O(pairs)); the second is sequential, but cheap exactly where the first is not.
class LeaderSearch {
 public:
  /// Estimates the pair count from a sample and picks the path (a few ms at most).
  /// @pre as PairSearch's.
  LeaderSearch(const uint64_t* fingerprints, size_t count, unsigned maxDistance);
  /// For tests and benchmarks: the pair path (over the chosen partition) or the lookup
  /// path over `lookupPartition` (null: the chosen one), whatever the sample says.
  enum class Path { Pairs, Lookups };
  LeaderSearch(const uint64_t* fingerprints, size_t count, unsigned maxDistance, Path path, const Partition* lookupPartition = nullptr);
  ~LeaderSearch();
  LeaderSearch(LeaderSearch&&) noexcept;
  LeaderSearch& operator=(LeaderSearch&&) noexcept;

  /// A further test a leader must pass to take an item: with it, each item joins the
  /// earliest leader within maxDistance for which accept(context, leader, item) is true
  /// (dedup by similarity: the exact similarity of their texts). Set before run().
  /// Cost: one call per candidate leader within maxDistance, until one accepts.
  using Accept = bool (*)(void* context, uint32_t leader, uint32_t item);
  void setAccept(Accept accept, void* context) {
    accept_ = accept;
    acceptContext_ = context;
  }

  /// Works until done or about workBudget units are spent (units and step sizes as in
  /// PairSearch::run). @return done().
  bool run(size_t workBudget);
  bool done() const { return done_; }
  double progress() const;
  /// The labels once done() (moved out: call once).
  std::vector<uint32_t> takeLabels() { return std::move(leaderOf_); }
  /// True while the pair path is in use (for tests and benchmarks).
  bool usesPairs() const { return pairs_ != nullptr; }
  /// The most pairs the pair path lists for `items` fingerprints before it gives way to the
  /// lookup path; a worker pool that lists the pairs of `items` in shards holds to it too.
  static size_t pairBound(size_t items) { return kPairsPerItem * items + 65536; }
  /// Estimated pairs per item up to which the pair path is taken.
  static constexpr size_t kPairsPerItem = 24;

 private:
  bool runPairs(size_t workBudget);
  bool runLookups(size_t workBudget);
  void startLookups(const Partition* partition);

  bool accepts(uint32_t leader, uint32_t item) const { return !accept_ || accept_(acceptContext_, leader, item); }

  const uint64_t* fingerprints_;
  uint32_t count_;
  unsigned maxDistance_;
  bool done_ = false;
  Accept accept_ = nullptr;
  void* acceptContext_ = nullptr;
  std::vector<uint32_t> leaderOf_;
  // Pair path.
  std::unique_ptr<PairSearch> pairs_;
  std::vector<Pair> found_;  // with an acceptance test, the accepted pairs only
  size_t candidates_ = 0;    // pairs the search has reported
  size_t maxFound_ = 0;
  // Lookup path.
  std::unique_ptr<Partition> partition_;
  double probeCost_ = 0;
  uint32_t next_ = 0;
  bool counted_ = false;
  std::vector<uint32_t> firstBucket_, leaders_;
  std::vector<uint64_t> leaderFingerprints_;
  struct Region {
    uint32_t begin, end;
  };
  std::vector<Region> regions_;
  std::unique_ptr<uint32_t[]> folds_, items_;
};

/// Connected components of the graph with `count` nodes and the given edges: result[i]
/// is the smallest index of i's component (so an item alone maps to itself).
std::vector<uint32_t> componentLabels(size_t count, const std::vector<Pair>& pairs);

}  // namespace simhash
