#pragma once
// An exact Hamming-distance index over 64-bit fingerprints: query(fp) returns every
// stored item within maxDistance of fp, none missed, none twice.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "simhash/status.h"

namespace simhash {

constexpr unsigned kMaxDistance = 64;

struct KeyedItem;  // internal (radix.h)

namespace detail {
/// id -> slot, open addressing with linear probing (smaller in WASM than std::unordered_map).
class SlotOfId {
 public:
  /// The capacity is a power of two kept at load at most maxLoadQuarters / 4 (2: the index,
  /// whose out-of-memory behaviour is tested at that size; 3: the text index, whose texts
  /// are short and whose memory is budgeted per text).
  explicit SlotOfId(unsigned maxLoadQuarters = 2) : maxLoadQuarters_(maxLoadQuarters) {}
  size_t size() const { return size_; }
  /// @return false, changing nothing, when id is present.
  bool insert(uint32_t id, uint32_t slot);
  /// Room for `count` ids without reallocating.
  void reserve(size_t count);
  /// @return the slot of id, or nullptr.
  uint32_t* find(uint32_t id);
  /// Reads the entry where find(id) starts, and returns a value of it that the caller must
  /// use: touching several ids first lets their cache misses overlap.
  uint32_t touch(uint32_t id) const { return entries_.empty() ? 0 : entries_[home(id)].slot; }
  /// @return whether id was present.
  bool erase(uint32_t id);
  /// Bytes held: 8 per entry.
  size_t memoryBytes() const { return entries_.capacity() * sizeof(Entry); }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;  // slots never reach it: ids are 32-bit and unique
  struct Entry {
    uint32_t id, slot;
  };
  static constexpr size_t kAbsent = SIZE_MAX;
  size_t home(uint32_t id) const { return (id * 0x9E3779B1u) & (entries_.size() - 1); }
  size_t position(uint32_t id) const;
  void rehash(size_t capacity);
  unsigned maxLoadQuarters_;
  std::vector<Entry> entries_;
  size_t size_ = 0;
};
}  // namespace detail

struct Match {
  uint32_t id;
  uint32_t distance;
  bool operator==(const Match& o) const { return id == o.id && distance == o.distance; }
};

class Partition;

class Index {
 public:
  /// @pre maxDistance <= kMaxDistance
  explicit Index(unsigned maxDistance);
  ~Index();
  Index(Index&&) noexcept;
  Index& operator=(Index&&) noexcept;

  unsigned maxDistance() const { return maxDistance_; }
  /// Number of stored items.
  size_t size() const { return slotOfId_.size(); }

  // Ids. A fresh id is the smallest id that no stored item holds and that is above every
  // id this index has handed out before (0 first): ids a caller chooses never move that
  // counter, a failed call leaves it as it was, clear() keeps it (an index never hands
  // out an id twice), and serialize()/deserialize() carry it.

  /// Stores fp under a caller-chosen id. @return DuplicateId if id is already stored.
  /// Cost: O(1) amortized; the next query links the item into the delta tables.
  Status add(uint64_t fingerprint, uint32_t id);
  /// Stores fp under a fresh id and returns it through `id`. @return DuplicateId, storing
  /// nothing, when every id above those handed out is stored or 2^32 ids have been.
  Status addWithNewId(uint64_t fingerprint, uint32_t& id);
  /// Stores count fingerprints, all or nothing: fingerprints[i] under ids[i], or under a
  /// fresh id when `ids` is null, written to idsOut[i] either way.
  /// @return count when all were stored. Otherwise the position of the first that could
  /// not be (its id is stored, by an earlier item of the batch too, or the fresh ids are
  /// used up); nothing was stored then and the id counter is as it was. Out of memory
  /// (thrown by the allocator) happens before anything changes.
  size_t addAll(const uint64_t* fingerprints, const uint32_t* ids, size_t count, uint32_t* idsOut);
  /// Makes room for `count` more adds, so that they cannot fail to allocate. An add
  /// allocates (if at all) before it changes anything; so does a rebuild.
  void reserveForAdding(size_t count);
  /// @return false when no item has this id.
  bool remove(uint32_t id);
  /// Removes every item; the id counter stays (fresh ids go on from where they were).
  void clear();

  /// Appends every stored item within maxDistance of fp to `out` (cleared first), sorted by
  /// distance, then id. May reorganise the tables first (amortized over the adds).
  /// How: the 64 bits are split into parts with per-part thresholds (partition.h, chosen
  /// by a cost model from the stored fingerprints at each rebuild); per part, the stored
  /// items are bucketed by the part's key, and a query reads every bucket whose key lies
  /// within the part's threshold of its own (or scans every item when that is cheaper).
  /// Each bucket has two halves: a contiguous run in the main tables, and a chain (the
  /// delta) of the items added since the last rebuild, which a query links in, O(parts)
  /// per item. A rebuild folds the delta (once it holds more than 256 items) into the
  /// main tables when queries have read as many delta items as a rebuild costs, or when
  /// the delta holds more items than the main tables, or when removed items
  /// outnumber the stored ones: the work of rebuilds and that of reading the delta stay
  /// within a small factor of each other.
  /// Cost: sum over parts of C(width, <= threshold) bucket reads plus the items in them
  /// (a part's buckets are loaded back to back before they are compared, so that their
  /// cache misses overlap; the delta's items are read one by one); amortized per add, O(parts) for its chains and at most
  /// as much rebuild work as the queries spent on the delta, plus about 2 counting-sort
  /// steps per part.
  /// Memory: per item 12 bytes (fingerprint, id), 1 (alive flag), about 16 (id lookup
  /// table at load <= 1/2) and 12 per part (slot and fingerprint, at most 16 parts, 4 at
  /// 1M items; 4 per part for an item of the delta); per part 8 bytes × 2^width (width
  /// <= 24, 2^width <= 4 × items + 1024); a rebuild holds the old and new tables at once;
  /// a query keeps 8 bytes per probe of a part as scratch.
  void query(uint64_t fingerprint, std::vector<Match>& out);

  /// Parts of the partition in use (0 = linear scan), for tests and benchmarks.
  size_t partCount();

  /// The versioned byte format (docs/formats.md "Serialized index format"): header, items, checksum.
  std::vector<uint8_t> serialize() const;
  /// Replaces `out` with the index stored in data. On failure returns CorruptData, sets
  /// `error` to a description of what is wrong, and leaves `out` unchanged.
  static Status deserialize(const uint8_t* data, size_t size, Index& out, std::string& error);

 private:
  void reindexIfDue();
  void rebuild();

  unsigned maxDistance_;
  std::vector<uint64_t> fingerprints_;  // by slot
  std::vector<uint32_t> ids_;           // by slot
  std::vector<uint8_t> alive_;          // by slot; removed items stay until a rebuild
  detail::SlotOfId slotOfId_;
  uint64_t nextId_ = 0;                 // one more than the largest id handed out (fresh ids are >= it)
  size_t indexedSlots_ = 0;             // slots below this are in the main tables, the rest in the delta
  size_t deltaSlots_ = 0;               // slots below this are linked into the delta chains
  size_t chainSteps_ = 0;               // delta items read by queries since the last rebuild
  std::unique_ptr<Partition> partition_;
  size_t partitionItems_ = 0;           // the item count partition_ was chosen for
  struct Table {
    std::vector<uint32_t> start, slots;  // slots by key; bucket b is slots[start[b], start[b + 1])
    std::vector<uint64_t> fingerprints;  // the slots' fingerprints, in the same order: a bucket is read in sequence
    std::vector<uint32_t> head, next;    // the delta: bucket b's chain is head[b], next[head[b] - indexedSlots_], ...
  };
  std::vector<Table> tables_;            // one per part of partition_
  std::vector<KeyedItem> sortKeys_, sortScratch_;  // query's sort buffers
  std::vector<uint32_t> ranges_;                   // query's bucket ranges (bucket_scan.h)
  std::vector<Match> hits_;                        // query's hits of one part, by slot
};

}  // namespace simhash
