#pragma once
// Internal: TextIndex's band table, one entry (band key, id) per stored text and band.
//
// The entries are split by the top bits of the key's placing hash into ranges, each a
// block of hashes aligned to its size: a directory of the hash's top 8 bits names each
// one's range. A range is one table of two parts, so that most entries cost 6 bytes rather
// than the 10-13 of a hash table:
// - the sorted part: entries ordered by (placing hash of the key, id) at load 1, bucketed
//   by the hash's top `bits` bits (a start per bucket, 2^16 buckets in the whole table or
//   more, at most 256 entries a bucket on average), each entry the hash's low 32 - bits
//   bits (u16: bits >= 16) and the id, side by side (6 bytes, so the id a lookup matches is
//   in the line it read the low bits from); a lookup estimates its place in the bucket from
//   the low bits, which spread evenly, and steps a few entries from there; a removed entry
//   is marked in a bitmap until the next merge drops it;
// - the recent part: open addressing with linear probing, 8-byte entries (id << 32 | key;
//   0 is empty, keys are never 0), load at most 3/4, where inserts go.
// reserve() merges a range's recent part into a new sorted part once it would hold more
// than a twelfth of the range's live sorted entries and more than its share of `mergeAt`,
// or once removed entries are a quarter of its sorted part: a merge costs O(the range's
// entries) and comes once per twelfth of its growth. A merge that would make a range of
// more than 4 * mergeAt entries splits it in two halves, down to 256 ranges: so no merge
// copies more than a range, a 256th of a large table (about 0.5 MB at a million texts),
// and no call that merges stalls. After a merge the recent part is allocated at the size
// it may reach before the next one, so it never rehashes. The placing hash is invertible,
// so a key is matched exactly in both parts: the entries found for a key are exactly those
// inserted with it and not erased.
//
// A lookup's reads are cache misses in a large table: touch() reads a query's keys' lines
// first, all at once, so that find() meets them in cache.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "base/radix.h"
#include "base/uninitialized.h"

namespace simhash {

class BandTable {
 public:
  /// mergeAt: the recent entries below which no merge happens (TextIndex::kMergeAt).
  explicit BandTable(size_t mergeAt);

  /// Room to insert keys[0, count) without allocating. May merge a range (cost: O(its
  /// entries)); every allocation comes before any change, so a failed one (an exception)
  /// leaves the table as it was.
  void reserve(const uint32_t* keys, size_t count);
  /// Adds an entry. @pre key != 0, room reserved.
  void insert(uint32_t key, uint32_t id) { rangeOf(key).insert(uint64_t{id} << 32 | key); }
  /// Removes one entry (key, id) if there is one. Allocates nothing.
  void erase(uint32_t key, uint32_t id);
  /// Reads the first cache lines find() reads for each of keys[0, count), and returns a
  /// value of them that the caller must use: touching every key's lines first lets their
  /// cache misses overlap.
  uint64_t touch(const uint32_t* keys, size_t count) const;
  /// Appends {id, 0} to out for every entry of key.
  void find(uint32_t key, std::vector<KeyedItem>& out) const;
  /// Live entries.
  size_t size() const;
  /// The entries of the largest range (removed ones too): about what a merge copies at most.
  size_t largestRange() const {
    size_t most = 0;
    for (size_t r = 0; r < rangeCount_; ++r) most = std::max(most, ranges_[r].sorted.entries.size() + ranges_[r].recentUsed);
    return most;
  }

  /// The entries one at a time in (placing hash of the key, id) order: an order that
  /// depends on the entries alone, not on the table's history. The table must not change
  /// while a cursor over it is in use.
  class Cursor {
   public:
    explicit Cursor(const BandTable& table) : Cursor(table, table.recentInOrder()) {}
    /// The entries of the ranges that cover the hashes whose top 8 bits are [from, to).
    /// @pre recent is their recent entries in order (recentInOrder() for all of them).
    Cursor(const BandTable& table, std::vector<uint64_t> recent, unsigned from = 0, unsigned to = 256)
        : table_(table), recent_(std::move(recent)), at_(from), to_(to) {}
    /// Calls emit(key, id) for each of the next entries, at most `most` of them. @return
    /// how many: fewer than `most` once every entry has been given.
    template <class Emit>
    size_t take(size_t most, Emit&& emit) {
      uint64_t orders[256];
      size_t taken = 0;
      while (taken < most) {
        const size_t asked = std::min<size_t>(256, most - taken), given = next(orders, asked);
        for (size_t i = 0; i < given; ++i) emit(keyOfPlacing(static_cast<uint32_t>(orders[i] >> 32)), static_cast<uint32_t>(orders[i]));
        taken += given;
        if (given < asked) break;
      }
      return taken;
    }

   private:
    friend class BandTable;
    // The next entries, at most `most`, as (placing hash << 32 | id) to out. @return how many.
    size_t next(uint64_t* out, size_t most);
    const BandTable& table_;
    std::vector<uint64_t> recent_;
    unsigned at_, to_;  // the range being read is the one of directory_[at_]
    size_t bucket_ = 0, entry_ = 0, nextRecent_ = 0;
  };

  /// Entries given one at a time, in any order, that replace a table's (below).
  class Builder;

  size_t memoryBytes() const;

 private:
  static uint32_t placing(uint32_t key) { return key * 0x9E3779B9u; }
  static uint32_t keyOfPlacing(uint32_t hash) { return hash * 0x144CBC89u; }  // 0x9E3779B9's inverse mod 2^32

  // A range's sorted part, built in order: constructed with room for `count` entries of
  // the hashes whose top 8 bits are [first, first + 2^(8 - prefixBits)) (and the buckets
  // for them), append() in (placing hash << 32 | id) order, then finish().
  struct SortedPart {
    SortedPart() = default;
    SortedPart(size_t count, unsigned first, unsigned prefixBits);
    // Writes entry `at` (of count). @pre at in order.
    void append(size_t at, uint64_t order);
    void finish();
    // Where `hash` would lie in its bucket if the low bits spread exactly evenly, and the
    // bucket's end through `end`. @pre built, not empty, hash in the range.
    size_t estimate(uint32_t hash, size_t& end) const;
    // The first entry at or after `hash` in its bucket (from the estimate, a few steps), and
    // the bucket's end through `end`. @pre built, not empty, hash in the range.
    size_t lowerBound(uint32_t hash, size_t& end) const;
    // The bits of `hash` an entry keeps: those below its bucket's.
    uint16_t lowOf(uint32_t hash) const { return static_cast<uint16_t>(hash & ((uint32_t{1} << shift()) - 1)); }
    // The bucket of `hash` in this part. @pre hash in the range.
    size_t bucketOf(uint32_t hash) const { return (hash >> shift()) - base; }
    size_t live() const { return entries.size() - dead; }
    bool isDead(size_t e) const { return (deadBits[e >> 6] >> (e & 63)) & 1; }
    size_t buckets() const { return starts.empty() ? 0 : starts.size() - 1; }
    unsigned shift() const { return 32 - bits; }
    unsigned bits = 16;  // of the whole hash: the range's buckets are the values of its top `bits` bits
    size_t base = 0;     // the range's first bucket, as a value of those bits
    // Aligned to 2 bytes: the id is two halves.
    struct Entry {
      Entry() = default;
      Entry(uint16_t low, uint32_t id) : low(low), idLow(static_cast<uint16_t>(id)), idHigh(static_cast<uint16_t>(id >> 16)) {}
      uint32_t id() const { return uint32_t{idHigh} << 16 | idLow; }
      uint16_t low, idLow, idHigh;
    };
    static_assert(sizeof(Entry) == 6, "entries are 6 bytes");
    // Uninitialized when sized: append() writes every entry.
    std::vector<Entry, UninitializedAllocator<Entry>> entries;
    std::vector<uint32_t> starts;  // buckets() + 1 when built: bucket b is [starts[b], starts[b + 1])
    std::vector<uint64_t> deadBits;
    size_t dead = 0;
  };

  // The hashes whose top 8 bits are [first, first + 2^(8 - prefixBits)): a sorted part and
  // a recent part.
  struct Range {
    size_t home(uint32_t key) const {
      // Multiply-shift onto any table size (the recent part grows by a quarter, not
      // doubling), from the bits below the range's prefix, the same for all its keys.
      return static_cast<size_t>((uint64_t{placing(key) << prefixBits} * recent.size()) >> 32);
    }
    size_t after(size_t e) const { return e + 1 == recent.size() ? 0 : e + 1; }
    void insert(uint64_t entry);
    // Writes the recent entries as (placing hash << 32 | id), sorted, to out[0, recentUsed).
    void recentInOrder(uint64_t* out) const;
    SortedPart sorted;
    std::vector<uint64_t> recent;
    size_t recentUsed = 0;
    unsigned first = 0, prefixBits = 0;
  };

  static size_t capacityFor(size_t entries);
  // The most entries a range's recent part holds before a merge, for a sorted part of `live`.
  size_t recentLimitFor(size_t live, unsigned prefixBits) const { return std::max(live / 12, mergeAt_ >> prefixBits); }
  Range& rangeOf(uint32_t key) { return ranges_[directory_[placing(key) >> 24]]; }
  const Range& rangeOf(uint32_t key) const { return ranges_[directory_[placing(key) >> 24]]; }
  // Points the directory at ranges_ (each a block of it, in order).
  void direct();

  // The recent entries of every range as (placing hash << 32 | id), sorted.
  std::vector<uint64_t> recentInOrder() const;
  // Merges ranges_[at], with a recent part for `more` inserts; splits it when it is large.
  void merge(size_t at, size_t more);

  size_t mergeAt_;
  // The ranges, at most 256: [0, rangeCount_) in use, in no order.
  std::unique_ptr<Range[]> ranges_;
  size_t rangeCount_ = 1;
  uint8_t directory_[256] = {};  // the range of each value of the hash's top 8 bits
};

/// Entries given one at a time, in any order, that replace a table's: those in a
/// Cursor's order go straight to the sorted parts, any others to the recent parts. The
/// table's ranges are made as a table that grew to `count` entries would have them.
class BandTable::Builder {
 public:
  /// Room for `count` entries of a table of `mergeAt`.
  Builder(size_t count, size_t mergeAt);
  /// @pre key != 0; at most `count` entries in all.
  void add(uint32_t key, uint32_t id) {
    const uint64_t order = uint64_t{placing(key)} << 32 | id;
    if (order >= last_) {
      while ((static_cast<uint32_t>(order >> 56) >> (8 - prefixBits_)) != built_) close();
      pending_.push_back(order);
      last_ = order;
    } else {
      strays_.push_back(uint64_t{id} << 32 | key);
    }
  }
  /// Replaces table's entries with those added.
  void finish(BandTable& table);

 private:
  // Builds the next range from the pending entries.
  void close();
  std::unique_ptr<Range[]> ranges_;  // [0, built) built; the pending entries are the next one's
  size_t built_ = 0;
  std::vector<uint64_t> pending_, strays_;
  uint64_t last_ = 0;
  unsigned prefixBits_ = 0;
};

}  // namespace simhash
