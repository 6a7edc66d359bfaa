#pragma once
// Internal: texts indexed by their band keys as they are added, for SimilarGroups' one-pass
// candidate search over MinHash bands (similar_groups.h), where the leader rule indexes a
// text only once it is decided. (ReviewPairs indexes every text before its search, and
// lays its index out flat instead: review_pairs.cpp.)
//
// An open-addressing table of keys (never 0) and the most recent entry indexed under each,
// an entry being i × bands + b for text i's key of band b; next[e] is the entry indexed
// before entry e under the same key. Keys of different bands are different hashes, so one
// table serves all bands (a key shared across bands only adds a candidate: the chains link
// entries, so each chain holds every entry of its key, whatever their bands). About 11
// bytes per indexed (text, band), and 4 × bands per text the chains have room for.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simhash {

class BandChains {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit BandChains(unsigned bands) : bands_(bands), slotKey_(1024, 0), slotEntry_(1024) {}

  /// Room for texts [0, count) (never shrinks).
  void reserve(uint32_t count) {
    if (next_.size() < size_t{count} * bands_) next_.resize(size_t{count} * bands_);
  }
  /// Text i's `bands` entries: until text i is indexed, nothing reads them, so a caller may
  /// keep its keys there. @pre room for text i.
  uint32_t* spare(uint32_t i) { return next_.data() + size_t{i} * bands_; }

  /// Indexes text i under keys[0, bands). @pre room for text i; keys does not point into
  /// spare(i).
  void index(uint32_t i, const uint32_t* keys) {
    if (4 * (slotsUsed_ + bands_) > 3 * slotKey_.size()) grow();
    for (unsigned b = 0; b < bands_; ++b) {
      const size_t slot = slotOf(keys[b]);
      if (slotKey_[slot] == 0) {
        slotKey_[slot] = keys[b];
        slotEntry_[slot] = kNone;
        ++slotsUsed_;
      }
      const uint32_t entry = i * bands_ + b;
      next_[entry] = slotEntry_[slot];
      slotEntry_[slot] = entry;
    }
  }

  /// The indexed texts that share a key of keys[0, bands), each once, appended to out (in
  /// no particular order): seenBy[y] == mark marks text y as given (seenBy has an entry per
  /// text; a caller passes a mark it has not used before, such as its text's number plus 1).
  /// @return the chain links read.
  size_t collect(const uint32_t* keys, uint32_t mark, std::vector<uint32_t>& seenBy, std::vector<uint32_t>& out) const {
    // The chains of several bands are walked in turn, a link of each at a time: a link's
    // read is a cache miss that the next one depends on, and misses of different chains
    // overlap. Descriptions at 0.5 (4 × 83 bands, thousands of links a text): leader
    // grouping 1.3x faster natively than walking one chain after another.
    constexpr unsigned kLanes = 8;
    uint32_t link[kLanes];
    unsigned lanes = 0, band = 0;
    size_t read = 0;
    const auto start = [&](unsigned lane) {  // the next band's chain into `lane`, if any is left
      while (band < bands_) {
        const uint32_t e = chain(keys[band++]);
        if (e != kNone) {
          link[lane] = e;
          return true;
        }
      }
      return false;
    };
    while (lanes < kLanes && start(lanes)) ++lanes;
    while (lanes > 0) {
      for (unsigned lane = 0; lane < lanes;) {
        const uint32_t e = link[lane];
        ++read;
        const uint32_t y = e / bands_;
        if (seenBy[y] != mark) {
          seenBy[y] = mark;
          out.push_back(y);
        }
        if (next_[e] != kNone) {
          link[lane++] = next_[e];
        } else if (start(lane)) {
          ++lane;
        } else {
          link[lane] = link[--lanes];  // this chain ended and no band is left: the last lane takes its place
        }
      }
    }
    return read;
  }

 private:
  size_t slotOf(uint32_t key) const {
    // Multiply-shift onto any table size: the table grows by half, not doubling.
    size_t slot = static_cast<size_t>((uint64_t{key * 0x9E3779B9u} * slotKey_.size()) >> 32);
    while (slotKey_[slot] != 0 && slotKey_[slot] != key) slot = slot + 1 == slotKey_.size() ? 0 : slot + 1;
    return slot;
  }

  uint32_t chain(uint32_t key) const {
    const size_t slot = slotOf(key);
    return slotKey_[slot] == 0 ? kNone : slotEntry_[slot];
  }

  void grow() {
    std::vector<uint32_t> oldKey(slotKey_.size() + slotKey_.size() / 2 + 1024, 0);
    std::vector<uint32_t> oldEntry(oldKey.size());
    oldKey.swap(slotKey_);
    oldEntry.swap(slotEntry_);
    for (size_t k = 0; k < oldKey.size(); ++k) {
      if (oldKey[k] == 0) continue;
      const size_t slot = slotOf(oldKey[k]);
      slotKey_[slot] = oldKey[k];
      slotEntry_[slot] = oldEntry[k];
    }
  }

  unsigned bands_;
  std::vector<uint32_t> slotKey_, slotEntry_;
  size_t slotsUsed_ = 0;
  std::vector<uint32_t> next_;
};

}  // namespace simhash
