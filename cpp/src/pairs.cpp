#include "simhash/pairs.h"

#include <numeric>
#include <utility>

#include "blocks.h"
#include "radix.h"
#include "simhash/hamming.h"

namespace simhash {

namespace {

// One table is built at a time, so more tables than the index allows cost only time.
constexpr unsigned kPairsMaxTables = 256;

}  // namespace

std::vector<Pair> findPairs(const uint64_t* fingerprints, size_t count, unsigned maxDistance) {
  return findPairs(fingerprints, count, BlockLayout::choose(count, maxDistance, kPairsMaxTables));
}

std::vector<Pair> findPairs(const uint64_t* fingerprints, size_t count, const BlockLayout& layout) {
  const unsigned maxDistance = layout.maxDistance();
  std::vector<Pair> pairs;
  if (layout.blockCount() == 0) {
    for (uint32_t a = 0; a < count; ++a) {
      for (uint32_t b = a + 1; b < count; ++b) {
        const unsigned distance = hammingDistance(fingerprints[a], fingerprints[b]);
        if (distance <= maxDistance) pairs.push_back({a, b, distance});
      }
    }
    return pairs;  // already in (a, b) order
  }

  // Pairs are collected as keys (a << w) | b with w bits per index, so the radix sort that
  // builds the tables also puts them in (a, b) order: no comparison sort is needed (and
  // none is linked into the WASM build, which keeps it smaller).
  unsigned w = 1;
  while (w < 32 && (uint64_t{1} << w) < count) ++w;
  std::vector<KeyedItem> items(count), scratch, found;
  for (size_t t = 0; t < layout.tableCount(); ++t) {
    for (uint32_t i = 0; i < count; ++i) items[i] = {layout.key(fingerprints[i], t), i};
    radixSort(items, scratch, layout.keyBits(t));  // stable: items of a run stay in index order
    for (size_t runStart = 0; runStart < count;) {
      size_t runEnd = runStart + 1;
      while (runEnd < count && items[runEnd].key == items[runStart].key) ++runEnd;
      for (size_t x = runStart; x < runEnd; ++x) {
        const uint64_t fa = fingerprints[items[x].item];
        for (size_t y = x + 1; y < runEnd; ++y) {
          const uint64_t fb = fingerprints[items[y].item];
          const unsigned distance = hammingDistance(fa, fb);
          if (distance <= maxDistance && layout.isFirstSharedTable(t, fa, fb)) {
            found.push_back({(uint64_t{items[x].item} << w) | items[y].item, distance});  // x < y: index order
          }
        }
      }
      runStart = runEnd;
    }
  }
  radixSort(found, scratch, 2 * w);
  pairs.reserve(found.size());
  const uint64_t low = (uint64_t{1} << w) - 1;
  for (const KeyedItem& f : found) pairs.push_back({static_cast<uint32_t>(f.key >> w), static_cast<uint32_t>(f.key & low), f.item});
  return pairs;
}

std::vector<uint32_t> componentLabels(size_t count, const std::vector<Pair>& pairs) {
  std::vector<uint32_t> parent(count);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];  // path halving
    return x;
  };
  for (const Pair& p : pairs) {
    const uint32_t ra = find(p.a), rb = find(p.b);
    // The smaller index becomes the root, so each root is its component's minimum.
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
  }
  for (uint32_t i = 0; i < count; ++i) parent[i] = find(i);
  return parent;
}

}  // namespace simhash
