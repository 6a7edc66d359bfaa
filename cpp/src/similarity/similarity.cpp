#include "simhash/similarity.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string_view>

#include "simhash/word_weights.h"
#include "similarity/shingling.h"

namespace simhash {

using shingling::forEachShingleCode;
using shingling::isCjk;
using shingling::normalize;

const char16_t* installHanVariants(const unsigned char* bytes, size_t size) { return unicode::installHanVariants(bytes, size); }

bool isValid(const ShingleOptions& options) {
  const bool weighted = options.weights != nullptr;
  return options.alphabetic >= 1 && options.alphabetic <= kMaxShingle && options.cjk >= 1 && options.cjk <= kMaxShingle &&
         options.normalization <= Normalization::kList &&
         (!weighted || (options.normalization == Normalization::kList && options.alphabetic == 2 && options.cjk == 2));
}

size_t shingleRoom(size_t n, const ShingleOptions& options) {
  return (n + 1) * (options.weights != nullptr ? WordWeights::kMaxWeight : 1);
}

// Out of line: inlined into each caller, the normalization would be in the download once per caller.
[[gnu::noinline]] size_t shingling::normalizeInto(std::string_view utf8, Normalization normalization, char32_t* out) {
  size_t length = 0;
  normalize(utf8, normalization, [&](char32_t cp) { out[length++] = cp; });
  return normalization == Normalization::kList ? shortenListWords(out, length) : length;
}

void normalizeForSimilarity(std::string_view utf8, std::vector<char32_t>& out, Normalization normalization) {
  // Written through a pointer into a buffer of the worst-case size (a code point per
  // byte, and a frame): push_back per code point costs about twice as much in WASM.
  out.resize(utf8.size() + 2);
  out.resize(shingling::normalizeInto(utf8, normalization, out.data()));
}

namespace {

// The words of a list-normalized text that name one thing with another's letters, each
// `written=short|`: legal forms written out (as their abbreviations spell them, which the
// look-alike rule of js/core/look-alikes.js also explains), and conjunctions, which `&`
// (punctuation) writes as nothing. A short form of "" is a conjunction, dropped where a word
// precedes and one follows it: `Johnson and Johnson`, `Johnson & Johnson` and `Johnson
// Johnson` are alike. Then legal forms of several words, written as the list normalization
// writes them (diacritics removed) once the single words are short, one space apart, so that
// texts stored by an earlier revision, whose single words were shortened, read alike; none
// starts another. The look-alike rule reads this table (listForms()).
constexpr char kListForms[] =
    "incorporated=inc|corporation=corp|limited=ltd|company=co|aktiengesellschaft=ag|kommanditgesellschaft=kg|aktiebolag=ab|"
    "berhad=bhd|and=|und=|et=|"
    "gesellschaft mit beschrankter haftung=gmbh|ltd liability co=llc|public ltd co=plc|proprietary ltd=pty ltd|societe anonyme=sa|sociedad anonima=sa|societa per azioni=spa|"
    "societe par actions simplifiee=sas|societe a responsabilite limitee=sarl|societa a responsabilita limitata=srl|"
    "sociedad de responsabilidad limitada=srl|sociedad limitada=sl|naamloze vennootschap=nv|besloten vennootschap=bv|"
    "kabushiki kaisha=kk|sendirian bhd=sdn bhd|";

// An entry of kListForms: written at [start, start + length), its short form after the `=`.
struct ListForm {
  uint16_t start;
  uint8_t length, shortLength;
};
constexpr size_t kListFormCount = [] {
  size_t count = 0;
  for (char c : kListForms) count += c == '|';
  return count;
}();
constexpr std::array<ListForm, kListFormCount> kListFormEntries = [] {
  std::array<ListForm, kListFormCount> entries{};
  size_t at = 0;
  for (ListForm& entry : entries) {
    entry.start = static_cast<uint16_t>(at);
    while (kListForms[at] != '=') ++at;
    entry.length = static_cast<uint8_t>(at - entry.start);
    const size_t shortStart = ++at;
    while (kListForms[at] != '|') ++at;
    entry.shortLength = static_cast<uint8_t>(at++ - shortStart);
  }
  return entries;
}();

// For each first letter a-z, the entries of kListForms it starts, a bit each; and the
// entries of several words (all after those of one), a bit each.
static_assert(kListFormCount <= 32, "a bit per entry");
constexpr std::array<uint32_t, 26> kListFormsByLetter = [] {
  std::array<uint32_t, 26> masks{};
  for (size_t k = 0; k < kListFormCount; ++k) masks[kListForms[kListFormEntries[k].start] - 'a'] |= uint32_t{1} << k;
  return masks;
}();
constexpr uint32_t kListPhrases = [] {
  uint32_t phrases = 0;
  for (size_t k = 0; k < kListFormCount; ++k) {
    for (size_t i = 0; i < kListFormEntries[k].length; ++i) phrases |= uint32_t{kListForms[kListFormEntries[k].start + i] == ' '} << k;
  }
  return phrases;
}();

// Below it no code point starts or ends a CJK legal form.
constexpr char32_t kFirstCjkLegalForm = 0x3000;

// The legal forms of CJK companies, as the Han fold writes them, longest first, each ended
// by `|` (all in the BMP). A name carries one before or after it without a space
// (`株式会社ソニー`, `ソニー株式会社`, `腾讯控股有限公司`, `삼성전자주식회사`), so the word is the
// name with it. Dropped there, as an abbreviation would explain them: the name's own
// characters then tell two companies apart (`三菱商事株式会社` / `三菱地所株式会社`).
constexpr char16_t kCjkLegalForms[] = u"股份有限公司|有限责任公司|유한책임회사|有限公司|株式会社|有限会社|合同会社|合资会社|合名会社|주식회사|유한회사|";

// The length of the longest of kCjkLegalForms that cps[0, n) starts with (ends with, atEnd), or 0.
size_t cjkLegalForm(const char32_t* cps, size_t n, bool atEnd) {
  for (const char16_t* form = kCjkLegalForms; *form != 0;) {
    size_t size = 0;
    while (form[size] != u'|') ++size;
    if (size <= n && std::equal(form, form + size, atEnd ? cps + n - size : cps)) return size;
    form += size + 1;
  }
  return 0;
}

// The entry of kListForms that cps[0, n) starts with, whole words (several if `phrase`, else
// one), or null.
const ListForm* listFormOf(const char32_t* cps, size_t n, bool phrase) {
  if (n < 2 || cps[0] < 'a' || cps[0] > 'z') return nullptr;
  for (uint32_t entries = kListFormsByLetter[cps[0] - 'a'] & (phrase ? kListPhrases : ~kListPhrases); entries != 0; entries &= entries - 1) {
    const ListForm& entry = kListFormEntries[__builtin_ctz(entries)];
    const char* written = kListForms + entry.start;
    if (entry.length > n || (entry.length < n && cps[entry.length] != U' ')) continue;
    if (std::equal(written, written + entry.length, cps)) return &entry;
  }
  return nullptr;
}

// Writes entry's short form at cps + out. @return out after it.
size_t writeShort(const ListForm& entry, char32_t* cps, size_t out) {
  const char* shortForm = kListForms + entry.start + entry.length + 1;
  for (size_t k = 0; k < entry.shortLength; ++k) cps[out++] = static_cast<char32_t>(shortForm[k]);
  return out;
}

// The phrases of kListForms in cps[0, n) (list-normalized, single words shortened) as their short forms, in place.
// @return the code points now, at most n.
size_t shortenListPhrases(char32_t* cps, size_t n) {
  size_t out = 0;
  bool wordStart = true;
  for (size_t i = 0; i < n;) {
    const ListForm* phrase = wordStart && cps[i] != U' ' ? listFormOf(cps + i, n - i, true) : nullptr;
    if (phrase != nullptr) {
      out = writeShort(*phrase, cps, out);
      i += phrase->length;
    } else {
      wordStart = cps[i] == U' ';
      cps[out++] = cps[i++];
    }
  }
  return out;
}

}  // namespace

bool shingling::bracketedLegalForm(const unsigned char* text, size_t size, size_t& pos) {
  size_t at = pos;
  const auto next = [&] { return at < size ? unicode::decodeNext(text, size, at) : 0; };
  const char32_t open = next(), form = next(), close = next();
  if ((open != U'(' && open != U'（') || (form != U'株' && form != U'有') || (close != U')' && close != U'）')) return false;
  pos = at;
  return true;
}

namespace {

// A Japanese or Chinese address's counter after a digit, before a digit or a word's end
// (`1丁目2番3号`, `建国路88号`), as many code points as it has; 0 for none. Dropped, as the
// `-` of `1-2-3` is.
size_t addressCounter(const char32_t* cps, size_t at, size_t n) {
  if (cps[at - 1] < U'0' || cps[at - 1] > U'9') return 0;
  size_t k = cps[at] == U'丁' && at + 1 < n && cps[at + 1] == U'目' ? 2
             : cps[at] == U'番' ? (at + 1 < n && cps[at + 1] == U'地' ? 2 : 1)
             : cps[at] == U'号' ? 1 : 0;
  return k != 0 && (at + k == n || cps[at + k] == U' ' || (cps[at + k] >= U'0' && cps[at + k] <= U'9')) ? k : 0;
}

}  // namespace

[[gnu::noinline]] size_t shingling::shortenListWords(char32_t* cps, size_t n) {
  size_t out = 0;
  for (size_t i = 0; i < n;) {
    if (cps[i] == U' ') {
      cps[out++] = cps[i++];
      continue;
    }
    size_t end = i;
    while (end < n && cps[end] != U' ') ++end;
    const size_t wordEnd = end;
    const ListForm* entry = listFormOf(cps + i, end - i, false);
    if (entry == nullptr) {
      // CJK legal forms at either end, while the name is left: a word that is one form stays
      // (so that normalizing again changes nothing).
      if (cps[i] >= kFirstCjkLegalForm || cps[end - 1] >= kFirstCjkLegalForm) {
        for (size_t k; (k = cjkLegalForm(cps + i, end - i, false)) != 0 && k < end - i;) i += k;
        for (size_t k; (k = cjkLegalForm(cps + i, end - i, true)) != 0 && k < end - i;) end -= k;
      }
      // Reads cps[i - 1] as written: `out` never passes i.
      while (i < end) {
        const size_t counter = addressCounter(cps, i, end);
        if (counter == 0) cps[out++] = cps[i];
        i += counter == 0 ? 1 : counter;
      }
      i = wordEnd;
    } else if (entry->shortLength != 0) {
      out = writeShort(*entry, cps, out);
      i = end;
    } else if (out > 1 && end + 1 < n) {
      i = end + 1;  // a conjunction between two words, and the space after it
    } else {
      while (i < end) cps[out++] = cps[i++];
    }
  }
  return shortenListPhrases(cps, out);
}

const char* listForms() { return kListForms; }
const char16_t* cjkLegalForms() { return kCjkLegalForms; }

uint32_t leastShared(uint32_t na, uint32_t nb, double threshold) {
  const uint32_t most = std::min(na, nb);
  const double total = static_cast<double>(na) + nb;
  auto reaches = [&](uint32_t t) { return static_cast<double>(t) / (total - t) >= threshold; };
  if (!(threshold > 0)) return reaches(0) ? 0 : most + 1;  // NaN never reaches
  if (threshold > 1) return most + 1;
  double estimate = threshold * total / (1 + threshold);
  uint32_t t = estimate >= most ? most : static_cast<uint32_t>(estimate);
  while (t > 0 && reaches(t - 1)) --t;
  while (t <= most && !reaches(t)) ++t;
  return t;
}

size_t canonicalShingleCodes(const char32_t* cps, size_t n, const ShingleOptions& options, uint64_t* out) {
  // Numbered by code point (cp + 1 < 2^21), the codes are exact without a numbering.
  // Texts of up to 1,024 code points (most that are compared) need no allocation.
  uint32_t numbersHere[1024];
  uint8_t cjkHere[1024];
  std::vector<uint32_t> numbersHeap;
  std::vector<uint8_t> cjkHeap;
  uint32_t* numbers = numbersHere;
  uint8_t* cjk = cjkHere;
  if (n > 1024) {
    numbersHeap.resize(n);
    cjkHeap.resize(n);
    numbers = numbersHeap.data();
    cjk = cjkHeap.data();
  }
  for (size_t i = 0; i < n; ++i) {
    numbers[i] = cps[i] + 1;
    cjk[i] = isCjk(cps[i]);
  }
  size_t count = 0;
  forEachShingleCode(numbers, cjk, n, options, uint64_t{1} << kCanonicalBits, [&](uint64_t code) { out[count++] = code; });
  if (options.weights == nullptr || count == 0) return count;
  // The weights in the numbers' room, which is no longer needed.
  auto* weight = reinterpret_cast<uint8_t*>(numbers);
  bigramWeights(cps, n, *options.weights, weight);
  return shingling::addCopies(out, count, weight, uint64_t{1} << kCanonicalBits);
}

[[gnu::noinline]] size_t shingling::addCopies(uint64_t* codes, size_t n, const uint8_t* weight, uint64_t base) {
  size_t total = 0;
  for (size_t k = 0; k < n; ++k) total += weight[k];
  const uint64_t base2 = base * base;
  // From the end, so that no code is overwritten before it is copied.
  for (size_t k = n, to = total; k-- > 0;) {
    const uint64_t code = codes[k];
    for (unsigned c = weight[k]; c-- > 0;) codes[--to] = code + c * base2;
  }
  return total;
}

void canonicalShingles(const char32_t* cps, size_t n, const ShingleOptions& options, std::vector<uint64_t>& out) {
  out.resize(shingleRoom(n, options));
  out.resize(canonicalShingleCodes(cps, n, options, out.data()));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

double similarity(std::string_view a, std::string_view b, const ShingleOptions& options) {
  SimilarityScratch scratch;
  return similarity(a, b, options, scratch);
}

double similarity(std::string_view a, std::string_view b, const ShingleOptions& options, SimilarityScratch& scratch) {
  std::vector<uint64_t>* sets = scratch.sets;
  std::vector<char32_t>& cps = scratch.cps;
  const std::string_view texts[2] = {a, b};
  for (int s = 0; s < 2; ++s) {
    normalizeForSimilarity(texts[s], cps, options.normalization);
    canonicalShingles(cps.data(), cps.size(), options, sets[s]);
  }
  size_t shared = 0;
  for (size_t i = 0, j = 0; i < sets[0].size() && j < sets[1].size();) {
    if (sets[0][i] == sets[1][j]) {
      ++shared, ++i, ++j;
    } else if (sets[0][i] < sets[1][j]) {
      ++i;
    } else {
      ++j;
    }
  }
  const size_t total = sets[0].size() + sets[1].size();
  return total == 0 ? 1.0 : static_cast<double>(shared) / static_cast<double>(total - shared);
}

}  // namespace simhash
