#include "blocks.h"

#include <cmath>

namespace simhash {

namespace {

// C(n, k), saturating at `cap` + 1 so large layouts are rejected without overflow.
uint64_t binomialCapped(unsigned n, unsigned k, uint64_t cap) {
  if (k > n - k) k = n - k;
  uint64_t result = 1;
  for (unsigned i = 1; i <= k; ++i) {
    result = result * (n - k + i) / i;  // exact: C(n-k+i, i) is an integer
    if (result > cap) return cap + 1;
  }
  return result;
}

// Width of block j when 64 bits are split into b blocks: the first 64 % b are wider.
unsigned blockWidth(unsigned b, unsigned j) { return 64 / b + (j < 64 % b ? 1 : 0); }

unsigned blockStart(unsigned b, unsigned j) {
  unsigned start = 0;
  for (unsigned i = 0; i < j; ++i) start += blockWidth(b, i);
  return start;
}

uint64_t lowMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

// Key bits of the narrowest table: the b-k narrowest blocks.
unsigned minKeyBits(unsigned b, unsigned k) {
  unsigned bits = 0;
  for (unsigned j = k; j < b; ++j) bits += blockWidth(b, j);  // widths are non-increasing in j
  return bits;
}

double lookupCost(size_t n, uint64_t tables, unsigned keyBits) {
  return static_cast<double>(tables) * (std::log2(static_cast<double>(n) + 2.0) +
                                        std::ldexp(static_cast<double>(n), -static_cast<int>(keyBits)));
}

}  // namespace

BlockLayout BlockLayout::choose(size_t n, unsigned k, unsigned maxTables) {
  double bestCost = static_cast<double>(n);  // a linear scan
  unsigned bestB = 0;
  for (unsigned b = k + 1; b <= 64; ++b) {
    const uint64_t tables = binomialCapped(b, k, maxTables);
    if (tables > maxTables) break;  // C(b, k) only grows with b
    const double cost = lookupCost(n, tables, minKeyBits(b, k));
    if (cost < bestCost) {
      bestCost = cost;
      bestB = b;
    }
  }
  return withBlocks(k, bestB);
}

BlockLayout BlockLayout::withBlocks(unsigned k, unsigned b) {
  BlockLayout layout;
  layout.maxDistance_ = k;
  layout.blockCount_ = b;
  if (b == 0) return layout;

  for (unsigned j = 0; j < b; ++j) layout.blockMasks_[j] = lowMask(blockWidth(b, j)) << blockStart(b, j);
  // Every (b-k)-subset of blocks in lexicographic order, as a bitmask over blocks.
  const unsigned chosen = b - k;
  std::vector<unsigned> combo(chosen);
  for (unsigned i = 0; i < chosen; ++i) combo[i] = i;
  while (true) {
    Table table{0, 0, {}};
    for (unsigned i = 0; i < chosen; ++i) {
      const unsigned j = combo[i];
      const unsigned width = blockWidth(b, j);
      table.blockSet |= uint64_t{1} << j;
      if (i > 0 && combo[i - 1] == j - 1) {  // adjacent to the previous block: widen its segment
        Segment& last = table.segments.back();
        last.mask = lowMask(static_cast<unsigned>(__builtin_popcountll(last.mask)) + width);
      } else {
        table.segments.push_back({blockStart(b, j), table.keyBits, lowMask(width)});
      }
      table.keyBits += width;
    }
    layout.tables_.push_back(std::move(table));
    // Next combination: bump the rightmost index that can still move.
    int i = static_cast<int>(chosen) - 1;
    while (i >= 0 && combo[i] == b - chosen + static_cast<unsigned>(i)) --i;
    if (i < 0) break;
    ++combo[i];
    for (unsigned m = static_cast<unsigned>(i) + 1; m < chosen; ++m) combo[m] = combo[m - 1] + 1;
  }
  return layout;
}


}  // namespace simhash
