#include "simhash/pairs.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <numeric>
#include <utility>

#include "hamming/equal_fingerprints.h"
#include "hamming/partition.h"
#include "simhash/hamming.h"

namespace simhash {

namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr size_t kUnlimited = SIZE_MAX;
// A block of rows (one step of PairSearch::run) against another bucket compares about
// this many candidates at most, or one row when that bucket alone is larger: steps stay
// short even where skewed data fills a bucket.
constexpr uint32_t kBlockWork = 1 << 16;

// Shard of a bucket: chunks of 16 buckets spread by a multiplicative hash, so shards get
// similar shares even where occupied buckets cluster.
unsigned shardOf(uint32_t bucket, unsigned shards) { return ((bucket >> 4) * 2654435761u >> 8) % shards; }

// Pairs within maxDistance among a sample of up to 512 items spread over the input, scaled
// to all pairs.
double estimatedPairs(const uint64_t* fingerprints, size_t count, unsigned maxDistance) {
  const size_t s = std::min<size_t>(count, 512);
  double hits = 0;
  for (size_t a = 0; a < s; ++a) {
    const uint64_t fa = fingerprints[a * count / s];
    for (size_t b = a + 1; b < s; ++b) hits += hammingDistance(fa, fingerprints[b * count / s]) <= maxDistance;
  }
  if (s < 2) return 0;
  const double n = static_cast<double>(count);
  return hits * (n * (n - 1)) / (static_cast<double>(s) * (s - 1));
}

}  // namespace

PairSearch::PairSearch(const uint64_t* fingerprints, size_t count, unsigned maxDistance, unsigned shard, unsigned shards)
    : fingerprints_(fingerprints),
      count_(static_cast<uint32_t>(count)),
      maxDistance_(maxDistance),
      shard_(shard),
      shards_(shards),
      partition_(std::make_unique<Partition>(Partition::choose(fingerprints, count, maxDistance, Partition::Use::Join))) {
  estimatedWork_ = std::max(1.0, partition_->estimatedCost() / shards);
  done_ = count < 2;
}

PairSearch::PairSearch(const uint64_t* fingerprints, size_t count, const Partition& partition, unsigned shard, unsigned shards)
    : fingerprints_(fingerprints),
      count_(static_cast<uint32_t>(count)),
      maxDistance_(partition.maxDistance()),
      shard_(shard),
      shards_(shards),
      partition_(std::make_unique<Partition>(partition)) {
  estimatedWork_ = std::max(1.0, static_cast<double>(count) * count / 2 / shards);
  done_ = count < 2;
}

PairSearch::~PairSearch() = default;
PairSearch::PairSearch(PairSearch&&) noexcept = default;
PairSearch& PairSearch::operator=(PairSearch&&) noexcept = default;

size_t PairSearch::partCount() const { return partition_->partCount(); }

double PairSearch::progress() const { return done_ ? 1.0 : std::min(0.99, workDone_ / estimatedWork_); }

void PairSearch::sortPart() {
  // Counting sort by the part's key: bucketStart_ first counts (shifted by one), then
  // serves as the write cursor, which leaves each bucket's end where its start was.
  const Partition::Part& part = partition_->part(part_);
  const size_t buckets = size_t{1} << part.width;
  std::vector<uint32_t>().swap(bucketStart_);  // the previous part's directory goes before the next is made
  bucketStart_.assign(buckets + 1, 0);
  sortedFingerprints_.assign(size_t{count_} + kPadding, 0);  // the padding compareBlock reads
  sortedItems_.resize(count_);
  for (uint32_t i = 0; i < count_; ++i) ++bucketStart_[partition_->key(fingerprints_[i], part_) + 1];
  for (size_t b = 1; b <= buckets; ++b) bucketStart_[b] += bucketStart_[b - 1];
  for (uint32_t i = 0; i < count_; ++i) {
    const uint32_t at = bucketStart_[partition_->key(fingerprints_[i], part_)]++;
    sortedFingerprints_[at] = fingerprints_[i];
    sortedItems_[at] = i;  // items of a bucket stay in index order
  }
  for (size_t b = buckets; b > 0; --b) bucketStart_[b] = bucketStart_[b - 1];
  bucketStart_[0] = 0;
  occupiedBuckets_.clear();
  for (uint32_t b = 0; b < buckets; ++b) {
    if (bucketStart_[b] != bucketStart_[b + 1] && (shards_ == 1 || shardOf(b, shards_) == shard_)) occupiedBuckets_.push_back(b);
  }
}

// The comparison loops. A group of four candidates costs four xor-popcounts OR-ed as
// (distance - k - 1), whose sign says whether any is within k: one branch per group, taken
// rarely (hits are few among candidates), and no per-candidate call or store. A group
// that runs past the candidates' end reads up to three padding entries (sortPart leaves
// them after the items) and masks their lanes out.
namespace {
inline int32_t over(uint64_t a, uint64_t b, int32_t limit) { return static_cast<int32_t>(__builtin_popcountll(a ^ b)) - limit; }
// All ones for lanes 1..3 of a group with `count` (1..4) candidates that are real, else 0.
inline int32_t lane(int32_t i, int32_t count) { return (i - count) >> 31; }
}  // namespace

void PairSearch::considerGroup(uint32_t x, uint32_t y, uint32_t count, unsigned k, std::vector<Pair>* out) {
  const uint64_t* fps = sortedFingerprints_.data();
  for (uint32_t z = y; z < y + count; ++z) {
    const uint64_t diff = fps[x] ^ fps[z];
    const unsigned distance = static_cast<unsigned>(__builtin_popcountll(diff));
    if (distance > k || !partition_->isFirstPart(part_, diff)) continue;
    const uint32_t a = sortedItems_[x], b = sortedItems_[z];
    ++found_;
    if (out) out->push_back(a < b ? Pair{a, b, distance} : Pair{b, a, distance});
  }
}

void PairSearch::compareBlock(uint32_t from, uint32_t to, uint32_t y, uint32_t end, unsigned k, std::vector<Pair>* out) {
  // Rows [from, to) against candidates [y, end), four candidates held in registers against
  // every row: one load per row and group.
  const uint64_t* fps = sortedFingerprints_.data();
  const int32_t limit = static_cast<int32_t>(k) + 1;
  for (; y + 4 <= end; y += 4) {
    const uint64_t c0 = fps[y], c1 = fps[y + 1], c2 = fps[y + 2], c3 = fps[y + 3];
    for (uint32_t x = from; x < to; ++x) {
      const uint64_t fa = fps[x];
      if ((over(fa, c0, limit) | over(fa, c1, limit) | over(fa, c2, limit) | over(fa, c3, limit)) < 0) considerGroup(x, y, 4, k, out);
    }
  }
  if (y < end) {
    const int32_t count = static_cast<int32_t>(end - y);
    const int32_t m1 = lane(1, count), m2 = lane(2, count), m3 = lane(3, count);
    const uint64_t c0 = fps[y], c1 = fps[y + 1], c2 = fps[y + 2], c3 = fps[y + 3];
    for (uint32_t x = from; x < to; ++x) {
      const uint64_t fa = fps[x];
      if ((over(fa, c0, limit) | (over(fa, c1, limit) & m1) | (over(fa, c2, limit) & m2) | (over(fa, c3, limit) & m3)) < 0) {
        considerGroup(x, y, end - y, k, out);
      }
    }
  }
}

bool PairSearch::run(size_t workBudget, std::vector<Pair>* out) {
  if (done_) return true;
  const unsigned k = maxDistance_;
  size_t work = 0;
  auto emit = [&](uint32_t a, uint32_t b, unsigned distance) {
    ++found_;
    if (out) out->push_back(a < b ? Pair{a, b, distance} : Pair{b, a, distance});
  };
  auto finish = [&] {
    workDone_ += static_cast<double>(work);
    return done_;
  };

  if (partition_->partCount() == 0) {  // a scan of all pairs, rows dealt round-robin to the shards
    for (; row_ < count_ && work < workBudget; ++row_) {
      if (row_ % shards_ != shard_) continue;
      const uint64_t fa = fingerprints_[row_];
      for (uint32_t b = row_ + 1; b < count_; ++b) {
        const unsigned distance = hammingDistance(fa, fingerprints_[b]);
        if (distance <= k) emit(row_, b, distance);
      }
      work += count_ - row_;
    }
    done_ = row_ >= count_;
    return finish();
  }

  for (; part_ < partition_->partCount(); ++part_, sorted_ = false) {
    const Partition::Part& part = partition_->part(part_);
    if (!sorted_) {
      if (work >= workBudget) return finish();
      sortPart();
      sorted_ = true;
      probe_ = 0;
      occupied_ = 0;
      x_ = 0;
      work += 6 * size_t{count_} + 2 * bucketStart_.size();
      if (work >= workBudget) return finish();
    }
    // Every occupied bucket of this shard against itself (mask 0) and against each bucket
    // of a larger key within the part's threshold: each bucket pair is visited once, from
    // its smaller key. Mask by mask, so that the directory is read in near order.
    for (; probe_ < part.probes.size(); ++probe_, occupied_ = 0, x_ = 0) {
      const uint32_t mask = part.probes[probe_];
      for (; occupied_ < occupiedBuckets_.size(); ++occupied_, x_ = 0) {
        if (work >= workBudget) return finish();
        ++work;
        const uint32_t bucket = occupiedBuckets_[occupied_], other = bucket ^ mask;
        if (other < bucket) continue;
        const uint32_t otherBegin = bucketStart_[other], otherEnd = bucketStart_[other + 1];
        if (otherBegin == otherEnd) continue;
        const uint32_t begin = bucketStart_[bucket], end = bucketStart_[bucket + 1];
        if (mask == 0) {  // within the bucket: each row against the items after it
          for (; begin + x_ < end; ++x_) {
            const uint32_t x = begin + x_;
            compareBlock(x, x + 1, x + 1, end, k, out);
            work += end - x;
            if (work >= workBudget) {
              ++x_;
              return finish();
            }
          }
        } else {  // rows of this bucket against the other, a block of rows per step
          // A block finds at most rows × (otherEnd - otherBegin) <= max(count, that bucket) pairs.
          const uint32_t rows = std::max<uint32_t>(1, std::min(kBlockWork, count_) / (otherEnd - otherBegin));
          while (begin + x_ < end) {
            const uint32_t from = begin + x_, to = std::min(end, from + rows);
            compareBlock(from, to, otherBegin, otherEnd, k, out);
            x_ += to - from;
            work += size_t{to - from} * (otherEnd - otherBegin + 1);
            if (work >= workBudget && begin + x_ < end) return finish();
          }
        }
      }
    }
  }
  // Done: give the scratch back.
  std::vector<uint64_t>().swap(sortedFingerprints_);
  std::vector<uint32_t>().swap(sortedItems_);
  std::vector<uint32_t>().swap(bucketStart_);
  std::vector<uint32_t>().swap(occupiedBuckets_);
  done_ = true;
  return finish();
}

void sortPairs(std::vector<Pair>& pairs) {
  if (pairs.size() < 2) return;
  uint32_t largest = 0;
  for (const Pair& p : pairs) largest = std::max(largest, p.b);
  unsigned bits = 1;
  while (bits < 32 && (uint64_t{1} << bits) <= largest) ++bits;
  constexpr unsigned kDigitBits = 11;
  constexpr size_t kDigits = size_t{1} << kDigitBits;
  std::vector<Pair> scratch(pairs.size());
  // LSD: b's digits, then a's; each pass stable.
  for (int field = 0; field < 2; ++field) {
    for (unsigned shift = 0; shift < bits; shift += kDigitBits) {
      auto digit = [&](const Pair& p) { return ((field == 0 ? p.b : p.a) >> shift) & (kDigits - 1); };
      std::vector<size_t> offsets(kDigits, 0);
      for (const Pair& p : pairs) ++offsets[digit(p)];
      size_t sum = 0;
      for (size_t& offset : offsets) sum += std::exchange(offset, sum);
      for (const Pair& p : pairs) scratch[offsets[digit(p)]++] = p;
      pairs.swap(scratch);
    }
  }
}

std::vector<Pair> findPairs(const uint64_t* fingerprints, size_t count, unsigned maxDistance) {
  std::vector<Pair> pairs;
  findPairs(fingerprints, count, maxDistance, UINT64_MAX, pairs);
  return pairs;
}

EqualFingerprints::EqualFingerprints(const uint64_t* fingerprints, size_t count) {
  const EqualGroups groups = equalGroups(fingerprints, count);
  const size_t distinct = groups.first.size();
  distinct_.resize(distinct);
  for (size_t g = 0; g < distinct; ++g) distinct_[g] = fingerprints[groups.first[g]];
  firstMember_.assign(distinct + 1, 0);
  members_.resize(count);
  for (size_t i = 0; i < count; ++i) ++firstMember_[groups.groupOf[i] + 1];
  for (size_t g = 0; g < distinct; ++g) {
    const uint64_t size = firstMember_[g + 1];
    pairsWithinGroups_ += size * (size - 1) / 2;
    firstMember_[g + 1] += firstMember_[g];
  }
  // Filled back to front: firstMember_[g + 1] comes down to g's start, then is put back.
  for (size_t i = count; i-- > 0;) members_[--firstMember_[groups.groupOf[i] + 1]] = static_cast<uint32_t>(i);
  for (size_t g = 0; g < distinct; ++g) firstMember_[g] = firstMember_[g + 1];
  firstMember_[distinct] = static_cast<uint32_t>(count);
}

uint64_t EqualFingerprints::itemPairs(const Pair& groups) const {
  const uint64_t a = firstMember_[groups.a + 1] - firstMember_[groups.a];
  if (groups.a == groups.b) return a * (a - 1) / 2;
  return a * (firstMember_[groups.b + 1] - firstMember_[groups.b]);
}

std::vector<Pair> EqualFingerprints::expand(std::vector<Pair> groupPairs, bool withinGroups) const {
  uint64_t total = withinGroups ? pairsWithinGroups_ : 0;
  for (const Pair& p : groupPairs) total += itemPairs(p);
  std::vector<Pair> pairs(static_cast<size_t>(total));
  size_t at = 0;
  const auto list = [&](const Pair& p) {
    for (uint32_t x = firstMember_[p.a]; x < firstMember_[p.a + 1]; ++x) {
      for (uint32_t y = p.a == p.b ? x + 1 : firstMember_[p.b]; y < firstMember_[p.b + 1]; ++y) {
        const uint32_t i = members_[x], j = members_[y];
        pairs[at++] = i < j ? Pair{i, j, p.distance} : Pair{j, i, p.distance};
      }
    }
  };
  for (const Pair& p : groupPairs) list(p);
  std::vector<Pair>().swap(groupPairs);
  if (withinGroups) {
    for (uint32_t g = 0; g + 1 < firstMember_.size(); ++g) {
      if (firstMember_[g + 1] - firstMember_[g] > 1) list({g, g, 0});
    }
  }
  sortPairs(pairs);
  return pairs;
}

uint64_t findPairs(const uint64_t* fingerprints, size_t count, unsigned maxDistance, uint64_t maxPairs, std::vector<Pair>& out, size_t* repeated) {
  std::vector<Pair>().swap(out);
  const EqualFingerprints groups(fingerprints, count);
  if (repeated) *repeated = groups.repeated();
  PairSearch search(groups.distinct().data(), groups.distinct().size(), maxDistance);
  std::vector<Pair> found;
  uint64_t total = groups.pairsWithinGroups();
  bool keeping = maxPairs > 0 && total <= maxPairs;
  // Each unit of work finds at most one pair of groups, each worth at least one pair, and
  // a step at most `distinct`: a slice of (maxPairs - total) units cannot take the list
  // past maxPairs + count. Once not keeping, slices are counted and dropped.
  constexpr uint64_t kCountingSlice = 1 << 22;
  while (!search.done()) {
    if (!keeping) found.clear();
    const size_t before = found.size();
    const uint64_t room = keeping ? maxPairs - total : kCountingSlice;
    search.run(static_cast<size_t>(std::min<uint64_t>(std::max<uint64_t>(room, 1), SIZE_MAX)), &found);
    for (size_t p = before; p < found.size(); ++p) total += groups.itemPairs(found[p]);
    if (keeping && total > maxPairs) {
      keeping = false;
      std::vector<Pair>().swap(found);
    }
  }
  if (!keeping) return total;
  out = groups.expand(std::move(found), true);
  return total;
}

void leaderOfSortedPairs(const Pair* pairs, size_t count, uint32_t* leaderOf) {
  for (size_t i = 0; i < count; ++i) {
    const Pair& p = pairs[i];
    if (leaderOf[p.a] == p.a && leaderOf[p.b] == p.b) leaderOf[p.b] = p.a;
  }
}

std::vector<uint32_t> leaderLabels(const uint64_t* fingerprints, size_t count, unsigned maxDistance) {
  LeaderSearch search(fingerprints, count, maxDistance);
  while (!search.run(kUnlimited)) {
  }
  return search.takeLabels();
}

LeaderSearch::LeaderSearch(const uint64_t* fingerprints, size_t count, unsigned maxDistance)
    : fingerprints_(fingerprints), count_(static_cast<uint32_t>(count)), maxDistance_(maxDistance) {
  leaderOf_.resize(count);
  std::iota(leaderOf_.begin(), leaderOf_.end(), 0u);
  const double n = static_cast<double>(count);
  // The pair path costs the join plus O(pairs), the lookups up to count × probes: pairs
  // win until they are many per item (fortunes at k = 10: 7 per item, 4.3 s against 17 s
  // of lookups in WASM). The sample's estimate is coarse (one hit in 512² is 4 pairs per
  // item at 1M), hence the margin.
  if (estimatedPairs(fingerprints, count, maxDistance) <= kPairsPerItem * n) {
    pairs_ = std::make_unique<PairSearch>(fingerprints, count, maxDistance);
    maxFound_ = pairBound(count_);
  } else {
    startLookups(nullptr);
  }
}

LeaderSearch::LeaderSearch(const uint64_t* fingerprints, size_t count, unsigned maxDistance, Path path, const Partition* lookupPartition)
    : fingerprints_(fingerprints), count_(static_cast<uint32_t>(count)), maxDistance_(maxDistance) {
  leaderOf_.resize(count);
  std::iota(leaderOf_.begin(), leaderOf_.end(), 0u);
  if (path == Path::Pairs) {
    pairs_ = std::make_unique<PairSearch>(fingerprints, count, maxDistance);
    maxFound_ = SIZE_MAX - 1;
  } else {
    startLookups(lookupPartition);
  }
}

LeaderSearch::~LeaderSearch() = default;
LeaderSearch::LeaderSearch(LeaderSearch&&) noexcept = default;
LeaderSearch& LeaderSearch::operator=(LeaderSearch&&) noexcept = default;

double LeaderSearch::progress() const {
  if (done_) return 1.0;
  if (pairs_) return 0.9 * pairs_->progress();
  return count_ ? 0.99 * next_ / count_ : 0.0;
}

bool LeaderSearch::run(size_t workBudget) {
  if (done_) return true;
  return pairs_ ? runPairs(workBudget) : runLookups(workBudget);
}

bool LeaderSearch::runPairs(size_t workBudget) {
  if (!pairs_->done()) {
    const size_t before = found_.size();
    pairs_->run(std::min(workBudget, maxFound_ - std::min(maxFound_, candidates_) + 1), &found_);
    candidates_ += found_.size() - before;
    // A pair the acceptance test rejects can never join its items, so only accepted pairs
    // are kept: memory follows the near-duplicates, not the candidates (each candidate is
    // then tested once, where the leader rule alone would test only those whose first item
    // is a leader).
    if (accept_) {
      size_t kept = before;
      for (size_t i = before; i < found_.size(); ++i) {
        if (accepts(found_[i].a, found_[i].b)) found_[kept++] = found_[i];
      }
      found_.resize(kept);
    }
    if (candidates_ > maxFound_) {  // far more pairs than sampled: the lookup path is cheaper
      std::vector<Pair>().swap(found_);
      pairs_.reset();
      startLookups(nullptr);
      return false;
    }
    if (!pairs_->done()) return false;
  }
  sortPairs(found_);
  leaderOfSortedPairs(found_.data(), found_.size(), leaderOf_.data());
  std::vector<Pair>().swap(found_);
  done_ = true;
  return true;
}

void LeaderSearch::startLookups(const Partition* partition) {
  partition_ = std::make_unique<Partition>(partition ? *partition : Partition::choose(fingerprints_, count_, maxDistance_, Partition::Use::Leaders));
  probeCost_ = partition_->estimatedCost();
  const size_t parts = partition_->partCount();
  firstBucket_.assign(parts + 1, 0);
  for (size_t p = 0; p < parts; ++p) firstBucket_[p + 1] = firstBucket_[p] + (uint32_t{1} << partition_->part(p).width);
  if (parts > 0 && count_ > SIZE_MAX / parts) throw std::bad_alloc();
  regions_.assign(firstBucket_[parts], Region{0, 0});
  // Left uninitialised: only the leaders' entries are ever written or read, and for
  // inputs full of near-duplicates most pages are never touched.
  folds_.reset(new uint32_t[parts * count_]);
  items_.reset(new uint32_t[parts * count_]);
}

bool LeaderSearch::runLookups(size_t workBudget) {
  const Partition& partition = *partition_;
  const size_t parts = partition.partCount();
  const unsigned k = maxDistance_;
  size_t work = 0;
  auto bucketOf = [&](uint64_t fp, size_t p) { return firstBucket_[p] + partition.key(fp, p); };
  if (!counted_) {
    // Each bucket's region is sized by how many items fall in it, leaders or not, and
    // filled in index order: a region read front to back meets earlier leaders first.
    for (size_t p = 0; p < parts; ++p) {
      for (uint32_t j = 0; j < count_; ++j) ++regions_[bucketOf(fingerprints_[j], p)].end;
      uint32_t offset = 0;
      for (uint32_t b = firstBucket_[p]; b < firstBucket_[p + 1]; ++b) {
        const uint32_t size = regions_[b].end;
        regions_[b] = {offset, offset};
        offset += size;
      }
    }
    counted_ = true;
    work += parts * size_t{count_};
  }
  // Folded fingerprints (4 bytes, 16 to a cache line) rule out almost every leader in a
  // bucket without touching its fingerprint: popcount(fold(x ^ y)) <= popcount(x ^ y).
  auto fold = [](uint64_t fp) { return static_cast<uint32_t>(fp ^ (fp >> 32)); };
  for (; next_ < count_ && work < workBudget; ++next_) {
    const uint32_t j = next_;
    const uint64_t fp = fingerprints_[j];
    uint32_t best = kNone;
    if (static_cast<double>(leaders_.size()) <= probeCost_ || parts == 0) {
      // Few leaders so far: scanning them all, in index order, is cheaper than probing.
      for (size_t x = 0; x < leaders_.size(); ++x) {
        if (hammingDistance(leaderFingerprints_[x], fp) <= k && accepts(leaders_[x], j)) {
          best = leaders_[x];
          break;
        }
      }
      work += leaders_.size() + 1;
    } else {
      const uint32_t folded = fold(fp);
      for (size_t p = 0; p < parts; ++p) {
        const uint32_t key = partition.key(fp, p);
        const size_t slice = p * size_t{count_};
        for (uint32_t probe : partition.part(p).probes) {
          const Region region = regions_[firstBucket_[p] + (key ^ probe)];
          for (size_t x = slice + region.begin, end = slice + region.end; x < end; ++x) {
            if (static_cast<unsigned>(__builtin_popcount(folds_[x] ^ folded)) > k) continue;
            const uint32_t i = items_[x];
            if (i >= best) break;  // later entries are later items
            if (hammingDistance(fingerprints_[i], fp) <= k && accepts(i, j)) {
              best = i;
              break;
            }
          }
        }
      }
      work += static_cast<size_t>(probeCost_) + 1;
    }
    if (best != kNone) {
      leaderOf_[j] = best;
      continue;
    }
    leaders_.push_back(j);
    leaderFingerprints_.push_back(fp);
    for (size_t p = 0; p < parts; ++p) {
      const size_t x = p * size_t{count_} + regions_[bucketOf(fp, p)].end++;
      folds_[x] = fold(fp);
      items_[x] = j;
    }
  }
  if (next_ < count_) return false;
  partition_.reset();
  std::vector<Region>().swap(regions_);
  folds_.reset();
  items_.reset();
  std::vector<uint32_t>().swap(leaders_);
  std::vector<uint64_t>().swap(leaderFingerprints_);
  done_ = true;
  return true;
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
