#pragma once
// Internal: texts by their band keys, for the one-pass candidate searches over MinHash
// banding: SimilarGroups (similar_groups.h), where the leader rule indexes a text once it
// leads, and ReviewPairs (review_pairs.h), which indexes each text once its step is done.
//
// Every text's keys are known before the search starts, so each key that two or more of
// its entries share gets a bucket of its own, laid out once (build) with room for all of
// them: a count, then the texts indexed under it so far, in order. An entry is i × bands + b
// for text i's key of band b; for an entry whose key another entry shares, shared(e) is set
// and bucketOf[e] is its key's bucket; no text can become a candidate through the others.
// Keys of different bands are different hashes, so buckets serve all bands at once (a key
// shared across bands only adds a candidate). Reading a bucket is one cache miss and then
// consecutive words; chains of links through a hash table, before, cost a miss for each key
// looked up, indexed and each link read (names at 0.6: 66 keys a text, 88 links), and a
// flat index of every entry sorted by key costs a miss for each key looked up and one more
// for its run of entries, shared or not.
// Memory: 4 bytes and a bit per (text, band), and 4 per entry whose key another shares
// plus 4 per such key.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

class BandBuckets {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr size_t kMostPasses = 16;  // build()'s passes over all entries, at most

  /// `mostHeld`: a key that more entries hold gets no bucket, so it proposes no text.
  explicit BandBuckets(unsigned bands, size_t mostHeld = SIZE_MAX) : bands_(bands), mostHeld_(mostHeld), heads_(bands) {}

  /// Room for the keys of texts [0, count) (never shrinks).
  void reserve(uint32_t count) {
    if (bucketOf_.size() < size_t{count} * bands_) bucketOf_.resize(size_t{count} * bands_);
  }
  /// Text i's `bands` keys, to be written before build(). @pre room for text i.
  uint32_t* spare(uint32_t i) { return bucketOf_.data() + size_t{i} * bands_; }

  /// Lays out the buckets of the keys of texts [0, count), each written to spare(i); the
  /// words of entries whose key no other entry shares keep it. @pre room for count texts,
  /// and buckets of fewer than 2^32 words. Cost O(count × bands): the entries gathered a
  /// few partitions (by the keys' top 8 bits) at a time, each partition's keys counted in
  /// a hash table, in at most kMostPasses passes over all entries. Memory while it runs:
  /// 8 bytes per entry of the partitions at hand (atOnce entries, a kMostPasses-th of all,
  /// or the largest partition) and a table of at most 32 bytes per entry of the largest
  /// partition, so that it adds little to the peak of a large list (WASM memory never
  /// shrinks). The bound on passes keeps the cost linear: 2^21 entries at a time would take
  /// 32 passes over the 66M entries of 1M names (natively 9-15 s, against 4-7 s in 8 or 16;
  /// in WASM 16 took as long as 8, and the module's memory after the call was 728 MiB
  /// against 760).
  /// Only the shared entries' words are written: a scattered write is a cache miss, and
  /// most keys of short weighted sets are their entry's alone (61% of 100,000 names' at 0.6).
  void build(uint32_t count, size_t atOnce = size_t{1} << 21) {
    const size_t total = size_t{count} * bands_;
    uint32_t* const keyOf = bucketOf_.data();
    size_t start[257] = {};
    for (size_t e = 0; e < total; ++e) ++start[(keyOf[e] >> 24) + 1];
    size_t largest = 0;
    for (unsigned p = 0; p < 256; ++p) {
      largest = std::max(largest, start[p + 1]);
      start[p + 1] += start[p];
    }
    const size_t most = std::max({atOnce, largest, (total + kMostPasses - 1) / kMostPasses});
    std::vector<uint64_t> part(std::min(most, total) + 1);  // key << 32 | entry, then slot << 32 | entry; the last a sink
    size_t slots = 16;
    while (slots < 2 * largest) slots *= 2;
    std::vector<uint64_t> table(slots);  // key << 32 | its entries, then its bucket
    shared_.assign((total + 63) / 64, 0);
    size_t room = 0;
    for (unsigned first = 0, last; first < 256; first = last) {
      last = first + 1;
      while (last < 256 && start[last + 1] - start[first] <= most) ++last;
      // The partitions [first, last), each in entry order. Without a branch on whether an
      // entry is taken, which is a coin toss: the others go to the sink. An entry of an
      // earlier partition holds its key (below first) or its bucket (shared).
      size_t at[257];
      for (unsigned p = first; p < last; ++p) at[p] = start[p] - start[first];
      at[256] = part.size() - 1;
      for (size_t e = 0; e < total; ++e) {
        const uint32_t key = keyOf[e];
        const bool take = ((shared_[e / 64] >> (e % 64) & 1) == 0) & ((key >> 24) - first < last - first);
        const unsigned q = take ? key >> 24 : 256;
        part[at[q]] = uint64_t{key} << 32 | e;
        at[q] += take;
      }
      for (unsigned p = first; p < last; ++p) {
        uint64_t* const entries = part.data() + (start[p] - start[first]);
        const size_t n = start[p + 1] - start[p];
        size_t size = 16;
        while (size < 2 * n) size *= 2;
        const size_t mask = size - 1;
        std::fill_n(table.begin(), size, 0);
        // Each key's entries counted (keys are hashes, never 0: the low bits pick a slot).
        for (size_t k = 0; k < n; ++k) {
          const uint64_t key = entries[k] >> 32;
          size_t slot = key & mask;
          while (table[slot] != 0 && (table[slot] >> 32) != key) slot = (slot + 1) & mask;
          table[slot] = key << 32 | ((table[slot] & 0xFFFFFFFFu) + 1);
          entries[k] = uint64_t{slot} << 32 | static_cast<uint32_t>(entries[k]);
        }
        // A bucket with room for a count and its entries for each key of two or more (and
        // at most mostHeld_).
        for (size_t slot = 0; slot < size; ++slot) {
          const auto held = static_cast<uint32_t>(table[slot]);
          const bool many = held > 1 && held <= mostHeld_;
          table[slot] = many ? room : kNone;
          room += many ? 1 + held : 0;
        }
        for (size_t k = 0; k < n; ++k) {
          const auto bucket = static_cast<uint32_t>(table[entries[k] >> 32]);
          if (bucket == kNone) continue;
          const auto e = static_cast<uint32_t>(entries[k]);
          bucketOf_[e] = bucket;
          shared_[e / 64] |= uint64_t{1} << (e % 64);
        }
      }
    }
    part = {};
    table = {};
    members_.assign(room, 0);
  }

  /// Indexes text i under its keys. @pre build() has laid out text i's buckets.
  void index(uint32_t i) {
    const size_t e = size_t{i} * bands_;
    for (unsigned b = 0; b < bands_; ++b) {
      if (!shared(e + b)) continue;
      uint32_t* const at = members_.data() + bucketOf_[e + b];
      at[1 + at[0]++] = i;
    }
  }

  /// Calls visit(y) for each indexed text y that shares a key with text i, once per key
  /// shared (in no particular order). @return the bucket entries read.
  template <class Visit>
  size_t visit(uint32_t i, Visit&& visit) {
    // The buckets' counts first, each an independent load whose misses overlap.
    const size_t e = size_t{i} * bands_;
    unsigned found = 0;
    for (unsigned b = 0; b < bands_; ++b) {
      if (shared(e + b) && members_[bucketOf_[e + b]] != 0) heads_[found++] = bucketOf_[e + b];
    }
    size_t read = 0;
    for (unsigned f = 0; f < found; ++f) {
      const uint32_t* at = members_.data() + heads_[f];
      const uint32_t n = at[0];
      read += n;
      for (uint32_t k = 1; k <= n; ++k) visit(at[k]);
    }
    return read;
  }

 private:
  bool shared(size_t e) const { return (shared_[e / 64] >> (e % 64) & 1) != 0; }

  unsigned bands_;
  size_t mostHeld_;
  std::vector<uint32_t> bucketOf_;  // each text's keys until build(), then each shared entry's bucket
  std::vector<uint64_t> shared_;    // a bit per entry: its key is shared (set by build)
  std::vector<uint32_t> members_;   // the buckets: a count, then the texts indexed so far
  std::vector<uint32_t> heads_;     // scratch of visit: the buckets of one text that hold texts
};

}  // namespace simhash
