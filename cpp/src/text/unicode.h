#pragma once
// Internal: UTF-8 decoding, case folding and character classes for the tokenizer.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace simhash::unicode {

constexpr char32_t kReplacement = 0xFFFD;

namespace detail {
char32_t decodeMultibyte(const unsigned char* text, size_t size, size_t& pos);
char32_t foldCaseByRanges(char32_t cp);
bool isPunctuationByRanges(char32_t cp);
}  // namespace detail

enum class CharClass : uint8_t { Separator = 0, Word = 1, Cjk = 2 };

namespace detail {
CharClass classifyByRanges(char32_t cp);
// One byte per 256-code-point page of the BMP, derived from the range tables at compile
// time, so that whole pages of CJK (or Hangul, or symbols) skip both binary searches:
// kUniformClass set means every code point of the page has class (byte & kClassMask);
// kNoFolding set means none of them folds; kNoPunctuation, none of them is punctuation.
constexpr uint8_t kClassMask = 0x3, kUniformClass = 0x4, kNoFolding = 0x8, kNoPunctuation = 0x10;
extern const std::array<uint8_t, 256> kBmpPages;
}  // namespace detail

/// Decodes the code point at text[pos], advancing pos. Follows the WHATWG UTF-8 decoder:
/// a maximal invalid subsequence yields one U+FFFD and the next byte is read afresh.
/// @pre pos < size
inline char32_t decodeNext(const unsigned char* text, size_t size, size_t& pos) {
  if (text[pos] < 0x80) return text[pos++];
  return detail::decodeMultibyte(text, size, pos);
}

namespace detail {
// Half-width katakana U+FF61..U+FF9F as NFKC maps each alone (full), and the kana NFKC
// composes with a following U+FF9E (voiced) or U+FF9F (semi-voiced) mark, 0 where none.
struct HalfwidthKana {
  uint16_t full, voiced, semiVoiced;
};
extern const HalfwidthKana kHalfwidthKana[0xFF9F - 0xFF61 + 1];
// decodeNextFoldingHalfwidthKana's rare path, out of line: cp (U+FF61..U+FF9F) was just
// decoded, and text[pos] is what follows it.
char32_t foldHalfwidthKana(char32_t cp, const unsigned char* text, size_t size, size_t& pos);
}  // namespace detail

/// Decodes the code point at text[pos] as decodeNext does, with half-width katakana
/// (U+FF61..U+FF9F) folded as NFKC folds them: a half-width kana immediately followed by
/// U+FF9E or U+FF9F becomes the composed full-width kana where NFKC composes the pair (ｶﾞ
/// -> ガ, ﾊﾟ -> パ, ｳﾞ -> ヴ), both consumed; any other code point of the block becomes its
/// NFKC form alone (ｶ -> カ, ｰ -> ー, ｡ -> 。, and the marks -> U+3099, U+309A). A full-width
/// kana followed by a half-width mark is not composed. For the similarity only: the
/// fingerprint's tokenizer decodes with decodeNext. @pre pos < size
inline char32_t decodeNextFoldingHalfwidthKana(const unsigned char* text, size_t size, size_t& pos) {
  const char32_t cp = decodeNext(text, size, pos);
  return cp < 0xFF61 || cp > 0xFF9F ? cp : detail::foldHalfwidthKana(cp, text, size, pos);
}


/// Writes the UTF-8 encoding of a valid scalar value to out (room for 4 bytes).
/// @return the number of bytes written.
inline size_t encodeUtf8(char32_t cp, char* out) {
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | (cp >> 6));
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (cp >> 12));
    out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (cp >> 18));
  out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

/// Simple case folding (Unicode CaseFolding.txt, status C and S) restricted to Basic
/// Latin, Latin-1, Latin Extended-A, Latin Extended Additional, Greek, Cyrillic,
/// Armenian and Georgian, plus width folding of full-width letters and digits to ASCII
/// (Ａ, ａ -> a; ０ -> 0; NFKC's mapping). Other code points are returned unchanged.
inline char32_t foldCase(char32_t cp) {
  if (cp < 0x80) return (cp - 'A' < 26) ? cp + 32 : cp;
  if (cp < 0x10000 && (detail::kBmpPages[cp >> 8] & detail::kNoFolding)) return cp;
  return detail::foldCaseByRanges(cp);
}

namespace detail {
char32_t withoutDiacriticByTable(char32_t cp);
}  // namespace detail

/// For the short-string similarity (similarity.h Normalization::kList): a Latin letter with
/// diacritics (U+00C0..U+024F, U+1E00..U+1EFF) becomes its lower-case base letter as NFKD
/// decomposes it (é, É -> e; ǅ stays), plus the letters NFKD keeps whole that people write
/// without their stroke (ø -> o, đ -> d, ł -> l, ħ -> h, ŧ -> t, ı -> i); a combining mark
/// U+0300..U+036F becomes 0 (removed); any other code point is returned unchanged.
inline char32_t withoutDiacritic(char32_t cp) {
  if (cp < 0xC0 || (cp >= 0x370 && cp < 0x1E00) || cp >= 0x1F00) return cp;
  return detail::withoutDiacriticByTable(cp);
}

namespace detail {
char32_t simplifiedHanByTable(char32_t cp);
}  // namespace detail

/// Installs the table simplifiedHan folds by: the bytes of han_variants.bin, which
/// .ci/han-variants.js writes and han_variants.h describes. Returns the table installed:
/// kHanVariants traditional characters, ascending, then the simplified form of each (UTF-16
/// code units, 2-aligned), which the look-alike rule reads (js/core/tokens.js); nullptr,
/// installing nothing, for any other bytes. Once installed, the table stays for the process
/// (a later call with the same bytes returns it again). It is not built in, so that a module
/// can leave it to the lists that hold Han characters (js/bindings/han-table.js); whoever
/// folds such text installs it first.
const char16_t* installHanVariants(const unsigned char* bytes, size_t size);

/// For the short-string similarity (similarity.h Normalization::kList): a traditional
/// Chinese character becomes its simplified form (學 -> 学, 國 -> 国), as Unihan's
/// kSimplifiedVariant gives it for the BMP, by the installed table; a character that is
/// also its own simplified form, and any other code point, is returned unchanged, and so is
/// every code point while no table is installed. Folding twice is folding once.
inline char32_t simplifiedHan(char32_t cp) {
  if (cp < 0x3400 || cp > 0x9FFF) return cp;
  return detail::simplifiedHanByTable(cp);
}

/// Unicode's White_Space property.
inline bool isWhitespace(char32_t cp) {
  if (cp < 0x80) return cp == ' ' || (cp >= 0x09 && cp <= 0x0D);
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// Eight bytes at once (SIMD within a register): the first byte is the lowest.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr bool kLittleEndian = true;
#else
constexpr bool kLittleEndian = false;
#endif
constexpr uint64_t kEachByte = 0x0101010101010101ull, kHighBits = 0x8080808080808080ull;

inline uint64_t load8(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void store8(char* p, uint64_t v) { std::memcpy(p, &v, 8); }

/// High bit of each byte of the result: that byte of `low7` (every byte < 0x80) is >= c.
/// No carry crosses bytes: b + 0x80 - c stays below 0x100 for b < 0x80 and c >= 1.
constexpr uint64_t atLeast8(uint64_t low7, unsigned c) { return (low7 + (0x80 - c) * kEachByte) & kHighBits; }

/// High bit of each byte of the result: that byte of v is an ASCII letter or digit.
constexpr uint64_t asciiWordBytes8(uint64_t v) {
  const uint64_t ascii = ~v & kHighBits;
  const uint64_t low7 = v & ~kHighBits;
  const uint64_t lower = low7 | 0x20 * kEachByte;  // letters of either case, as lower case
  const uint64_t letter = atLeast8(lower, 'a') & ~atLeast8(lower, 'z' + 1);
  const uint64_t digit = atLeast8(low7, '0') & ~atLeast8(low7, '9' + 1);
  return (letter | digit) & ascii;
}

/// v with its ASCII capital letters lowered.
constexpr uint64_t asciiLower8(uint64_t v) {
  const uint64_t low7 = v & ~kHighBits;
  const uint64_t upper = atLeast8(low7, 'A') & ~atLeast8(low7, 'Z' + 1) & ~v;
  return v + (upper >> 2);  // 0x80 >> 2 = 0x20 in each capital's byte; 'Z' + 0x20 < 0x80
}

/// How many of v's bytes, from the first, are ASCII letters or digits (0..8).
inline unsigned asciiWordPrefix8(uint64_t v) {
  const uint64_t stops = ~asciiWordBytes8(v) & kHighBits;
  return stops == 0 ? 8 : static_cast<unsigned>(__builtin_ctzll(stops)) / 8;
}

/// Byte tables for ASCII: letters and digits (word characters), and punctuation (general
/// category P: !"#%&'()*,-./:;?@[\]_{}). 0 for every byte value >= 0x80.
struct AsciiTable {
  uint8_t member[256];
  constexpr AsciiTable(const char* members) : member{} {
    for (; *members; ++members) member[static_cast<unsigned char>(*members)] = 1;
  }
  constexpr uint8_t operator[](unsigned byte) const { return member[byte]; }
};
inline constexpr AsciiTable kAsciiWord("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
inline constexpr AsciiTable kAsciiPunctuation("!\"#%&'()*,-./:;?@[\\]_{}");

/// Unicode general category P (Pc, Pd, Ps, Pe, Pi, Pf, Po), Unicode 15.0.
inline bool isPunctuation(char32_t cp) {
  if (cp < 0x80) return kAsciiPunctuation[cp];
  if (cp < 0x10000 && (detail::kBmpPages[cp >> 8] & detail::kNoPunctuation)) return false;
  return detail::isPunctuationByRanges(cp);
}

/// See tokenizer.h for what each class contains.
inline CharClass classify(char32_t cp) {
  if (cp < 0x80) return ((cp | 0x20) - 'a' < 26 || cp - '0' < 10) ? CharClass::Word : CharClass::Separator;
  if (cp < 0x10000) {
    const uint8_t page = detail::kBmpPages[cp >> 8];
    if (page & detail::kUniformClass) return static_cast<CharClass>(page & detail::kClassMask);
  }
  return detail::classifyByRanges(cp);
}

}  // namespace simhash::unicode
