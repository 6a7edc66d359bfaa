#include "hamming/partition.h"

#include <cmath>

namespace simhash {

namespace {

// Part counts tried: widths 22 down to 4 bits (keys much longer than log2(n) leave most
// buckets empty, shorter ones fill each with many items; the model weighs both).
constexpr unsigned kPartCounts[] = {3, 4, 5, 6, 7, 8, 10, 12, 16};
constexpr unsigned kConfigs = sizeof(kPartCounts) / sizeof(kPartCounts[0]);
constexpr unsigned kFlatParts = 3 + 4 + 5 + 6 + 7 + 8 + 10 + 12 + 16;
constexpr unsigned kMaxBudget = 64;  // k + 1 for k < 64
constexpr size_t kSample = 256;
// Joins of fewer pairs than this scan: choosing would cost more than it could save.
constexpr double kMinJoinPairs = 1 << 20;
// A part's probe list is at most this long (4 bytes each).
constexpr double kMaxProbes = 1 << 16;

// Relative costs, in units of one comparison of two fingerprints from contiguous memory
// (load, xor, popcount, compare), measured on the join and lookup loops of pairs.cpp and
// index.cpp.
constexpr double kSortPerItem = 6;    // key twice, count, scatter fingerprint and index
constexpr double kSortPerBucket = 2;  // clear and sum the directory
// One neighbour key of an occupied bucket (xor, compare, two offsets): cheap while the
// directory stays in cache; past about 1 MB each mask streams it from memory again.
constexpr double kJoinPerProbe = 2, kJoinPerProbeUncached = 6;
constexpr double kCachedBuckets = 1 << 18;
// One neighbour key of a lookup: a directory read and the bucket's first fingerprint,
// both likely cache misses; the bucket's items are then read in sequence. Index queries in
// WASM on 100k to 1M fingerprints, k = 4 to 20, wherever the choice differs: 20 was 5-25%
// faster than 30 (fewer, wider parts), and 15 was 8-10% slower than 20 at 1M, k = 14 and 16.
// Leader grouping's buckets hold only the leaders so far, so a probe is mostly a directory
// miss with nothing behind it: at 1M fingerprints in 10k dense clusters, k = 12, 20 chose
// 4 parts of 16 bits (1,108 probes) and took 2x as long as 30's 5 parts (303 probes).
constexpr double kIndexLookupPerProbe = 20, kLeaderLookupPerProbe = 30;
constexpr double kLookupPerCandidate = 1;

unsigned partWidth(unsigned m, unsigned j) { return 64 / m + (j < 64 % m ? 1 : 0); }

double volume(unsigned width, unsigned t) {  // sum of C(width, d) for d <= t
  double sum = 0, term = 1;
  for (unsigned d = 0; d <= t && d <= width; ++d) {
    sum += term;
    term = term * (width - d) / (d + 1);
  }
  return sum;
}

std::vector<uint32_t> probesOf(unsigned width, unsigned t) {
  std::vector<uint32_t> probes;
  probes.reserve(static_cast<size_t>(volume(width, t)));
  for (unsigned d = 0; d <= t && d <= width; ++d) {
    if (d == 0) {
      probes.push_back(0);
      continue;
    }
    // Every width-bit value with d bits set, in increasing order (Gosper's hack).
    const uint64_t end = uint64_t{1} << width;
    for (uint64_t v = (uint64_t{1} << d) - 1; v < end;) {
      probes.push_back(static_cast<uint32_t>(v));
      const uint64_t c = v & (~v + 1), r = v + c;
      v = (((r ^ v) >> 2) / c) | r;
    }
  }
  return probes;
}

}  // namespace

Partition Partition::withThresholds(unsigned k, unsigned m, const std::vector<int>& thresholds) {
  Partition p;
  p.maxDistance_ = k;
  unsigned shift = 0;
  for (unsigned j = 0; j < m; ++j) {
    const unsigned width = partWidth(m, j);
    if (thresholds[j] >= 0) {
      const unsigned t = static_cast<unsigned>(thresholds[j]);
      p.parts_.push_back({shift, width, t, ((uint64_t{1} << width) - 1) << shift, probesOf(width, t)});
    }
    shift += width;
  }
  return p;
}

Partition Partition::choose(const uint64_t* fingerprints, size_t n, unsigned k, Use use) {
  const double items = static_cast<double>(n);
  const double allPairs = items * (items - 1) / 2;
  Partition scan;
  scan.maxDistance_ = k;
  scan.cost_ = use == Use::Join ? allPairs : items;
  if (n < 2 || k >= 64 || (use == Use::Join && allPairs < kMinJoinPairs)) return scan;

  // Distance histograms of every part of every config over the sample's pairs.
  const size_t s = n < kSample ? n : kSample;
  std::vector<uint64_t> sample(s);
  for (size_t i = 0; i < s; ++i) sample[i] = fingerprints[i * n / s];  // spread evenly, deterministic
  // Lookups need a directory of 2^width buckets per part: at most about 4 per item.
  auto tooWide = [&](unsigned c) { return use != Use::Join && static_cast<double>(uint64_t{1} << partWidth(kPartCounts[c], 0)) > 4 * items + 1024; };
  unsigned shifts[kFlatParts];
  uint64_t masks[kFlatParts];
  unsigned flatParts = 0;  // the parts of the configs in use, first to last
  for (unsigned c = 0; c < kConfigs; ++c) {
    for (unsigned j = 0, shift = 0; j < kPartCounts[c] && !tooWide(c); shift += partWidth(kPartCounts[c], j), ++j, ++flatParts) {
      shifts[flatParts] = shift;
      masks[flatParts] = (uint64_t{1} << partWidth(kPartCounts[c], j)) - 1;
    }
  }
  std::vector<uint32_t> histogram(kFlatParts * (kMaxWidth + 1), 0);
  for (size_t a = 0; a < s; ++a) {
    for (size_t b = a + 1; b < s; ++b) {
      const uint64_t diff = sample[a] ^ sample[b];
      for (unsigned f = 0; f < flatParts; ++f) ++histogram[f * (kMaxWidth + 1) + __builtin_popcountll((diff >> shifts[f]) & masks[f])];
    }
  }
  const double samplePairs = static_cast<double>(s) * (s - 1) / 2;

  Partition best = scan;
  const unsigned budget = k + 1;
  for (unsigned c = 0, flat = 0; c < kConfigs; ++c) {
    if (tooWide(c)) continue;
    const unsigned m = kPartCounts[c];
    // cost[j][t + 1]: part j with threshold t (t = -1 costs nothing); options[j] of them.
    double cost[16][kMaxBudget + 1];
    unsigned options[16];
    for (unsigned j = 0; j < m; ++j) {
      const unsigned width = partWidth(m, j);
      const double buckets = static_cast<double>(uint64_t{1} << width);
      cost[j][0] = 0;
      options[j] = 1;
      double hits = 0;
      for (unsigned t = 0; t <= width && t <= k; ++t) {
        const double probes = volume(width, t);
        if (probes > kMaxProbes) break;
        hits += histogram[(flat + j) * (kMaxWidth + 1) + t];
        // The fraction of pairs within t in this part: the sample's, unless it is within
        // noise of what uniform bits give (tiny rates are below a sample's resolution).
        const double uniform = probes / buckets, expected = uniform * samplePairs;
        const double rate = s == n || hits > expected + 3 * std::sqrt(expected) + 2 ? hits / samplePairs : uniform;
        double partCost;
        if (use == Use::Join) {
          const double nonEmpty = items < buckets ? items : buckets;  // occupied buckets, at most
          partCost = kSortPerItem * items + kSortPerBucket * buckets +
                     (buckets <= kCachedBuckets ? kJoinPerProbe : kJoinPerProbeUncached) * nonEmpty * probes + rate * allPairs;
        } else {
          partCost = (use == Use::Index ? kIndexLookupPerProbe : kLeaderLookupPerProbe) * probes + kLookupPerCandidate * rate * items;
        }
        cost[j][options[j]++] = partCost;
      }
    }
    flat += m;
    // total[b]: the least cost of the parts so far using b of the budget (capped at k + 1:
    // covering more than k + 1 is allowed, only wasteful); choice and from record the way.
    double total[kMaxBudget + 1], next[kMaxBudget + 1];
    int choice[16][kMaxBudget + 1];
    unsigned from[16][kMaxBudget + 1];
    for (unsigned b = 0; b <= budget; ++b) total[b] = b == 0 ? 0 : HUGE_VAL;
    for (unsigned j = 0; j < m; ++j) {
      for (unsigned b = 0; b <= budget; ++b) next[b] = HUGE_VAL;
      for (unsigned b = 0; b <= budget; ++b) {
        if (total[b] == HUGE_VAL) continue;
        for (unsigned u = 0; u < options[j]; ++u) {  // u = t + 1
          const unsigned to = b + u < budget ? b + u : budget;
          const double value = total[b] + cost[j][u];
          if (value < next[to]) {
            next[to] = value;
            choice[j][to] = static_cast<int>(u) - 1;
            from[j][to] = b;
          }
        }
      }
      for (unsigned b = 0; b <= budget; ++b) total[b] = next[b];
    }
    if (!(total[budget] < best.cost_)) continue;
    std::vector<int> thresholds(m);
    for (unsigned j = m, b = budget; j-- > 0;) {
      thresholds[j] = choice[j][b];
      b = from[j][b];
    }
    best = withThresholds(k, m, thresholds);
    best.cost_ = total[budget];
  }
  return best;
}

}  // namespace simhash
