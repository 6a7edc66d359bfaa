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
  static constexpr size_t kMostRounds = 16;  // build()'s rounds of two passes over all entries, at most
  static constexpr size_t kAtOnce = size_t{1} << 22;  // build()'s entries a round, unless told

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
  /// and buckets of fewer than 2^32 words. Cost O(count × bands): a few partitions (by the
  /// keys' top 8 bits) at a time, in at most kMostRounds rounds, each two sequential passes
  /// over all entries: the first gathers the partitions' keys in entry order, each
  /// partition's keys are then counted in a hash table, and the second writes each entry's
  /// bucket in entry order (a write per entry where it lies would be a cache miss each).
  /// Memory while it runs: 4 bytes per entry of the partitions at hand (atOnce entries, a
  /// kMostRounds-th of all, or the largest partition) and a table of at most 32 bytes per
  /// entry of the largest partition, so that it adds little to the peak of a large list
  /// (WASM memory never shrinks). The bound on rounds keeps the cost linear: 1M names' 66M
  /// entries take 16 rounds (natively 5.7 s; 3.7 s in 4, for four times the memory).
  void build(uint32_t count, size_t atOnce = kAtOnce);

  /// Once built: the visits a search that visits, then indexes, every text makes in all, at
  /// most: Σ h(h - 1) / 2 over the keys, h the entries holding each (keys held by more than
  /// mostHeld too; a text holding a key in two bands visits itself through neither). Known
  /// before any visit, so that a search can decline a list whose candidates grow with the
  /// square of its texts. A double: it passes 2^32 where size_t has 32 bits.
  double proposals() const { return proposals_; }

  /// Indexes text i under its keys. @pre build() has laid out text i's buckets.
  void index(uint32_t i) {
    const size_t e = size_t{i} * bands_;
    for (unsigned b = 0; b < bands_; ++b) {
      if (!shared(e + b)) continue;
      uint32_t* const at = members_.data() + bucketOf_[e + b];
      at[1 + at[0]++] = i;
    }
  }

  /// Calls visitBucket(texts, n) for each bucket of text i that holds texts, with its n
  /// texts oldest first (in the order they were indexed), and returns the sum of its
  /// answers: the entries it read, which may stop short of n (the leader rule, testing only
  /// texts before the least accepting one found, stops a bucket's walk there).
  template <class Visit>
  size_t visitBuckets(uint32_t i, Visit&& visitBucket) {
    const unsigned found = heads(i);
    size_t read = 0;
    for (unsigned f = 0; f < found; ++f) {
      const uint32_t* const at = members_.data() + heads_[f];
      read += visitBucket(at + 1, at[0]);
    }
    return read;
  }

  /// Calls visit(y) for each indexed text y that shares a key with text i, once per key
  /// shared: key by key, each bucket oldest first. @return the bucket entries read.
  template <class Visit>
  size_t visit(uint32_t i, Visit&& visit) {
    return visitBuckets(i, [&](const uint32_t* texts, uint32_t n) {
      for (uint32_t k = 0; k < n; ++k) visit(texts[k]);
      return n;
    });
  }

  /// As visit(), each bucket newest first and only until visit(y) returns false: what was
  /// indexed before y under that key is passed over. @return the bucket entries read.
  template <class Visit>
  size_t visitNewestFirst(uint32_t i, Visit&& visit) {
    const unsigned found = heads(i);
    size_t read = 0;
    for (unsigned f = 0; f < found; ++f) {
      const uint32_t* at = members_.data() + heads_[f];
      for (uint32_t k = at[0]; k >= 1; --k) {
        ++read;
        if (!visit(at[k])) break;
      }
    }
    return read;
  }

 private:
  bool shared(size_t e) const { return (shared_[e / 64] >> (e % 64) & 1) != 0; }

  // Text i's buckets that hold texts, into heads_: the buckets' counts first, each an
  // independent load whose misses overlap. @return how many.
  unsigned heads(uint32_t i) {
    const size_t e = size_t{i} * bands_;
    unsigned found = 0;
    for (unsigned b = 0; b < bands_; ++b) {
      if (shared(e + b) && members_[bucketOf_[e + b]] != 0) heads_[found++] = bucketOf_[e + b];
    }
    return found;
  }

  unsigned bands_;
  size_t mostHeld_;
  double proposals_ = 0;
  std::vector<uint32_t> bucketOf_;  // each text's keys until build(), then each shared entry's bucket
  std::vector<uint64_t> shared_;    // a bit per entry: its key is shared (set by build)
  std::vector<uint32_t> members_;   // the buckets: a count, then the texts indexed so far
  std::vector<uint32_t> heads_;     // scratch of visit: the buckets of one text that hold texts
};

}  // namespace simhash
