#include "similarity/set_sketch.h"

#include <algorithm>

#include "base/mix.h"
#include "simhash/similarity.h"

namespace simhash {

namespace {

constexpr uint64_t kEmpty = uint64_t{1} << 32;  // above every 32-bit minimum

}  // namespace

void SetSketch::make(const uint64_t* codes, size_t size, uint64_t* out) {
  if (bitmaps) {
    std::fill(out, out + kWords, 0);
    for (size_t k = 0; k < size; ++k) {
      const auto bit = static_cast<unsigned>(mix64(codes[k] ^ 0xBB67AE8584CAA73Bull) >> 55);  // of 512
      out[bit / 64] |= uint64_t{1} << (bit % 64);
    }
    return;
  }
  uint64_t* const m = mins_.data();
  std::fill(m, m + kBins, kEmpty);
  for (size_t k = 0; k < size; ++k) {
    // A seed of its own: independent of the band keys' min-hashes (similar_groups.cpp).
    const uint64_t h = mix64(codes[k] ^ 0x6A09E667F3BCC908ull);
    const size_t bin = static_cast<size_t>(h >> 56);  // kBins = 256
    const uint64_t value = h & 0xFFFFFFFFull;
    const uint64_t least = m[bin];
    m[bin] = value < least ? value : least;
  }
  std::fill(out, out + kWords, 0);
  if (size == 0) return;
  // Each bin's 2 bits: of its minimum, or of the next non-empty bin's to the right mixed with
  // the distance to it (so that copies from different distances agree only by chance).
  unsigned next = 0;  // a non-empty bin at or after j (circularly), found from the right
  for (unsigned j = kBins; j-- > 0;) {
    if (m[j] != kEmpty) {
      next = j;
      break;
    }
  }
  for (unsigned j = kBins; j-- > 0;) {
    if (m[j] != kEmpty) next = j;
    const unsigned distance = (next + kBins - j) % kBins;
    const uint64_t bits = distance == 0 ? m[j] : mix64(m[next] + (uint64_t{distance} << 40));
    out[j / 32] |= (bits & 3u) << (2 * (j % 32));
  }
}

bool summarizesByBitmaps(const ShingleSets& sets) {
  return sets.countedRoom() <= kBitmapMeanShingles * sets.counted();
}

bool builtSummarizedByBitmaps(const ShingleSets& sets) {
  if (!sets.weighted()) return summarizesByBitmaps(sets);
  size_t shingles = 0;
  for (uint32_t i = 0; i < sets.count(); ++i) shingles += sets.size(i);
  return shingles <= kBitmapBuiltMeanShingles * sets.count();
}

SketchFilter::SketchFilter(double threshold) : threshold_(threshold) {
  const double p = threshold + (1 - threshold) / 4;
  expected_ = SetSketch::kBins * p;
  variance_ = SetSketch::kBins * p * (1 - p);
}

bool SketchFilter::mayReach(const uint64_t* a, uint32_t na, const uint64_t* b, uint32_t nb) const {
  if (bitmaps) {
    // bound >= |A ∩ B|; a pair reaches the threshold only if its quotient does, as
    // similarity() computes it (correctly rounded division is monotone).
    unsigned onlyA = 0, onlyB = 0;
    for (unsigned w = 0; w < SetSketch::kWords; ++w) {
      onlyA += static_cast<unsigned>(__builtin_popcountll(a[w] & ~b[w]));
      onlyB += static_cast<unsigned>(__builtin_popcountll(b[w] & ~a[w]));
    }
    const unsigned bound = std::min(na - onlyA, nb - onlyB);
    return na + nb == 0 || static_cast<double>(bound) / (na + nb - bound) >= threshold_;
  }
  unsigned differ = 0;
  for (unsigned w = 0; w < SetSketch::kWords; ++w) {
    uint64_t x = a[w] ^ b[w];
    x = (x | (x >> 1)) & 0x5555555555555555ull;  // one bit per bin whose 2 bits differ
    differ += static_cast<unsigned>(__builtin_popcountll(x));
  }
  const double shortfall = expected_ - (SetSketch::kBins - differ);
  if (shortfall <= 0) return true;
  // shortfall <= kDeviations × sqrt(variance × kBins / neff), neff = n kBins / (n + kBins), squared:
  const double n = std::min(na, nb);
  return shortfall * shortfall * n <= kDeviations * kDeviations * variance_ * (n + SetSketch::kBins);
}

}  // namespace simhash
