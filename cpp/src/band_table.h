#pragma once
// Internal: TextIndex's band table, one entry (band key, id) per stored text and band.
//
// Two parts, so that most entries cost 6 bytes rather than the 10-13 of a hash table:
// - the sorted part: entries ordered by (placing hash of the key, id) at load 1, bucketed
//   by the hash's top `bits` bits (a start per bucket, 2^16 buckets or more, at most 256
//   entries a bucket on average), each entry the hash's low 32 - bits bits (u16: bits >=
//   16) and the id, side by side (6 bytes, so the id a lookup matches is in the line it
//   read the low bits from); a lookup estimates its place in the bucket from the low bits,
//   which spread evenly, and steps a few entries from there; a removed entry is marked in
//   a bitmap until the next merge drops it;
// - the recent part: open addressing with linear probing, 8-byte entries (id << 32 | key;
//   0 is empty, keys are never 0), load at most 3/4, where inserts go.
// reserve() merges the recent part into a new sorted part once it would hold more than a
// twelfth of the sorted part's live entries and more than `mergeAt`, or once removed
// entries are a quarter of the sorted part: a merge costs O(entries) and comes once per
// twelfth of growth. After a merge the recent part is allocated at the size it may reach
// before the next one, so it never rehashes. The placing hash is invertible, so a key is
// matched exactly in both parts: the entries found for a key are exactly those inserted
// with it and not erased.
//
// A lookup's reads are cache misses in a large table: touch() reads a query's keys' lines
// first, all at once, so that find() meets them in cache.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "radix.h"
#include "uninitialized.h"

namespace simhash {

class BandTable {
 public:
  /// mergeAt: the recent entries below which no merge happens (TextIndex::kMergeAt).
  explicit BandTable(size_t mergeAt);

  /// Room for `more` inserts without allocating. May merge; every allocation comes before
  /// any change, so a failed one (an exception) leaves the table as it was.
  void reserve(size_t more);
  /// Adds an entry. @pre key != 0, room reserved.
  void insert(uint32_t key, uint32_t id);
  /// Removes one entry (key, id) if there is one. Allocates nothing.
  void erase(uint32_t key, uint32_t id);
  /// Reads the first cache lines find() reads for each of keys[0, count), and returns a
  /// value of them that the caller must use: touching every key's lines first lets their
  /// cache misses overlap.
  uint64_t touch(const uint32_t* keys, size_t count) const;
  /// Appends {id, 0} to out for every entry of key.
  void find(uint32_t key, std::vector<KeyedItem>& out) const;
  /// Live entries.
  size_t size() const { return sorted_.live() + recentUsed_; }

  /// The entries one at a time in (placing hash of the key, id) order: an order that
  /// depends on the entries alone, not on the table's history. The table must not change
  /// while a cursor over it is in use.
  class Cursor {
   public:
    explicit Cursor(const BandTable& table) : Cursor(table, table.recentInOrder()) {}
    /// @pre recent is table.recentInOrder().
    Cursor(const BandTable& table, std::vector<uint64_t> recent) : table_(table), recent_(std::move(recent)) {}
    /// Calls emit(key, id) for each of the next entries, at most `most` of them. @return
    /// how many: fewer than `most` once every entry has been given.
    template <class Emit>
    size_t take(size_t most, Emit&& emit) {
      // Locals, not members, in the loop: what emit writes might alias the members.
      const SortedPart& sorted = table_.sorted_;
      const SortedPart::Entry* entries = sorted.entries.data();
      const uint32_t* starts = sorted.starts.data();
      const size_t count = sorted.entries.size(), recentCount = recent_.size();
      const uint64_t* recent = recent_.data();
      const bool anyDead = sorted.dead != 0;
      const unsigned shift = sorted.shift();
      size_t e = entry_, b = bucket_, r = nextRecent_, taken = 0;
      for (; taken < most; ++taken) {
        if (anyDead) {
          while (e < count && sorted.isDead(e)) ++e;
        }
        uint64_t order;
        if (e < count) {
          while (starts[b + 1] <= e) ++b;
          order = (uint64_t{b} << shift | entries[e].low) << 32 | entries[e].id();
          if (r < recentCount && recent[r] < order) {
            order = recent[r++];
          } else {
            ++e;
          }
        } else if (r < recentCount) {
          order = recent[r++];
        } else {
          break;
        }
        emit(keyOfPlacing(static_cast<uint32_t>(order >> 32)), static_cast<uint32_t>(order));
      }
      entry_ = e;
      bucket_ = b;
      nextRecent_ = r;
      return taken;
    }

   private:
    const BandTable& table_;
    std::vector<uint64_t> recent_;  // recentInOrder()
    size_t bucket_ = 0, entry_ = 0, nextRecent_ = 0;
  };

  /// Entries given one at a time, in any order, that replace a table's (below).
  class Builder;

  size_t memoryBytes() const;

 private:
  static uint32_t placing(uint32_t key) { return key * 0x9E3779B9u; }
  static uint32_t keyOfPlacing(uint32_t hash) { return hash * 0x144CBC89u; }  // 0x9E3779B9's inverse mod 2^32

  // The sorted part, built in order: constructed with room for `count` entries (and the
  // buckets for that many), append() in (placing hash << 32 | id) order, then finish().
  struct SortedPart {
    SortedPart() = default;
    explicit SortedPart(size_t count);
    void append(uint64_t order);
    void finish();
    // Where `hash` would lie in its bucket if the low bits spread exactly evenly, and the
    // bucket's end through `end`. @pre built, not empty.
    size_t estimate(uint32_t hash, size_t& end) const;
    // The first entry at or after `hash` in its bucket (from the estimate, a few steps), and
    // the bucket's end through `end`. @pre built, not empty.
    size_t lowerBound(uint32_t hash, size_t& end) const;
    // The bits of `hash` an entry keeps: those below its bucket's.
    uint16_t lowOf(uint32_t hash) const { return static_cast<uint16_t>(hash & ((uint32_t{1} << shift()) - 1)); }
    size_t live() const { return entries.size() - dead; }
    bool isDead(size_t e) const { return (deadBits[e >> 6] >> (e & 63)) & 1; }
    size_t buckets() const { return starts.empty() ? 0 : starts.size() - 1; }
    unsigned shift() const { return 32 - bits; }
    unsigned bits = 16;
    // Aligned to 2 bytes: the id is two halves.
    struct Entry {
      Entry() = default;
      Entry(uint16_t low, uint32_t id) : low(low), idLow(static_cast<uint16_t>(id)), idHigh(static_cast<uint16_t>(id >> 16)) {}
      uint32_t id() const { return uint32_t{idHigh} << 16 | idLow; }
      uint16_t low, idLow, idHigh;
    };
    static_assert(sizeof(Entry) == 6, "entries are 6 bytes");
    // Uninitialized when a merge sizes it: the merge writes every entry.
    std::vector<Entry, UninitializedAllocator<Entry>> entries;
    std::vector<uint32_t> starts;  // 2^bits + 1 when built: bucket b is [starts[b], starts[b + 1])
    std::vector<uint64_t> deadBits;
    size_t dead = 0;
  };

  static size_t capacityFor(size_t entries);
  // The most entries the recent part holds before a merge, for a sorted part of `live`.
  size_t recentLimitFor(size_t live) const { return live / 12 > mergeAt_ ? live / 12 : mergeAt_; }
  size_t recentLimit() const { return recentLimitFor(sorted_.live()); }
  size_t home(uint32_t key) const {
    // Multiply-shift onto any table size: the recent part grows by a quarter, not doubling.
    return static_cast<size_t>((uint64_t{placing(key)} * recent_.size()) >> 32);
  }
  size_t after(size_t e) const { return e + 1 == recent_.size() ? 0 : e + 1; }
  void insertRecent(uint64_t entry);

  // The recent entries as (placing hash << 32 | id), sorted.
  std::vector<uint64_t> recentInOrder() const;
  void merge(size_t more);

  size_t mergeAt_;
  SortedPart sorted_;
  std::vector<uint64_t> recent_;
  size_t recentUsed_ = 0;
};

/// Entries given one at a time, in any order, that replace a table's: those in a
/// Cursor's order go straight to the sorted part, any others to the recent part.
class BandTable::Builder {
 public:
  /// Room for `count` entries.
  explicit Builder(size_t count) : sorted_(count) {}
  /// @pre key != 0; at most `count` entries in all.
  void add(uint32_t key, uint32_t id) {
    const uint64_t order = uint64_t{placing(key)} << 32 | id;
    if (order >= last_) {
      sorted_.append(order);
      last_ = order;
    } else {
      strays_.push_back(uint64_t{id} << 32 | key);
    }
  }
  /// Replaces table's entries with those added.
  void finish(BandTable& table);

 private:
  SortedPart sorted_;
  std::vector<uint64_t> strays_;
  uint64_t last_ = 0;
};

}  // namespace simhash
