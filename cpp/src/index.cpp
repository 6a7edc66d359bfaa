#include "simhash/index.h"

#include <algorithm>
#include <cstring>

#include "partition.h"
#include "bytes.h"
#include "radix.h"

namespace simhash {

namespace {

// Items added since the last reorganisation are scanned by every query; they become a
// level once a query finds more than this many. Small enough that the scan stays a minor
// part of a query, large enough that levels are few (log2(items / this) + 1 at most).
constexpr size_t kBufferItems = 256;
// Removed items are dropped when their level is merged; all levels are rebuilt into one
// once they outnumber the stored items (and this many).
constexpr size_t kMinDeadForRebuild = 256;
// Partitions are kept per floor(log2(level size)); 2^63 bounds every size.
constexpr size_t kSizeClasses = 64;

constexpr char kMagic[4] = {'S', 'H', 'I', 'X'};
constexpr uint16_t kFormatVersion = 1;
constexpr size_t kHeaderSize = 20;
constexpr size_t kItemSize = 12;

using bytes::checksum;
using bytes::kChecksumSize;
using bytes::getLE;
using bytes::putLE;

}  // namespace

namespace detail {

bool SlotOfId::insert(uint32_t id, uint32_t slot) {
  if (find(id)) return false;
  reserve(size_ + 1);  // may allocate; nothing has changed yet
  size_t i = home(id);
  while (entries_[i].slot != kEmpty) i = (i + 1) & (entries_.size() - 1);
  entries_[i] = {id, slot};
  ++size_;
  return true;
}

size_t SlotOfId::position(uint32_t id) const {
  if (entries_.empty()) return kAbsent;
  for (size_t i = home(id);; i = (i + 1) & (entries_.size() - 1)) {
    if (entries_[i].slot == kEmpty) return kAbsent;
    if (entries_[i].id == id) return i;
  }
}

uint32_t* SlotOfId::find(uint32_t id) {
  const size_t i = position(id);
  return i == kAbsent ? nullptr : &entries_[i].slot;
}

bool SlotOfId::erase(uint32_t id) {
  size_t hole = position(id);
  if (hole == kAbsent) return false;
  // Backward-shift deletion: pull later entries of the probe run into the hole, so
  // lookups never need tombstones.
  const size_t mask = entries_.size() - 1;
  for (size_t i = (hole + 1) & mask; entries_[i].slot != kEmpty; i = (i + 1) & mask) {
    const size_t want = home(entries_[i].id);
    // Move entry i into the hole unless its home lies cyclically in (hole, i].
    if (((i - want) & mask) >= ((i - hole) & mask)) {
      entries_[hole] = entries_[i];
      hole = i;
    }
  }
  entries_[hole].slot = kEmpty;
  --size_;
  return true;
}

void SlotOfId::reserve(size_t count) {
  if (2 * count <= entries_.size()) return;  // load factor <= 1/2
  size_t capacity = entries_.empty() ? 16 : entries_.size();
  while (capacity < 2 * count) capacity *= 2;
  rehash(capacity);
}

void SlotOfId::rehash(size_t capacity) {
  std::vector<Entry> bigger(capacity, Entry{0, kEmpty});  // the one allocation, before any change
  bigger.swap(entries_);
  for (const Entry& e : bigger) {
    if (e.slot == kEmpty) continue;
    size_t i = home(e.id);
    while (entries_[i].slot != kEmpty) i = (i + 1) & (entries_.size() - 1);
    entries_[i] = e;
  }
}

}  // namespace detail

Index::Index(unsigned maxDistance) : maxDistance_(maxDistance), partitions_(kSizeClasses) {}
Index::~Index() = default;
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;

void Index::reserveForAdding(size_t count) {
  const size_t needed = fingerprints_.size() + count;
  if (needed > fingerprints_.capacity()) {
    const size_t capacity = std::max(needed, 2 * fingerprints_.capacity());
    fingerprints_.reserve(capacity);
    ids_.reserve(capacity);
    alive_.reserve(capacity);
  }
  slotOfId_.reserve(slotOfId_.size() + count);
}

Status Index::add(uint64_t fingerprint, uint32_t id) {
  if (slotOfId_.find(id)) return Status::DuplicateId;
  reserveForAdding(1);  // every allocation first: the pushes below cannot fail
  slotOfId_.insert(id, static_cast<uint32_t>(fingerprints_.size()));
  fingerprints_.push_back(fingerprint);
  ids_.push_back(id);
  alive_.push_back(1);
  return Status::Ok;
}

Status Index::addWithNewId(uint64_t fingerprint, uint32_t& id) {
  // Ids a caller stored at or above the counter are stepped over, each once: the counter
  // only moves up.
  uint64_t next = nextId_;
  while (next <= UINT32_MAX && slotOfId_.find(static_cast<uint32_t>(next))) ++next;
  if (next > UINT32_MAX) return Status::DuplicateId;
  const Status status = add(fingerprint, static_cast<uint32_t>(next));
  if (status != Status::Ok) return status;
  id = static_cast<uint32_t>(next);
  nextId_ = next + 1;
  return Status::Ok;
}

size_t Index::addAll(const uint64_t* fingerprints, const uint32_t* ids, size_t count, uint32_t* idsOut) {
  reserveForAdding(count);  // the adds below cannot fail to allocate
  const size_t slots = fingerprints_.size();
  const uint64_t nextId = nextId_;
  for (size_t i = 0; i < count; ++i) {
    const Status status = ids ? add(fingerprints[i], idsOut[i] = ids[i]) : addWithNewId(fingerprints[i], idsOut[i]);
    if (status == Status::Ok) continue;
    // Undo: the batch's items are the last slots (no rebuild runs in between).
    for (size_t j = 0; j < i; ++j) slotOfId_.erase(idsOut[j]);
    fingerprints_.resize(slots);
    ids_.resize(slots);
    alive_.resize(slots);
    nextId_ = nextId;
    return i;
  }
  return count;
}

bool Index::remove(uint32_t id) {
  const uint32_t* slot = slotOfId_.find(id);
  if (!slot) return false;
  alive_[*slot] = 0;
  slotOfId_.erase(id);
  return true;
}

void Index::clear() {
  const uint64_t nextId = nextId_;
  *this = Index(maxDistance_);
  nextId_ = nextId;
}

size_t Index::partCount() {
  reindexIfDue();
  return levels_.empty() ? 0 : levels_[0].partition->partCount();
}

void Index::reindexIfDue() {
  const size_t live = size();
  const size_t dead = fingerprints_.size() - live;
  if (dead > std::max(kMinDeadForRebuild, live)) {
    mergeFrom(0);
    return;
  }
  size_t merged = fingerprints_.size() - indexedSlots_;
  if (merged <= kBufferItems) return;
  // Binary counter: the buffer takes along every newer level no larger than what it has
  // gathered, so each level is more than the sum of all newer ones.
  size_t first = levels_.size();
  while (first > 0 && levels_[first - 1].end - levels_[first - 1].begin <= merged) {
    --first;
    merged += levels_[first].end - levels_[first].begin;
  }
  mergeFrom(first);
}

const Partition& Index::partitionFor(const uint64_t* fingerprints, size_t count) {
  // A level's partition depends on its size and its data's bit statistics; choosing costs
  // a sample's worth of work (milliseconds), which merges of small levels would repeat
  // thousands of times. The data's statistics change slowly, so one partition per size
  // class, chosen from the first level of that class, serves every later one.
  size_t sizeClass = 0;
  while ((count >> sizeClass) > 1) ++sizeClass;
  std::unique_ptr<Partition>& partition = partitions_[sizeClass];
  if (!partition) partition = std::make_unique<Partition>(Partition::choose(fingerprints, count, maxDistance_, Partition::Use::Probe));
  return *partition;
}

void Index::mergeFrom(size_t level) {
  // Levels level.. and the buffer, i.e. slots [begin, end), become one level. Everything
  // is built aside and committed at the end without allocating, so a failed allocation
  // (which in the WASM build unwinds straight back to JS) leaves the index as it was:
  // consistent, with every item, only not yet reorganised.
  const size_t begin = level < levels_.size() ? levels_[level].begin : indexedSlots_;
  const size_t end = fingerprints_.size();
  size_t kept = 0;
  for (size_t slot = begin; slot < end; ++slot) kept += alive_[slot];
  const bool compact = kept < end - begin;
  std::vector<uint64_t> keptFingerprints;
  std::vector<uint32_t> keptIds;
  if (compact) {  // removed items dropped, order kept: the slots stay in insertion order
    keptFingerprints.reserve(kept);
    keptIds.reserve(kept);
    for (size_t slot = begin; slot < end; ++slot) {
      if (!alive_[slot]) continue;
      keptFingerprints.push_back(fingerprints_[slot]);
      keptIds.push_back(ids_[slot]);
    }
  }
  const uint64_t* fingerprints = compact ? keptFingerprints.data() : fingerprints_.data() + begin;
  levels_.reserve(level + 1);
  Level merged{begin, begin + kept, nullptr, {}};
  if (kept > 0) {
    merged.partition = &partitionFor(fingerprints, kept);
    // Per part, a counting sort of the slots by key: bucket b holds slots[start[b], start[b + 1]).
    const Partition& partition = *merged.partition;
    merged.tables.resize(partition.partCount());
    for (size_t p = 0; p < merged.tables.size(); ++p) {
      Table& table = merged.tables[p];
      std::vector<uint32_t>& start = table.start;
      start.assign((size_t{1} << partition.part(p).width) + 1, 0);
      table.slots.resize(kept);
      table.fingerprints.resize(kept);
      for (size_t i = 0; i < kept; ++i) ++start[partition.key(fingerprints[i], p) + 1];
      for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
      for (size_t i = 0; i < kept; ++i) {
        const uint32_t at = start[partition.key(fingerprints[i], p)]++;
        table.slots[at] = static_cast<uint32_t>(begin + i);
        table.fingerprints[at] = fingerprints[i];
      }
      for (size_t b = start.size() - 1; b > 0; --b) start[b] = start[b - 1];
      start[0] = 0;
    }
  }

  if (compact) {
    for (size_t i = 0; i < kept; ++i) {
      fingerprints_[begin + i] = keptFingerprints[i];
      ids_[begin + i] = keptIds[i];
      alive_[begin + i] = 1;
      *slotOfId_.find(keptIds[i]) = static_cast<uint32_t>(begin + i);
    }
    fingerprints_.resize(begin + kept);
    ids_.resize(begin + kept);
    alive_.resize(begin + kept);
  }
  levels_.resize(level);
  if (kept > 0) levels_.push_back(std::move(merged));
  indexedSlots_ = begin + kept;
}

void Index::query(uint64_t fingerprint, std::vector<Match>& out) {
  out.clear();
  reindexIfDue();
  const unsigned k = maxDistance_;
  auto scan = [&](size_t begin, size_t end) {
    for (size_t slot = begin; slot < end; ++slot) {
      const unsigned distance = static_cast<unsigned>(__builtin_popcountll(fingerprint ^ fingerprints_[slot]));
      if (distance <= k && alive_[slot]) out.push_back({ids_[slot], distance});
    }
  };
  for (const Level& level : levels_) {
    const Partition& partition = *level.partition;
    if (partition.partCount() == 0) {
      scan(level.begin, level.end);
      continue;
    }
    // Every bucket within each part's threshold of the query's key; a stored item is taken
    // only from the first part where it is within threshold, so it is reported once.
    for (size_t p = 0; p < level.tables.size(); ++p) {
      const uint32_t key = partition.key(fingerprint, p);
      const uint32_t* start = level.tables[p].start.data();
      const uint32_t* slots = level.tables[p].slots.data();
      const uint64_t* stored = level.tables[p].fingerprints.data();
      for (uint32_t probe : partition.part(p).probes) {
        const uint32_t bucket = key ^ probe;
        for (uint32_t x = start[bucket], end = start[bucket + 1]; x < end; ++x) {
          const uint64_t diff = fingerprint ^ stored[x];
          const unsigned distance = static_cast<unsigned>(__builtin_popcountll(diff));
          if (distance <= k && partition.isFirstPart(p, diff) && alive_[slots[x]]) out.push_back({ids_[slots[x]], distance});
        }
      }
    }
  }
  scan(indexedSlots_, fingerprints_.size());
  // By distance, then id: one radix sort on (distance << 32) | id.
  if (out.size() < 2) return;
  sortKeys_.resize(out.size());
  for (size_t i = 0; i < out.size(); ++i) sortKeys_[i] = {uint64_t{out[i].distance} << 32 | out[i].id, 0};
  radixSort(sortKeys_, sortScratch_, 39);
  for (size_t i = 0; i < out.size(); ++i) out[i] = {static_cast<uint32_t>(sortKeys_[i].key), static_cast<unsigned>(sortKeys_[i].key >> 32)};
}

std::vector<uint8_t> Index::serialize() const {
  std::vector<uint8_t> out;
  out.reserve(kHeaderSize + kItemSize * size() + kChecksumSize);
  for (char c : kMagic) out.push_back(static_cast<uint8_t>(c));
  putLE(out, kFormatVersion, 2);
  putLE(out, maxDistance_, 1);
  putLE(out, 0, 1);  // reserved
  putLE(out, size(), 4);
  putLE(out, nextId_, 8);
  for (size_t slot = 0; slot < fingerprints_.size(); ++slot) {
    if (!alive_[slot]) continue;
    putLE(out, fingerprints_[slot], 8);
    putLE(out, ids_[slot], 4);
  }
  putLE(out, checksum(out.data(), out.size()), 8);
  return out;
}

Status Index::deserialize(const uint8_t* data, size_t size, Index& out, std::string& error) {
  auto fail = [&](std::string message) {
    error = "invalid serialized index: " + message;
    return Status::CorruptData;
  };
  uint64_t count = 0;
  const std::string damage = bytes::checkEnvelope(data, size, {kMagic, kFormatVersion, kHeaderSize, 8, kItemSize, "items"}, count);
  if (!damage.empty()) return fail(damage);
  // Past the checksum, anything odd is a writer's bug rather than damage; still checked.
  const unsigned maxDistance = data[6];
  if (maxDistance > kMaxDistance) return fail("maxDistance " + std::to_string(maxDistance) + " exceeds 64");
  if (data[7] != 0) return fail("reserved header byte is not zero");

  Index index(maxDistance);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* item = data + kHeaderSize + kItemSize * i;
    if (index.add(getLE(item, 8), static_cast<uint32_t>(getLE(item + 8, 4))) != Status::Ok) {
      return fail("id " + std::to_string(getLE(item + 8, 4)) + " appears twice");
    }
  }
  // Files from before the counter ignored caller ids hold one more than the largest id
  // ever stored: read with today's meaning, they hand out the same ids as they did.
  const uint64_t nextId = getLE(data + 12, 8);
  if (nextId > uint64_t{UINT32_MAX} + 1) return fail("next id " + std::to_string(nextId) + " exceeds 2^32");
  index.nextId_ = nextId;
  out = std::move(index);
  return Status::Ok;
}

}  // namespace simhash
