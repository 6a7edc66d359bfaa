#include "text/unicode.h"

#include "text/han_variants.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <vector>

namespace simhash::unicode {

char32_t detail::decodeMultibyte(const unsigned char* text, size_t size, size_t& pos) {
  const unsigned char lead = text[pos++];
  unsigned needed;
  char32_t cp;
  unsigned char lower = 0x80, upper = 0xBF;  // bounds for the first continuation byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    needed = 1;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    needed = 2;
    cp = lead & 0x0F;
    if (lead == 0xE0) lower = 0xA0;  // overlong
    if (lead == 0xED) upper = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    needed = 3;
    cp = lead & 0x07;
    if (lead == 0xF0) lower = 0x90;  // overlong
    if (lead == 0xF4) upper = 0x8F;  // above U+10FFFF
  } else {
    return kReplacement;
  }
  for (unsigned i = 0; i < needed; ++i) {
    if (pos >= size) return kReplacement;
    const unsigned char byte = text[pos];
    if (byte < lower || byte > upper) return kReplacement;  // byte is re-read as a lead
    lower = 0x80;
    upper = 0xBF;
    cp = (cp << 6) | (byte & 0x3F);
    ++pos;
  }
  return cp;
}

namespace {

// A run of code points folded the same way: either all shifted by `delta`, or (when
// `alternating`, upper and lower case interleaved) every second one from `first`, by +1.
struct FoldRange {
  char32_t first, last;
  int32_t delta;
  bool alternating;
};

constexpr FoldRange kFoldRanges[] = {
    {0x0041, 0x005A, 32, false},    {0x00B5, 0x00B5, 0x03BC - 0x00B5, false},
    {0x00C0, 0x00D6, 32, false},    {0x00D8, 0x00DE, 32, false},
    {0x0100, 0x012F, 1, true},      {0x0132, 0x0137, 1, true},
    {0x0139, 0x0148, 1, true},      {0x014A, 0x0177, 1, true},
    {0x0178, 0x0178, 0x00FF - 0x0178, false}, {0x0179, 0x017E, 1, true},
    {0x017F, 0x017F, 0x0073 - 0x017F, false}, {0x0345, 0x0345, 0x03B9 - 0x0345, false},
    {0x0370, 0x0373, 1, true},      {0x0376, 0x0376, 1, false},
    {0x037F, 0x037F, 0x03F3 - 0x037F, false}, {0x0386, 0x0386, 0x03AC - 0x0386, false},
    {0x0388, 0x038A, 37, false},    {0x038C, 0x038C, 64, false},
    {0x038E, 0x038F, 63, false},    {0x0391, 0x03A1, 32, false},
    {0x03A3, 0x03AB, 32, false},    {0x03C2, 0x03C2, 1, false},
    {0x03CF, 0x03CF, 0x03D7 - 0x03CF, false}, {0x03D0, 0x03D0, 0x03B2 - 0x03D0, false},
    {0x03D1, 0x03D1, 0x03B8 - 0x03D1, false}, {0x03D5, 0x03D5, 0x03C6 - 0x03D5, false},
    {0x03D6, 0x03D6, 0x03C0 - 0x03D6, false}, {0x03D8, 0x03EF, 1, true},
    {0x03F0, 0x03F0, 0x03BA - 0x03F0, false}, {0x03F1, 0x03F1, 0x03C1 - 0x03F1, false},
    {0x03F4, 0x03F4, 0x03B8 - 0x03F4, false}, {0x03F5, 0x03F5, 0x03B5 - 0x03F5, false},
    {0x03F7, 0x03F7, 1, false},     {0x03F9, 0x03F9, 0x03F2 - 0x03F9, false},
    {0x03FA, 0x03FA, 1, false},     {0x03FD, 0x03FF, -130, false},
    {0x0400, 0x040F, 80, false},    {0x0410, 0x042F, 32, false},
    {0x0460, 0x0481, 1, true},      {0x048A, 0x04BF, 1, true},
    {0x04C0, 0x04C0, 15, false},    {0x04C1, 0x04CE, 1, true},
    {0x04D0, 0x052F, 1, true},      {0x0531, 0x0556, 48, false},
    {0x10A0, 0x10C5, 0x2D00 - 0x10A0, false}, {0x10C7, 0x10C7, 0x2D27 - 0x10C7, false},
    {0x10CD, 0x10CD, 0x2D2D - 0x10CD, false}, {0x1E00, 0x1E95, 1, true},
    {0x1E9E, 0x1E9E, 0x00DF - 0x1E9E, false}, {0x1EA0, 0x1EFF, 1, true},
    {0xFF10, 0xFF19, 0x30 - 0xFF10, false}, {0xFF21, 0xFF3A, 0x61 - 0xFF21, false},
    {0xFF41, 0xFF5A, 0x61 - 0xFF41, false},
};

}  // namespace

char32_t detail::foldCaseByRanges(char32_t cp) {
  if (cp > 0xFF5A) return cp;
  auto it = std::upper_bound(std::begin(kFoldRanges), std::end(kFoldRanges), cp,
                             [](char32_t c, const FoldRange& r) { return c < r.first; });
  if (it == std::begin(kFoldRanges)) return cp;
  const FoldRange& r = *std::prev(it);
  if (cp > r.last) return cp;
  if (r.alternating) return ((cp - r.first) % 2 == 0) ? cp + 1 : cp;
  return static_cast<char32_t>(static_cast<int32_t>(cp) + r.delta);
}

// The base letters of U+00C0..U+024F and U+1E00..U+1EFF ('.': none), generated from
// Python's unicodedata NFKD with the stroke letters of unicode.h's list; checked against
// String.prototype.normalize('NFD') by tests/js/short-similarity.test.js.
constexpr char kLatinBase[] =
    "aaaaaa.ceeeeiiii.nooooo.ouuuuy..aaaaaa.ceeeeiiii.nooooo.ouuuuy.y"
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii..jjkk.llllll."
    ".llnnnnnn...oooooo..rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzz."
    "b.........................l.....oo.............uu....zz........."
    ".............aaiioouuuuuuuuuu.aaaa..ggggkkoooo..j...gg..nnaa...."
    "aaaaeeeeiiiioooorrrruuuusstt..hh......aaeeooooooooyy............"
    ".......e.j...r.y";
constexpr char kLatinAdditionalBase[] =
    "aabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmm"
    "mmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvv"
    "wwwwwwwwwwxxxxyyzzzzzzhtwy.s....aaaaaaaaaaaaaaaaaaaaaaaaeeeeeeee"
    "eeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy......";

char32_t detail::withoutDiacriticByTable(char32_t cp) {
  if (cp >= 0x300 && cp < 0x370) return 0;
  const char base = cp < 0x250 ? kLatinBase[cp - 0xC0] : cp >= 0x1E00 ? kLatinAdditionalBase[cp - 0x1E00] : '.';
  return base == '.' ? cp : static_cast<char32_t>(base);
}

namespace {

// The installed table decoded, and a bit per code point of U+3400..U+9FFF saying whether
// it is a traditional character there, so that most Han characters (about 30 in 31) need
// no search. Until a table is installed, none is traditional.
struct HanVariants {
  static constexpr char32_t kFirst = 0x3400;
  char16_t traditional[kHanVariants];
  char16_t simplified[kHanVariants];
  uint64_t present[(0xA000 - kFirst) / 64];
};

HanVariants* installedHanVariants = nullptr;

uint32_t nextLeb128(const unsigned char* bytes, size_t& at) {
  uint32_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    const unsigned char byte = bytes[at++];
    value |= uint32_t{byte & 0x7Fu} << shift;
    if (byte < 0x80) return value;
  }
}

}  // namespace

const char16_t* installHanVariants(const unsigned char* bytes, size_t size) {
  if (size != kHanVariantsBytes) return nullptr;
  uint64_t checksum = 0xCBF29CE484222325u;
  for (size_t i = 0; i < size; ++i) checksum = (checksum ^ bytes[i]) * 0x100000001B3u;
  if (checksum != kHanVariantsChecksum) return nullptr;
  if (installedHanVariants != nullptr) return installedHanVariants->traditional;
  // The bytes are the generator's (han_variants.h), so they decode within bounds. The pairs
  // come by simplified form; sorted by traditional code point as traditional << 16 | simplified.
  auto* t = new HanVariants{};
  std::vector<uint64_t> pairs(kHanVariants);
  size_t atSimplified = 4, atTraditional = 4 + (bytes[2] | size_t{bytes[3]} << 8);
  uint32_t simplified = 0, traditional = 0;
  for (uint64_t& pair : pairs) {
    simplified += nextLeb128(bytes, atSimplified);
    const uint32_t zigzag = nextLeb128(bytes, atTraditional);
    traditional += zigzag % 2 == 0 ? zigzag / 2 : -(zigzag / 2) - 1;
    pair = uint64_t{traditional} << 16 | simplified;
  }
  std::sort(pairs.begin(), pairs.end());
  for (unsigned i = 0; i < kHanVariants; ++i) {
    const auto from = static_cast<char16_t>(pairs[i] >> 16);
    t->traditional[i] = from;
    t->simplified[i] = static_cast<char16_t>(pairs[i]);
    t->present[(from - HanVariants::kFirst) / 64] |= uint64_t{1} << ((from - HanVariants::kFirst) % 64);
  }
  installedHanVariants = t;
  return t->traditional;
}

char32_t detail::simplifiedHanByTable(char32_t cp) {
  if (installedHanVariants == nullptr) return cp;
  const HanVariants& t = *installedHanVariants;
  const char32_t bit = cp - HanVariants::kFirst;
  if ((t.present[bit / 64] >> (bit % 64) & 1) == 0) return cp;
  const char16_t* at = std::lower_bound(t.traditional, t.traditional + kHanVariants, static_cast<char16_t>(cp));
  return t.simplified[at - t.traditional];
}

// NFKC's mappings and compositions (checked for every entry against Node's
// String.prototype.normalize by tests/js/similarity.test.js): U+FF61 first.
const detail::HalfwidthKana detail::kHalfwidthKana[] = {
    {0x3002, 0, 0}, {0x300C, 0, 0}, {0x300D, 0, 0}, {0x3001, 0, 0},
    {0x30FB, 0, 0}, {0x30F2, 0x30FA, 0}, {0x30A1, 0, 0}, {0x30A3, 0, 0},
    {0x30A5, 0, 0}, {0x30A7, 0, 0}, {0x30A9, 0, 0}, {0x30E3, 0, 0},
    {0x30E5, 0, 0}, {0x30E7, 0, 0}, {0x30C3, 0, 0}, {0x30FC, 0, 0},
    {0x30A2, 0, 0}, {0x30A4, 0, 0}, {0x30A6, 0x30F4, 0}, {0x30A8, 0, 0},
    {0x30AA, 0, 0}, {0x30AB, 0x30AC, 0}, {0x30AD, 0x30AE, 0}, {0x30AF, 0x30B0, 0},
    {0x30B1, 0x30B2, 0}, {0x30B3, 0x30B4, 0}, {0x30B5, 0x30B6, 0}, {0x30B7, 0x30B8, 0},
    {0x30B9, 0x30BA, 0}, {0x30BB, 0x30BC, 0}, {0x30BD, 0x30BE, 0}, {0x30BF, 0x30C0, 0},
    {0x30C1, 0x30C2, 0}, {0x30C4, 0x30C5, 0}, {0x30C6, 0x30C7, 0}, {0x30C8, 0x30C9, 0},
    {0x30CA, 0, 0}, {0x30CB, 0, 0}, {0x30CC, 0, 0}, {0x30CD, 0, 0},
    {0x30CE, 0, 0}, {0x30CF, 0x30D0, 0x30D1}, {0x30D2, 0x30D3, 0x30D4}, {0x30D5, 0x30D6, 0x30D7},
    {0x30D8, 0x30D9, 0x30DA}, {0x30DB, 0x30DC, 0x30DD}, {0x30DE, 0, 0}, {0x30DF, 0, 0},
    {0x30E0, 0, 0}, {0x30E1, 0, 0}, {0x30E2, 0, 0}, {0x30E4, 0, 0},
    {0x30E6, 0, 0}, {0x30E8, 0, 0}, {0x30E9, 0, 0}, {0x30EA, 0, 0},
    {0x30EB, 0, 0}, {0x30EC, 0, 0}, {0x30ED, 0, 0}, {0x30EF, 0x30F7, 0},
    {0x30F3, 0, 0}, {0x3099, 0, 0}, {0x309A, 0, 0},
};

char32_t detail::foldHalfwidthKana(char32_t cp, const unsigned char* text, size_t size, size_t& pos) {
  const HalfwidthKana& kana = kHalfwidthKana[cp - 0xFF61];
  // U+FF9E and U+FF9F are EF BE 9E and EF BE 9F in UTF-8.
  if (pos + 3 <= size && text[pos] == 0xEF && text[pos + 1] == 0xBE && (text[pos + 2] & 0xFE) == 0x9E) {
    const char32_t composed = text[pos + 2] == 0x9E ? kana.voiced : kana.semiVoiced;
    if (composed != 0) {
      pos += 3;
      return composed;
    }
  }
  return kana.full;
}

namespace {

struct ClassRange {
  char32_t first, last;
  CharClass cls;
};

constexpr CharClass W = CharClass::Word;
constexpr CharClass C = CharClass::Cjk;

// Sorted, non-overlapping; code points not covered are separators. Letters, digits and
// marks by Unicode block, with the blocks' punctuation and symbols left out. CJK: the Han,
// kana, Hangul and bopomofo blocks of Unicode 13.0 (Extension I, U+2EBF0..U+2EE5D, of 15.1
// lies inside 0x20000..0x3134F). Kana Extended-B (14.0, U+1AFF0..), Extensions H (15.0,
// U+31350..) and J (17.0, U+323B0..) are not here: classing them CJK would change the
// fingerprints of texts that contain them, a new fingerprint format.
constexpr ClassRange kClassRanges[] = {
    {0x0030, 0x0039, W}, {0x0041, 0x005A, W}, {0x0061, 0x007A, W}, {0x00AA, 0x00AA, W},
    {0x00B5, 0x00B5, W}, {0x00BA, 0x00BA, W}, {0x00C0, 0x00D6, W}, {0x00D8, 0x00F6, W},
    {0x00F8, 0x02C1, W}, {0x02C6, 0x02D1, W}, {0x02E0, 0x02E4, W}, {0x02EC, 0x02EC, W},
    {0x02EE, 0x02EE, W}, {0x0300, 0x0374, W}, {0x0376, 0x037D, W}, {0x037F, 0x037F, W},
    {0x0386, 0x0386, W}, {0x0388, 0x03F5, W}, {0x03F7, 0x0481, W}, {0x0483, 0x052F, W},
    {0x0531, 0x0556, W}, {0x0559, 0x0559, W}, {0x0560, 0x0588, W}, {0x0591, 0x05BD, W},
    {0x05BF, 0x05BF, W}, {0x05C1, 0x05C2, W}, {0x05C4, 0x05C5, W}, {0x05C7, 0x05C7, W},
    {0x05D0, 0x05F2, W}, {0x0610, 0x061A, W}, {0x0620, 0x0669, W}, {0x066E, 0x06D3, W},
    {0x06D5, 0x06DC, W}, {0x06DF, 0x06E8, W}, {0x06EA, 0x06FC, W}, {0x06FF, 0x06FF, W},
    {0x0710, 0x074A, W}, {0x0780, 0x07B1, W}, {0x0900, 0x0963, W}, {0x0966, 0x096F, W},
    {0x0971, 0x0DF3, W}, {0x0E01, 0x0E3A, W}, {0x0E40, 0x0E4E, W}, {0x0E50, 0x0E59, W},
    {0x0E81, 0x0EDF, W}, {0x0F00, 0x0F00, W}, {0x0F18, 0x0F19, W}, {0x0F20, 0x0F29, W},
    {0x0F40, 0x0FBC, W}, {0x1000, 0x1049, W}, {0x1050, 0x109D, W}, {0x10A0, 0x10FA, W},
    {0x10FC, 0x10FF, W}, {0x1100, 0x11FF, C}, {0x1200, 0x135A, W}, {0x1369, 0x137C, W},
    {0x13A0, 0x13FD, W}, {0x1401, 0x166C, W}, {0x166F, 0x167F, W}, {0x1780, 0x17D3, W},
    {0x17E0, 0x17E9, W}, {0x1E00, 0x1FBC, W}, {0x1FBE, 0x1FBE, W}, {0x1FC2, 0x1FCC, W},
    {0x1FD0, 0x1FDB, W}, {0x1FE0, 0x1FEC, W}, {0x1FF2, 0x1FFC, W}, {0x2071, 0x2071, W},
    {0x207F, 0x207F, W}, {0x2090, 0x209C, W}, {0x2C00, 0x2CE4, W}, {0x2CEB, 0x2CF3, W},
    {0x2D00, 0x2D2D, W}, {0x2D30, 0x2D6F, W}, {0x2D80, 0x2DFF, W}, {0x2E80, 0x2FDF, C},
    {0x3005, 0x3007, C}, {0x3021, 0x3029, C}, {0x3031, 0x3035, C}, {0x3038, 0x303C, C},
    {0x3041, 0x3096, C}, {0x3099, 0x309F, C}, {0x30A1, 0x30FA, C}, {0x30FC, 0x30FF, C},
    {0x3105, 0x312F, C}, {0x3131, 0x318E, C}, {0x31A0, 0x31BF, C}, {0x31F0, 0x31FF, C},
    {0x3400, 0x4DBF, C}, {0x4E00, 0x9FFF, C}, {0xA000, 0xA48C, W}, {0xA640, 0xA69F, W},
    {0xA717, 0xA71F, W}, {0xA722, 0xA788, W}, {0xA78B, 0xA7FF, W}, {0xA960, 0xA97F, C},
    {0xAB30, 0xAB5A, W}, {0xAB5C, 0xAB69, W}, {0xAC00, 0xD7A3, C}, {0xD7B0, 0xD7FF, C},
    {0xF900, 0xFAFF, C}, {0xFB00, 0xFB4F, W}, {0xFB50, 0xFD3D, W}, {0xFD50, 0xFDFB, W},
    {0xFE70, 0xFEFC, W}, {0xFF10, 0xFF19, W}, {0xFF21, 0xFF3A, W}, {0xFF41, 0xFF5A, W},
    {0xFF66, 0xFF9F, C}, {0xFFA0, 0xFFDC, C}, {0x10000, 0x100FA, W}, {0x10400, 0x1049D, W},
    {0x1B000, 0x1B16F, C}, {0x1D400, 0x1D7FF, W}, {0x20000, 0x3134F, C},
};

}  // namespace

CharClass detail::classifyByRanges(char32_t cp) {
  if (cp < 0x80) {
    return ((cp | 0x20) - 'a' < 26 || cp - '0' < 10) ? CharClass::Word : CharClass::Separator;
  }
  auto it = std::upper_bound(std::begin(kClassRanges), std::end(kClassRanges), cp,
                             [](char32_t c, const ClassRange& r) { return c < r.first; });
  if (it == std::begin(kClassRanges)) return CharClass::Separator;
  const ClassRange& r = *std::prev(it);
  return cp <= r.last ? r.cls : CharClass::Separator;
}

namespace {

struct CodeRange16 {
  uint16_t first, last;
};

// General category P outside ASCII (Unicode 15.0, as Node 20's /\p{P}/u matches it), sorted;
// all of it lies in the BMP and plane 1, so 16 bits per bound suffice (a smaller download).
constexpr CodeRange16 kPunctuationBmp[] = {
    {0x00A1, 0x00A1}, {0x00A7, 0x00A7}, {0x00AB, 0x00AB}, {0x00B6, 0x00B7}, {0x00BB, 0x00BB},
    {0x00BF, 0x00BF}, {0x037E, 0x037E}, {0x0387, 0x0387}, {0x055A, 0x055F}, {0x0589, 0x058A},
    {0x05BE, 0x05BE}, {0x05C0, 0x05C0}, {0x05C3, 0x05C3}, {0x05C6, 0x05C6}, {0x05F3, 0x05F4},
    {0x0609, 0x060A}, {0x060C, 0x060D}, {0x061B, 0x061B}, {0x061D, 0x061F}, {0x066A, 0x066D},
    {0x06D4, 0x06D4}, {0x0700, 0x070D}, {0x07F7, 0x07F9}, {0x0830, 0x083E}, {0x085E, 0x085E},
    {0x0964, 0x0965}, {0x0970, 0x0970}, {0x09FD, 0x09FD}, {0x0A76, 0x0A76}, {0x0AF0, 0x0AF0},
    {0x0C77, 0x0C77}, {0x0C84, 0x0C84}, {0x0DF4, 0x0DF4}, {0x0E4F, 0x0E4F}, {0x0E5A, 0x0E5B},
    {0x0F04, 0x0F12}, {0x0F14, 0x0F14}, {0x0F3A, 0x0F3D}, {0x0F85, 0x0F85}, {0x0FD0, 0x0FD4},
    {0x0FD9, 0x0FDA}, {0x104A, 0x104F}, {0x10FB, 0x10FB}, {0x1360, 0x1368}, {0x1400, 0x1400},
    {0x166E, 0x166E}, {0x169B, 0x169C}, {0x16EB, 0x16ED}, {0x1735, 0x1736}, {0x17D4, 0x17D6},
    {0x17D8, 0x17DA}, {0x1800, 0x180A}, {0x1944, 0x1945}, {0x1A1E, 0x1A1F}, {0x1AA0, 0x1AA6},
    {0x1AA8, 0x1AAD}, {0x1B4E, 0x1B4F}, {0x1B5A, 0x1B60}, {0x1B7D, 0x1B7F}, {0x1BFC, 0x1BFF},
    {0x1C3B, 0x1C3F}, {0x1C7E, 0x1C7F}, {0x1CC0, 0x1CC7}, {0x1CD3, 0x1CD3}, {0x2010, 0x2027},
    {0x2030, 0x2043}, {0x2045, 0x2051}, {0x2053, 0x205E}, {0x207D, 0x207E}, {0x208D, 0x208E},
    {0x2308, 0x230B}, {0x2329, 0x232A}, {0x2768, 0x2775}, {0x27C5, 0x27C6}, {0x27E6, 0x27EF},
    {0x2983, 0x2998}, {0x29D8, 0x29DB}, {0x29FC, 0x29FD}, {0x2CF9, 0x2CFC}, {0x2CFE, 0x2CFF},
    {0x2D70, 0x2D70}, {0x2E00, 0x2E2E}, {0x2E30, 0x2E4F}, {0x2E52, 0x2E5D}, {0x3001, 0x3003},
    {0x3008, 0x3011}, {0x3014, 0x301F}, {0x3030, 0x3030}, {0x303D, 0x303D}, {0x30A0, 0x30A0},
    {0x30FB, 0x30FB}, {0xA4FE, 0xA4FF}, {0xA60D, 0xA60F}, {0xA673, 0xA673}, {0xA67E, 0xA67E},
    {0xA6F2, 0xA6F7}, {0xA874, 0xA877}, {0xA8CE, 0xA8CF}, {0xA8F8, 0xA8FA}, {0xA8FC, 0xA8FC},
    {0xA92E, 0xA92F}, {0xA95F, 0xA95F}, {0xA9C1, 0xA9CD}, {0xA9DE, 0xA9DF}, {0xAA5C, 0xAA5F},
    {0xAADE, 0xAADF}, {0xAAF0, 0xAAF1}, {0xABEB, 0xABEB}, {0xFD3E, 0xFD3F}, {0xFE10, 0xFE19},
    {0xFE30, 0xFE52}, {0xFE54, 0xFE61}, {0xFE63, 0xFE63}, {0xFE68, 0xFE68}, {0xFE6A, 0xFE6B},
    {0xFF01, 0xFF03}, {0xFF05, 0xFF0A}, {0xFF0C, 0xFF0F}, {0xFF1A, 0xFF1B}, {0xFF1F, 0xFF20},
    {0xFF3B, 0xFF3D}, {0xFF3F, 0xFF3F}, {0xFF5B, 0xFF5B}, {0xFF5D, 0xFF5D}, {0xFF5F, 0xFF65},
};
constexpr CodeRange16 kPunctuationPlane1[] = {  // code point - 0x10000
    {0x0100, 0x0102}, {0x039F, 0x039F}, {0x03D0, 0x03D0}, {0x056F, 0x056F}, {0x0857, 0x0857},
    {0x091F, 0x091F}, {0x093F, 0x093F}, {0x0A50, 0x0A58}, {0x0A7F, 0x0A7F}, {0x0AF0, 0x0AF6},
    {0x0B39, 0x0B3F}, {0x0B99, 0x0B9C}, {0x0D6E, 0x0D6E}, {0x0EAD, 0x0EAD}, {0x0ED0, 0x0ED0},
    {0x0F55, 0x0F59}, {0x0F86, 0x0F89}, {0x1047, 0x104D}, {0x10BB, 0x10BC}, {0x10BE, 0x10C1},
    {0x1140, 0x1143}, {0x1174, 0x1175}, {0x11C5, 0x11C8}, {0x11CD, 0x11CD}, {0x11DB, 0x11DB},
    {0x11DD, 0x11DF}, {0x1238, 0x123D}, {0x12A9, 0x12A9}, {0x13D4, 0x13D5}, {0x13D7, 0x13D8},
    {0x144B, 0x144F}, {0x145A, 0x145B}, {0x145D, 0x145D}, {0x14C6, 0x14C6}, {0x15C1, 0x15D7},
    {0x1641, 0x1643}, {0x1660, 0x166C}, {0x16B9, 0x16B9}, {0x173C, 0x173E}, {0x183B, 0x183B},
    {0x1944, 0x1946}, {0x19E2, 0x19E2}, {0x1A3F, 0x1A46}, {0x1A9A, 0x1A9C}, {0x1A9E, 0x1AA2},
    {0x1B00, 0x1B09}, {0x1BE1, 0x1BE1}, {0x1C41, 0x1C45}, {0x1C70, 0x1C71}, {0x1EF7, 0x1EF8},
    {0x1F43, 0x1F4F}, {0x1FFF, 0x1FFF}, {0x2470, 0x2474}, {0x2FF1, 0x2FF2}, {0x6A6E, 0x6A6F},
    {0x6AF5, 0x6AF5}, {0x6B37, 0x6B3B}, {0x6B44, 0x6B44}, {0x6D6D, 0x6D6F}, {0x6E97, 0x6E9A},
    {0x6FE2, 0x6FE2}, {0xBC9F, 0xBC9F}, {0xDA87, 0xDA8B}, {0xE5FF, 0xE5FF}, {0xE95E, 0xE95F},
};

template <size_t N>
bool inRanges(const CodeRange16 (&ranges)[N], char32_t cp) {
  auto it = std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                             [](char32_t c, const CodeRange16& r) { return c < r.first; });
  return it != std::begin(ranges) && cp <= std::prev(it)->last;
}

}  // namespace

bool detail::isPunctuationByRanges(char32_t cp) {
  if (cp < 0x10000) return inRanges(kPunctuationBmp, cp);
  return cp < 0x20000 && inRanges(kPunctuationPlane1, cp - 0x10000);
}

namespace {

constexpr std::array<uint8_t, 256> buildBmpPages() {
  std::array<uint8_t, 256> pages{};
  for (unsigned page = 1; page < 256; ++page) {  // page 0: ASCII has its own fast path, Latin-1 is mixed
    const char32_t first = page << 8, last = first + 0xFF;
    bool folds = false, punctuation = false;
    for (const FoldRange& r : kFoldRanges) folds |= r.first <= last && r.last >= first;
    for (const CodeRange16& r : kPunctuationBmp) punctuation |= r.first <= last && r.last >= first;
    // Uniform when one class range covers the page, or none touches it (all separators).
    int cls = static_cast<int>(CharClass::Separator);
    for (const ClassRange& r : kClassRanges) {
      if (r.first <= first && r.last >= last) cls = static_cast<int>(r.cls);
      else if (r.first <= last && r.last >= first) cls = -1;
    }
    pages[page] = static_cast<uint8_t>((cls >= 0 ? detail::kUniformClass | cls : 0) | (folds ? 0 : detail::kNoFolding) |
                                       (punctuation ? 0 : detail::kNoPunctuation));
  }
  return pages;
}

}  // namespace

const std::array<uint8_t, 256> detail::kBmpPages = buildBmpPages();

}  // namespace simhash::unicode
