#pragma once
// Internal: the block layout behind the exact index and the pair search (Manku, Jain,
// Das Sarma 2007). The 64 bits are split into b > k contiguous blocks; one table per
// choice of b-k blocks is keyed on those blocks' bits. Two fingerprints within distance
// k differ in at most k blocks, so they agree on at least b-k blocks and share the key
// of at least one table: lookups in every table find every neighbour.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

class BlockLayout {
 public:
  /// Picks the block count b for n fingerprints and maximum distance k: the b > k that
  /// minimises the estimated work of one lookup, tables × (log2(n+2) + n / 2^keyBits),
  /// among layouts with at most maxTables tables; or no tables at all (blockCount() == 0,
  /// a linear scan) when a scan of n items is estimated cheaper.
  /// @pre k <= 64
  static BlockLayout choose(size_t n, unsigned k, unsigned maxTables);

  /// The layout with b blocks (b == 0: a linear scan). For tests and benchmarks that
  /// compare layouts. @pre b == 0 or k < b <= 64; C(b, k) tables are built.
  static BlockLayout withBlocks(unsigned k, unsigned b);

  unsigned maxDistance() const { return maxDistance_; }
  unsigned blockCount() const { return blockCount_; }
  size_t tableCount() const { return tables_.size(); }
  unsigned keyBits(size_t table) const { return tables_[table].keyBits; }

  /// The bits of table `table`'s blocks, packed into the low keyBits(table) bits.
  uint64_t key(uint64_t fingerprint, size_t table) const {
    uint64_t key = 0;
    for (const Segment& s : tables_[table].segments) key |= ((fingerprint >> s.shift) & s.mask) << s.offset;
    return key;
  }

  /// For a and b within maxDistance(): true iff `table` is the first table (in
  /// lexicographic order of block sets) whose key a and b share. Reporting a pair only
  /// from that table reports it exactly once without remembering what was reported.
  bool isFirstSharedTable(size_t table, uint64_t a, uint64_t b) const {
    const uint64_t diff = a ^ b;
    uint64_t agree = 0;
    // blockCount_ <= 64 always; the bound says so to the compiler too (-Warray-bounds).
    for (unsigned j = 0; j < blockCount_ && j < 64; ++j) agree |= static_cast<uint64_t>((diff & blockMasks_[j]) == 0) << j;
    // The lexicographically first (b-k)-subset of the agreeing blocks is its b-k lowest.
    uint64_t rest = agree;
    for (unsigned i = blockCount_ - maxDistance_; i > 0; --i) rest &= rest - 1;
    return (agree ^ rest) == tables_[table].blockSet;
  }

 private:
  struct Segment {  // adjacent chosen blocks, merged
    unsigned shift, offset;
    uint64_t mask;
  };
  struct Table {
    uint64_t blockSet;  // bit j set = block j is part of the key
    unsigned keyBits;
    std::vector<Segment> segments;
  };

  unsigned maxDistance_ = 0;
  unsigned blockCount_ = 0;
  uint64_t blockMasks_[64] = {};
  std::vector<Table> tables_;
};

struct Pair;

/// findPairs and leaderLabels of pairs.h over a given layout rather than the one choose()
/// picks; the answer is the same for every layout of the same k (tests check it), only the
/// time differs.
std::vector<Pair> findPairs(const uint64_t* fingerprints, size_t count, const BlockLayout& layout);
std::vector<uint32_t> leaderLabels(const uint64_t* fingerprints, size_t count, const BlockLayout& layout);

}  // namespace simhash
