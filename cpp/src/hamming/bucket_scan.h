#pragma once
// Internal: the index's hot loop, in a file of its own so that it is compiled for speed
// while the index's bookkeeping (index.cpp) is compiled for size (CMakeLists.txt).
#include <cstdint>
#include <vector>

#include "hamming/partition.h"
#include "simhash/index.h"

namespace simhash {

/// One part's main table: bucket b holds slots[start[b], start[b + 1]) and their
/// fingerprints at the same positions in `stored`.
struct BucketTable {
  const uint32_t* start;
  const uint32_t* slots;
  const uint64_t* stored;
};

/// Appends {slot, distance} to `hits` for every entry of every bucket within part p's
/// threshold of fp's key (Partition::Part::probes), in every part p (tables[p]), whose
/// fingerprint is within the partition's maxDistance of fp and for which p is the first
/// part within threshold (Partition::isFirstPart): each stored item is reported once.
/// `ranges` is scratch (2 words per probe of a part). Cost, part by part: the buckets'
/// directory entries, then the cache lines of the buckets loaded back to back
/// (independent loads, so that their misses overlap instead of following one another),
/// then the buckets' entries compared in sequence.
void scanBuckets(const Partition& partition, const BucketTable* tables, uint64_t fp, std::vector<uint32_t>& ranges, std::vector<Match>& hits);

}  // namespace simhash
