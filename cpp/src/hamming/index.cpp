#include "simhash/index.h"

#include <algorithm>
#include <cstring>

#include "base/bytes.h"
#include "base/radix.h"
#include "hamming/bucket_scan.h"
#include "hamming/partition.h"

namespace simhash {

namespace {

// A partition chosen for n items is kept until the item count leaves [n / 2, 2n]:
// choosing costs a sample's worth of work, which rebuilds of a growing index would
// otherwise repeat at every 1/16 of growth.
constexpr size_t kRechooseFactor = 2;
// Items added since the last rebuild go into the delta tables (chained, so they take
// items one at a time). Chains are read item by item from scattered slots, so queries
// pay more for the delta than for the main tables; the tables are rebuilt with it once
// queries have spent on its chains what a rebuild costs (so neither cost exceeds the
// other by much, whatever k, the data and the mix of adds and queries), and in any case
// once it holds more items than the main tables (growth by 2 or more per rebuild keeps
// every item's share of rebuilds to about 2 counting sorts per part). Units: one
// comparison of fingerprints read in sequence.
constexpr size_t kMinPendingForReindex = 256;
constexpr double kChainStepCost = 4;        // a slot from the chain, its fingerprint: scattered reads
constexpr double kSortPerItemAndPart = 6;   // key twice, count, scatter fingerprint and slot
constexpr double kSortPerBucket = 3;        // clear and sum the directory, clear the chain heads
constexpr uint32_t kEndOfChain = UINT32_MAX;
constexpr size_t kMaxParts = 64;  // a partition has at most 64 parts (16 when chosen)

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
  if (4 * count <= maxLoadQuarters_ * entries_.size()) return;
  size_t capacity = entries_.empty() ? 16 : entries_.size();
  while (4 * count > maxLoadQuarters_ * capacity) capacity *= 2;
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

Index::Index(unsigned maxDistance)
    : maxDistance_(maxDistance), partition_(std::make_unique<Partition>(Partition::choose(nullptr, 0, maxDistance, Partition::Use::Index))) {}
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
  return partition_->partCount();
}

void Index::reindexIfDue() {
  const size_t live = size();
  const size_t pending = fingerprints_.size() - indexedSlots_;
  const size_t dead = fingerprints_.size() - live;
  double rebuildCost = kSortPerItemAndPart * static_cast<double>(fingerprints_.size() * tables_.size());
  for (const Table& table : tables_) rebuildCost += kSortPerBucket * static_cast<double>(table.head.size());
  const bool chainsCostly = pending > kMinPendingForReindex && kChainStepCost * static_cast<double>(chainSteps_) > rebuildCost;
  if (chainsCostly || pending > std::max(kMinPendingForReindex, indexedSlots_) || dead > std::max(kMinPendingForReindex, live)) rebuild();
  if (deltaSlots_ == fingerprints_.size() || tables_.empty()) return;
  // Chain the items added since the last query into the delta tables: room first, so a
  // failed allocation leaves the chains as they were (the next query tries again).
  const size_t delta = fingerprints_.size() - indexedSlots_;
  for (Table& table : tables_) {
    if (table.next.capacity() < delta) table.next.reserve(std::max(delta, 2 * table.next.capacity()));
  }
  for (size_t p = 0; p < tables_.size(); ++p) {
    Table& table = tables_[p];
    for (size_t slot = deltaSlots_; slot < fingerprints_.size(); ++slot) {
      uint32_t& head = table.head[partition_->key(fingerprints_[slot], p)];
      table.next.push_back(head);
      head = static_cast<uint32_t>(slot);
    }
  }
  deltaSlots_ = fingerprints_.size();
}

void Index::rebuild() {
  // Everything is built aside and committed at the end without allocating, so a failed
  // allocation (which in the WASM build unwinds straight back to JS) leaves the index as
  // it was: consistent, with every item, only not yet reorganised.
  size_t kept = 0;
  for (size_t slot = 0; slot < fingerprints_.size(); ++slot) kept += alive_[slot];
  std::vector<uint64_t> fingerprints;
  std::vector<uint32_t> ids;
  fingerprints.reserve(kept);
  ids.reserve(kept);
  for (size_t slot = 0; slot < fingerprints_.size(); ++slot) {  // removed items dropped, order kept
    if (!alive_[slot]) continue;
    fingerprints.push_back(fingerprints_[slot]);
    ids.push_back(ids_[slot]);
  }
  std::vector<uint8_t> alive(kept, 1);
  std::unique_ptr<Partition> partition;
  if (kept < 2 || kept > kRechooseFactor * partitionItems_ || kept < partitionItems_ / kRechooseFactor || partitionItems_ < 2) {
    partition = std::make_unique<Partition>(Partition::choose(fingerprints.data(), kept, maxDistance_, Partition::Use::Index));
  } else {
    partition = std::make_unique<Partition>(*partition_);
  }
  // Per part, a counting sort of the slots by key: bucket b holds slots[start[b], start[b + 1]).
  std::vector<Table> tables(partition->partCount());
  for (size_t p = 0; p < tables.size(); ++p) {
    std::vector<uint32_t>& start = tables[p].start;
    const size_t buckets = size_t{1} << partition->part(p).width;
    start.assign(buckets + 1, 0);
    tables[p].head.assign(buckets, kEndOfChain);
    tables[p].slots.resize(kept);
    tables[p].fingerprints.resize(kept);
    for (size_t slot = 0; slot < kept; ++slot) ++start[partition->key(fingerprints[slot], p) + 1];
    for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    for (size_t slot = 0; slot < kept; ++slot) {
      const uint32_t at = start[partition->key(fingerprints[slot], p)]++;
      tables[p].slots[at] = static_cast<uint32_t>(slot);
      tables[p].fingerprints[at] = fingerprints[slot];
    }
    for (size_t b = start.size() - 1; b > 0; --b) start[b] = start[b - 1];
    start[0] = 0;
  }

  for (size_t slot = 0; slot < kept; ++slot) *slotOfId_.find(ids[slot]) = static_cast<uint32_t>(slot);
  fingerprints_.swap(fingerprints);
  ids_.swap(ids);
  alive_.swap(alive);
  partition_.swap(partition);
  partitionItems_ = kept;
  tables_.swap(tables);
  indexedSlots_ = kept;
  deltaSlots_ = kept;
  chainSteps_ = 0;
}

void Index::query(uint64_t fingerprint, std::vector<Match>& out) {
  out.clear();
  reindexIfDue();
  const unsigned k = maxDistance_;
  auto consider = [&](uint32_t slot, unsigned distance) {
    if (alive_[slot]) out.push_back({ids_[slot], distance});
  };
  if (tables_.empty()) {  // a linear scan: the partition has no parts
    for (uint32_t slot = 0; slot < fingerprints_.size(); ++slot) {
      const unsigned distance = static_cast<unsigned>(__builtin_popcountll(fingerprint ^ fingerprints_[slot]));
      if (distance <= k) consider(slot, distance);
    }
  }
  // Every bucket within each part's threshold of the query's key, in the main tables and
  // in the delta chains; a stored item is taken only from the first part where it is
  // within threshold, so it is reported once.
  const Partition& partition = *partition_;
  if (!tables_.empty()) {
    BucketTable main[kMaxParts];
    for (size_t p = 0; p < tables_.size(); ++p) main[p] = {tables_[p].start.data(), tables_[p].slots.data(), tables_[p].fingerprints.data()};
    hits_.clear();
    scanBuckets(partition, main, fingerprint, ranges_, hits_);
    for (const Match& hit : hits_) consider(hit.id, hit.distance);
  }
  for (size_t p = 0; p < tables_.size(); ++p) {
    const Table& table = tables_[p];
    const uint32_t key = partition.key(fingerprint, p);
    const uint32_t* head = table.head.data();
    const uint32_t* next = table.next.data();  // by slot - indexedSlots_
    const bool chained = !table.next.empty();
    if (!chained) continue;
    for (uint32_t probe : partition.part(p).probes) {
      const uint32_t bucket = key ^ probe;
      for (uint32_t slot = head[bucket]; slot != kEndOfChain; slot = next[slot - indexedSlots_]) {
        ++chainSteps_;
        const uint64_t diff = fingerprint ^ fingerprints_[slot];
        const unsigned distance = static_cast<unsigned>(__builtin_popcountll(diff));
        if (distance <= k && partition.isFirstPart(p, diff)) consider(slot, distance);
      }
    }
  }
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
  if (maxDistance > kMaxDistance) return fail("maxDistance " + bytes::decimal(maxDistance) + " exceeds 64");
  if (data[7] != 0) return fail("reserved header byte is not zero");

  Index index(maxDistance);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* item = data + kHeaderSize + kItemSize * i;
    if (index.add(getLE(item, 8), static_cast<uint32_t>(getLE(item + 8, 4))) != Status::Ok) {
      return fail("id " + bytes::decimal(getLE(item + 8, 4)) + " appears twice");
    }
  }
  // Files from before the counter ignored caller ids hold one more than the largest id
  // ever stored: read with today's meaning, they hand out the same ids as they did.
  const uint64_t nextId = getLE(data + 12, 8);
  if (nextId > uint64_t{UINT32_MAX} + 1) return fail("next id " + bytes::decimal(nextId) + " exceeds 2^32");
  index.nextId_ = nextId;
  out = std::move(index);
  return Status::Ok;
}

}  // namespace simhash
