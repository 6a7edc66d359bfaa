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
  /// The group of each item.
  std::vector<uint32_t> groupOf;
};

/// Groups the items by fingerprint. Cost: a hashed counting sort (about 4 items a
/// bucket), then each bucket's items compared with its distinct fingerprints: O(count)
/// for any mix of distinct fingerprints and copies, unless fingerprints were made to
/// collide in the hash (then up to O(bucket size^2)). Memory: 16 bytes per item while
/// grouping, 8 per item in the result.
/// @pre count < 2^32.
EqualGroups equalGroups(const uint64_t* fingerprints, size_t count);

}  // namespace simhash
