// ShingleSets (similarity.h): texts' shingle sets built once, stored as LEB128 deltas of
// dense codes, and compared exactly.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "simhash/similarity.h"
#include "simhash/word_weights.h"
#include "similarity/shingling.h"

namespace simhash {

using shingling::forEachShingleCode;
using shingling::isCjk;
using shingling::normalize;

namespace {

// Sorts codes ascending. Texts of a few hundred shingles are most of what is deduplicated,
// and for them an LSD radix sort over the bytes that the largest code uses (3 for
// alphabetic text, whose dense numbers are small) costs half of std::sort, whose
// comparisons of unordered codes mispredict; short lists are left to std::sort.
// scratch: any vector, grown here.
void sortCodes(uint64_t* codes, size_t n, std::vector<uint64_t>& scratch) {
  if (n < 64) {
    std::sort(codes, codes + n);
    return;
  }
  uint64_t largest = 0;
  for (size_t k = 0; k < n; ++k) largest |= codes[k];
  unsigned digits = 0;
  while (digits < 8 && (largest >> (8 * digits)) != 0) ++digits;
  uint32_t counts[8][256];
  std::memset(counts, 0, sizeof(counts[0]) * digits);  // the rows in use: most texts need 3 of 8
  for (size_t k = 0; k < n; ++k) {
    for (unsigned d = 0; d < digits; ++d) ++counts[d][(codes[k] >> (8 * d)) & 0xFF];
  }
  if (scratch.size() < n) scratch.resize(n);
  uint64_t* from = codes;
  uint64_t* to = scratch.data();
  for (unsigned d = 0; d < digits; ++d) {
    uint32_t* count = counts[d];
    if (count[(from[0] >> (8 * d)) & 0xFF] == n) continue;  // one value of this digit: already in order
    uint32_t start = 0;
    for (unsigned v = 0; v < 256; ++v) {
      const uint32_t c = count[v];
      count[v] = start;
      start += c;
    }
    for (size_t k = 0; k < n; ++k) to[count[(from[k] >> (8 * d)) & 0xFF]++] = from[k];
    std::swap(from, to);
  }
  if (from != codes) std::memcpy(codes, from, n * sizeof(uint64_t));
}

// Reads a list of LEB128 deltas.
struct Cursor {
  const uint8_t* p;
  uint64_t value = 0;
  void next() {
    uint64_t delta = *p++;
    if (delta & 0x80) {
      delta &= 0x7F;
      unsigned shift = 7;
      uint8_t byte;
      do {
        byte = *p++;
        delta |= uint64_t{byte & 0x7Fu} << shift;
        shift += 7;
      } while (byte & 0x80);
    }
    value += delta;
  }
};

}  // namespace

struct ShingleSets::Impl {
  // Each built text's list: its first byte and its number of shingles. Lists live in
  // blocks allocated as they fill, so no list is ever copied to grow a buffer.
  std::vector<const uint8_t*> lists;
  std::vector<uint32_t> sizes;
  std::vector<uint8_t> built;  // 1 for the texts build() was asked for (empty sets included)
  std::vector<std::unique_ptr<uint8_t[]>> blocks;
  size_t blockBytes = 0, blockUsed = 0, blockCapacity = 0;
  // The code point numbering, from countTexts to clear(): while counting, bmp holds each
  // BMP code point's count and astral (cp << 32 | count) sorted by cp; once numbered
  // (the first addTexts), bmp holds each code point's number << 1 | CJK, and astral
  // (cp << 32 | the same), still sorted by cp.
  std::vector<uint32_t> bmp;
  std::vector<uint64_t> astral;
  // Each number's code point plus 1 (0 for 0, a window's end), from the numbering on: what
  // canonicalCodes maps dense codes back with.
  std::vector<uint32_t> pointOf;
  ShingleOptions options;
  std::unique_ptr<WordWeights> weights;  // a copy of the given options.weights, which then point here
  bool numbered = false;
  uint64_t base = 0;  // one more than the largest number
  size_t countedBytes = 0, countedTexts = 0, countedRoom = 0;
  // Scratch, held here (and released when a call returns) so that clear() frees it too:
  // in WASM an out-of-memory error unwinds to JS, and the caller's clear() then frees all.
  std::vector<uint8_t> needed;
  std::vector<uint32_t> numbers, points;
  std::vector<char32_t> cps;
  std::vector<uint8_t> cjk, bytes, weight;
  std::vector<uint64_t> codes, table, sorted, canonical;

  void releaseScratch() {
    numbers = {};
    points = {};
    cps = {};
    weight = {};
    canonical = {};
    cjk = {};
    bytes = {};
    codes = {};
    table = {};
    sorted = {};
  }

  const uint8_t* store(const uint8_t* bytes, size_t length, size_t preferredBlock) {
    if (length == 0) return nullptr;  // an empty set's list is never read
    if (blockCapacity - blockUsed < length) {
      blockCapacity = std::max(length, preferredBlock);
      blocks.emplace_back(new uint8_t[blockCapacity]);
      blockBytes += blockCapacity;
      blockUsed = 0;
    }
    uint8_t* at = blocks.back().get() + blockUsed;
    std::memcpy(at, bytes, length);
    blockUsed += length;
    return at;
  }

  size_t astralAt(char32_t cp) const {
    return std::lower_bound(astral.begin(), astral.end(), uint64_t{cp} << 32) - astral.begin();
  }

  // The most frequent code points get the smallest numbers. Dense numbers (1..R) make a
  // text's sorted codes close together, which is what keeps their deltas to one or two
  // bytes; the 21-bit exact codes would need 5 to 8.
  void number() {
    if (bmp.empty()) bmp.assign(0x10000, 0);
    // Code points by falling count (ties by code point): (2^32 - 1 - count) << 32 | cp.
    std::vector<uint64_t>& byCount = codes;
    byCount.clear();
    for (char32_t cp = 0; cp < 0x10000; ++cp) {
      if (bmp[cp]) byCount.push_back(uint64_t{~bmp[cp]} << 32 | cp);
    }
    for (uint64_t entry : astral) byCount.push_back(uint64_t{~static_cast<uint32_t>(entry)} << 32 | (entry >> 32));
    std::sort(byCount.begin(), byCount.end());
    pointOf.assign(byCount.size() + 1, 0);
    for (size_t r = 0; r < byCount.size(); ++r) {
      const auto cp = static_cast<char32_t>(byCount[r]);
      pointOf[r + 1] = cp + 1;
      const uint32_t entry = static_cast<uint32_t>(r + 1) << 1 | (isCjk(cp) ? 1 : 0);
      if (cp < 0x10000) bmp[cp] = entry;
      else astral[astralAt(cp)] = uint64_t{cp} << 32 | entry;
    }
    base = byCount.size() + 1;  // < 2^21, so base^3 < 2^63
    numbered = true;
  }
};

ShingleSets::ShingleSets() : impl_(new Impl) {}
ShingleSets::~ShingleSets() = default;

uint32_t ShingleSets::count() const { return static_cast<uint32_t>(impl_->sizes.size()); }
uint32_t ShingleSets::size(uint32_t i) const { return impl_->sizes[i]; }
uint32_t ShingleSets::counted() const { return static_cast<uint32_t>(impl_->countedTexts); }
size_t ShingleSets::countedRoom() const { return impl_->countedRoom; }
bool ShingleSets::weighted() const { return impl_->options.weights != nullptr; }

void ShingleSets::codes(uint32_t i, uint64_t* out) const {
  Cursor c{impl_->lists[i]};
  for (uint32_t k = 0; k < impl_->sizes[i]; ++k) {
    c.next();
    out[k] = c.value;
  }
}

// Not inlined into its two callers: 0.2 KB gz of the download (docs/download.md), for no speed.
[[gnu::noinline]] void ShingleSets::canonicalCodes(uint32_t i, uint64_t* out) const {
  const Impl& m = *impl_;
  const uint64_t base = m.base;
  const uint32_t* const point = m.pointOf.data();
  const bool list = m.options.normalization == Normalization::kList;
  Cursor c{m.lists[i]};
  for (uint32_t k = 0; k < m.sizes[i]; ++k) {
    c.next();
    const uint64_t r0 = c.value % base, rest = c.value / base;
    // In the list normalization every shingle is a bigram, and the third slot a copy's number.
    const uint64_t third = list ? rest / base : point[rest / base];
    out[k] = point[r0] | uint64_t{point[rest % base]} << kCanonicalBits | third << (2 * kCanonicalBits);
  }
}

size_t ShingleSets::memoryBytes() const {
  return impl_->pointOf.capacity() * sizeof(uint32_t) + impl_->blockBytes + impl_->lists.capacity() * sizeof(const uint8_t*) + impl_->sizes.capacity() * sizeof(uint32_t) +
         impl_->built.capacity() + impl_->bmp.capacity() * sizeof(uint32_t) + impl_->astral.capacity() * sizeof(uint64_t);
}

void ShingleSets::clear() {
  // Destroyed and made anew in place: as `*impl_ = Impl()`, without the move assignment of
  // every member in the download, and without allocating.
  impl_->~Impl();
  new (impl_.get()) Impl();
}

void ShingleSets::buildForPairs(const char* utf8, const uint32_t* offsets, uint32_t count, const uint32_t* a,
                                const uint32_t* b, size_t pairCount, const ShingleOptions& options) {
  clear();
  impl_->needed.assign(count, 0);
  for (size_t p = 0; p < pairCount; ++p) impl_->needed[a[p]] = impl_->needed[b[p]] = 1;
  build(utf8, offsets, count, options, impl_->needed.data());
}

void ShingleSets::build(const char* utf8, const uint32_t* offsets, uint32_t count, const ShingleOptions& options,
                        const uint8_t* needed) {
  Impl& m = *impl_;
  std::vector<uint8_t> kept;
  if (needed == m.needed.data()) kept.swap(m.needed);  // buildForPairs' mask outlives the reset
  clear();
  m.needed.swap(kept);
  countTexts(utf8, offsets, count, options, needed);
  addTexts(utf8, offsets, count, needed);
  m.needed = {};
  m.bmp = {};
  m.astral = {};
}

void ShingleSets::countTexts(const char* utf8, const uint32_t* offsets, uint32_t count, const ShingleOptions& options,
                             const uint8_t* needed) {
  Impl& m = *impl_;
  if (m.bmp.empty()) {
    m.bmp.assign(0x10000, 0);
    m.options = options;
    if (options.weights != nullptr) {
      m.weights = options.weights->copy();
      m.options.weights = m.weights.get();
    }
  }
  const size_t astralBefore = m.astral.size();
  const bool list = m.options.normalization == Normalization::kList;
  // Counts every code point that normalization can write, without normalizing: the case
  // fold of each decoded code point that is neither punctuation nor whitespace, and a
  // space for whitespace. The counts only order the numbers (which keeps the sets
  // compact), so counting a space per whitespace character rather than per run is as
  // good, and this pass costs a third of a normalization.
  uint32_t ascii[0x80] = {};
  for (uint32_t i = 0; i < count; ++i) {
    if (needed != nullptr && needed[i] == 0) continue;
    const auto* text = reinterpret_cast<const unsigned char*>(utf8 + offsets[i]);
    const size_t size = offsets[i + 1] - offsets[i];
    m.countedBytes += size;
    m.countedRoom += shingleRoom(size, m.options);
    ++m.countedTexts;
    if (list) m.bmp[U' '] += 2;  // the frame

    for (size_t pos = 0; pos < size;) {
      if (text[pos] < 0x80) {
        ++ascii[text[pos++]];
        continue;
      }
      // Decoded as normalization decodes (half-width kana folded), so every code point it writes is counted.
      const char32_t cp = unicode::decodeNextFoldingHalfwidthKana(text, size, pos);
      if (unicode::isPunctuation(cp)) continue;
      char32_t counted = unicode::isWhitespace(cp) ? U' ' : unicode::foldCase(cp);
      if (list && (counted = unicode::simplifiedHan(unicode::withoutDiacritic(counted))) == 0) continue;
      if (counted < 0x10000) ++m.bmp[counted];
      else m.astral.push_back(uint64_t{counted} << 32 | 1);
    }
  }
  for (char32_t c = 0; c < 0x80; ++c) {
    if (ascii[c] == 0 || unicode::kAsciiPunctuation[c]) continue;
    m.bmp[unicode::isWhitespace(c) ? U' ' : c - U'A' < 26 ? c + 32 : c] += ascii[c];
  }
  // Merge this slice's astral occurrences into the sorted (cp << 32 | count) entries.
  if (m.astral.size() > astralBefore) {
    std::sort(m.astral.begin(), m.astral.end());
    size_t distinct = 0;
    for (size_t k = 0; k < m.astral.size();) {
      uint64_t entry = m.astral[k];
      for (++k; k < m.astral.size() && (m.astral[k] >> 32) == (entry >> 32); ++k) entry += static_cast<uint32_t>(m.astral[k]);
      m.astral[distinct++] = entry;
    }
    m.astral.resize(distinct);
  }
  m.releaseScratch();
}

void ShingleSets::addTexts(const char* utf8, const uint32_t* offsets, uint32_t count, const uint8_t* needed,
                           Observer* observer) {
  Impl& m = *impl_;
  if (!m.numbered) m.number();
  const bool weighted = m.options.weights != nullptr;
  const bool list = m.options.normalization == Normalization::kList;
  // Each text's codes, sorted and deduplicated, stored as deltas. A window's code is
  // r0 + base r1 + base² r2 (r = its code points' numbers, 0 past its end): injective,
  // and bigrams (r2 = 0) stay below base², close together.
  const size_t first = m.sizes.size();
  const size_t total = std::max(first + count, m.countedTexts);
  m.lists.reserve(total);
  m.sizes.reserve(total);
  m.built.reserve(total);
  m.lists.resize(first + count, nullptr);
  m.sizes.resize(first + count, 0);
  m.built.resize(first + count, 0);
  const size_t preferredBlock = std::min<size_t>(std::max<size_t>(m.countedBytes / 4, 4096), size_t{1} << 20);
  const uint64_t base = m.base;
  std::vector<uint32_t>& numbers = m.numbers;
  std::vector<uint32_t>& points = m.points;
  std::vector<uint64_t>& canonical = m.canonical;
  std::vector<uint8_t>& cjk = m.cjk;
  std::vector<uint64_t>& codes = m.codes;
  std::vector<uint8_t>& bytes = m.bytes;
  for (uint32_t i = 0; i < count; ++i) {
    if (needed != nullptr && needed[i] == 0) continue;
    // Scratch buffers only grow (a code point per byte at most, a shingle per code point
    // plus one): resizing them down and up again per text would zero them each time.
    const size_t bytesOfText = offsets[i + 1] - offsets[i];
    const size_t mostPoints = bytesOfText + 2;  // the list normalization's frame
    const size_t mostCodes = shingleRoom(mostPoints, m.options);
    if (numbers.size() < mostPoints) {
      numbers.resize(mostPoints);
      points.resize(mostPoints);
      cjk.resize(mostPoints);
      if (list) m.cps.resize(mostPoints);
      if (weighted) m.weight.resize(mostPoints);
    }
    if (codes.size() < mostCodes) codes.resize(mostCodes);
    if (observer != nullptr && canonical.size() < mostCodes) canonical.resize(mostCodes);
    size_t length = 0;
    auto number = [&](char32_t cp) {
      const auto entry = static_cast<uint32_t>(cp < 0x10000 ? m.bmp[cp] : m.astral[m.astralAt(cp)]);
      points[length] = cp + 1;
      numbers[length] = entry >> 1;
      cjk[length++] = entry & 1;
    };
    const std::string_view text(utf8 + offsets[i], bytesOfText);
    if (list) {  // normalized whole first: its words are shortened before they are numbered
      const char32_t* const cps = m.cps.data();
      const size_t written = shingling::normalizeInto(text, Normalization::kList, m.cps.data());
      for (size_t k = 0; k < written; ++k) number(cps[k]);
    } else {
      normalize(text, Normalization::kText, number);
    }
    const uint8_t* weight = nullptr;
    if (weighted && length > 1) {
      bigramWeights(m.cps.data(), length, *m.options.weights, m.weight.data());
      weight = m.weight.data();
    }
    // A long text's distinct codes are collected first (an open-addressing set; no code is
    // 0, since r0 >= 1), and only those are sorted: long documents repeat most of their
    // shingles (8 KB of the PostgreSQL manual has about 1,500 distinct ones), and sorting
    // them all cost 2.7x more. Short texts are sorted whole and deduplicated after.
    uint64_t* const code = codes.data();
    size_t distinct = 0;
    // Weighted texts are short ones, and their copies are added to the codes afterwards.
    const bool hashed = length >= 256 && !weighted;
    size_t slots = 16;
    while (hashed && slots < 2 * length) slots *= 2;
    std::vector<uint64_t>& table = m.table;
    if (hashed) table.assign(slots, 0);
    const unsigned shift = 64 - static_cast<unsigned>(__builtin_ctzll(slots));
    // The observer's codes are canonical: the same windows over the code points themselves,
    // emitted in the same order. A short text's go with repeats (a min-hash is the same
    // over a set or its multiset); a long text's are kept to the windows whose dense code
    // was new, so that a long document is signed by its distinct shingles only.
    uint64_t* const canonicalOut = canonical.data();
    size_t emitted = 0, canonicalCount = 0;
    if (observer != nullptr) {
      forEachShingleCode(points.data(), cjk.data(), length, m.options, uint64_t{1} << kCanonicalBits,
                         [&](uint64_t value) { canonicalOut[emitted++] = value; });
      if (weight != nullptr) emitted = shingling::addCopies(canonicalOut, emitted, weight, uint64_t{1} << kCanonicalBits);
      canonicalCount = emitted;
      emitted = 0;
    }
    forEachShingleCode(numbers.data(), cjk.data(), length, m.options, base, [&](uint64_t value) {
      if (!hashed) {
        code[distinct++] = value;
        return;
      }
      const size_t at = emitted++;
      for (size_t slot = (value * 0x9E3779B97F4A7C15ull) >> shift;; slot = (slot + 1) & (slots - 1)) {
        if (table[slot] == value) return;
        if (table[slot] == 0) {
          table[slot] = value;
          if (canonicalCount != 0) canonicalOut[distinct] = canonicalOut[at];  // distinct <= at: in place
          code[distinct++] = value;
          return;
        }
      }
    });
    if (hashed && canonicalCount != 0) canonicalCount = distinct;
    if (weight != nullptr) distinct = shingling::addCopies(code, distinct, weight, base);
    sortCodes(code, distinct, m.sorted);
    if (!hashed) distinct = std::unique(code, code + distinct) - code;
    // LEB128 of a 63-bit delta: at most 9 bytes, and 3 are written for any delta.
    if (bytes.size() < distinct * 9 + 3) bytes.resize(distinct * 9 + 3);
    uint8_t* const list = bytes.data();
    uint8_t* end = list;
    uint64_t previous = 0;
    for (size_t k = 0; k < distinct; ++k) {
      uint64_t delta = code[k] - previous;
      previous = code[k];
      if (delta < (uint32_t{1} << 21)) {
        // Most deltas of dense numbers take 1 to 3 bytes: written without a branch on
        // their length, which mispredicts (a third of the time spent here, measured).
        const auto d = static_cast<uint32_t>(delta);
        const size_t width = 1 + (d >= 0x80) + (d >= 0x4000);
        end[0] = static_cast<uint8_t>(d | 0x80);
        end[1] = static_cast<uint8_t>(d >> 7 | 0x80);
        end[2] = static_cast<uint8_t>(d >> 14);
        end[width - 1] &= 0x7F;
        end += width;
        continue;
      }
      while (delta >= 0x80) {
        *end++ = static_cast<uint8_t>(delta | 0x80);
        delta >>= 7;
      }
      *end++ = static_cast<uint8_t>(delta);
    }
    const auto encoded = static_cast<size_t>(end - list);
    m.lists[first + i] = m.store(list, encoded, preferredBlock);
    m.sizes[first + i] = static_cast<uint32_t>(distinct);
    m.built[first + i] = 1;
    if (observer != nullptr) observer->added(static_cast<uint32_t>(first + i), canonicalOut, static_cast<uint32_t>(canonicalCount));
  }
  m.releaseScratch();
}

bool ShingleSets::atLeast(uint32_t a, uint32_t b, double threshold) const {
  const uint32_t na = impl_->sizes[a], nb = impl_->sizes[b];
  if (na + nb == 0) return 1.0 >= threshold;
  const uint32_t need = leastShared(na, nb, threshold);
  if (need == 0) return true;
  if (need > std::min(na, nb)) return false;
  // Each element of a list is either shared or skipped; a list with more than (size -
  // need) skipped can no longer reach need. Until one of the two ends the answer, both
  // lists have an element left, so the loop needs no bounds checks.
  uint32_t slackA = na - need, slackB = nb - need, shared = 0;
  Cursor x{impl_->lists[a]}, y{impl_->lists[b]};
  x.next();
  y.next();
  for (;;) {
    if (x.value == y.value) {
      if (++shared == need) return true;
      x.next();
      y.next();
    } else if (x.value < y.value) {
      if (slackA-- == 0) return false;
      x.next();
    } else {
      if (slackB-- == 0) return false;
      y.next();
    }
  }
}

void ShingleSets::pairsAtLeast(double threshold, std::vector<uint32_t>& out) const {
  // Prefix filtering (PPJoin's, Xiao et al. 2008): with every set's shingles ordered
  // rarest first, two sets of sizes nx >= ny with J >= s share at least L(nx) >= L(ny)
  // shingles, L(n) = ceil(s n) (the union has at least nx elements), so they share a
  // shingle among the first n - L(n) + 1 of each. Candidates found through an inverted index
  // of those prefixes are then decided exactly by atLeast. L is lowered by a margin that
  // covers the rounding of the double quotient, so no pair that atLeast accepts is missed.
  const Impl& m = *impl_;
  const auto count = static_cast<uint32_t>(m.sizes.size());
  std::vector<uint64_t> found;  // i << 32 | j
  std::vector<uint32_t> blank;
  // Every shingle of every built set, decoded.
  std::vector<uint64_t> all;
  std::vector<uint32_t> firstOf(count + 1, 0);
  for (uint32_t i = 0; i < count; ++i) {
    firstOf[i] = static_cast<uint32_t>(all.size());
    if (!m.built[i]) continue;
    if (m.sizes[i] == 0) blank.push_back(i);
    Cursor c{m.lists[i]};
    for (uint32_t k = 0; k < m.sizes[i]; ++k) {
      c.next();
      all.push_back(c.value);
    }
  }
  firstOf[count] = static_cast<uint32_t>(all.size());
  // Shingle ranks: rarest first (ties by code).
  std::vector<uint64_t> distinct(all);
  std::sort(distinct.begin(), distinct.end());
  std::vector<uint64_t> byFrequency;
  size_t unique = 0;
  for (size_t k = 0; k < distinct.size();) {
    size_t end = k;
    while (end < distinct.size() && distinct[end] == distinct[k]) ++end;
    byFrequency.push_back(uint64_t{static_cast<uint32_t>(end - k)} << 32 | unique);
    distinct[unique++] = distinct[k];
    k = end;
  }
  distinct.resize(unique);
  std::sort(byFrequency.begin(), byFrequency.end());
  std::vector<uint32_t> rankOf(unique);
  for (size_t r = 0; r < unique; ++r) rankOf[static_cast<uint32_t>(byFrequency[r])] = static_cast<uint32_t>(r);
  byFrequency = {};
  std::vector<uint32_t> tokens(all.size());
  for (size_t k = 0; k < all.size(); ++k) {
    tokens[k] = rankOf[std::lower_bound(distinct.begin(), distinct.end(), all[k]) - distinct.begin()];
  }
  all = {};
  distinct = {};
  rankOf = {};
  std::vector<uint64_t> order;  // non-empty built sets by increasing size: size << 32 | i
  for (uint32_t i = 0; i < count; ++i) {
    if (m.built[i] && m.sizes[i]) {
      std::sort(tokens.begin() + firstOf[i], tokens.begin() + firstOf[i + 1]);
      order.push_back(uint64_t{m.sizes[i]} << 32 | i);
    }
  }
  std::sort(order.begin(), order.end());
  auto prefixLength = [&](uint32_t n) {
    const double least = std::ceil(threshold * n - 1e-6);
    const auto overlap = static_cast<uint32_t>(std::max(1.0, std::min(least, static_cast<double>(n))));
    return n - overlap + 1;
  };
  // Postings: (set, position in its order) of every prefix shingle indexed so far.
  std::vector<std::vector<uint64_t>> postings(unique);
  std::vector<uint32_t> seenBy(count, UINT32_MAX), overlap(count, 0), candidates;
  constexpr uint32_t kPruned = UINT32_MAX;
  for (uint64_t entry : order) {
    const auto x = static_cast<uint32_t>(entry);
    const uint32_t nx = m.sizes[x], prefix = prefixLength(nx);
    candidates.clear();
    for (uint32_t i = 0; i < prefix; ++i) {
      std::vector<uint64_t>& list = postings[tokens[firstOf[x] + i]];
      for (uint64_t posting : list) {
        const auto y = static_cast<uint32_t>(posting >> 32);
        const auto j = static_cast<uint32_t>(posting);
        if (seenBy[y] != x) {
          seenBy[y] = x;
          overlap[y] = 0;
          candidates.push_back(y);
        }
        if (overlap[y] == kPruned) continue;
        // Positional filter: the shingles before positions i and j that were not shared
        // are gone for good; what is left after them bounds the intersection.
        const uint32_t ny = m.sizes[y];
        if (overlap[y] + 1 + std::min(nx - i - 1, ny - j - 1) < leastShared(nx, ny, threshold)) {
          overlap[y] = kPruned;
        } else {
          ++overlap[y];
        }
      }
      list.push_back(uint64_t{x} << 32 | i);
    }
    for (uint32_t y : candidates) {
      if (overlap[y] != kPruned && atLeast(x, y, threshold)) found.push_back(x < y ? uint64_t{x} << 32 | y : uint64_t{y} << 32 | x);
    }
  }
  // Empty sets: J(empty, empty) = 1, J(empty, other) = 0.
  if (threshold <= 1) {
    for (size_t p = 0; p < blank.size(); ++p) {
      for (size_t q = p + 1; q < blank.size(); ++q) found.push_back(uint64_t{blank[p]} << 32 | blank[q]);
    }
  }
  std::sort(found.begin(), found.end());
  for (uint64_t pair : found) {
    out.push_back(static_cast<uint32_t>(pair >> 32));
    out.push_back(static_cast<uint32_t>(pair));
  }
}

double ShingleSets::similarity(uint32_t a, uint32_t b) const {
  const uint32_t na = impl_->sizes[a], nb = impl_->sizes[b];
  if (na + nb == 0) return 1.0;
  Cursor x{impl_->lists[a]}, y{impl_->lists[b]};
  uint32_t leftA = na, leftB = nb, shared = 0;
  if (leftA && leftB) {
    x.next();
    y.next();
    for (;;) {
      if (x.value == y.value) {
        ++shared;
        if (--leftA == 0 || --leftB == 0) break;
        x.next();
        y.next();
      } else if (x.value < y.value) {
        if (--leftA == 0) break;
        x.next();
      } else {
        if (--leftB == 0) break;
        y.next();
      }
    }
  }
  return static_cast<double>(shared) / (static_cast<double>(na) + nb - shared);
}

void verifyPairs(const char* utf8, const uint32_t* offsets, uint32_t count, const uint32_t* a, const uint32_t* b,
                 size_t pairCount, double threshold, uint8_t* out, const ShingleOptions& options) {
  ShingleSets sets;
  sets.buildForPairs(utf8, offsets, count, a, b, pairCount, options);
  for (size_t p = 0; p < pairCount; ++p) out[p] = sets.atLeast(a[p], b[p], threshold);
}

void pairSimilarities(const char* utf8, const uint32_t* offsets, uint32_t count, const uint32_t* a, const uint32_t* b,
                      size_t pairCount, double* out, const ShingleOptions& options) {
  ShingleSets sets;
  sets.buildForPairs(utf8, offsets, count, a, b, pairCount, options);
  for (size_t p = 0; p < pairCount; ++p) out[p] = sets.similarity(a[p], b[p]);
}

}  // namespace simhash
