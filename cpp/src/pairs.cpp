#include "simhash/pairs.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
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
  // Per table, the leaders are kept in buckets (the table key's low `bits[t]` bits: two
  // fingerprints sharing a key share its bucket, so every neighbour is still found), each
  // bucket a contiguous region sized by a first pass that counts every item's bucket, filled
  // in index order. A lookup reads its bucket's region front to back, so the first leader
  // within maxDistance is the table's earliest, and the region's folded fingerprints
  // (4 bytes each, 16 to a cache line) rule out almost every other leader without touching
  // its fingerprint: popcount(fold(x ^ y)) <= popcount(x ^ y). Chained buckets, before,
  // cost a cache miss per leader visited (12x slower at n = 1M, k = 6).
  unsigned bucketBits = 4;
  while (bucketBits < 32 && (tables << (bucketBits + 1)) <= 4 * count) ++bucketBits;
  std::vector<unsigned> bits(tables);
  std::vector<size_t> firstBucket(tables + 1, 0);
  for (size_t t = 0; t < tables; ++t) {
    bits[t] = std::min(bucketBits, layout.keyBits(t));
    firstBucket[t + 1] = firstBucket[t] + (size_t{1} << bits[t]);
  }
  auto bucketOf = [&](uint64_t fp, size_t t) {
    return firstBucket[t] + static_cast<size_t>(layout.key(fp, t) & ((uint64_t{1} << bits[t]) - 1));
  };
  auto fold = [](uint64_t fp) { return static_cast<uint32_t>(fp ^ (fp >> 32)); };

  // Region of bucket b: entries [begin, end) of its table's slice (count entries at t * count).
  struct Region {
    uint32_t begin, end;
  };
  std::vector<Region> regions(firstBucket[tables], Region{0, 0});
  for (size_t t = 0; t < tables; ++t) {
    for (size_t j = 0; j < count; ++j) ++regions[bucketOf(fingerprints[j], t)].end;
    uint32_t offset = 0;
    for (size_t b = firstBucket[t]; b < firstBucket[t + 1]; ++b) {
      const uint32_t size = regions[b].end;
      regions[b] = {offset, offset};
      offset += size;
    }
  }
  if (count > SIZE_MAX / tables) throw std::bad_alloc();  // tables * count entries would not be addressable
  // Left uninitialised: only the kept items' entries are ever written or read, and for
  // inputs full of duplicates most pages are never touched.
  const std::unique_ptr<uint32_t[]> folds(new uint32_t[tables * count]), items(new uint32_t[tables * count]);
  // The tables' lookups are independent: their buckets, regions and first folds are read in
  // three tight passes, so the cache misses overlap instead of waiting one table's scan each
  // (memory latency, not work, bounds this loop).
  std::vector<size_t> bucket(tables);
  std::vector<Region> span(tables);
  std::vector<uint32_t> firstFold(tables);
  for (uint32_t j = 0; j < count; ++j) {
    const uint64_t fp = fingerprints[j];
    const uint32_t folded = fold(fp);
    for (size_t t = 0; t < tables; ++t) bucket[t] = bucketOf(fp, t);
    for (size_t t = 0; t < tables; ++t) span[t] = regions[bucket[t]];
    for (size_t t = 0; t < tables; ++t) firstFold[t] = span[t].begin < span[t].end ? folds[t * count + span[t].begin] : ~folded;
    uint32_t best = kNone;
    for (size_t t = 0; t < tables; ++t) {
      const size_t slice = t * count;
      for (size_t x = slice + span[t].begin, end = slice + span[t].end; x < end; ++x) {
        const uint32_t candidate = x == slice + span[t].begin ? firstFold[t] : folds[x];
        if (static_cast<unsigned>(__builtin_popcount(candidate ^ folded)) > maxDistance) continue;
        const uint32_t i = items[x];
        if (i >= best) break;  // later entries are later items
        if (hammingDistance(fingerprints[i], fp) <= maxDistance) {
          best = i;
          break;
        }
      }
    }
    if (best != kNone) {
      leaderOf[j] = best;
      continue;
    }
    leaderOf[j] = j;
    for (size_t t = 0; t < tables; ++t) {
      const size_t x = t * count + regions[bucket[t]].end++;
      folds[x] = folded;
      items[x] = j;
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
