// The short-string similarity (similarity.h Normalization::kList, kShortStringOptions) and its
// word weights (word_weights.h): the definition written plainly and compared with the one-pair
// call, the batch sets, SimilarGroups' candidates and the text index, and the weights' byte
// format inside the text index's.
#include "simhash/word_weights.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "simhash/fingerprint.h"
#include "simhash/similar_groups.h"
#include "simhash/similarity.h"
#include "simhash/text_index.h"
#include "text/han_variants.h"
#include "text/unicode.h"
#include "list_weights.h"

using simhash::kShortStringOptions;
using simhash::Normalization;
using simhash::ShingleOptions;
using simhash::ShingleSets;
using simhash::TextIndex;
using simhash::WordWeights;
using list_weights::learnWeights;

namespace {

std::u32string listNormalized(const std::string& text) {
  std::vector<char32_t> cps;
  simhash::normalizeForSimilarity(text, cps, Normalization::kList);
  return std::u32string(cps.begin(), cps.end());
}

std::string utf8(const std::u32string& cps) {
  std::string out;
  char buffer[4];
  for (char32_t cp : cps) out.append(buffer, simhash::unicode::encodeUtf8(cp, buffer));
  return out;
}

// The words of a list-normalized text: its runs between spaces.
std::vector<std::u32string> wordsOf(const std::u32string& normalized) {
  std::vector<std::u32string> words;
  std::u32string word;
  for (char32_t cp : normalized + U' ') {
    if (cp != U' ') {
      word += cp;
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  return words;
}

// The definition of README "Similarity of short strings" written plainly: weights by word
// (df counted over `list`, a word once a text; none when list is empty), each bigram of the
// framed text with the weight of its word (the heaviest where it repeats), Σ min / Σ max.
struct Reference {
  std::map<std::u32string, uint32_t> df;
  uint32_t texts = 0;
  bool weighted = false;

  explicit Reference(const std::vector<std::string>& list) : texts(static_cast<uint32_t>(list.size())), weighted(!list.empty()) {
    for (const std::string& text : list) {
      std::vector<std::u32string> words = wordsOf(listNormalized(text));
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
      for (const auto& word : words) ++df[word];
    }
  }

  unsigned weight(const std::u32string& word) const {
    if (!weighted) return 1;
    const auto it = df.find(word);
    const double held = (it == df.end() ? 0 : it->second) + 1.0;
    unsigned k = 0;
    while (k < 8 && held * std::pow(2.0, k + 1) <= texts + 1.0) ++k;
    return std::max(1u, k);
  }

  std::map<std::u32string, unsigned> bigrams(const std::string& text) const {
    const std::u32string n = listNormalized(text);
    std::map<std::u32string, unsigned> out;
    // Word by word: each word with the space before and after it.
    for (const auto& word : wordsOf(n)) {
      const std::u32string framed = U" " + word + U" ";
      for (size_t i = 0; i + 2 <= framed.size(); ++i) {
        unsigned& w = out[framed.substr(i, 2)];
        w = std::max(w, weight(word));
      }
    }
    return out;
  }

  double similarity(const std::string& a, const std::string& b) const {
    const auto x = bigrams(a), y = bigrams(b);
    if (x.empty() && y.empty()) return 1;
    uint64_t mins = 0, maxes = 0;
    for (const auto& [g, w] : x) {
      const auto it = y.find(g);
      mins += it == y.end() ? 0 : std::min(w, it->second);
      maxes += it == y.end() ? w : std::max(w, it->second);
    }
    for (const auto& [g, w] : y) maxes += x.count(g) ? 0 : w;
    return static_cast<double>(mins) / static_cast<double>(maxes);
  }
};


ShingleOptions weighted(const WordWeights& weights) {
  ShingleOptions options = kShortStringOptions;
  options.weights = &weights;
  return options;
}

// Random name-like lines: a few hundred words (some common, like Inc and Street), with
// diacritics, case, punctuation and CJK runs, and planted variants (a letter dropped or
// doubled, words swapped or abbreviated).
std::vector<std::string> randomList(std::mt19937& rng, size_t count) {
  const std::vector<std::string> common = {"Inc.", "Corp", "Street", "GmbH", "Ltd", "of", "the"};
  std::vector<std::string> rare;
  const std::vector<std::string> pieces = {"jo", "sé", "mü", "ller", "gar", "cía", "an", "na", "ber", "tó", "ka", "北京", "大学", "東京", "ØS", "łó"};
  for (int i = 0; i < 300; ++i) {
    std::string word;
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) word += pieces[rng() % pieces.size()];
    rare.push_back(word);
  }
  std::vector<std::string> list;
  while (list.size() < count) {
    std::string line;
    const int words = 1 + static_cast<int>(rng() % 4);
    for (int w = 0; w < words; ++w) {
      if (w) line += rng() % 4 == 0 ? ", " : " ";
      line += rng() % 3 == 0 ? common[rng() % common.size()] : rare[rng() % rare.size()];
    }
    list.push_back(line);
    if (rng() % 2 == 0 && list.size() < count) {  // a variant
      std::string variant = line;
      const size_t at = rng() % variant.size();
      if (rng() % 2 == 0 && static_cast<unsigned char>(variant[at]) < 0x80) variant.erase(at, 1);
      else variant += rng() % 2 ? "a" : " Ltd";
      list.push_back(variant);
    }
  }
  return list;
}

}  // namespace

TEST_CASE("the list normalization: diacritics and combining marks removed, words framed by spaces", "[short]") {
  CHECK(listNormalized("José  García") == U" jose garcia ");
  CHECK(listNormalized("Jose\xCC\x81") == U" jose ");  // e + U+0301
  CHECK(listNormalized("MÜLLER, Łódź; Nguyễn Øre") == U" muller lodz nguyen ore ");
  CHECK(listNormalized("N.V.") == U" nv ");
  CHECK(listNormalized("北京 大學") == U" 北京大学 ");  // traditional Han folded
  CHECK(listNormalized("") == U"");
  CHECK(listNormalized(" ,. ") == U"");
  CHECK(listNormalized("ß æ \u01C5") == U" \u00DF \u00E6 \u01C5 ");  // no base letter by NFKD alone: kept
  // Every letter the table maps has the lower-case base NFKD gives it (spot checks per block).
  CHECK(simhash::unicode::withoutDiacritic(0xC5) == U'a');
  CHECK(simhash::unicode::withoutDiacritic(0x17E) == U'z');
  CHECK(simhash::unicode::withoutDiacritic(0x1EF9) == U'y');
  CHECK(simhash::unicode::withoutDiacritic(0x301) == 0);
  CHECK(simhash::unicode::withoutDiacritic(0x3AC) == 0x3AC);  // Greek: not folded
}

TEST_CASE("the list normalization: legal forms written out and conjunctions as their short forms", "[short]") {
  CHECK(listNormalized("Apple Incorporated") == U" apple inc ");
  CHECK(listNormalized("SIEMENS Aktiengesellschaft") == U" siemens ag ");
  CHECK(listNormalized("Acme Corporation Limited") == U" acme corp ltd ");
  CHECK(listNormalized("Ford Motor Company") == U" ford motor co ");
  CHECK(listNormalized("Johnson and Johnson") == U" johnson johnson ");
  CHECK(listNormalized("Johnson & Johnson") == U" johnson johnson ");
  CHECK(listNormalized("Müller und Söhne") == U" muller sohne ");
  // A conjunction first or last, or alone, is a word of its own; only whole words are shortened.
  CHECK(listNormalized("And Co") == U" and co ");
  CHECK(listNormalized("rock and") == U" rock and ");
  CHECK(listNormalized("and") == U" and ");
  CHECK(listNormalized("Limitedly Incorporatedness Andes") == U" limitedly incorporatedness andes ");
  // Legal forms of several words, as their abbreviations: whole words only, anywhere in the name.
  CHECK(listNormalized("Müller Gesellschaft mit beschränkter Haftung") == U" muller gmbh ");
  CHECK(listNormalized("Acme Limited Liability Company") == U" acme llc ");
  CHECK(listNormalized("Tesco Public Limited Company") == U" tesco plc ");
  CHECK(listNormalized("Dupont Société à responsabilité limitée") == U" dupont sarl ");
  CHECK(listNormalized("Sociedad Anónima Garcia") == U" sa garcia ");
  CHECK(listNormalized("BHP Proprietary Limited") == U" bhp pty ltd ");
  CHECK(listNormalized("Volvo Aktiebolag") == U" volvo ab ");
  CHECK(listNormalized("Acme Ltd Liability Co") == U" acme llc ");  // as an earlier revision stored it
  CHECK(listNormalized("Sendirian Berhad") == U" sdn bhd ");
  CHECK(listNormalized("Limited Liability Companies") == U" ltd liability companies ");
  CHECK(listNormalized("Public Limited") == U" public ltd ");
  CHECK(listNormalized("Societe Anonymes") == U" societe anonymes ");
  for (const char* text : {"Acme Limited Liability Company", "Sendirian Berhad", "Naamloze Vennootschap Besloten Vennootschap"}) {
    CAPTURE(text);
    CHECK(listNormalized(utf8(listNormalized(text))) == listNormalized(text));  // normalized again, the same
  }
  const ShingleOptions options = simhash::kShortStringOptions;
  CHECK(simhash::similarity("Siemens AG", "Siemens Aktiengesellschaft", options) == 1.0);
  CHECK(simhash::similarity("Apple Inc.", "Apple Incorporated", options) == 1.0);
  CHECK(simhash::similarity("Johnson & Johnson", "Johnson and Johnson", options) == 1.0);
  CHECK(simhash::similarity("Müller GmbH", "Müller Gesellschaft mit beschränkter Haftung", options) == 1.0);
  CHECK(simhash::similarity("Renault S.A.", "Renault Société Anonyme", options) == 1.0);
  CHECK(simhash::similarity("Schmidt GmbH & Co. KG", "Schmidt GmbH und Co. KG", options) == 1.0);
}

TEST_CASE("the list normalization: CJK legal forms dropped at either end of a name", "[short]") {
  CHECK(listNormalized("ソニー株式会社") == U" ソニー ");
  CHECK(listNormalized("株式会社ソニー") == U" ソニー ");
  CHECK(listNormalized("株式会社 ソニー") == U" ソニー ");  // whitespace between CJK characters is removed
  CHECK(listNormalized("Sony株式会社") == U" sony ");
  CHECK(listNormalized("腾讯控股有限公司") == U" 腾讯控股 ");
  CHECK(listNormalized("中華電信股份有限公司") == U" 中华电信 ");    // folded first, then the longest form
  CHECK(listNormalized("株式會社日立製作所") == U" 日立制作所 ");  // 會: the fold writes the form
  CHECK(listNormalized("삼성전자주식회사") == U" 삼성전자 ");
  CHECK(listNormalized("주식회사 카카오 유한회사") == U" 카카오 ");
  // A word that is a form stays, as does a form within a name; the longest form at an end goes whole.
  CHECK(listNormalized("株式会社") == U" 株式会社 ");
  CHECK(listNormalized("股份有限公司") == U" 股份有限公司 ");
  CHECK(listNormalized("株式会社有限会社") == U" 有限会社 ");
  CHECK(listNormalized("ソニー株式会社東京") == U" ソニー株式会社东京 ");
  CHECK(listNormalized("有限公司 Acme") == U" 有限公司 acme ");
  for (const char* text : {"ソニー株式会社", "株式会社有限会社", "株式会社株式会社ソニー有限会社", "股份有限公司", "有限公司有限公司", "주식회사"}) {
    CAPTURE(text);
    CHECK(listNormalized(utf8(listNormalized(text))) == listNormalized(text));  // normalized again, the same
  }
  const ShingleOptions options = simhash::kShortStringOptions;
  CHECK(simhash::similarity("ソニー株式会社", "株式会社ソニー", options) == 1.0);
  CHECK(simhash::similarity("トヨタ自動車", "トヨタ自動車株式会社", options) == 1.0);
  CHECK(simhash::similarity("현대자동차", "현대자동차 주식회사", options) == 1.0);
  // The names' own characters tell two companies apart, without a form's shared bigrams.
  CHECK(simhash::similarity("三菱商事株式会社", "三菱地所株式会社", options) == simhash::similarity("三菱商事", "三菱地所", options));
  CHECK(simhash::similarity("三菱商事", "三菱地所", options) < 0.5);
}

TEST_CASE("the list normalization: (株) and (有) dropped, an address's counters dropped between numbers", "[short]") {
  CHECK(listNormalized("(株)ソニー") == U" ソニー ");
  CHECK(listNormalized("（株）ソニー") == U" ソニー ");
  CHECK(listNormalized("(株) ソニー") == U" ソニー ");
  CHECK(listNormalized("山田商店(有)") == U" 山田商店 ");
  CHECK(listNormalized("Sony (株) Japan") == U" sony japan ");
  CHECK(listNormalized("(株)").empty());
  // Not brackets around another character, nor 株 alone (株洲, a city), nor a bracket left open.
  CHECK(listNormalized("(社)日本") == U" 社日本 ");
  CHECK(listNormalized("株洲市") == U" 株洲市 ");
  CHECK(listNormalized("(株ソニー") == U" 株ソニー ");
  CHECK(listNormalized("(株") == U" 株 ");
  // Counters after a digit, before a digit or the word's end; not before another character.
  CHECK(listNormalized("梅田3丁目1番1号") == U" 梅田311 ");
  CHECK(listNormalized("梅田3-1-1") == U" 梅田311 ");
  CHECK(listNormalized("建国路88号") == U" 建国路88 ");
  CHECK(listNormalized("建国路88号 北京") == U" 建国路88号北京 ");  // CJK around the space: one word, the counter within it
  CHECK(listNormalized("1番地2") == U" 12 ");
  CHECK(listNormalized("3号館") == U" 3号馆 ");
  CHECK(listNormalized("番号") == U" 番号 ");
  for (const char* text : {"(株)ソニー", "梅田3丁目1番1号", "1番地2号", "3号館"}) {
    CAPTURE(text);
    CHECK(listNormalized(utf8(listNormalized(text))) == listNormalized(text));  // normalized again, the same
  }
  const ShingleOptions options = simhash::kShortStringOptions;
  CHECK(simhash::similarity("(株)ソニー", "ソニー株式会社", options) == 1.0);
  CHECK(simhash::similarity("東京都港区六本木1丁目2番3号", "東京都港区六本木1-2-3", options) == 1.0);
}

TEST_CASE("the list normalization: traditional Han characters fold to simplified ones, once", "[short]") {
  using simhash::unicode::simplifiedHan;
  // Well-known pairs, and characters left alone: simplified ones, a character that is its
  // own simplified form too (乾: 乾 and 干), kana, Hangul, Latin.
  const std::pair<char32_t, char32_t> pairs[] = {{U'學', U'学'}, {U'國', U'国'}, {U'東', U'东'}, {U'語', U'语'}, {U'電', U'电'},
                                                 {U'車', U'车'}, {U'書', U'书'}, {U'龍', U'龙'}, {U'門', U'门'}, {U'風', U'风'},
                                                 {U'華', U'华'}, {U'灣', U'湾'}, {U'體', U'体'}, {U'會', U'会'}, {U'臺', U'台'}};
  for (const auto& [traditional, simplified] : pairs) {
    CHECK(simplifiedHan(traditional) == simplified);
    CHECK(simplifiedHan(simplified) == simplified);
  }
  for (const char32_t kept : {U'乾', U'学', U'中', U'あ', U'ア', U'한', U'a', char32_t{0x3400}, char32_t{0x9FFF}}) CHECK(simplifiedHan(kept) == kept);
  size_t folded = 0, foldedTwice = 0;
  for (char32_t cp = 0x3400; cp <= 0x9FFF; ++cp) {
    folded += simplifiedHan(cp) != cp;
    foldedTwice += simplifiedHan(simplifiedHan(cp)) != simplifiedHan(cp);
  }
  CHECK(folded == 2751);  // han_variants.bin's entries
  CHECK(foldedTwice == 0);
  // The whole fold is part of the short measure's definition, whatever the table's layout
  // (a change is a format version): a golden FNV-1a of every code point's fold, U+3400..U+9FFF.
  uint64_t hash = 1469598103934665603ull;
  for (char32_t cp = 0x3400; cp <= 0x9FFF; ++cp) hash = (hash ^ simplifiedHan(cp)) * 1099511628211ull;
  CHECK(hash == 0xB07E6A567FA765AAull);
  CHECK(simhash::similarity("北京大學", "北京大学", simhash::kShortStringOptions) == 1.0);
  CHECK(simhash::similarity("臺灣", "台湾", simhash::kShortStringOptions) == 1.0);
}

TEST_CASE("the Han table installs from han_variants.bin's bytes only", "[short]") {
  // This program installed the table as it started (han_table.cpp.in): the same bytes
  // again are accepted, any others refused, whatever is installed.
  std::ifstream file(SIMHASH_HAN_VARIANTS, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() == simhash::unicode::kHanVariantsBytes);
  const char16_t* table = simhash::installHanVariants(bytes.data(), bytes.size());
  REQUIRE(table != nullptr);
  // The table returned: traditional characters ascending, then each one's simplified form.
  const unsigned count = simhash::unicode::kHanVariants;
  CHECK(bytes[0] + 256u * bytes[1] == count);
  CHECK(std::is_sorted(table, table + count));
  const char16_t* at = std::lower_bound(table, table + count, u'學');
  REQUIRE(*at == u'學');
  CHECK(table[count + (at - table)] == u'学');
  for (unsigned i = 0; i < count; ++i) CHECK(simhash::unicode::simplifiedHan(table[i]) == table[count + i]);
  CHECK_FALSE(simhash::installHanVariants(bytes.data(), bytes.size() - 1));
  CHECK_FALSE(simhash::installHanVariants(nullptr, 0));
  for (const size_t at : {size_t{0}, size_t{3}, size_t{100}, bytes.size() - 1}) {
    std::vector<unsigned char> damaged = bytes;
    damaged[at] ^= 0x10;
    CHECK_FALSE(simhash::installHanVariants(damaged.data(), damaged.size()));
  }
  CHECK(simhash::unicode::simplifiedHan(U'學') == U'学');
}

TEST_CASE("word weights: floor(log2((N + 1) / (df + 1))) within 1..8, exactly", "[short]") {
  CHECK(simhash::wordWeight(0, 0) == 1);
  CHECK(simhash::wordWeight(1, 0) == 1);
  CHECK(simhash::wordWeight(3, 0) == 2);
  CHECK(simhash::wordWeight(7, 0) == 3);
  CHECK(simhash::wordWeight(6, 0) == 2);
  CHECK(simhash::wordWeight(1000, 1000) == 1);
  CHECK(simhash::wordWeight(1000, 124) == 3);  // 1001 / 125 = 8.008
  CHECK(simhash::wordWeight(1000, 125) == 2);  // 1001 / 126 < 8
  CHECK(simhash::wordWeight(4000000000u, 0) == 8);
  const WordWeights weights = learnWeights({"Acme Inc", "Apex Inc", "Acme, inc.", "Zeta"});
  CHECK(weights.texts() == 4);
  CHECK(weights.words() == 4);  // acme, inc, apex, zeta
  // assign() takes exactly what finish() could make.
  WordWeights copy;
  CHECK(copy.assign(weights.texts(), weights.hashes().data(), weights.counts().data(), weights.words()));
  const std::vector<uint64_t> unsorted = {2, 1};
  const std::vector<uint32_t> ones = {1, 1};
  CHECK_FALSE(copy.assign(4, unsorted.data(), ones.data(), 2));
  const std::vector<uint64_t> sorted = {1, 2}, repeated = {1, 1};
  const std::vector<uint32_t> tooMany = {1, 5}, none = {0, 1};
  CHECK_FALSE(copy.assign(4, sorted.data(), tooMany.data(), 2));
  CHECK_FALSE(copy.assign(4, repeated.data(), ones.data(), 2));
  CHECK_FALSE(copy.assign(4, sorted.data(), none.data(), 2));
  CHECK_FALSE(copy.assign(0, sorted.data(), ones.data(), 2));
  CHECK(copy.texts() == 4);
  CHECK(copy.hashes() == weights.hashes());  // unchanged by the refusals
  CHECK(copy.assign(0, nullptr, nullptr, 0));
  CHECK(copy.words() == 0);
}

TEST_CASE("short similarity: one pair, the batch sets and the reference agree, with and without weights", "[short]") {
  std::mt19937 rng(7);
  const std::vector<std::string> list = randomList(rng, 400);
  const WordWeights weights = learnWeights(list);
  const Reference plain({}), byList(list);
  std::vector<uint32_t> offsets = {0};
  std::string all;
  for (const auto& text : list) offsets.push_back(static_cast<uint32_t>((all += text).size()));
  for (const ShingleOptions& options : {kShortStringOptions, weighted(weights)}) {
    const Reference& reference = options.weights ? byList : plain;
    ShingleSets sets;
    sets.build(all.data(), offsets.data(), static_cast<uint32_t>(list.size()), options);
    for (int trial = 0; trial < 3000; ++trial) {
      const uint32_t a = rng() % list.size(), b = trial < 300 ? a + 1 - (a + 1 == list.size()) : rng() % list.size();
      const double expected = reference.similarity(list[a], list[b]);
      CAPTURE(list[a], list[b]);
      REQUIRE(simhash::similarity(list[a], list[b], options) == expected);
      REQUIRE(sets.similarity(a, b) == expected);
      REQUIRE(sets.atLeast(a, b, 0.6) == (expected >= 0.6));
    }
  }
  // Word order, punctuation and diacritics move nothing; a dropped letter little.
  CHECK(simhash::similarity("John Smith", "Smith, John", kShortStringOptions) == 1);
  CHECK(simhash::similarity("José García", "Jose Garcia", kShortStringOptions) == 1);
  CHECK(simhash::similarity("John Smith", "Jon Smith", kShortStringOptions) == 0.75);
}

TEST_CASE("short similarity: banding finds at least 0.99 of the pairs at 0.6 and every group is verified", "[short]") {
  std::mt19937 rng(11);
  const std::vector<std::string> list = randomList(rng, 3000);
  const WordWeights weights = learnWeights(list);
  const ShingleOptions options = weighted(weights);
  std::vector<uint32_t> offsets = {0};
  std::string all;
  for (const auto& text : list) offsets.push_back(static_cast<uint32_t>((all += text).size()));
  ShingleSets sets;
  simhash::SimilarGroups groups(sets, 0.6, simhash::SimilarGroups::Grouping::Components, simhash::bandingFor(0.6));
  sets.countTexts(all.data(), offsets.data(), static_cast<uint32_t>(list.size()), options);
  sets.addTexts(all.data(), offsets.data(), static_cast<uint32_t>(list.size()), nullptr, &groups);
  while (!groups.run(size_t{1} << 30)) {
  }
  const std::vector<uint32_t> labels = groups.takeLabels();
  std::vector<uint32_t> exact;
  sets.pairsAtLeast(0.6, exact);
  REQUIRE(exact.size() / 2 > 300);
  size_t together = 0;
  for (size_t p = 0; p < exact.size(); p += 2) together += labels[exact[p]] == labels[exact[p + 1]];
  CHECK(together >= 0.99 * (exact.size() / 2));
}

TEST_CASE("text index by the short measure: answers equal the one-pair similarity, and its weights survive the bytes", "[short][text_index]") {
  std::mt19937 rng(5);
  const std::vector<std::string> list = randomList(rng, 600);
  const WordWeights weights = learnWeights(list);
  TextIndex index(0.6, weighted(weights));
  for (uint32_t i = 0; i < 300; ++i) REQUIRE(index.add(list[i], i) == simhash::Status::Ok);
  const std::vector<uint8_t> bytes = index.serialize();
  TextIndex loaded(0.8);
  std::string error;
  const simhash::Status status = TextIndex::deserialize(bytes.data(), bytes.size(), loaded, error);
  INFO(error);
  REQUIRE(status == simhash::Status::Ok);
  REQUIRE(loaded.options().normalization == Normalization::kList);
  REQUIRE(loaded.options().weights != nullptr);
  CHECK(loaded.options().weights->hashes() == weights.hashes());
  CHECK(loaded.serialize() == bytes);
  std::vector<simhash::TextMatch> found, again;
  for (uint32_t q = 300; q < 600; ++q) {
    index.query(list[q], 100, found);
    loaded.query(list[q], 100, again);
    REQUIRE(found == again);
    for (const auto& match : found) REQUIRE(match.similarity == simhash::similarity(list[q], list[match.id], weighted(weights)));
  }
  // Weights out of their contract, under a valid checksum, are refused with the entry that
  // breaks it, and the index loaded over stays as it was.
  const size_t weightsAt = 32, entriesAt = weightsAt + 8, entry = 12;  // the header, the weights' header (u32 texts, u32 words)
  const auto setLE = [](std::vector<uint8_t>& b, size_t at, uint64_t value, int size) {
    for (int i = 0; i < size; ++i) b[at + i] = static_cast<uint8_t>(value >> (8 * i));
  };
  const auto getLE = [](const std::vector<uint8_t>& b, size_t at, int size) {
    uint64_t value = 0;
    for (int i = 0; i < size; ++i) value |= uint64_t{b[at + i]} << (8 * i);
    return value;
  };
  REQUIRE(getLE(bytes, weightsAt, 4) == weights.texts());
  REQUIRE(getLE(bytes, weightsAt + 4, 4) == weights.words());
  REQUIRE(weights.words() >= 3);
  const auto hashAt = [&](size_t i) { return entriesAt + entry * i; };
  const auto countAt = [&](size_t i) { return entriesAt + entry * i + 8; };
  struct Damage {
    const char* what;
    std::function<void(std::vector<uint8_t>&)> apply;
    std::string error;
  };
  const std::string texts = std::to_string(weights.texts());
  const std::vector<Damage> damages = {
      {"a count of 0", [&](auto& b) { setLE(b, countAt(0), 0, 4); }, "the word weights' count 0 is 0, not within 1.." + texts},
      {"a count above texts", [&](auto& b) { setLE(b, countAt(2), weights.texts() + 1, 4); },
       "the word weights' count 2 is " + std::to_string(weights.texts() + 1) + ", not within 1.." + texts},
      {"texts below every count", [&](auto& b) { setLE(b, weightsAt, 0, 4); }, "the word weights' count 0 is " +
       std::to_string(weights.counts()[0]) + ", not within 1..0"},
      {"two hashes swapped", [&](auto& b) { setLE(b, hashAt(1), weights.hashes()[2], 8), setLE(b, hashAt(2), weights.hashes()[1], 8); },
       "the word weights' hash 2 is not above hash 1"},
      {"a hash repeated", [&](auto& b) { setLE(b, hashAt(1), weights.hashes()[0], 8); }, "the word weights' hash 1 is not above hash 0"},
  };
  const std::vector<uint8_t> untouchedBytes = index.serialize();
  for (const Damage& damage : damages) {
    CAPTURE(damage.what);
    std::vector<uint8_t> damaged = bytes;
    damage.apply(damaged);
    const uint64_t sum = simhash::hashFeature(std::string_view(reinterpret_cast<const char*>(damaged.data()), damaged.size() - 8));
    setLE(damaged, damaged.size() - 8, sum, 8);
    TextIndex target(0.6, weighted(weights));
    REQUIRE(target.add(list[0], 0) == simhash::Status::Ok);
    const std::vector<uint8_t> before = target.serialize();
    CHECK(TextIndex::deserialize(damaged.data(), damaged.size(), target, error) == simhash::Status::CorruptData);
    CHECK(error == "invalid serialized text index: " + damage.error);
    CHECK(target.serialize() == before);
    // The same verdict from the bytes given in pieces.
    TextIndex::Reader reader(damaged.size());
    for (size_t at = 0; at < damaged.size(); at += 5) reader.read(damaged.data() + at, std::min<size_t>(5, damaged.size() - at));
    std::string piecesError;
    CHECK(reader.finish(target, piecesError) == simhash::Status::CorruptData);
    CHECK(piecesError == error);
  }
  CHECK(index.serialize() == untouchedBytes);
}

TEST_CASE("text index by the short measure: long texts with weights are verified exactly", "[short][text_index]") {
  // A common long word weighs 1; a query's first third cut mid-word is a word never seen,
  // which weighs the most: verifying by a prefix would count copies the stored text lacks.
  const std::string word = "supercalifragilisticexpialidociousantidisestablishmentarianismfloccinaucinihilipilificationpneumonoultramicroscopic";
  std::vector<std::string> list(40, word);
  list.push_back("rare");
  const WordWeights weights = learnWeights(list);
  TextIndex index(0.6, weighted(weights));
  REQUIRE(index.add(word, 0) == simhash::Status::Ok);
  std::mt19937 rng(9);
  std::vector<simhash::TextMatch> found;
  for (int trial = 0; trial < 200; ++trial) {
    std::string query = word;
    for (int edits = 1 + static_cast<int>(rng() % 30); edits-- > 0;) query[rng() % query.size()] = static_cast<char>('a' + rng() % 26);
    const double expected = simhash::similarity(query, word, weighted(weights));
    index.query(query, 10, found);
    CAPTURE(query, expected);
    REQUIRE(found.size() <= 1);
    if (!found.empty()) CHECK(found[0].similarity == expected);
    CHECK(found.empty() == (expected < 0.6));
  }
}

