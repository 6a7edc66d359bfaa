#include "simhash/pairs.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "blocks.h"
#include "radix.h"
#include "simhash/hamming.h"

namespace simhash {

namespace {

// One table is built at a time, so more tables than the index allows cost only time.
constexpr unsigned kPairsMaxTables = 256;
// Leader tables stay resident, like the index's.
constexpr unsigned kLeaderMaxTables = 64;
constexpr uint32_t kNone = UINT32_MAX;

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

std::vector<uint32_t> leaderLabels(const uint64_t* fingerprints, size_t count, unsigned maxDistance) {
  return leaderLabels(fingerprints, count, BlockLayout::choose(count, maxDistance, kLeaderMaxTables));
}

std::vector<uint32_t> leaderLabels(const uint64_t* fingerprints, size_t count, const BlockLayout& layout) {
  const unsigned maxDistance = layout.maxDistance();
  std::vector<uint32_t> leaderOf(count);
  const size_t tables = layout.tableCount();
  if (tables == 0) {  // a scan of the leaders so far
    std::vector<uint32_t> leaders;
    for (uint32_t j = 0; j < count; ++j) {
      leaderOf[j] = j;
      for (uint32_t i : leaders) {  // ascending: the first hit is the earliest leader
        if (hammingDistance(fingerprints[i], fingerprints[j]) <= maxDistance) {
          leaderOf[j] = i;
          break;
        }
      }
      if (leaderOf[j] == j) leaders.push_back(j);
    }
    return leaderOf;
  }
  // Per table, buckets of leaders chained through `next` (newest first). A bucket is the
  // table key's low `bucketBits` bits: two fingerprints sharing a key share its bucket,
  // so every neighbour is still found; others in the bucket are ruled out by distance.
  // The bits are capped so that the buckets of all tables together number about 4 per item.
  unsigned bucketBits = 4;
  while (bucketBits < 32 && (tables << (bucketBits + 1)) <= 4 * count) ++bucketBits;
  std::vector<unsigned> bits(tables);
  size_t bucketsTotal = 0;
  for (size_t t = 0; t < tables; ++t) {
    bits[t] = std::min(bucketBits, layout.keyBits(t));
    bucketsTotal += size_t{1} << bits[t];
  }
  std::vector<uint32_t> heads(bucketsTotal, kNone);  // newest leader (its rank) per bucket
  std::vector<uint32_t> next;          // per leader rank and table: the previous leader in that bucket
  std::vector<uint32_t> leaderItems;   // per leader rank: its item index
  std::vector<size_t> buckets(tables);
  for (uint32_t j = 0; j < count; ++j) {
    const uint64_t fp = fingerprints[j];
    uint32_t best = kNone;
    size_t base = 0;
    for (size_t t = 0; t < tables; ++t) {
      buckets[t] = base + (layout.key(fp, t) & ((uint64_t{1} << bits[t]) - 1));
      base += size_t{1} << bits[t];
      for (uint32_t rank = heads[buckets[t]]; rank != kNone; rank = next[size_t{rank} * tables + t]) {
        const uint32_t i = leaderItems[rank];
        if (i < best && hammingDistance(fingerprints[i], fp) <= maxDistance) best = i;
      }
    }
    if (best != kNone) {
      leaderOf[j] = best;
      continue;
    }
    leaderOf[j] = j;
    const auto rank = static_cast<uint32_t>(leaderItems.size());
    leaderItems.push_back(j);
    for (size_t t = 0; t < tables; ++t) {
      next.push_back(heads[buckets[t]]);
      heads[buckets[t]] = rank;
    }
  }
  return leaderOf;
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
