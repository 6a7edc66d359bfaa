#include "hamming/equal_fingerprints.h"

#include <utility>

#include "base/radix.h"

namespace simhash {

EqualGroups equalGroups(const uint64_t* fingerprints, size_t count) {
  EqualGroups groups;
  // About 4 items per bucket; the bucket is the top bits of a multiplicative hash, so
  // skewed fingerprints spread as well as uniform ones.
  unsigned bits = 1;
  while (bits < 24 && (size_t{1} << (bits + 2)) < count) ++bits;
  const auto bucketOf = [bits](uint64_t fp) { return static_cast<uint32_t>((fp * 0x9E3779B97F4A7C15ull) >> (64 - bits)); };
  std::vector<uint32_t> end(size_t{1} << bits, 0);
  for (size_t i = 0; i < count; ++i) ++end[bucketOf(fingerprints[i])];
  for (size_t b = 1; b < end.size(); ++b) end[b] += end[b - 1];
  // Filled back to front, so each bucket holds its items in index order and end[b] ends
  // as its start.
  std::vector<KeyedItem> entries(count);
  for (size_t i = count; i-- > 0;) entries[--end[bucketOf(fingerprints[i])]] = {fingerprints[i], static_cast<uint32_t>(i)};

  // firstOf[i] is the first item with i's fingerprint: i itself until a copy is seen.
  std::vector<uint32_t>& firstOf = groups.groupOf;
  firstOf.resize(count);
  for (uint32_t i = 0; i < count; ++i) firstOf[i] = i;
  for (size_t b = 0; b < end.size(); ++b) {
    // Each item is compared with the bucket's distinct fingerprints so far, which are
    // moved to its front [begin, heads) in index order: a bucket crowded with copies of a
    // few fingerprints costs its size times those few.
    const uint32_t begin = end[b], stop = b + 1 < end.size() ? end[b + 1] : static_cast<uint32_t>(count);
    uint32_t heads = begin;
    for (uint32_t x = begin; x < stop; ++x) {
      uint32_t y = begin;
      while (y < heads && entries[y].key != entries[x].key) ++y;
      if (y < heads) firstOf[entries[x].item] = entries[y].item;
      else std::swap(entries[heads++], entries[x]);  // what it displaces is a copy already seen
    }
  }
  // Numbered by first occurrence: an item's first item comes before it, numbered already.
  for (uint32_t i = 0; i < count; ++i) {
    if (firstOf[i] == i) {
      firstOf[i] = static_cast<uint32_t>(groups.first.size());
      groups.first.push_back(i);
    } else {
      firstOf[i] = firstOf[firstOf[i]];
    }
  }
  return groups;
}

}  // namespace simhash
