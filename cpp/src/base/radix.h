#pragma once
// Internal: the one sort of the pair search, the index and IDF learning (no comparison sort, which also
// keeps std::sort instantiations out of the WASM build).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace simhash {

struct KeyedItem {
  uint64_t key;
  uint32_t item;
};

/// LSD radix sort on the low keyBits bits of the keys, 11 bits a pass; stable.
/// Cost: O(n × keyBits / 11) time, one scratch buffer of n items.
inline void radixSort(std::vector<KeyedItem>& items, std::vector<KeyedItem>& scratch, unsigned keyBits) {
  constexpr unsigned kDigitBits = 11;
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  scratch.resize(items.size());
  for (unsigned shift = 0; shift < keyBits; shift += kDigitBits) {
    size_t offsets[kBuckets] = {};
    for (const KeyedItem& x : items) ++offsets[(x.key >> shift) & (kBuckets - 1)];
    size_t sum = 0;
    for (size_t& offset : offsets) sum += std::exchange(offset, sum);
    for (const KeyedItem& x : items) scratch[offsets[(x.key >> shift) & (kBuckets - 1)]++] = x;
    items.swap(scratch);
  }
}

}  // namespace simhash
