#pragma once
// Internal: the similarity's definition in code (similarity.h), shared by the one-pair
// similarity and the canonical codes (similarity.cpp) and the shingle sets
// (shingle_sets.cpp): step 1, normalizing a text's code points, and step 2, its shingles'
// codes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "simhash/similarity.h"
#include "text/unicode.h"

namespace simhash::shingling {

// Whether text + pos starts `(株)` or `(有)` (ASCII or full-width brackets), the abbreviated
// Japanese legal forms: then pos is moved past the closing bracket. The list normalization
// drops them wherever they stand, as it drops the forms written out at either end of a name.
bool bracketedLegalForm(const unsigned char* text, size_t size, size_t& pos);

// Step 1 of the definition: write(cp) for each normalized code point, in order. At most
// utf8.size() + 2 code points (the list normalization's frame).
template <class Write>
void normalize(std::string_view utf8, Normalization normalization, Write write) {
  const bool list = normalization == Normalization::kList;
  const auto* text = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t size = utf8.size();
  bool written = false;       // a code point was written, so a later whitespace run is kept
  bool pendingSpace = false;  // whitespace since the last code point kept, which is not the first
  bool lastCjk = false;
  for (size_t pos = 0; pos < size;) {
    char32_t cp = text[pos];
    if (list && (cp == '(' || cp == 0xEF) && bracketedLegalForm(text, size, pos)) continue;
    if (cp < 0x80) {
      ++pos;
      if (unicode::kAsciiPunctuation[cp]) continue;
      if (unicode::isWhitespace(cp)) {
        pendingSpace = written;
        continue;
      }
      if (pendingSpace || (list && !written)) write(U' ');  // an ASCII character is never CJK
      pendingSpace = lastCjk = false;
      written = true;
      write(cp - 'A' < 26 ? cp + 32 : cp);
      continue;
    }
    cp = unicode::decodeNextFoldingHalfwidthKana(text, size, pos);
    // Punctuation goes first, so whitespace on both sides of a removed mark is one run.
    if (unicode::isPunctuation(cp)) continue;
    if (unicode::isWhitespace(cp)) {
      pendingSpace = written;
      continue;
    }
    cp = unicode::foldCase(cp);
    if (list && (cp = unicode::simplifiedHan(unicode::withoutDiacritic(cp))) == 0) continue;  // a combining mark
    const bool cjk = unicode::classify(cp) == unicode::CharClass::Cjk;
    if ((pendingSpace && !(lastCjk && cjk)) || (list && !written)) write(U' ');
    pendingSpace = false;
    lastCjk = cjk;
    written = true;
    write(cp);
  }
  if (list && written) write(U' ');
}

// Step 1's last part for the list normalization: in list-normalized code points cps[0, n)
// (words between single spaces, framed by one on each side), each word written as one of
// the legal forms or conjunctions of listForms() (similarity.h) becomes its short form, and
// then each run of words that spells one of its legal forms of several words, in place.
// @return the code points now, at most n. Cost O(n).
size_t shortenListWords(char32_t* cps, size_t n);

// Step 1 whole: the normalized code points of utf8 written to out, with shortenListWords
// for the list normalization. @return how many. @pre out has room for utf8.size() + 2.
size_t normalizeInto(std::string_view utf8, Normalization normalization, char32_t* out);

inline bool isCjk(char32_t cp) { return cp >= 0x80 && unicode::classify(cp) == unicode::CharClass::Cjk; }

// Calls emit(code) for every shingle of a normalized text of `length` code points (the
// definition's step 2), given each code point's number (>= 1, below base) and whether it is
// CJK. A window of numbers r0, r1, r2 has code r0 + base r1 + base² r2 (0 past its end), so
// windows of different lengths never share a code. @pre base³ < 2^64.
template <class Emit>
void forEachShingleCode(const uint32_t* numbers, const uint8_t* cjk, size_t length, const ShingleOptions& options,
                        uint64_t base, Emit emit) {
  static_assert(kMaxShingle == 3, "codes of up to three numbers");
  const uint64_t base2 = base * base;
  auto code = [&](size_t start, size_t n) {
    uint64_t value = 0;
    for (size_t k = n; k-- > 0;) value = value * base + numbers[start + k];
    return value;
  };
  // Where every window fits and none ends at the last code point, which is most of a text:
  // a window's later numbers are masked off by its size, without a branch or a loop.
  auto mask = [](unsigned size, unsigned at) { return size > at ? ~uint64_t{0} : 0; };
  const uint64_t alphabetic1 = mask(options.alphabetic, 1), alphabetic2 = mask(options.alphabetic, 2);
  const uint64_t cjk1 = mask(options.cjk, 1), cjk2 = mask(options.cjk, 2);
  size_t i = 0;
  for (; i + kMaxShingle < length; ++i) {
    const bool c = cjk[i];
    emit(numbers[i] + (base * numbers[i + 1] & (c ? cjk1 : alphabetic1)) + (base2 * numbers[i + 2] & (c ? cjk2 : alphabetic2)));
  }
  // The last positions: every window that fits, and when none ends at the last code point,
  // one from the first position whose window does not fit to the end.
  bool lastCovered = false;
  size_t firstUnfit = length;
  for (; i < length; ++i) {
    const size_t n = cjk[i] ? options.cjk : options.alphabetic;
    if (i + n <= length) {
      emit(code(i, n));
      lastCovered |= i + n == length;
    } else if (firstUnfit == length) {
      firstUnfit = i;
    }
  }
  if (length > 0 && !lastCovered) emit(code(firstUnfit, length - firstUnfit));
}

// Weighs codes[0, n), the bigrams of a text in position order (with weights every shingle is
// a bigram, so code k starts at position k): code k becomes weight[k] codes, copy c as
// code + c base² (the slot of a window's third code point, which a bigram leaves 0), in
// place. @return the codes now. @pre room for the sum of the weights. Out of line: the
// callers' loops stay as they are without weights.
size_t addCopies(uint64_t* codes, size_t n, const uint8_t* weight, uint64_t base);

}  // namespace simhash::shingling
