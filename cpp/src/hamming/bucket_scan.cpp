#include "hamming/bucket_scan.h"

namespace simhash {

void scanBuckets(const Partition& partition, const BucketTable* tables, uint64_t fp, std::vector<uint32_t>& ranges, std::vector<Match>& hits) {
  const unsigned k = partition.maxDistance();
  for (size_t p = 0; p < partition.partCount(); ++p) {
    const std::vector<uint32_t>& probes = partition.part(p).probes;
    const uint32_t key = partition.key(fp, p);
    const uint32_t* start = tables[p].start;
    const uint64_t* stored = tables[p].stored;
    ranges.resize(2 * probes.size());
    uint32_t* range = ranges.data();
    for (size_t i = 0; i < probes.size(); ++i) {
      range[2 * i] = start[key ^ probes[i]];
      range[2 * i + 1] = start[(key ^ probes[i]) + 1];
    }
    // Every cache line of the buckets is loaded once before any is compared: a bucket's
    // first line is a cache miss, and loads that do not depend on one another are in
    // flight together, where the comparison loop would wait for each bucket in turn.
    uint64_t touched = 0;
    for (size_t i = 0; i < probes.size(); ++i) {
      for (uint32_t x = range[2 * i]; x < range[2 * i + 1]; x += 8) touched ^= stored[x];
    }
    volatile uint64_t sink = touched;  // so that the loads are not optimised away
    (void)sink;
    for (size_t i = 0; i < probes.size(); ++i) {
      for (uint32_t x = range[2 * i], end = range[2 * i + 1]; x < end; ++x) {
        const uint64_t diff = fp ^ stored[x];
        const unsigned distance = static_cast<unsigned>(__builtin_popcountll(diff));
        if (distance <= k && partition.isFirstPart(p, diff)) hits.push_back({tables[p].slots[x], distance});
      }
    }
  }
}

}  // namespace simhash
