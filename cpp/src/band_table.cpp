#include "band_table.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace simhash {

namespace {
constexpr size_t kSmallestRecent = 1024;
}  // namespace

BandTable::SortedPart::SortedPart(size_t count) {
  if (count == 0) return;  // no buckets: find() reads nothing
  // At least 2^16 buckets, so that the low bits kept per entry fit in 16 (and the starts,
  // 256 KB, mostly stay in cache); more once buckets would average over 256 entries.
  while (bits < 24 && (count >> bits) > 256) ++bits;
  entries.reserve(count);
  starts.assign((size_t{1} << bits) + 1, 0);
  deadBits.assign((count + 63) / 64, 0);
}

void BandTable::SortedPart::append(uint64_t order) {
  const auto hash = static_cast<uint32_t>(order >> 32);
  ++starts[(hash >> shift()) + 1];  // a count until finish() sums them
  entries.emplace_back(lowOf(hash), static_cast<uint32_t>(order));
}

size_t BandTable::SortedPart::estimate(uint32_t hash, size_t& end) const {
  const size_t b = hash >> shift();
  const size_t begin = starts[b];
  end = starts[b + 1];
  return begin + static_cast<size_t>((uint64_t{lowOf(hash)} * (end - begin)) >> shift());
}

size_t BandTable::SortedPart::lowerBound(uint32_t hash, size_t& end) const {
  const size_t begin = starts[hash >> shift()];
  const uint16_t low = lowOf(hash);
  size_t e = estimate(hash, end);
  while (e > begin && entries[e - 1].low >= low) --e;
  while (e < end && entries[e].low < low) ++e;
  return e;
}

void BandTable::SortedPart::finish() {
  for (size_t b = 1; b < starts.size(); ++b) starts[b] += starts[b - 1];
}

BandTable::BandTable(size_t mergeAt) : mergeAt_(mergeAt), recent_(kSmallestRecent, 0) {}

size_t BandTable::capacityFor(size_t entries) {
  size_t capacity = kSmallestRecent;
  while (4 * entries > 3 * capacity) capacity += capacity / 4 + kSmallestRecent;
  return capacity;
}

void BandTable::reserve(size_t more) {
  const size_t wanted = recentUsed_ + more;
  const bool crowded = wanted > recentLimit();
  const bool hollow = sorted_.dead > mergeAt_ && 4 * sorted_.dead > sorted_.entries.size();
  if (crowded || hollow) {
    merge(more);
    return;
  }
  if (4 * wanted <= 3 * recent_.size()) return;
  std::vector<uint64_t> grown(capacityFor(wanted), 0);
  grown.swap(recent_);
  recentUsed_ = 0;
  for (const uint64_t entry : grown) {
    if (entry != 0) insertRecent(entry);
  }
}

void BandTable::insertRecent(uint64_t entry) {
  size_t e = home(static_cast<uint32_t>(entry));
  while (recent_[e] != 0) e = after(e);
  recent_[e] = entry;
  ++recentUsed_;
}

void BandTable::insert(uint32_t key, uint32_t id) { insertRecent(uint64_t{id} << 32 | key); }

void BandTable::erase(uint32_t key, uint32_t id) {
  const uint32_t hash = placing(key);
  if (!sorted_.entries.empty()) {
    const uint16_t low = sorted_.lowOf(hash);
    size_t end;
    for (size_t e = sorted_.lowerBound(hash, end); e < end && sorted_.entries[e].low == low; ++e) {
      if (sorted_.entries[e].id() == id && !sorted_.isDead(e)) {
        sorted_.deadBits[e >> 6] |= uint64_t{1} << (e & 63);
        ++sorted_.dead;
        return;
      }
    }
  }
  const uint64_t entry = uint64_t{id} << 32 | key;
  size_t hole = home(key);
  while (recent_[hole] != 0 && recent_[hole] != entry) hole = after(hole);
  if (recent_[hole] == 0) return;
  --recentUsed_;
  // Backward-shift deletion: pull later entries of the run into the hole, so lookups never
  // meet tombstones.
  const size_t n = recent_.size();
  for (size_t e = after(hole); recent_[e] != 0; e = after(e)) {
    const size_t want = home(static_cast<uint32_t>(recent_[e]));
    // Move entry e into the hole unless its home lies cyclically in (hole, e].
    if ((e + n - want) % n >= (e + n - hole) % n) {
      recent_[hole] = recent_[e];
      hole = e;
    }
  }
  recent_[hole] = 0;
}

uint64_t BandTable::touch(const uint32_t* keys, size_t count) const {
  // Real loads, not prefetch hints: WebAssembly has no prefetch, and independent loads
  // still overlap in the processor, as many as its reorder buffer holds. So the places
  // are computed first (from the bucket starts, which mostly stay in cache), then read in
  // a loop of a few instructions a key, which keeps every key's misses in flight at once:
  // computing and reading each key's places in turn overlaps the misses of only two or
  // three keys.
  constexpr size_t kChunk = 32;
  constexpr size_t kNowhere = SIZE_MAX;
  constexpr size_t kSide = 64 / sizeof(SortedPart::Entry);  // a cache line of entries
  size_t inSorted[kChunk], inRecent[kChunk];
  uint64_t sum = 0;
  for (size_t first = 0; first < count; first += kChunk) {
    const size_t n = std::min(kChunk, count - first);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t key = keys[first + i];
      inRecent[i] = home(key);
      inSorted[i] = kNowhere;
      if (!sorted_.entries.empty()) {
        size_t end;
        const size_t e = sorted_.estimate(placing(key), end);
        if (e < end) inSorted[i] = e;
      }
    }
    // The estimate is off by a few entries (the square root of a bucket's size over 2, at
    // most 8 at 2^16 buckets), so the lines on both sides of it too.
    for (size_t i = 0; i < n; ++i) {
      sum += recent_[inRecent[i]];
      if (inSorted[i] == kNowhere) continue;
      const size_t e = inSorted[i];
      sum += sorted_.entries[e].low;
      if (e >= kSide) sum += sorted_.entries[e - kSide].low;
      if (e + kSide < sorted_.entries.size()) sum += sorted_.entries[e + kSide].low;
    }
  }
  return sum;
}

void BandTable::find(uint32_t key, std::vector<KeyedItem>& out) const {
  const uint32_t hash = placing(key);
  if (!sorted_.entries.empty()) {
    const uint16_t low = sorted_.lowOf(hash);
    size_t end;
    for (size_t e = sorted_.lowerBound(hash, end); e < end && sorted_.entries[e].low == low; ++e) {
      // The bitmap only when an entry is dead: a read of it is another cache miss.
      if (sorted_.dead == 0 || !sorted_.isDead(e)) out.push_back({sorted_.entries[e].id(), 0});
    }
  }
  for (size_t e = home(key); recent_[e] != 0; e = after(e)) {
    if (static_cast<uint32_t>(recent_[e]) == key) out.push_back({recent_[e] >> 32, 0});
  }
}

std::vector<uint64_t> BandTable::recentInOrder() const {
  // By bucket of the top 16 bits of the hash (one counting pass), then each bucket (a few
  // entries) by insertion: the recent part is at most a twelfth of the entries, so this
  // is a small share of a merge.
  constexpr unsigned kBucketBits = 16;
  std::vector<uint64_t> out(recentUsed_);
  std::vector<uint32_t> ends((size_t{1} << kBucketBits) + 1, 0);
  auto orderOf = [](uint64_t entry) { return uint64_t{placing(static_cast<uint32_t>(entry))} << 32 | entry >> 32; };
  for (const uint64_t entry : recent_) {
    if (entry != 0) ++ends[(orderOf(entry) >> (64 - kBucketBits)) + 1];
  }
  for (size_t b = 1; b < ends.size(); ++b) ends[b] += ends[b - 1];
  for (const uint64_t entry : recent_) {
    if (entry != 0) {
      const uint64_t order = orderOf(entry);
      out[ends[order >> (64 - kBucketBits)]++] = order;
    }
  }
  // Now bucket b is [ends[b - 1], ends[b]) (0 for b = 0).
  for (size_t b = 0, begin = 0; b + 1 < ends.size(); begin = ends[b++]) {
    for (size_t i = begin + 1; i < ends[b]; ++i) {
      const uint64_t order = out[i];
      size_t j = i;
      for (; j > begin && out[j - 1] > order; --j) out[j] = out[j - 1];
      out[j] = order;
    }
  }
  return out;
}

void BandTable::Builder::finish(BandTable& table) {
  sorted_.finish();
  std::vector<uint64_t> recent(capacityFor(strays_.size()), 0);
  table.sorted_ = std::move(sorted_);
  table.recent_.swap(recent);
  table.recentUsed_ = 0;
  for (const uint64_t entry : strays_) table.insertRecent(entry);
}

void BandTable::merge(size_t more) {
  // Everything allocated first: a failure leaves the table as it was.
  std::vector<uint64_t> recent = recentInOrder();
  const size_t count = sorted_.live() + recent.size();
  SortedPart sorted(count);
  sorted.entries.resize(count);
  // The recent part at once as large as it may grow before the next merge: no rehash.
  std::vector<uint64_t> fresh(capacityFor(std::max(more, recentLimitFor(count))), 0);
  // Written through pointers, the bucket sizes counted into starts: the loop a merge is.
  SortedPart::Entry* entries = sorted.entries.data();
  uint32_t* sizes = count == 0 ? nullptr : sorted.starts.data() + 1;  // no buckets when empty
  const unsigned shift = sorted.shift();
  if (sorted_.dead == 0 && !sorted_.entries.empty() && sorted.bits == sorted_.bits) {
    // The usual merge: nothing removed, the same buckets. The old entries between two
    // recent ones' places are copied as one run.
    const SortedPart& old = sorted_;
    size_t from = 0, to = 0;
    auto copyTo = [&](size_t at) {
      std::memcpy(entries + to, old.entries.data() + from, (at - from) * sizeof(SortedPart::Entry));
      to += at - from;
      from = at;
    };
    for (const uint64_t order : recent) {
      const auto hash = static_cast<uint32_t>(order >> 32);
      const auto id = static_cast<uint32_t>(order);
      const uint16_t low = sorted.lowOf(hash);
      size_t end;
      size_t at = std::max(from, old.lowerBound(hash, end));
      while (at < end && old.entries[at].low == low && old.entries[at].id() < id) ++at;  // (hash, id) order
      copyTo(at);
      entries[to++] = SortedPart::Entry(low, id);
      ++sizes[hash >> shift];
    }
    copyTo(old.entries.size());
    for (size_t b = 0; b < old.buckets(); ++b) sizes[b] += old.starts[b + 1] - old.starts[b];
  } else {
    size_t written = 0;
    Cursor(*this, std::move(recent)).take(count, [&](uint32_t key, uint32_t id) {
      const uint32_t hash = placing(key);
      entries[written++] = SortedPart::Entry(sorted.lowOf(hash), id);
      ++sizes[hash >> shift];
    });
  }
  sorted.finish();
  sorted_ = std::move(sorted);
  recent_.swap(fresh);
  recentUsed_ = 0;
}

size_t BandTable::memoryBytes() const {
  return sorted_.entries.capacity() * sizeof(SortedPart::Entry) + sorted_.starts.capacity() * sizeof(uint32_t) +
         (sorted_.deadBits.capacity() + recent_.capacity()) * sizeof(uint64_t);
}

}  // namespace simhash
