#pragma once
// Internal: texts by their band keys, for SimilarGroups' one-pass candidate search over
// MinHash banding (similar_groups.h), where the leader rule indexes a text only once it is
// decided. (ReviewPairs indexes every text before its search, and lays its index out flat
// instead: review_pairs.cpp.)
//
// Every text's keys are known before the search starts, so each key that two or more of
// its entries share gets a bucket of its own, laid out once (build) with room for all of
// them: a count, then the texts indexed under it so far, in order. An entry is i × bands + b
// for text i's key of band b; bucketOf[e] is the bucket of entry e, or kNone when no other
// entry has its key (no text can become a candidate through it). Keys of different bands
// are different hashes, so buckets serve all bands at once (a key shared across bands only
// adds a candidate). Reading a bucket is one cache miss and then consecutive words; chains
// of links through a hash table, before, cost a miss for each key looked up, indexed and
// each link read (names at 0.6: 66 keys a text, 88 links).
// Memory: 4 bytes per (text, band), and 4 per entry whose key another shares plus 4 per
// such key.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

class BandBuckets {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit BandBuckets(unsigned bands) : bands_(bands), heads_(bands) {}

  /// Room for the keys of texts [0, count) (never shrinks).
  void reserve(uint32_t count) {
    if (bucketOf_.size() < size_t{count} * bands_) bucketOf_.resize(size_t{count} * bands_);
  }
  /// Text i's `bands` keys, to be written before build(). @pre room for text i.
  uint32_t* spare(uint32_t i) { return bucketOf_.data() + size_t{i} * bands_; }

  /// Lays out the buckets of the keys of texts [0, count), each written to spare(i); they
  /// are not kept. @pre room for count texts, and buckets of fewer than 2^32 words. Cost
  /// O(count × bands): the entries sorted by key a few partitions (by the keys' top 8 bits)
  /// at a time, each partition by 3 passes of 8 bits, gathered by a pass over the keys left.
  /// Memory while it runs: a bit per entry, and 16 bytes per entry of the partitions at
  /// hand (atOnce entries, or the largest partition), so that it adds little to the peak
  /// of a large list (WASM memory never shrinks).
  void build(uint32_t count, size_t atOnce = size_t{1} << 20) {
    const size_t total = size_t{count} * bands_;
    uint32_t* const keyOf = bucketOf_.data();
    size_t start[257] = {};
    for (size_t e = 0; e < total; ++e) ++start[(keyOf[e] >> 24) + 1];
    for (unsigned p = 0; p < 256; ++p) start[p + 1] += start[p];
    size_t most = atOnce;
    for (unsigned p = 0; p < 256; ++p) most = std::max(most, start[p + 1] - start[p]);
    std::vector<uint64_t> part(std::min(most, total)), scratch(part.size());  // key << 32 | entry
    std::vector<uint64_t> done((total + 63) / 64, 0);  // entries whose word holds their bucket now
    size_t room = 0;
    for (unsigned first = 0, last; first < 256; first = last) {
      last = first + 1;
      while (last < 256 && start[last + 1] - start[first] <= most) ++last;
      size_t at[256];
      for (unsigned p = first; p < last; ++p) at[p] = start[p] - start[first];
      for (size_t e = 0; e < total; ++e) {
        const unsigned p = keyOf[e] >> 24;
        if ((done[e / 64] >> (e % 64) & 1) == 0 && p >= first && p < last) part[at[p]++] = uint64_t{keyOf[e]} << 32 | e;
      }
      for (unsigned p = first; p < last; ++p) {
        uint64_t* const sorted = part.data() + (start[p] - start[first]);
        const size_t n = start[p + 1] - start[p];
        sortPart(sorted, n, scratch.data());
        // Each run of one key: a bucket with room for a count and its entries, when it
        // has two or more. The entries' words now hold their buckets.
        for (size_t k = 0; k < n;) {
          size_t end = k + 1;
          while (end < n && (sorted[end] >> 32) == (sorted[k] >> 32)) ++end;
          const auto bucket = end - k == 1 ? kNone : static_cast<uint32_t>(room);
          for (size_t r = k; r < end; ++r) {
            const auto e = static_cast<uint32_t>(sorted[r]);
            bucketOf_[e] = bucket;
            done[e / 64] |= uint64_t{1} << (e % 64);
          }
          if (end - k > 1) room += 1 + end - k;
          k = end;
        }
      }
    }
    part = {};
    scratch = {};
    done = {};
    members_.assign(room, 0);
  }

  /// Indexes text i under its keys. @pre build() has laid out text i's buckets.
  void index(uint32_t i) {
    const uint32_t* bucket = bucketOf_.data() + size_t{i} * bands_;
    for (unsigned b = 0; b < bands_; ++b) {
      if (bucket[b] == kNone) continue;
      uint32_t* const at = members_.data() + bucket[b];
      at[1 + at[0]++] = i;
    }
  }

  /// The indexed texts that share a key with text i, each once, appended to out (in no
  /// particular order): seenBy[y] == mark marks text y as given (seenBy has an entry per
  /// text; a caller passes a mark it has not used before, such as its text's number plus 1).
  /// @return the bucket entries read, which are the chains' links of before.
  size_t collect(uint32_t i, uint32_t mark, std::vector<uint32_t>& seenBy, std::vector<uint32_t>& out) {
    // The buckets' counts first, each an independent load whose misses overlap.
    const uint32_t* bucket = bucketOf_.data() + size_t{i} * bands_;
    unsigned found = 0;
    for (unsigned b = 0; b < bands_; ++b) {
      if (bucket[b] != kNone && members_[bucket[b]] != 0) heads_[found++] = bucket[b];
    }
    size_t read = 0;
    for (unsigned f = 0; f < found; ++f) {
      const uint32_t* at = members_.data() + heads_[f];
      const uint32_t n = at[0];
      read += n;
      for (uint32_t k = 1; k <= n; ++k) {
        const uint32_t y = at[k];
        if (seenBy[y] != mark) {
          seenBy[y] = mark;
          out.push_back(y);
        }
      }
    }
    return read;
  }

 private:
  // Sorts part[0, n) by the low 24 bits of their keys (bits 32-55), stably.
  static void sortPart(uint64_t* part, size_t n, uint64_t* scratch) {
    if (n < 2) return;
    uint64_t* from = part;
    uint64_t* to = scratch;
    for (unsigned shift = 32; shift < 56; shift += 8) {
      uint32_t count[256] = {};
      for (size_t k = 0; k < n; ++k) ++count[(from[k] >> shift) & 0xFF];
      uint32_t sum = 0;
      for (uint32_t& c : count) {
        const uint32_t here = c;
        c = sum;
        sum += here;
      }
      for (size_t k = 0; k < n; ++k) to[count[(from[k] >> shift) & 0xFF]++] = from[k];
      std::swap(from, to);
    }
    if (from != part) std::copy_n(from, n, part);  // three passes end in scratch
  }

  unsigned bands_;
  std::vector<uint32_t> bucketOf_;  // each text's keys until build(), then each entry's bucket
  std::vector<uint32_t> members_;   // the buckets: a count, then the texts indexed so far
  std::vector<uint32_t> heads_;     // scratch of collect: the buckets of one text that hold texts
};

}  // namespace simhash
