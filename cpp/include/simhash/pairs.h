#pragma once
// Bulk near-duplicate search over a list of fingerprints.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

struct Pair {
  uint32_t a, b;  ///< item indices, a < b
  uint32_t distance;
  bool operator==(const Pair& o) const { return a == o.a && b == o.b && distance == o.distance; }
};

/// Every pair i < j with hammingDistance(fps[i], fps[j]) <= maxDistance, each once,
/// sorted by (a, b). Exact: equal to the brute-force answer. Identical fingerprints are
/// pairs at distance 0. Cost: for each table of the block layout (blocks.h), a radix
/// sort of n keys and a scan of the runs of equal keys; O(n²) only when k is so large
/// that no table layout beats a scan. @pre count < 2^32, maxDistance <= 64.
std::vector<Pair> findPairs(const uint64_t* fingerprints, size_t count, unsigned maxDistance);

/// Leader grouping (dedup's default): items are taken in index order, and each joins the
/// earliest *leader* within maxDistance, or becomes a leader itself when there is none.
/// result[j] is that leader's index (j itself for a leader). Equal to applying the rule to
/// findPairs' answer, without materialising the pairs: leaders are pairwise more than
/// maxDistance apart, so each item is looked up among the leaders only, in tables of the
/// block layout (at most 64; 8 bytes per item and table, plus 8 per bucket).
/// Cost: O(n × tables) lookups when duplicates are plentiful, where findPairs pays for
/// every pair; O(n × leaders) when k is so large that no layout beats a scan.
/// @pre count < 2^32, maxDistance <= 64.
std::vector<uint32_t> leaderLabels(const uint64_t* fingerprints, size_t count, unsigned maxDistance);

/// Connected components of the graph with `count` nodes and the given edges: result[i]
/// is the smallest index of i's component (so an item alone maps to itself).
std::vector<uint32_t> componentLabels(size_t count, const std::vector<Pair>& pairs);

}  // namespace simhash
