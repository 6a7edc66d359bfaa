#include "unicode.h"

#include <algorithm>
#include <array>
#include <iterator>

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

namespace {

struct ClassRange {
  char32_t first, last;
  CharClass cls;
};

constexpr CharClass W = CharClass::Word;
constexpr CharClass C = CharClass::Cjk;

// Sorted, non-overlapping; code points not covered are separators. Letters, digits and
// marks by Unicode block, with the blocks' punctuation and symbols left out.
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

constexpr std::array<uint8_t, 256> buildBmpPages() {
  std::array<uint8_t, 256> pages{};
  for (unsigned page = 1; page < 256; ++page) {  // page 0: ASCII has its own fast path, Latin-1 is mixed
    const char32_t first = page << 8, last = first + 0xFF;
    bool folds = false;
    for (const FoldRange& r : kFoldRanges) folds |= r.first <= last && r.last >= first;
    // Uniform when one class range covers the page, or none touches it (all separators).
    int cls = static_cast<int>(CharClass::Separator);
    for (const ClassRange& r : kClassRanges) {
      if (r.first <= first && r.last >= last) cls = static_cast<int>(r.cls);
      else if (r.first <= last && r.last >= first) cls = -1;
    }
    pages[page] = static_cast<uint8_t>((cls >= 0 ? detail::kUniformClass | cls : 0) | (folds ? 0 : detail::kNoFolding));
  }
  return pages;
}

}  // namespace

const std::array<uint8_t, 256> detail::kBmpPages = buildBmpPages();

}  // namespace simhash::unicode
