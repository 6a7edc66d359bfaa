#include "simhash/similarity.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "text/unicode.h"

using simhash::ShingleOptions;
using simhash::ShingleSets;

namespace {

// The definition of similarity.h written plainly: a code point string per step, shingles
// as a std::set of strings, Jaccard from std::set_intersection. Shares only the Unicode
// tables (unicode.h) with the implementation.
std::u32string referenceNormalize(std::string_view utf8) {
  std::u32string decoded;
  const auto* text = reinterpret_cast<const unsigned char*>(utf8.data());
  for (size_t pos = 0; pos < utf8.size();) decoded.push_back(simhash::unicode::decodeNext(text, utf8.size(), pos));
  std::u32string kept;  // punctuation removed, case folded, whitespace as it was
  for (char32_t cp : decoded) {
    if (simhash::unicode::isPunctuation(cp)) continue;
    kept.push_back(simhash::unicode::isWhitespace(cp) ? cp : simhash::unicode::foldCase(cp));
  }
  auto cjk = [](char32_t cp) { return simhash::unicode::classify(cp) == simhash::unicode::CharClass::Cjk; };
  std::u32string out;
  for (size_t i = 0; i < kept.size();) {
    if (!simhash::unicode::isWhitespace(kept[i])) {
      out.push_back(kept[i++]);
      continue;
    }
    size_t end = i;
    while (end < kept.size() && simhash::unicode::isWhitespace(kept[end])) ++end;
    const bool inside = i > 0 && end < kept.size();
    if (inside && !(cjk(kept[i - 1]) && cjk(kept[end]))) out.push_back(U' ');
    i = end;
  }
  return out;
}

std::set<std::u32string> referenceShingles(std::string_view utf8, ShingleOptions options) {
  const std::u32string t = referenceNormalize(utf8);
  auto n = [&](size_t i) -> size_t {
    return simhash::unicode::classify(t[i]) == simhash::unicode::CharClass::Cjk ? options.cjk : options.alphabetic;
  };
  std::set<std::u32string> shingles;
  bool lastCovered = false;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i + n(i) <= t.size()) {
      shingles.insert(t.substr(i, n(i)));
      if (i + n(i) == t.size()) lastCovered = true;
    }
  }
  if (!t.empty() && !lastCovered) {
    size_t first = 0;
    while (first + n(first) <= t.size()) ++first;
    shingles.insert(t.substr(first));
  }
  return shingles;
}

// Jaccard of two reference shingle sets.
double referenceJaccard(const std::set<std::u32string>& x, const std::set<std::u32string>& y) {
  std::vector<std::u32string> shared;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(shared));
  const size_t total = x.size() + y.size();
  return total == 0 ? 1.0 : static_cast<double>(shared.size()) / static_cast<double>(total - shared.size());
}

double referenceSimilarity(std::string_view a, std::string_view b, ShingleOptions options = {}) {
  return referenceJaccard(referenceShingles(a, options), referenceShingles(b, options));
}

std::u32string normalized(std::string_view text) {
  std::vector<char32_t> out;
  simhash::normalizeForSimilarity(text, out);
  return {out.begin(), out.end()};
}

ShingleOptions sizes(unsigned alphabetic, unsigned cjk) {
  ShingleOptions o;
  o.alphabetic = static_cast<uint8_t>(alphabetic);
  o.cjk = static_cast<uint8_t>(cjk);
  return o;
}

// Texts as one buffer and offsets, as the batch calls take them.
struct Batch {
  std::string utf8;
  std::vector<uint32_t> offsets{0};
  explicit Batch(const std::vector<std::string>& texts) {
    for (const std::string& t : texts) {
      utf8 += t;
      offsets.push_back(static_cast<uint32_t>(utf8.size()));
    }
  }
};

// Random text from pieces that exercise every rule: Latin (with capitals and accents),
// CJK (Han, kana, Hangul), full-width letters, ASCII and CJK punctuation, whitespace of
// several kinds, symbols, an emoji (astral), digits and an invalid byte.
std::string randomText(std::mt19937& rng, size_t pieces) {
  static const char* const kPieces[] = {"a", "b", "c", "e", "the", "Cat", "ÉTÉ", "ß", "Σ", "ς", "и", "Д", "你", "好", "世",
                                        "界", "中", "の", "カ", "한", "ａ", "Ｂ", "１", "0", "7", " ", "  ", "\n", "\t",
                                        "\u3000", "\u00A0", ",", ".", "!", "'", "-", "，", "。", "「", "」", "…", "$",
                                        "+", "€", "😀", "\xFF", "\xE4\xBD"};
  std::uniform_int_distribution<size_t> pick(0, std::size(kPieces) - 1);
  std::string text;
  for (size_t i = 0; i < pieces; ++i) text += kPieces[pick(rng)];
  return text;
}

}  // namespace

TEST_CASE("normalization follows the fingerprint's", "[similarity]") {
  using Row = std::tuple<std::string, std::u32string>;
  auto [text, expected] = GENERATE(table<std::string, std::u32string>({
      Row{"", U""},
      Row{"   \n\t ", U""},
      Row{"Hello, World!", U"hello world"},
      Row{"  don't   stop  ", U"dont stop"},
      Row{"e-mail", U"email"},
      Row{"ＨＥＬＬＯ　ｗｏｒｌｄ１", U"hello world1"},
      Row{"你好，\n世界。", U"你好世界"},
      Row{"你好 ， 世界", U"你好世界"},
      Row{"你好 world 世界", U"你好 world 世界"},
      Row{"ΣΊΣΥΦΟΣ ς", U"σίσυφοσ σ"},
      Row{"$5 + 3 € 😀", U"$5 + 3 € 😀"},
      Row{"a\xFF" "b", U"a\uFFFDb"},
      Row{"...!!!", U""},
  }));
  CAPTURE(text);
  CHECK(normalized(text) == expected);
  CHECK(normalized(text) == referenceNormalize(text));
}

TEST_CASE("similarity of hand-checked pairs", "[similarity]") {
  using Row = std::tuple<std::string, std::string, double>;
  auto [a, b, expected] = GENERATE(table<std::string, std::string, double>({
      Row{"", "", 1.0},                          // J(empty, empty) = 1
      Row{"", "a", 0.0},
      Row{"...", "!!!", 1.0},                    // both normalize to the empty text
      Row{"a", "a", 1.0},                        // one-character texts: one shingle each
      Row{"a", "b", 0.0},
      Row{"ab", "AB!", 1.0},
      Row{"abcd", "abce", 1.0 / 3},             // {abc, bcd} vs {abc, bce}
      Row{"Hello, world", "hello world", 1.0},
      Row{"ｃａｔｓ", "cats", 1.0},               // full-width folds to ASCII
      Row{"中国人", "中国话", 1.0 / 3},           // bigrams {中国, 国人} vs {中国, 国话}
      Row{"中国人", "中国\n人", 1.0},             // whitespace between CJK is removed
      Row{"第3章", "第3节", 1.0 / 3},             // {第3, 3章} vs {第3, 3节}: the last code point is covered
      Row{"中b你", "中b好", 1.0 / 3},
      Row{"abab", "ab", 0.0},                   // {aba, bab} vs {ab}
      Row{"aaaa", "aaa", 1.0},                  // sets, not bags
  }));
  CAPTURE(a, b);
  CHECK(simhash::similarity(a, b) == expected);
  CHECK(referenceSimilarity(a, b) == expected);
}

TEST_CASE("shingle sizes: short texts are one shingle, CJK windows start at CJK characters", "[similarity]") {
  CHECK(referenceShingles("ab", sizes(3, 2)) == std::set<std::u32string>{U"ab"});
  CHECK(referenceShingles("abc 你好吗", sizes(3, 2)) ==
        std::set<std::u32string>{U"abc", U"bc ", U"c 你", U" 你好", U"你好", U"好吗"});
  CHECK(referenceShingles("你好a", sizes(3, 2)) == std::set<std::u32string>{U"你好", U"好a"});
  CHECK(referenceShingles("你a", sizes(3, 2)) == std::set<std::u32string>{U"你a"});
  CHECK(referenceShingles("a你", sizes(3, 2)) == std::set<std::u32string>{U"a你"});
  CHECK(referenceShingles("", sizes(3, 2)).empty());
  CHECK(referenceShingles("abc", sizes(1, 1)) == std::set<std::u32string>{U"a", U"b", U"c"});
}

TEST_CASE("single and batch similarity equal the reference on random texts", "[similarity]") {
  const auto [alphabetic, cjk] = GENERATE(table<unsigned, unsigned>({{3, 2}, {3, 3}, {2, 1}, {1, 3}, {1, 1}}));
  const ShingleOptions options = sizes(alphabetic, cjk);
  CAPTURE(alphabetic, cjk);
  std::mt19937 rng(alphabetic * 10 + cjk);
  std::vector<std::string> texts;
  for (int i = 0; i < 120; ++i) {
    const std::string base = randomText(rng, std::uniform_int_distribution<size_t>(0, 40)(rng));
    texts.push_back(base);
    // A near-duplicate of it: a few pieces changed, so pairs span the whole range of J.
    std::string variant = base;
    for (int e = 0; e < 2 && !variant.empty(); ++e) {
      const size_t at = std::uniform_int_distribution<size_t>(0, variant.size() - 1)(rng);
      variant.replace(at, 1, randomText(rng, 1));
    }
    texts.push_back(variant);
  }
  texts.push_back(std::string(3000, 'x') + randomText(rng, 500));  // a long text
  texts.push_back(randomText(rng, 500) + std::string(3000, 'x'));
  const Batch batch(texts);
  std::vector<uint32_t> a, b;
  for (uint32_t i = 0; i < texts.size(); ++i) {
    for (uint32_t j = 0; j < texts.size(); j += 1 + (i + j) % 7) a.push_back(i), b.push_back(j);
  }
  std::vector<double> similarities(a.size());
  simhash::pairSimilarities(batch.utf8.data(), batch.offsets.data(), static_cast<uint32_t>(texts.size()), a.data(), b.data(),
                            a.size(), similarities.data(), options);
  ShingleSets sets;
  sets.build(batch.utf8.data(), batch.offsets.data(), static_cast<uint32_t>(texts.size()), options);
  // Each text's reference set is made once: remade per pair, they were most of the case's
  // time (21x native under ASan).
  std::vector<std::set<std::u32string>> reference;
  for (const std::string& text : texts) reference.push_back(referenceShingles(text, options));
  size_t mismatches = 0;
  for (size_t p = 0; p < a.size(); ++p) {
    const double expected = referenceJaccard(reference[a[p]], reference[b[p]]);
    if (similarities[p] != expected || simhash::similarity(texts[a[p]], texts[b[p]], options) != expected) {
      ++mismatches;
      CAPTURE(texts[a[p]], texts[b[p]], expected, similarities[p]);
      CHECK(similarities[p] == expected);
    }
    CHECK(sets.size(a[p]) == reference[a[p]].size());
    // Thresholds at, just above and just below the exact value, and around it.
    for (double threshold : {expected, std::nextafter(expected, 2.0), std::nextafter(expected, -1.0), 0.0, 0.5, 1.0, -0.5, 1.5}) {
      if (sets.atLeast(a[p], b[p], threshold) != (expected >= threshold)) {
        ++mismatches;
        CAPTURE(texts[a[p]], texts[b[p]], expected, threshold);
        CHECK(sets.atLeast(a[p], b[p], threshold) == (expected >= threshold));
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK_FALSE(sets.atLeast(0, 1, std::nan("")));  // J >= NaN is false, as in JS

  // Every pair's reference similarity once, for the joins at each threshold.
  std::vector<double> pairJaccard;
  for (uint32_t i = 0; i < texts.size(); ++i) {
    for (uint32_t j = i + 1; j < texts.size(); ++j) pairJaccard.push_back(referenceJaccard(reference[i], reference[j]));
  }
  for (double threshold : {0.3, 0.5, 0.8, 1.0}) {
    std::vector<uint32_t> expected, joined;
    size_t pair = 0;
    for (uint32_t i = 0; i < texts.size(); ++i) {
      for (uint32_t j = i + 1; j < texts.size(); ++j) {
        if (pairJaccard[pair++] >= threshold) expected.push_back(i), expected.push_back(j);
      }
    }
    sets.pairsAtLeast(threshold, joined);
    CAPTURE(threshold);
    CHECK(joined == expected);
  }
}

TEST_CASE("sets built a slice of texts at a time equal the sets built at once", "[similarity]") {
  const auto slice = GENERATE(as<size_t>{}, 1, 7, 64, 1000);
  CAPTURE(slice);
  std::mt19937 rng(41);
  std::vector<std::string> texts;
  const char* const astral[] = {"\xF0\x9F\x99\x82", "\xF0\xA0\x80\x80", "\xF0\x9F\x98\x80"};  // 🙂, U+20000, 😀
  for (int i = 0; i < 300; ++i) {
    std::string text = randomText(rng, std::uniform_int_distribution<size_t>(0, 30)(rng));
    if (i % 5 == 0) text += astral[i % 3];
    texts.push_back(text);
  }
  const Batch batch(texts);
  const auto count = static_cast<uint32_t>(texts.size());
  // Each text's reference set made once, as in the case above.
  std::vector<std::set<std::u32string>> reference;
  for (const std::string& text : texts) reference.push_back(referenceShingles(text, {}));
  std::vector<uint8_t> needed(count);
  for (uint32_t i = 0; i < count; ++i) needed[i] = i % 4 != 3;
  for (const uint8_t* mask : {static_cast<const uint8_t*>(nullptr), static_cast<const uint8_t*>(needed.data())}) {
    ShingleSets once, sliced;
    once.build(batch.utf8.data(), batch.offsets.data(), count, {}, mask);
    // Each slice's texts rebased to their own buffer, as the JS layer encodes them.
    auto forEachSlice = [&](auto use) {
      for (uint32_t start = 0; start < count; start += static_cast<uint32_t>(slice)) {
        const uint32_t end = std::min<uint32_t>(count, start + static_cast<uint32_t>(slice));
        const Batch part(std::vector<std::string>(texts.begin() + start, texts.begin() + end));
        use(part, end - start, mask ? mask + start : nullptr);
      }
    };
    forEachSlice([&](const Batch& part, uint32_t n, const uint8_t* m) { sliced.countTexts(part.utf8.data(), part.offsets.data(), n, {}, m); });
    forEachSlice([&](const Batch& part, uint32_t n, const uint8_t* m) { sliced.addTexts(part.utf8.data(), part.offsets.data(), n, m); });
    REQUIRE(sliced.count() == count);
    size_t mismatches = 0;
    for (uint32_t i = 0; i < count; ++i) {
      if (mask && !mask[i]) continue;
      if (sliced.size(i) != once.size(i)) ++mismatches;
      for (uint32_t j = 0; j < count; j += 1 + (i + j) % 5) {
        if (mask && !mask[j]) continue;
        if (sliced.similarity(i, j) != once.similarity(i, j) || sliced.similarity(i, j) != referenceJaccard(reference[i], reference[j])) {
          ++mismatches;
          CAPTURE(texts[i], texts[j], once.similarity(i, j), sliced.similarity(i, j));
          CHECK(sliced.similarity(i, j) == once.similarity(i, j));
        }
      }
    }
    CHECK(mismatches == 0);
    sliced.clear();
    CHECK(sliced.memoryBytes() == 0);
  }
}

TEST_CASE("verifyPairs decides J >= threshold and builds only the texts it needs", "[similarity]") {
  const std::vector<std::string> texts = {
      "The quick brown fox jumps over the lazy dog.", "The quick brown fox jumped over the lazy dog!",
      "Completely different words here.",            "天下没有不散的宴席。",
      "天下没有不散之宴席",                            "",
      "",                                             "\xFF\xFE",
  };
  const Batch batch(texts);
  const std::vector<uint32_t> a = {0, 0, 3, 5, 5, 1, 7}, b = {1, 2, 4, 6, 0, 0, 7};
  for (double threshold : {0.3, 0.5, 0.7, 0.9}) {
    std::vector<uint8_t> out(a.size(), 7);
    simhash::verifyPairs(batch.utf8.data(), batch.offsets.data(), static_cast<uint32_t>(texts.size()), a.data(), b.data(),
                         a.size(), threshold, out.data());
    for (size_t p = 0; p < a.size(); ++p) {
      CAPTURE(threshold, texts[a[p]], texts[b[p]]);
      CHECK(out[p] == (referenceSimilarity(texts[a[p]], texts[b[p]]) >= threshold ? 1 : 0));
    }
  }
  const std::vector<uint8_t> needed = {1, 0, 0, 0, 0, 0, 0, 0};
  ShingleSets sets;
  sets.build(batch.utf8.data(), batch.offsets.data(), static_cast<uint32_t>(texts.size()), {}, needed.data());
  CHECK(sets.size(0) == referenceShingles(texts[0], {}).size());
  CHECK(sets.size(1) == 0);
}

TEST_CASE("compact sets: about 2 bytes per shingle of English text", "[similarity]") {
  std::mt19937 rng(5);
  static const char* const kWords[] = {"the", "of", "and", "a", "to", "in", "is", "you", "that", "it", "he", "was", "for",
                                       "on", "are", "as", "with", "his", "they", "at", "be", "this", "have", "from",
                                       "or", "one", "had", "by", "word", "but", "not", "what", "all", "were", "we",
                                       "when", "your", "can", "said", "there", "use", "an", "each", "which", "she"};
  std::vector<std::string> texts(2000);
  size_t bytes = 0;
  for (std::string& t : texts) {
    for (int w = 0; w < 40; ++w) t += std::string(kWords[rng() % std::size(kWords)]) + (w % 9 == 8 ? ". " : " ");
    bytes += t.size();
  }
  const Batch batch(texts);
  ShingleSets sets;
  sets.build(batch.utf8.data(), batch.offsets.data(), static_cast<uint32_t>(texts.size()));
  CAPTURE(bytes, sets.memoryBytes());
  CHECK(sets.memoryBytes() < 2 * bytes + 300 * 1024);  // + the code point table
}
