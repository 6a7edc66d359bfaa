#include "text_index/band_table.h"

#include <algorithm>
#include <utility>

namespace simhash {

namespace {
constexpr size_t kSmallestRecent = 1024;
}  // namespace

BandTable::SortedPart::SortedPart(size_t count, unsigned first, unsigned prefixBits) {
  if (count == 0) return;  // no buckets: find() reads nothing
  // At least 2^16 buckets in a whole table, so that the low bits kept per entry fit in 16
  // (and the starts, 256 KB, mostly stay in cache); more once buckets would average over
  // 256 entries.
  while (bits < 24 && (count >> (bits - prefixBits)) > 256) ++bits;
  base = size_t{first} << (bits - 8);
  entries.resize(count);
  starts.assign((size_t{1} << (bits - prefixBits)) + 1, 0);
  deadBits.assign((count + 63) / 64, 0);
}

void BandTable::SortedPart::append(size_t at, uint64_t order) {
  const auto hash = static_cast<uint32_t>(order >> 32);
  ++starts[bucketOf(hash) + 1];  // a count until finish() sums them
  entries[at] = Entry(lowOf(hash), static_cast<uint32_t>(order));
}

size_t BandTable::SortedPart::estimate(uint32_t hash, size_t& end) const {
  const size_t b = bucketOf(hash);
  const size_t begin = starts[b];
  end = starts[b + 1];
  return begin + static_cast<size_t>((uint64_t{lowOf(hash)} * (end - begin)) >> shift());
}

size_t BandTable::SortedPart::lowerBound(uint32_t hash, size_t& end) const {
  const size_t begin = starts[bucketOf(hash)];
  const uint16_t low = lowOf(hash);
  size_t e = estimate(hash, end);
  while (e > begin && entries[e - 1].low >= low) --e;
  while (e < end && entries[e].low < low) ++e;
  return e;
}

void BandTable::SortedPart::finish() {
  for (size_t b = 1; b < starts.size(); ++b) starts[b] += starts[b - 1];
}

BandTable::BandTable(size_t mergeAt) : mergeAt_(mergeAt), ranges_(new Range[256]) { ranges_[0].recent.assign(kSmallestRecent, 0); }

size_t BandTable::capacityFor(size_t entries) {
  size_t capacity = kSmallestRecent;
  while (4 * entries > 3 * capacity) capacity += capacity / 4 + kSmallestRecent;
  return capacity;
}

void BandTable::reserve(const uint32_t* keys, size_t count) {
  // Room for all `count` in each range a key falls in: a few more than it takes, which
  // only brings a merge a few inserts early.
  for (size_t i = 0; i < count; ++i) {
    const size_t at = directory_[placing(keys[i]) >> 24];
    Range& range = ranges_[at];
    const SortedPart& sorted = range.sorted;
    const size_t wanted = range.recentUsed + count;
    const bool crowded = range.recentUsed != 0 && wanted > recentLimitFor(sorted.live(), range.prefixBits);
    const bool hollow = sorted.dead > (mergeAt_ >> range.prefixBits) && 4 * sorted.dead > sorted.entries.size();
    if (crowded || hollow) {
      merge(at, count);
    } else if (4 * wanted > 3 * range.recent.size()) {
      std::vector<uint64_t> grown(capacityFor(wanted), 0);
      grown.swap(range.recent);
      range.recentUsed = 0;
      for (const uint64_t entry : grown) {
        if (entry != 0) range.insert(entry);
      }
    }
  }
}

void BandTable::Range::insert(uint64_t entry) {
  size_t e = home(static_cast<uint32_t>(entry));
  while (recent[e] != 0) e = after(e);
  recent[e] = entry;
  ++recentUsed;
}

void BandTable::erase(uint32_t key, uint32_t id) {
  Range& range = rangeOf(key);
  SortedPart& sorted = range.sorted;
  const uint32_t hash = placing(key);
  if (!sorted.entries.empty()) {
    const uint16_t low = sorted.lowOf(hash);
    size_t end;
    for (size_t e = sorted.lowerBound(hash, end); e < end && sorted.entries[e].low == low; ++e) {
      if (sorted.entries[e].id() == id && !sorted.isDead(e)) {
        sorted.deadBits[e >> 6] |= uint64_t{1} << (e & 63);
        ++sorted.dead;
        return;
      }
    }
  }
  std::vector<uint64_t>& recent = range.recent;
  const uint64_t entry = uint64_t{id} << 32 | key;
  size_t hole = range.home(key);
  while (recent[hole] != 0 && recent[hole] != entry) hole = range.after(hole);
  if (recent[hole] == 0) return;
  --range.recentUsed;
  // Backward-shift deletion: pull later entries of the run into the hole, so lookups never
  // meet tombstones.
  const size_t n = recent.size();
  for (size_t e = range.after(hole); recent[e] != 0; e = range.after(e)) {
    const size_t want = range.home(static_cast<uint32_t>(recent[e]));
    // Move entry e into the hole unless its home lies cyclically in (hole, e].
    if ((e + n - want) % n >= (e + n - hole) % n) {
      recent[hole] = recent[e];
      hole = e;
    }
  }
  recent[hole] = 0;
}

uint64_t BandTable::touch(const uint32_t* keys, size_t count) const {
  // Real loads, not prefetch hints: WebAssembly has no prefetch, and independent loads
  // still overlap in the processor, as many as its reorder buffer holds. So the places
  // are computed first (from the bucket starts, which mostly stay in cache), then read in
  // a loop of a few instructions a key, which keeps every key's misses in flight at once:
  // computing and reading each key's places in turn overlaps the misses of only two or
  // three keys.
  constexpr size_t kChunk = 32;
  constexpr size_t kSide = 64 / sizeof(SortedPart::Entry);  // a cache line of entries
  constexpr size_t kNowhere = SIZE_MAX;
  const uint64_t* inRecent[kChunk];
  const SortedPart* part[kChunk];
  size_t inSorted[kChunk];
  uint64_t sum = 0;
  for (size_t first = 0; first < count; first += kChunk) {
    const size_t n = std::min(kChunk, count - first);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t key = keys[first + i];
      const Range& range = rangeOf(key);
      inRecent[i] = &range.recent[range.home(key)];
      part[i] = &range.sorted;
      inSorted[i] = kNowhere;
      if (!range.sorted.entries.empty()) {
        size_t end;
        const size_t e = range.sorted.estimate(placing(key), end);
        if (e < end) inSorted[i] = e;
      }
    }
    // The estimate is off by a few entries (the square root of a bucket's size over 2, at
    // most 8 at 256 entries a bucket), so the lines on both sides of it too.
    for (size_t i = 0; i < n; ++i) {
      sum += *inRecent[i];
      if (inSorted[i] == kNowhere) continue;
      const size_t e = inSorted[i];
      const auto& entries = part[i]->entries;
      sum += entries[e].low;
      if (e >= kSide) sum += entries[e - kSide].low;
      if (e + kSide < entries.size()) sum += entries[e + kSide].low;
    }
  }
  return sum;
}

void BandTable::find(uint32_t key, std::vector<KeyedItem>& out) const {
  const Range& range = rangeOf(key);
  const SortedPart& sorted = range.sorted;
  const uint32_t hash = placing(key);
  if (!sorted.entries.empty()) {
    const uint16_t low = sorted.lowOf(hash);
    size_t end;
    for (size_t e = sorted.lowerBound(hash, end); e < end && sorted.entries[e].low == low; ++e) {
      // The bitmap only when an entry is dead: a read of it is another cache miss.
      if (sorted.dead == 0 || !sorted.isDead(e)) out.push_back({sorted.entries[e].id(), 0});
    }
  }
  for (size_t e = range.home(key); range.recent[e] != 0; e = range.after(e)) {
    if (static_cast<uint32_t>(range.recent[e]) == key) out.push_back({range.recent[e] >> 32, 0});
  }
}

size_t BandTable::size() const {
  size_t n = 0;
  for (size_t r = 0; r < rangeCount_; ++r) n += ranges_[r].sorted.live() + ranges_[r].recentUsed;
  return n;
}

void BandTable::Range::recentInOrder(uint64_t* out) const {
  // By bucket of the top bits of the hash below the range's prefix (one counting pass,
  // about one entry a bucket), then each bucket by insertion.
  unsigned bits = 1;
  while (bits < 16 && (size_t{1} << bits) < recentUsed) ++bits;
  std::vector<uint32_t> ends((size_t{1} << bits) + 1, 0);
  const unsigned prefix = prefixBits;
  auto orderOf = [](uint64_t entry) { return uint64_t{placing(static_cast<uint32_t>(entry))} << 32 | entry >> 32; };
  auto bucketOf = [=](uint64_t order) { return (static_cast<uint32_t>(order >> 32) << prefix) >> (32 - bits); };
  for (const uint64_t entry : recent) {
    if (entry != 0) ++ends[bucketOf(orderOf(entry)) + 1];
  }
  for (size_t b = 1; b < ends.size(); ++b) ends[b] += ends[b - 1];
  for (const uint64_t entry : recent) {
    if (entry != 0) {
      const uint64_t order = orderOf(entry);
      out[ends[bucketOf(order)]++] = order;
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
}

size_t BandTable::Cursor::next(uint64_t* out, size_t most) {
  // The ranges in hash order, each one's sorted entries merged with the recent ones (of
  // every range, in order): those left once the last range's sorted ones are taken.
  size_t taken = 0;
  for (;;) {
    // Locals, not members, in the loop: the writes to out might alias the members.
    const Range& range = table_.ranges_[table_.directory_[at_]];
    const SortedPart& sorted = range.sorted;
    const SortedPart::Entry* entries = sorted.entries.data();
    const uint32_t* starts = sorted.starts.data();
    const size_t count = sorted.entries.size(), recentCount = recent_.size(), base = sorted.base;
    const uint64_t* recent = recent_.data();
    const unsigned following = at_ + (256u >> range.prefixBits);
    const bool anyDead = sorted.dead != 0, lastRange = following >= to_;
    const unsigned shift = sorted.shift();
    size_t e = entry_, b = bucket_, r = nextRecent_;
    for (; taken < most; ++taken) {
      if (anyDead) {
        while (e < count && sorted.isDead(e)) ++e;
      }
      uint64_t order;
      if (e < count) {
        while (starts[b + 1] <= e) ++b;
        order = (uint64_t{base + b} << shift | entries[e].low) << 32 | entries[e].id();
        if (r < recentCount && recent[r] < order) {
          order = recent[r++];
        } else {
          ++e;
        }
      } else if (lastRange && r < recentCount) {
        order = recent[r++];
      } else {
        break;
      }
      out[taken] = order;
    }
    entry_ = e;
    bucket_ = b;
    nextRecent_ = r;
    if (taken == most || lastRange) return taken;
    at_ = following;
    entry_ = bucket_ = 0;
  }
}

std::vector<uint64_t> BandTable::recentInOrder() const {
  // The ranges are blocks of hashes: each one's entries in order, one block after another.
  size_t at = 0;
  for (size_t r = 0; r < rangeCount_; ++r) at += ranges_[r].recentUsed;
  std::vector<uint64_t> out(at);
  at = 0;
  for (unsigned d = 0; d < 256;) {
    const Range& range = ranges_[directory_[d]];
    range.recentInOrder(out.data() + at);
    at += range.recentUsed;
    d += 256u >> range.prefixBits;
  }
  return out;
}

void BandTable::direct() {
  for (size_t r = 0; r < rangeCount_; ++r) {
    const Range& range = ranges_[r];
    std::fill_n(directory_ + range.first, 256u >> range.prefixBits, static_cast<uint8_t>(r));
  }
}

BandTable::Builder::Builder(size_t count, size_t mergeAt) {
  // Ranges of at most 2 * mergeAt entries, as merges that split at 4 * mergeAt leave them.
  while (prefixBits_ < 8 && (count >> prefixBits_) > 2 * mergeAt) ++prefixBits_;
  ranges_.reset(new Range[256]);  // room for the table's splits
}

void BandTable::Builder::close() {
  Range& range = ranges_[built_];
  range.prefixBits = prefixBits_;
  range.first = static_cast<unsigned>(built_++ << (8 - prefixBits_));
  range.sorted = SortedPart(pending_.size(), range.first, prefixBits_);
  for (size_t i = 0; i < pending_.size(); ++i) range.sorted.append(i, pending_[i]);
  range.sorted.finish();
  pending_.clear();
}

void BandTable::Builder::finish(BandTable& table) {
  while (built_ < (size_t{1} << prefixBits_)) close();
  std::vector<size_t> strays(built_, 0);
  auto rangeOf = [&](uint64_t entry) { return (placing(static_cast<uint32_t>(entry)) >> 24) >> (8 - prefixBits_); };
  for (const uint64_t entry : strays_) ++strays[rangeOf(entry)];
  for (size_t r = 0; r < built_; ++r) ranges_[r].recent.assign(capacityFor(strays[r]), 0);
  for (const uint64_t entry : strays_) ranges_[rangeOf(entry)].insert(entry);
  table.ranges_.swap(ranges_);
  table.rangeCount_ = built_;
  table.direct();
}

void BandTable::merge(size_t at, size_t more) {
  // Everything allocated first: a failure leaves the table as it was. A range split in
  // two makes halves of its block of hashes, each with its own sorted and recent parts.
  const bool split = ranges_[at].prefixBits < 8 && ranges_[at].sorted.live() + ranges_[at].recentUsed > 4 * mergeAt_;
  const Range& range = ranges_[at];
  const SortedPart& old = range.sorted;
  std::vector<uint64_t> recent(range.recentUsed);
  range.recentInOrder(recent.data());
  const unsigned prefixBits = range.prefixBits + split, middle = range.first + (256u >> prefixBits);
  // The first half's entries: old [0, oldEnd), recent [0, recentEnd); the second's, the rest.
  size_t oldEnd = old.entries.size(), recentEnd = recent.size();
  if (split) {
    recentEnd = static_cast<size_t>(std::lower_bound(recent.begin(), recent.end(), uint64_t{middle} << 56) - recent.begin());
    if (oldEnd != 0) oldEnd = old.starts[old.bucketOf(middle << 24)];
  }
  Range made[2];
  for (unsigned h = 0; h <= unsigned{split}; ++h) {
    size_t count = h == 0 ? oldEnd + recentEnd : old.entries.size() - oldEnd + recent.size() - recentEnd;
    for (size_t e = h == 0 ? 0 : oldEnd; old.dead != 0 && e < (h == 0 ? oldEnd : old.entries.size()); ++e) count -= old.isDead(e);
    Range& half = made[h];
    half.first = h == 0 ? range.first : middle;
    half.prefixBits = prefixBits;
    half.sorted = SortedPart(count, half.first, prefixBits);
    // The recent part at once as large as it may grow before the next merge: no rehash.
    half.recent.assign(capacityFor(std::max(more, recentLimitFor(count, prefixBits))), 0);
  }
  // The range's entries in order, live ones only, each to its half.
  Cursor cursor(*this, std::move(recent), range.first, middle + (split ? 256u >> prefixBits : 0));
  uint64_t orders[256];
  size_t filled[2] = {0, 0};
  for (size_t n; (n = cursor.next(orders, 256)) != 0;) {
    for (size_t i = 0; i < n; ++i) {
      const bool upper = (orders[i] >> 56) >= middle;
      made[upper].sorted.append(filled[upper]++, orders[i]);
    }
  }
  for (Range& half : made) half.sorted.finish();
  ranges_[at] = std::move(made[0]);
  if (split) ranges_[rangeCount_++] = std::move(made[1]);
  direct();
}

size_t BandTable::memoryBytes() const {
  size_t bytes = 256 * sizeof(Range);
  for (size_t r = 0; r < rangeCount_; ++r) {
    const Range& range = ranges_[r];
    const SortedPart& sorted = range.sorted;
    bytes += sorted.entries.capacity() * sizeof(SortedPart::Entry) + sorted.starts.capacity() * sizeof(uint32_t) +
             (sorted.deadBits.capacity() + range.recent.capacity()) * sizeof(uint64_t);
  }
  return bytes;
}

}  // namespace simhash
