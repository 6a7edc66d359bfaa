// The layout of BandBuckets (band_buckets.h), out of line so that it is compiled once, with
// the grouping's flags (CMakeLists.txt): inline, the searches' copies were merged into one
// of either file's flags.
#include "bands/band_buckets.h"

namespace simhash {

void BandBuckets::build(uint32_t count, size_t atOnce) {
  const size_t total = size_t{count} * bands_;
  uint32_t* const keyOf = bucketOf_.data();
  size_t start[257] = {};
  for (size_t e = 0; e < total; ++e) ++start[(keyOf[e] >> 24) + 1];
  size_t largest = 0;
  for (unsigned p = 0; p < 256; ++p) {
    largest = std::max(largest, start[p + 1]);
    start[p + 1] += start[p];
  }
  const size_t most = std::max({atOnce, largest, (total + kMostRounds - 1) / kMostRounds});
  std::vector<uint32_t> part(std::min(most, total));  // keys, then table slots, then buckets
  size_t slots = 16;
  while (slots < 2 * largest) slots *= 2;
  std::vector<uint64_t> table(slots);  // key << 32 | its entries, then its bucket
  shared_.assign((total + 63) / 64, 0);
  proposals_ = 0;
  size_t room = 0;
  for (unsigned first = 0, last; first < 256; first = last) {
    last = first + 1;
    while (last < 256 && start[last + 1] - start[first] <= most) ++last;
    // The entries of the partitions [first, last), in entry order: an entry of an earlier
    // partition holds its key (below first) or its bucket (shared). A branch, not a select:
    // in a round of many, few entries are taken (1M names' build took 17 s natively with
    // selects, 5.7 s with a branch), and in a round of all, every one is.
    size_t at[256];
    const auto rewind = [&] {
      for (unsigned p = first; p < last; ++p) at[p] = start[p] - start[first];
    };
    const auto taken = [&](size_t e) { return (keyOf[e] >> 24) - first < last - first && !shared(e); };
    rewind();
    for (size_t e = 0; e < total; ++e) {
      if (taken(e)) part[at[keyOf[e] >> 24]++] = keyOf[e];
    }
    for (unsigned p = first; p < last; ++p) {
      uint32_t* const keys = part.data() + (start[p] - start[first]);
      const size_t n = start[p + 1] - start[p];
      size_t size = 16;
      while (size < 2 * n) size *= 2;
      const size_t mask = size - 1;
      std::fill_n(table.begin(), size, 0);
      // Each key's entries counted (keys are hashes, never 0: the low bits pick a slot).
      for (size_t k = 0; k < n; ++k) {
        const uint64_t key = keys[k];
        size_t slot = key & mask;
        while (table[slot] != 0 && (table[slot] >> 32) != key) slot = (slot + 1) & mask;
        proposals_ += static_cast<uint32_t>(table[slot]);  // the entries before this one: h(h - 1) / 2 in all
        table[slot] = key << 32 | ((table[slot] & 0xFFFFFFFFu) + 1);
        keys[k] = static_cast<uint32_t>(slot);
      }
      // A bucket with room for a count and its entries for each key of two or more (and
      // at most mostHeld_).
      for (size_t slot = 0; slot < size; ++slot) {
        const auto held = static_cast<uint32_t>(table[slot]);
        const bool many = held > 1 && held <= mostHeld_;
        table[slot] = many ? room : kNone;
        room += many ? 1 + held : 0;

      }
      for (size_t k = 0; k < n; ++k) keys[k] = static_cast<uint32_t>(table[keys[k]]);
    }
    rewind();
    for (size_t e = 0; e < total; ++e) {
      if (!taken(e)) continue;
      const uint32_t bucket = part[at[keyOf[e] >> 24]++];
      if (bucket == kNone) continue;
      keyOf[e] = bucket;
      shared_[e / 64] |= uint64_t{1} << (e % 64);
    }
  }
  part = {};
  table = {};
  members_.assign(room, 0);
}

}  // namespace simhash
