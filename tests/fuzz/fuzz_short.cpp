// libFuzzer target: the similarity of short strings (similarity.h kShortStringOptions), its
// word weights (word_weights.h), and text index bytes that carry them, against the
// definition of README "Similarity of short strings" written plainly here.
//
// The input drives (FuzzedDataProvider) a list of name-like texts (words in several cases,
// with diacritics, combining marks, stroke letters, CJK, punctuation and whitespace, and
// variants of earlier texts: a piece inserted, characters deleted, words swapped, ASCII
// upper-cased), then word weights: none; learned from the list or from part of it; or
// assigned from fuzzed hashes (the list's words' and others) and counts, which assign()
// must take exactly when they keep the contract (hashes strictly ascending, counts within
// 1..texts), and otherwise refuse leaving the table as it was. Checked against the
// reference below:
//   - each text's list normalization, and learned weights: texts, every word's count;
//   - for every pair of texts: the batch sets' similarity (built whole, and a slice at a
//     time) equals the reference exactly, both ways round, 1 on the diagonal; atLeast
//     agrees with it at the value itself, at the doubles either side and at a fuzzed
//     threshold; each set's size is the sum of its bigrams' weights; the one-pair
//     similarity() of the first pairs; pairsAtLeast against brute force; verifyPairs and
//     pairSimilarities on fuzzed pairs;
//   - a TextIndex of the short measure with those weights: queries before each add answer
//     exactly the stored texts reaching the threshold that share a band key (the keys from
//     canonicalShingles, checked against the reference's weights), with the reference's
//     similarities; its bytes hold the measure's flags and the weights as docs/formats.md
//     lays them out, and load back to the same bytes and answers;
//   - those bytes with their weights damaged (texts, a count, a hash, two entries swapped)
//     under a rewritten checksum, whole and in pieces: refused, naming the word weights,
//     with the target index unchanged, exactly when the damaged weights break the contract;
//     else loaded with those weights, answering in shape, and exactly under them once each
//     text is added again.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference.h"
#include "simhash/similar_groups.h"
#include "simhash/similarity.h"
#include "simhash/text_index.h"
#include "simhash/word_weights.h"

namespace {

using simhash::ShingleOptions;
using simhash::ShingleSets;
using simhash::Status;
using simhash::TextIndex;
using simhash::TextMatch;
using simhash::WordWeights;

// Bound one input's work to milliseconds under the sanitizers: every pair is compared.
constexpr size_t kMaxTexts = 24;
constexpr size_t kMaxPieces = 12;
constexpr size_t kMaxAssigned = 40;
constexpr size_t kMaxOnePair = 48;
constexpr size_t kMaxBatchPairs = 32;
// text_index.h "The versioned byte format" and docs/formats.md: a 32-byte header (version 2),
// then, with weights, u32 texts, u32 words and 12-byte entries (u64 hash, u32 count); an
// 8-byte checksum at the end.
constexpr size_t kHeaderSize = 32, kWeightsHeader = 8, kWeightEntry = 12, kChecksumSize = 8;

// Words of names, addresses and titles, in the ways people write them: cases, diacritics
// (precomposed, and as a combining mark after the letter, or alone), stroke letters, a
// letter NFKD keeps whole (ǅ), CJK, full-width letters, symbols (kept) and punctuation
// (removed), CJK legal forms and their pieces, whitespace of several kinds, and a byte that
// is not UTF-8 (one U+FFFD). No half-width katakana: the reference does not fold them
// (fuzz_text_index covers them).
constexpr const char* kPieces[] = {
    "john", "John", "JOHN", "jon", "smith", "Smith", "anna", "ann", "inc", "Inc.", "corp", "GmbH", "street", "st", "o", "a",
    "Incorporated", "LIMITED", "Aktiengesellschaft", "company", "and", "And", "et", "und", "andes",
    " ", " ", " ", ", ", ".", "-", "&", "$", "\t", "\n",
    "M\xC3\xBCller",                // Müller
    "muller",
    "Jos\xC3\xA9",                  // José
    "Garc\xC3\xAD" "a",             // García
    "e\xCC\x81",                    // e + U+0301
    "\xCC\x81",                     // U+0301 alone
    "\xC5\x81\xC3\xB3" "d\xC5\xBA",  // Łódź
    "\xC3\xB8",                     // ø
    "\xC4\xB1",                     // ı
    "\xC3\x9F",                     // ß
    "\xC7\x85",                     // ǅ
    "\xE1\xBB\x85",                 // ễ
    "\xE5\x8C\x97\xE4\xBA\xAC",     // 北京
    "\xE5\xA4\xA7\xE5\xAD\xA6",     // 大学
    "\xE5\xA4\xA7\xE5\xAD\xB8",     // 大學
    "\xE6\x9D\xB1",                 // 東
    "\xE3\x81\xAD\xE3\x81\x93",     // ねこ
    "\xE6\xA0\xAA\xE5\xBC\x8F\xE4\xBC\x9A\xE7\xA4\xBE", // 株式会社
    "\xE6\x9C\x89\xE9\x99\x90\xE5\x85\xAC\xE5\x8F\xB8", // 有限公司
    "\xE8\x82\xA1\xE4\xBB\xBD", // 股份
    "\xE6\x9C\x83\xE7\xA4\xBE", // 會社
    "\xEC\xA3\xBC\xEC\x8B\x9D\xED\x9A\x8C\xEC\x82\xAC", // 주식회사
    "\xE3\x80\x80",                 // ideographic space
    "\xE3\x80\x81",                 // 、
    "\xEF\xBC\xA1\xEF\xBC\x91",     // Ａ１
    "\xFF",                         // not UTF-8
    "123",
};
constexpr size_t kPieceCount = sizeof(kPieces) / sizeof(kPieces[0]);

const char* pieceFrom(FuzzedDataProvider& input) { return kPieces[input.ConsumeIntegralInRange<size_t>(0, kPieceCount - 1)]; }

std::string piecesFrom(FuzzedDataProvider& input) {
  const size_t count = input.ConsumeIntegralInRange<size_t>(0, kMaxPieces);
  std::string text;
  for (size_t i = 0; i < count && input.remaining_bytes() > 0; ++i) text += pieceFrom(input);
  return text;
}

// The first position at or after pos that does not continue a UTF-8 sequence.
size_t boundary(const std::string& text, size_t pos) {
  while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) ++pos;
  return pos;
}

// A variant of text as lists hold them: a piece inserted, a few characters deleted, the
// parts before and after a space swapped, or its ASCII letters upper-cased.
std::string variantOf(std::string text, FuzzedDataProvider& input) {
  const size_t at = boundary(text, input.ConsumeIntegralInRange<size_t>(0, text.size()));
  switch (input.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return text.insert(at, pieceFrom(input));
    case 1: return text.erase(at, boundary(text, std::min(text.size(), at + input.ConsumeIntegralInRange<size_t>(1, 4))) - at);
    case 2: {
      const size_t space = text.find(' ', at);
      return space == std::string::npos ? text : text.substr(space + 1) + " " + text.substr(0, space);
    }
    default:
      for (char& c : text) c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c;
      return text;
  }
}

// --- The reference: README "Similarity of short strings", literally. ---

bool isCjk(char32_t cp) { return cp >= 0x80 && simhash::unicode::classify(cp) == simhash::unicode::CharClass::Cjk; }

// Step 1: the text decoded (WHATWG), general category P and the combining marks U+0300..
// U+036F removed (a removed code point between two whitespace runs leaves one run, as with
// punctuation), case folded, each Latin letter with diacritics replaced by its base letter,
// each traditional Han character by its simplified form;
// a whitespace run between two CJK characters removed, any other one space, none at either
// end; a text left non-empty framed by one space on each side. (The character tables are
// the core's: unicode.h, checked against their definitions by tokenizer_test.cpp and
// word_weights_test.cpp.)
std::u32string listNormalizedBeforeWords(std::string_view utf8);
std::vector<std::u32string> wordsOf(const std::u32string& normalized);

// Then each whole word written as a legal form becomes its short form, a conjunction between
// two words is dropped, and a CJK legal form at either end of a word is dropped, the longest
// first, again while more of the word is left (docs/lists.md "Normalization").
std::u32string withoutCjkLegalForms(std::u32string word) {
  static const std::u32string kForms[] = {U"股份有限公司", U"有限责任公司", U"유한책임회사", U"有限公司", U"株式会社", U"有限会社",
                                          U"合同会社",     U"合资会社",     U"合名会社",     U"주식회사", U"유한회사"};
  auto longest = [&](bool atEnd) -> size_t {
    for (const std::u32string& form : kForms) {
      if (word.size() >= form.size() && word.compare(atEnd ? word.size() - form.size() : 0, form.size(), form) == 0) return form.size();
    }
    return 0;
  };
  for (size_t k; (k = longest(false)) != 0 && k < word.size();) word.erase(0, k);
  for (size_t k; (k = longest(true)) != 0 && k < word.size();) word.erase(word.size() - k);
  return word;
}

std::u32string listNormalized(std::string_view utf8) {
  static const std::pair<std::u32string, std::u32string> kShortForms[] = {
      {U"incorporated", U"inc"}, {U"corporation", U"corp"}, {U"limited", U"ltd"}, {U"company", U"co"},
      {U"aktiengesellschaft", U"ag"}, {U"kommanditgesellschaft", U"kg"}};
  const std::vector<std::u32string> words = wordsOf(listNormalizedBeforeWords(utf8));
  std::u32string out;
  for (size_t w = 0; w < words.size(); ++w) {
    const std::u32string& written = words[w];
    const bool conjunction = written == U"and" || written == U"und" || written == U"et";
    if (conjunction && w > 0 && w + 1 < words.size()) continue;
    std::u32string shortened = withoutCjkLegalForms(written);
    for (const auto& [form, shortForm] : kShortForms) {
      if (written == form) shortened = shortForm;
    }
    out += U' ' + shortened;
  }
  return out.empty() ? out : out + U' ';
}

std::u32string listNormalizedBeforeWords(std::string_view utf8) {
  std::u32string out;
  bool space = false;  // whitespace since the last code point kept
  for (char32_t cp : reference::decodeUtf8(utf8)) {
    if (simhash::unicode::isPunctuation(cp)) continue;
    if (reference::isWhiteSpace(cp)) {
      space = !out.empty();
      continue;
    }
    cp = simhash::unicode::simplifiedHan(simhash::unicode::withoutDiacritic(simhash::unicode::foldCase(cp)));
    if (cp == 0) continue;  // a combining mark
    if (space && !(isCjk(out.back()) && isCjk(cp))) out += U' ';
    space = false;
    out += cp;
  }
  return out.empty() ? out : U" " + out + U" ";
}

std::string utf8Of(const std::u32string& cps) {
  std::string out;
  for (char32_t cp : cps) out += reference::encodeUtf8(cp);
  return out;
}

// Words: the runs between spaces.
std::vector<std::u32string> wordsOf(const std::u32string& normalized) {
  std::vector<std::u32string> words;
  std::u32string word;
  for (char32_t cp : normalized + U' ') {
    if (cp != U' ') {
      word += cp;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  return words;
}

// Step 3's table: N texts, and how many of them hold each word (by XXH3_64bits of its UTF-8).
struct Table {
  uint32_t texts = 0;
  std::map<uint64_t, uint32_t> df;
};

// min(8, max(1, floor(log2((N + 1) / (df + 1))))), by doubling in integers; 1 without a table.
unsigned weightOf(const Table* table, const std::u32string& word) {
  if (table == nullptr) return 1;
  const auto it = table->df.find(reference::hash(utf8Of(word)));
  const uint64_t held = (it == table->df.end() ? 0 : uint64_t{it->second}) + 1, total = uint64_t{table->texts} + 1;
  unsigned k = 0;
  while (k < 8 && held << (k + 1) <= total) ++k;
  return std::max(1u, k);
}

// Step 2 and 3: each distinct bigram of the framed text and its weight, that of the
// heaviest word holding it (a bigram lies in one word and the spaces around it).
using Bigrams = std::map<std::u32string, unsigned>;
Bigrams bigramsOf(const std::u32string& normalized, const Table* table) {
  Bigrams out;
  for (const std::u32string& word : wordsOf(normalized)) {
    const unsigned w = weightOf(table, word);
    const std::u32string framed = U" " + word + U" ";
    for (size_t i = 0; i + 2 <= framed.size(); ++i) {
      unsigned& held = out[framed.substr(i, 2)];
      held = std::max(held, w);
    }
  }
  return out;
}

// Step 4: Σ min / Σ max of the two texts' bigram weights, as the nearest double; 1 for two
// empty texts.
double weightedJaccard(const Bigrams& a, const Bigrams& b) {
  if (a.empty() && b.empty()) return 1.0;
  uint64_t mins = 0, maxes = 0;
  for (const auto& [bigram, w] : a) {
    const auto it = b.find(bigram);
    mins += it == b.end() ? 0 : std::min(w, it->second);
    maxes += it == b.end() ? w : std::max(w, it->second);
  }
  for (const auto& [bigram, w] : b) maxes += a.count(bigram) ? 0 : w;
  return static_cast<double>(mins) / static_cast<double>(maxes);
}

uint64_t totalWeight(const Bigrams& bigrams) {
  uint64_t sum = 0;
  for (const auto& entry : bigrams) sum += entry.second;
  return sum;
}

// word_weights.h assign's contract: hashes strictly ascending, every count within 1..texts.
bool keepsContract(uint32_t texts, const std::vector<uint64_t>& hashes, const std::vector<uint32_t>& counts) {
  for (size_t i = 0; i < hashes.size(); ++i) {
    if ((i > 0 && hashes[i] <= hashes[i - 1]) || counts[i] == 0 || counts[i] > texts) return false;
  }
  return true;
}

Table tableOf(uint32_t texts, const std::vector<uint64_t>& hashes, const std::vector<uint32_t>& counts) {
  Table table{texts, {}};
  for (size_t i = 0; i < hashes.size(); ++i) table.df[hashes[i]] = counts[i];
  return table;
}

// --- The run. ---

// Thresholds: mostly those the short measure is used at, any in [0.3, 1] as well.
double thresholdFrom(FuzzedDataProvider& input) {
  static constexpr double kCommon[] = {0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  const uint8_t byte = input.ConsumeIntegral<uint8_t>();
  if (byte < 192) return kCommon[byte % 6];
  return static_cast<double>(input.ConsumeIntegralInRange<int>(300, 1000)) / 1000;
}

// Checks index.query(text) against the definition: the stored texts (ids 0..stored - 1)
// that reach the threshold and share a band key with it, most similar first, then by id.
void checkQuery(TextIndex& index, double threshold, size_t stored, size_t query, const std::vector<std::string>& texts,
                const std::vector<std::vector<uint32_t>>& keys, const std::vector<std::vector<double>>& similarity) {
  std::vector<TextMatch> expected;
  for (uint32_t id = 0; id < stored; ++id) {
    const double j = similarity[query][id];
    if (j == 1.0) FUZZ_CHECK(keys[query] == keys[id]);  // the same weighted set, the same min-hashes
    bool share = false;
    for (uint32_t key : keys[query]) share = share || std::binary_search(keys[id].begin(), keys[id].end(), key);
    if (j >= threshold && share) expected.push_back({id, j});
  }
  std::sort(expected.begin(), expected.end(), [](const TextMatch& x, const TextMatch& y) {
    return x.similarity != y.similarity ? x.similarity > y.similarity : x.id < y.id;
  });
  std::vector<TextMatch> got;
  index.query(texts[query], SIZE_MAX, got);
  FUZZ_CHECK(got == expected);
}

// The bytes with their word weights damaged as the input says, and the checksum rewritten;
// `texts`, `hashes`, `counts` become the damaged weights.
std::vector<uint8_t> damagedWeights(std::vector<uint8_t> bytes, FuzzedDataProvider& input, uint32_t& texts,
                                    std::vector<uint64_t>& hashes, std::vector<uint32_t>& counts) {
  const size_t words = hashes.size();
  for (int damages = input.ConsumeIntegralInRange<int>(1, 2); damages > 0; --damages) {
    const size_t w = words == 0 ? 0 : input.ConsumeIntegralInRange<size_t>(0, words - 1);
    const uint32_t most = words == 0 ? 0 : *std::max_element(counts.begin(), counts.end());
    switch (words == 0 ? 0 : input.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: {  // texts: just below or at the largest count, 0, or any
        const uint32_t choices[] = {most == 0 ? 0 : most - 1, most, 0, input.ConsumeIntegral<uint32_t>()};
        texts = choices[input.ConsumeIntegralInRange<int>(0, 3)];
        break;
      }
      case 1: {  // a count: 0, 1, texts, texts + 1, or any
        const uint32_t choices[] = {0, 1, texts, texts + 1, input.ConsumeIntegral<uint32_t>()};
        counts[w] = choices[input.ConsumeIntegralInRange<int>(0, 4)];
        break;
      }
      case 2:  // a hash: its neighbour's (a repeat), one off, or any
        switch (input.ConsumeIntegralInRange<int>(0, 2)) {
          case 0: hashes[w] = hashes[w > 0 ? w - 1 : std::min(words - 1, w + 1)]; break;
          case 1: hashes[w] += input.ConsumeBool() ? 1 : -1; break;
          default: hashes[w] = input.ConsumeIntegral<uint64_t>(); break;
        }
        break;
      default:  // two entries swapped
        if (w + 1 < words) {
          std::swap(hashes[w], hashes[w + 1]);
          std::swap(counts[w], counts[w + 1]);
        }
        break;
    }
  }
  reference::setLE(bytes.data() + kHeaderSize, texts, 4);
  for (size_t w = 0; w < words; ++w) {
    reference::setLE(bytes.data() + kHeaderSize + kWeightsHeader + kWeightEntry * w, hashes[w], 8);
    reference::setLE(bytes.data() + kHeaderSize + kWeightsHeader + kWeightEntry * w + 8, counts[w], 4);
  }
  const size_t body = bytes.size() - kChecksumSize;
  reference::setLE(bytes.data() + body, XXH3_64bits(bytes.data(), body), 8);
  return bytes;
}

void checkDamagedLoad(const std::vector<uint8_t>& bytes, FuzzedDataProvider& input, const WordWeights& weights, double threshold,
                      const std::vector<std::string>& texts, const std::vector<std::u32string>& normalized) {
  uint32_t damagedTexts = weights.texts();
  std::vector<uint64_t> hashes = weights.hashes();
  std::vector<uint32_t> counts = weights.counts();
  const std::vector<uint8_t> damaged = damagedWeights(bytes, input, damagedTexts, hashes, counts);
  const bool keeps = keepsContract(damagedTexts, hashes, counts);

  // Loading replaces an index that already holds something, which must survive a refusal.
  TextIndex target(0.8);
  FUZZ_CHECK(target.add("the cat sat on the mat", 42) == Status::Ok);
  const std::vector<uint8_t> before = target.serialize();
  std::string error;
  const Status status = TextIndex::deserialize(damaged.data(), damaged.size(), target, error);
  {
    // In pieces, the same verdict and the same message.
    const size_t piece = input.ConsumeIntegralInRange<size_t>(1, 64);
    TextIndex::Reader reader(damaged.size());
    for (size_t at = 0; at < damaged.size(); at += piece) reader.read(damaged.data() + at, std::min(piece, damaged.size() - at));
    TextIndex fromPieces(0.5);
    std::string piecesError;
    FUZZ_CHECK(reader.finish(fromPieces, piecesError) == status);
    FUZZ_CHECK(piecesError == error);
  }
  if (!keeps) {
    FUZZ_CHECK(status == Status::CorruptData);
    FUZZ_CHECK(error.rfind("invalid serialized text index: the word weights' ", 0) == 0);
    FUZZ_CHECK(target.serialize() == before);
    return;
  }
  FUZZ_CHECK(status == Status::Ok);
  FUZZ_CHECK(target.serialize() == damaged);
  const WordWeights* loaded = target.options().weights;
  FUZZ_CHECK(loaded != nullptr && loaded->texts() == damagedTexts && loaded->hashes() == hashes && loaded->counts() == counts);
  // The shingle counts and band keys stored were made with the weights before the damage
  // and are taken as written (text_index.h deserialize): answers need not be the texts'
  // similarities, but they are stored ids at or above the threshold, in order.
  for (size_t q = 0; q < texts.size() && q < 8; ++q) {
    std::vector<TextMatch> found;
    target.query(texts[q], SIZE_MAX, found);
    for (size_t i = 0; i < found.size(); ++i) {
      FUZZ_CHECK(found[i].id < texts.size() && found[i].similarity >= threshold);
      FUZZ_CHECK(i == 0 || found[i - 1].similarity > found[i].similarity ||
                 (found[i - 1].similarity == found[i].similarity && found[i - 1].id < found[i].id));
    }
  }
  // Each text removed and added again is shingled and signed with the weights loaded: the
  // answers are then exact under them.
  for (uint32_t id = 0; id < texts.size(); ++id) FUZZ_CHECK(target.remove(id));
  for (uint32_t id = 0; id < texts.size(); ++id) FUZZ_CHECK(target.add(texts[id], id) == Status::Ok);
  const Table table = tableOf(damagedTexts, hashes, counts);
  ShingleOptions options = simhash::kShortStringOptions;
  options.weights = loaded;
  simhash::MinHashBands signer(simhash::bandingFor(threshold));
  std::vector<std::vector<uint32_t>> keys(texts.size());
  std::vector<Bigrams> bigrams;
  std::vector<uint64_t> codes;
  for (size_t i = 0; i < texts.size(); ++i) {
    bigrams.push_back(bigramsOf(normalized[i], &table));
    simhash::canonicalShingles(normalized[i].data(), normalized[i].size(), options, codes);
    FUZZ_CHECK(codes.size() == totalWeight(bigrams[i]));
    keys[i].resize(signer.banding().bands);
    signer.keys(codes.data(), codes.size(), keys[i].data());
    std::sort(keys[i].begin(), keys[i].end());
  }
  std::vector<std::vector<double>> similarity(texts.size(), std::vector<double>(texts.size()));
  for (size_t i = 0; i < texts.size(); ++i) {
    for (size_t j = 0; j < texts.size(); ++j) similarity[i][j] = weightedJaccard(bigrams[i], bigrams[j]);
  }
  for (size_t q = 0; q < texts.size() && q < 8; ++q) checkQuery(target, threshold, texts.size(), q, texts, keys, similarity);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);

  // The list: texts of pieces, and variants of earlier ones.
  const size_t n = input.ConsumeIntegralInRange<size_t>(1, kMaxTexts);
  std::vector<std::string> texts;
  for (size_t i = 0; i < n; ++i) {
    texts.push_back(i > 0 && input.ConsumeIntegralInRange<int>(0, 2) == 0
                        ? variantOf(texts[input.ConsumeIntegralInRange<size_t>(0, i - 1)], input)
                        : piecesFrom(input));
  }
  std::string all;
  std::vector<uint32_t> offsets = {0};
  for (const std::string& text : texts) offsets.push_back(static_cast<uint32_t>((all += text).size()));
  std::vector<std::u32string> normalized;
  std::vector<char32_t> cps;
  for (const std::string& text : texts) {
    normalized.push_back(listNormalized(text));
    simhash::normalizeForSimilarity(text, cps, simhash::Normalization::kList);
    FUZZ_CHECK(std::u32string(cps.begin(), cps.end()) == normalized.back());
  }

  // The weights: none, learned from the list or from part of it, or assigned.
  WordWeights weights;
  Table table;
  const int kind = input.ConsumeIntegralInRange<int>(0, 3);
  if (kind != 0) {
    const uint64_t part = kind == 2 ? input.ConsumeIntegral<uint64_t>() : ~uint64_t{0};
    std::map<std::u32string, uint32_t> df;
    for (size_t i = 0; i < n; ++i) {
      if (((part >> (i % 64)) & 1) == 0) continue;
      weights.count(normalized[i].data(), normalized[i].size());
      ++table.texts;
      std::vector<std::u32string> words = wordsOf(normalized[i]);
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
      for (const std::u32string& word : words) ++df[word];
    }
    weights.finish();
    for (const auto& [word, count] : df) FUZZ_CHECK(table.df.emplace(reference::hash(utf8Of(word)), count).second);
    FUZZ_CHECK(weights.texts() == table.texts);
    FUZZ_CHECK(weights.words() == table.df.size());
    FUZZ_CHECK(keepsContract(weights.texts(), weights.hashes(), weights.counts()));
    for (size_t w = 0; w < weights.words(); ++w) FUZZ_CHECK(table.df.at(weights.hashes()[w]) == weights.counts()[w]);
  }
  if (kind == 3) {
    // Hashes of the list's words and others, counts near the edges of 1..texts, sorted or
    // not: assign() takes them exactly when they keep the contract, else changes nothing.
    std::vector<uint64_t> hashes;
    std::vector<uint32_t> counts;
    std::vector<uint64_t> known;
    for (const std::u32string& text : normalized) {
      for (const std::u32string& word : wordsOf(text)) known.push_back(reference::hash(utf8Of(word)));
    }
    const uint32_t texts32 = input.ConsumeBool() ? input.ConsumeIntegralInRange<uint32_t>(0, 64) : input.ConsumeIntegral<uint32_t>();
    const size_t words = input.ConsumeIntegralInRange<size_t>(0, kMaxAssigned);
    for (size_t w = 0; w < words; ++w) {
      hashes.push_back(!known.empty() && input.ConsumeBool() ? known[input.ConsumeIntegralInRange<size_t>(0, known.size() - 1)]
                                                              : input.ConsumeIntegral<uint64_t>());
      const uint32_t choices[] = {1, texts32, input.ConsumeIntegralInRange<uint32_t>(1, std::max<uint32_t>(1, texts32)), 0, texts32 + 1};
      counts.push_back(choices[input.ConsumeIntegralInRange<int>(0, input.ConsumeBool() ? 2 : 4)]);
    }
    if (input.ConsumeBool()) {
      // Sorted by hash, each once: what learning makes, the counts moved with their hashes.
      std::map<uint64_t, uint32_t> sorted;
      for (size_t w = 0; w < words; ++w) sorted.emplace(hashes[w], counts[w]);
      hashes.clear();
      counts.clear();
      for (const auto& [hash, count] : sorted) hashes.push_back(hash), counts.push_back(count);
    }
    const uint32_t texts0 = weights.texts();
    const std::vector<uint64_t> hashes0 = weights.hashes();
    const std::vector<uint32_t> counts0 = weights.counts();
    const bool keeps = keepsContract(texts32, hashes, counts);
    FUZZ_CHECK(weights.assign(texts32, hashes.data(), counts.data(), hashes.size()) == keeps);
    if (keeps) {
      table = tableOf(texts32, hashes, counts);
      FUZZ_CHECK(weights.texts() == texts32 && weights.hashes() == hashes && weights.counts() == counts);
    } else {
      FUZZ_CHECK(weights.texts() == texts0 && weights.hashes() == hashes0 && weights.counts() == counts0);
    }
  }
  const Table* reference = kind == 0 ? nullptr : &table;
  ShingleOptions options = simhash::kShortStringOptions;
  if (kind != 0) options.weights = &weights;
  if (kind != 0) {
    // A copy weighs every word as the table does, unseen words included.
    const std::unique_ptr<WordWeights> copy = weights.copy();
    FUZZ_CHECK(copy->texts() == weights.texts() && copy->hashes() == weights.hashes() && copy->counts() == weights.counts());
    for (const std::u32string& text : normalized) {
      for (const std::u32string& word : wordsOf(text)) FUZZ_CHECK(copy->weight(reference::hash(utf8Of(word))) == weightOf(reference, word));
    }
  }

  // The reference's sets and every pair's similarity.
  std::vector<Bigrams> bigrams;
  for (const std::u32string& text : normalized) bigrams.push_back(bigramsOf(text, reference));
  std::vector<std::vector<double>> similarity(n, std::vector<double>(n));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) similarity[i][j] = weightedJaccard(bigrams[i], bigrams[j]);
  }

  // The batch sets, built whole and (when the input says: each build scans a 64K-entry
  // table, most of an input's time under the sanitizers) a slice at a time.
  ShingleSets whole, sliced;
  whole.build(all.data(), offsets.data(), static_cast<uint32_t>(n), options);
  FUZZ_CHECK(whole.count() == n);
  ShingleSets& other = input.ConsumeBool() ? sliced : whole;
  if (&other == &sliced) {
    const auto split = input.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(n));
    sliced.countTexts(all.data(), offsets.data(), split, options);
    sliced.countTexts(all.data(), offsets.data() + split, static_cast<uint32_t>(n) - split, options);
    sliced.addTexts(all.data(), offsets.data(), split);
    sliced.addTexts(all.data(), offsets.data() + split, static_cast<uint32_t>(n) - split);
    FUZZ_CHECK(sliced.count() == n);
  }
  std::vector<std::vector<uint32_t>> keys(n);
  const double indexThreshold = thresholdFrom(input);
  simhash::MinHashBands signer(simhash::bandingFor(indexThreshold));
  std::vector<uint64_t> codes;
  for (size_t i = 0; i < n; ++i) {
    // A bigram of weight w is w distinct shingles: the set's size is the sum of the weights.
    FUZZ_CHECK(whole.size(static_cast<uint32_t>(i)) == totalWeight(bigrams[i]));
    FUZZ_CHECK(other.size(static_cast<uint32_t>(i)) == totalWeight(bigrams[i]));
    simhash::canonicalShingles(normalized[i].data(), normalized[i].size(), options, codes);
    FUZZ_CHECK(codes.size() == totalWeight(bigrams[i]));
    keys[i].resize(signer.banding().bands);
    signer.keys(codes.data(), codes.size(), keys[i].data());
    std::sort(keys[i].begin(), keys[i].end());
  }
  const double fuzzed = static_cast<double>(input.ConsumeIntegralInRange<int>(1, 1000)) / 1000;
  size_t onePair = 0;
  simhash::SimilarityScratch scratch;
  for (uint32_t i = 0; i < n; ++i) {
    FUZZ_CHECK(similarity[i][i] == 1.0);
    for (uint32_t j = i; j < n; ++j) {
      const double expected = similarity[i][j];
      FUZZ_CHECK(similarity[j][i] == expected);
      FUZZ_CHECK(whole.similarity(i, j) == expected && whole.similarity(j, i) == expected);
      FUZZ_CHECK(other.similarity(i, j) == expected);
      for (const double t : {expected, std::nextafter(expected, 0.0), std::nextafter(expected, 2.0), fuzzed}) {
        if (!(t > 0 && t <= 1)) continue;
        FUZZ_CHECK(whole.atLeast(i, j, t) == (expected >= t));
        FUZZ_CHECK(whole.atLeast(j, i, t) == (expected >= t));
        FUZZ_CHECK(other.atLeast(i, j, t) == (expected >= t));
      }
      if (onePair++ < kMaxOnePair) {
        FUZZ_CHECK(simhash::similarity(texts[i], texts[j], options) == expected);
        FUZZ_CHECK(simhash::similarity(texts[j], texts[i], options, scratch) == expected);
      }
    }
  }
  std::vector<uint32_t> joined, brute;
  whole.pairsAtLeast(fuzzed, joined);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = i + 1; j < n; ++j) {
      if (similarity[i][j] >= fuzzed) brute.push_back(i), brute.push_back(j);
    }
  }
  FUZZ_CHECK(joined == brute);
  if (input.ConsumeBool()) {  // each builds its own sets: as above, when the input says
    const size_t count = input.ConsumeIntegralInRange<size_t>(0, kMaxBatchPairs);
    std::vector<uint32_t> a, b;
    for (size_t p = 0; p < count; ++p) {
      a.push_back(input.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(n) - 1));
      b.push_back(input.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(n) - 1));
    }
    std::vector<uint8_t> verdicts(count + 1, 0xA5);
    std::vector<double> values(count + 1, -1);
    simhash::verifyPairs(all.data(), offsets.data(), static_cast<uint32_t>(n), a.data(), b.data(), count, fuzzed, verdicts.data(), options);
    simhash::pairSimilarities(all.data(), offsets.data(), static_cast<uint32_t>(n), a.data(), b.data(), count, values.data(), options);
    for (size_t p = 0; p < count; ++p) {
      FUZZ_CHECK(verdicts[p] == (similarity[a[p]][b[p]] >= fuzzed ? 1 : 0));
      FUZZ_CHECK(values[p] == similarity[a[p]][b[p]]);
    }
    FUZZ_CHECK(verdicts[count] == 0xA5 && values[count] == -1);  // nothing written past the pairs
  }

  // A text index of the short measure: each text queried (when the input says) then added
  // under id i.
  TextIndex index(indexThreshold, options);
  for (uint32_t i = 0; i < n; ++i) {
    if (input.ConsumeBool()) checkQuery(index, indexThreshold, i, i, texts, keys, similarity);
    FUZZ_CHECK(index.add(texts[i], i) == Status::Ok);
  }
  for (uint32_t q = 0; q < n && q < 8; ++q) checkQuery(index, indexThreshold, n, q, texts, keys, similarity);

  // Its bytes: the list normalization's flags (revision 4: 0 in the flags' bits 2-3, 1 in the CJK byte's high nibble), the weights' flag and the weights as they are.
  const std::vector<uint8_t> bytes = index.serialize();
  FUZZ_CHECK(bytes.size() >= kHeaderSize + kChecksumSize);
  FUZZ_CHECK(reference::getLE(bytes.data() + 4, 2) == 2);
  FUZZ_CHECK((bytes[6] & 0xF) == 2 && bytes[7] == (2 | 1 << 4));
  FUZZ_CHECK((bytes[6] >> 4) == (kind == 0 ? 1u : 3u));
  if (kind != 0) {
    FUZZ_CHECK(reference::getLE(bytes.data() + kHeaderSize, 4) == weights.texts());
    FUZZ_CHECK(reference::getLE(bytes.data() + kHeaderSize + 4, 4) == weights.words());
    FUZZ_CHECK(bytes.size() >= kHeaderSize + kWeightsHeader + kWeightEntry * weights.words() + kChecksumSize);
    for (size_t w = 0; w < weights.words(); ++w) {
      const uint8_t* entry = bytes.data() + kHeaderSize + kWeightsHeader + kWeightEntry * w;
      FUZZ_CHECK(reference::getLE(entry, 8) == weights.hashes()[w] && reference::getLE(entry + 8, 4) == weights.counts()[w]);
    }
  }
  TextIndex loaded(0.5);
  std::string error;
  FUZZ_CHECK(TextIndex::deserialize(bytes.data(), bytes.size(), loaded, error) == Status::Ok);
  FUZZ_CHECK(loaded.serialize() == bytes);
  FUZZ_CHECK(loaded.options().normalization == simhash::Normalization::kList);
  FUZZ_CHECK((loaded.options().weights != nullptr) == (kind != 0));
  for (uint32_t q = 0; q < n && q < 4; ++q) checkQuery(loaded, indexThreshold, n, q, texts, keys, similarity);

  if (kind != 0) checkDamagedLoad(bytes, input, weights, indexThreshold, texts, normalized);
  return 0;
}
