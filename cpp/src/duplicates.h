#pragma once
// Internal: items with equal fingerprints, grouped, so that findPairs searches each
// distinct fingerprint once and n copies of one cost O(n) before their pairs are listed.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

struct EqualGroups {
  /// The first item of each group, ascending: groups are numbered in order of first occurrence.
  std::vector<uint32_t> first;
  /// The group of each item. Both vectors are empty when every fingerprint is distinct
  /// (item i is then group i).
  std::vector<uint32_t> groupOf;
};

/// Groups the items by fingerprint. Cost: O(count) for inputs whose fingerprints are
/// distinct or repeat a few times (a hashed counting sort, then the few items of each
/// bucket compared); a bucket crowded by many copies is radix-sorted, O(its size × 6).
/// Memory: 16 bytes per item while grouping, 8 per item in the result.
/// @pre count < 2^32.
EqualGroups equalGroups(const uint64_t* fingerprints, size_t count);

}  // namespace simhash
