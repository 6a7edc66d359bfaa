#include "simhash/text_index.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "random_data.h"
#include "text_index/band_table.h"

using simhash::Banding;
using simhash::ShingleOptions;
using simhash::Status;
using simhash::TextIndex;
using simhash::TextMatch;

namespace {

// Texts as users store them: bases of words from a small vocabulary (so unrelated texts
// share shingles) in ASCII, CJK (Han and kana words, unspaced) or both, each followed by
// variants with word edits (1-3, or up to an eighth of a long text's words: similarities
// around the thresholds), plus punctuation and case changes that normalize away, and texts
// that normalize to nothing. A quarter of the bases are long (40-119 numbered words), where a
// candidate's verification computes its shingles in two steps (TextIndex::Impl::shared).
std::vector<std::string> plantedTexts(unsigned seed, size_t bases) {
  static const char* const kAscii[] = {"the", "cat", "sat", "on", "mat", "dog", "ran", "far", "away", "from", "home",
                                       "and", "then", "came", "back", "to", "sleep", "under", "a", "tree", "big", "red"};
  static const char* const kCjk[] = {"猫", "犬", "家", "川", "山", "木", "走る", "見た", "東京", "大阪", "天気", "今日",
                                     "明日", "電車", "駅", "本", "ねこ", "いぬ", "カメラ", "コーヒー"};
  std::mt19937 rng(seed);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  std::vector<std::string> texts;
  for (size_t b = 0; b < bases; ++b) {
    const size_t script = pick(3);  // 0 ASCII, 1 CJK, 2 mixed
    auto word = [&] {
      const bool cjk = script == 1 || (script == 2 && pick(2) == 0);
      return std::string(cjk ? kCjk[pick(std::size(kCjk))] : kAscii[pick(std::size(kAscii))]);
    };
    const bool isLong = pick(4) == 0;
    std::vector<std::string> words(isLong ? 40 + pick(80) : 3 + pick(20));
    // A long text's words carry a number, so that it repeats few shingles (as natural
    // text, where the bound on the shingles left is tight).
    for (std::string& w : words) w = word() + (isLong ? std::to_string(pick(100)) : "");
    auto join = [&](const std::vector<std::string>& ws) {
      std::string text;
      for (const std::string& w : ws) text += (text.empty() || script == 1 ? "" : " ") + w;
      return text;
    };
    texts.push_back(join(words));
    for (size_t v = pick(4); v > 0; --v) {
      std::vector<std::string> edited = words;
      for (size_t e = 1 + pick(isLong ? words.size() / 8 : 3); e > 0; --e) {
        const size_t at = pick(edited.size());
        const size_t kind = pick(4);
        if (kind == 0 && edited.size() > 1) edited.erase(edited.begin() + static_cast<long>(at));
        else if (kind == 1) edited.insert(edited.begin() + static_cast<long>(at), word());
        else if (kind == 2) edited[at] = word();
        else edited[at] += pick(2) ? "," : "!";  // punctuation: normalized away
      }
      std::string text = join(edited);
      if (pick(4) == 0 && !text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 32);
      texts.push_back(text);
    }
  }
  texts.push_back("");
  texts.push_back("?!");  // normalizes to nothing, as the empty text
  texts.push_back("The cat, sat!");
  texts.push_back("the cat sat");
  std::shuffle(texts.begin(), texts.end(), rng);
  return texts;
}

std::vector<uint32_t> bandKeys(const std::string& text, double threshold, const ShingleOptions& options = {}) {
  std::vector<char32_t> cps;
  std::vector<uint64_t> codes;
  simhash::normalizeForSimilarity(text, cps);
  simhash::canonicalShingles(cps.data(), cps.size(), options, codes);
  simhash::MinHashBands signer(simhash::bandingFor(threshold));
  std::vector<uint32_t> keys(signer.banding().bands);
  signer.keys(codes.data(), codes.size(), keys.data());
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<uint64_t> shingles(const std::string& text) {
  std::vector<char32_t> cps;
  std::vector<uint64_t> codes;
  simhash::normalizeForSimilarity(text, cps);
  simhash::canonicalShingles(cps.data(), cps.size(), ShingleOptions{}, codes);
  return codes;
}

// similarity.h's quotient over two shingle lists (what similarity() computes).
double jaccard(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  if (a.empty() && b.empty()) return 1.0;
  size_t common = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] < b[j]) ++i;
    else if (b[j] < a[i]) ++j;
    else ++common, ++i, ++j;
  }
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

bool shareKey(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<uint32_t> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  return !common.empty();
}

void sortMatches(std::vector<TextMatch>& matches) {
  std::sort(matches.begin(), matches.end(), [](const TextMatch& a, const TextMatch& b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.id < b.id;
  });
}

std::vector<TextMatch> query(TextIndex& index, const std::string& text, size_t limit = SIZE_MAX) {
  std::vector<TextMatch> out;
  index.query(text, limit, out);
  return out;
}

// Leaders of SimilarGroups' leader grouping (label[i] == i) over the texts.
std::vector<uint32_t> dedupLeaders(const std::vector<std::string>& texts, double threshold, const ShingleOptions& options) {
  std::string utf8;
  std::vector<uint32_t> offsets{0};
  for (const std::string& t : texts) {
    utf8 += t;
    offsets.push_back(static_cast<uint32_t>(utf8.size()));
  }
  simhash::ShingleSets sets;
  sets.build(utf8.data(), offsets.data(), static_cast<uint32_t>(texts.size()), options);
  simhash::SimilarGroups groups(sets, threshold, simhash::SimilarGroups::Grouping::Leader, simhash::bandingFor(threshold));
  REQUIRE(groups.run(SIZE_MAX));
  const std::vector<uint32_t> labels = groups.takeLabels();
  std::vector<uint32_t> leaders;
  for (uint32_t i = 0; i < labels.size(); ++i) {
    if (labels[i] == i) leaders.push_back(i);
  }
  return leaders;
}

// The band table's merges at the default size, and after every 16 entries: small indexes
// then hold most entries in the sorted part, the rest in the recent part.
constexpr size_t kSmallMerges = 16;

TextIndex indexOf(const std::vector<std::string>& texts, double threshold, size_t mergeAt) {
  TextIndex index(threshold, {}, mergeAt);
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(index.add(texts[i], i) == Status::Ok);
  return index;
}

// A query's answers against its band candidates verified and brute force, on the texts of
// `bases` planted bases (the stored texts are also the queries: each query meets its
// variants); their pairs' similarities computed once for every threshold and merge size.
void checkQueryAnswers(size_t bases) {
  const std::vector<std::string> texts = plantedTexts(11, bases);
  const size_t count = texts.size();
  std::vector<std::vector<uint64_t>> textShingles;
  for (const std::string& t : texts) textShingles.push_back(shingles(t));
  std::vector<double> similarities(count * count);
  for (size_t q = 0; q < count; ++q) {
    for (size_t i = q; i < count; ++i) similarities[q * count + i] = similarities[i * count + q] = jaccard(textShingles[q], textShingles[i]);
  }
  for (const double threshold : {0.5, 0.7, 0.8, 0.9}) {
    std::vector<std::vector<uint32_t>> keys;
    for (const std::string& t : texts) keys.push_back(bandKeys(t, threshold));
    for (const size_t mergeAt : {TextIndex::kMergeAt, kSmallMerges}) {
      CAPTURE(threshold, mergeAt);
      TextIndex index = indexOf(texts, threshold, mergeAt);
      // Recall over the pairs that are not the same normalized text (those always share every band).
      size_t bruteForce = 0, found = 0;
      for (size_t q = 0; q < count; ++q) {
        std::vector<TextMatch> expected;
        for (uint32_t i = 0; i < count; ++i) {
          const double s = similarities[q * count + i];
          if (s < threshold) continue;
          const bool candidate = shareKey(keys[q], keys[i]);
          if (candidate) expected.push_back({i, s});
          if (s < 1) bruteForce += 1, found += candidate;
        }
        sortMatches(expected);
        const std::vector<TextMatch> answers = query(index, texts[q]);
        CAPTURE(texts[q]);
        REQUIRE(answers == expected);
        for (const TextMatch& m : answers) REQUIRE(m.similarity == simhash::similarity(texts[q], texts[m.id]));
      }
      CAPTURE(found, bruteForce);
      REQUIRE(bruteForce >= 100);
      CHECK(static_cast<double>(found) >= 0.99 * static_cast<double>(bruteForce));
      WARN("threshold " << threshold << ": " << found << " of " << bruteForce << " edited pairs found");
    }
  }
}

// Each text queried, and added when nothing is found, at every threshold, shingle option
// and merge size, on the texts of `bases` planted bases: the kept texts are dedup's leaders.
void checkQueryThenAdd(size_t bases) {
  const double threshold = GENERATE(0.5, 0.7, 0.8, 0.9);
  const auto options = GENERATE(ShingleOptions{3, 2}, ShingleOptions{2, 1});
  const size_t mergeAt = GENERATE(TextIndex::kMergeAt, kSmallMerges);
  CAPTURE(threshold, options.alphabetic, options.cjk, mergeAt);
  const std::vector<std::string> texts = plantedTexts(23, bases);
  TextIndex index(threshold, options, mergeAt);
  std::vector<uint32_t> kept;
  std::vector<TextMatch> answers;
  for (uint32_t i = 0; i < texts.size(); ++i) {
    index.query(texts[i], 1, answers);
    if (!answers.empty()) continue;
    REQUIRE(index.add(texts[i], i) == Status::Ok);
    kept.push_back(i);
  }
  const std::vector<uint32_t> leaders = dedupLeaders(texts, threshold, options);
  CHECK(kept.size() < texts.size());
  CHECK(kept == leaders);
}

}  // namespace

TEST_CASE("a query's answers are exactly its verified band candidates, and recall at least 0.99 of brute force", "[text_index]") {
  // 120 bases: 150 edited pairs or more at each threshold (100 required).
  checkQueryAnswers(120);
}

// The same on 250 bases, the long suite's (npm run test:long).
TEST_CASE("a query's answers are exactly its verified band candidates, and recall at least 0.99 of brute force, 250 bases", "[text_index][.full]") {
  checkQueryAnswers(250);
}

TEST_CASE("querying each text and adding it when nothing is found keeps exactly dedup's leaders", "[text_index]") {
  // 60 bases: each of the 16 settings keeps fewer texts than it reads, in about a second under ASan.
  checkQueryThenAdd(60);
}

// The same on 300 bases, the long suite's (npm run test:long).
TEST_CASE("querying each text and adding it when nothing is found keeps exactly dedup's leaders, 300 bases", "[text_index][.full]") {
  checkQueryThenAdd(300);
}

TEST_CASE("answers are sorted by similarity, then id, and limit keeps the first", "[text_index]") {
  TextIndex index(0.5);
  const std::vector<std::string> texts = {"the cat sat on the mat today", "the cat sat on the mat", "The cat sat on the mat!",
                                          "the cat sat on a mat",         "a dog ran far away",     "the cat sat on the mat"};
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(index.add(texts[i], 10 - i) == Status::Ok);
  const std::vector<TextMatch> all = query(index, "the cat sat on the mat");
  REQUIRE(all.size() >= 4);
  CHECK(all[0].id == 5);  // identical normalized texts, similarity 1: ids 5, 8, 9
  CHECK(all[1].id == 8);
  CHECK(all[2].id == 9);
  for (size_t k = 1; k < all.size(); ++k) {
    CHECK((all[k - 1].similarity > all[k].similarity || (all[k - 1].similarity == all[k].similarity && all[k - 1].id < all[k].id)));
  }
  for (const TextMatch& m : all) CHECK(m.similarity == simhash::similarity("the cat sat on the mat", texts[10 - m.id]));
  const std::vector<TextMatch> two = query(index, "the cat sat on the mat", 2);
  CHECK(two == std::vector<TextMatch>(all.begin(), all.begin() + 2));
  CHECK(query(index, "the cat sat on the mat", 0).empty());
}

TEST_CASE("ids: fresh, caller-chosen, duplicates refused, removed ids never handed out again", "[text_index]") {
  TextIndex index(0.8);
  uint32_t id = 99;
  REQUIRE(index.addWithNewId("first text here", id) == Status::Ok);
  CHECK(id == 0);
  REQUIRE(index.add("chosen id text", 1) == Status::Ok);
  REQUIRE(index.addWithNewId("second text here", id) == Status::Ok);
  CHECK(id == 2);  // 1 is stored: stepped over
  CHECK(index.add("another", 2) == Status::DuplicateId);
  CHECK(index.size() == 3);
  CHECK(index.remove(2));
  CHECK_FALSE(index.remove(2));
  CHECK_FALSE(index.has(2));
  CHECK(query(index, "second text here").empty());
  REQUIRE(index.addWithNewId("third text here", id) == Status::Ok);
  CHECK(id == 3);  // never 2 again
  CHECK(index.has(0));
  CHECK(index.has(1));
  CHECK(index.size() == 3);
}

TEST_CASE("addAll is all or nothing", "[text_index]") {
  const size_t mergeAt = GENERATE(TextIndex::kMergeAt, kSmallMerges);
  TextIndex index(0.8, {}, mergeAt);
  REQUIRE(index.add("already here", 7) == Status::Ok);
  const std::vector<uint8_t> before = index.serialize();
  const std::string utf8 = "one texttwo textthree text";
  const uint32_t offsets[] = {0, 8, 16, 26};
  uint32_t idsOut[3];
  const uint32_t clashing[] = {1, 2, 7};
  CHECK(index.addAll(utf8.data(), offsets, 3, clashing, idsOut) == 2);
  CHECK(index.serialize() == before);
  CHECK(index.size() == 1);
  CHECK_FALSE(index.has(1));
  CHECK(query(index, "one text").empty());
  const uint32_t repeated[] = {1, 2, 1};
  CHECK(index.addAll(utf8.data(), offsets, 3, repeated, idsOut) == 2);
  CHECK(index.serialize() == before);
  CHECK(index.addAll(utf8.data(), offsets, 3, nullptr, idsOut) == 3);
  CHECK((idsOut[0] == 0 && idsOut[1] == 1 && idsOut[2] == 2));
  CHECK(query(index, "two text") == std::vector<TextMatch>{{1, 1.0}});
}

TEST_CASE("removal: removed texts are never answers, the rest still are, through compaction", "[text_index]") {
  const double threshold = 0.7;
  const size_t mergeAt = GENERATE(TextIndex::kMergeAt, kSmallMerges);
  const std::vector<std::string> texts = plantedTexts(31, 200);
  TextIndex index = indexOf(texts, threshold, mergeAt);
  std::mt19937 rng(5);
  std::vector<uint8_t> removed(texts.size(), 0);
  for (uint32_t i = 0; i < texts.size(); ++i) {
    if (rng() % 4 != 0) removed[i] = index.remove(i);
  }
  // Adds after removals compact the stored texts once removed bytes outnumber live ones.
  std::vector<std::string> more = plantedTexts(32, 50);
  for (uint32_t k = 0; k < more.size(); ++k) REQUIRE(index.add(more[k], 100000 + k) == Status::Ok);
  TextIndex fresh(threshold, {}, TextIndex::kMergeAt);
  for (uint32_t i = 0; i < texts.size(); ++i) {
    if (!removed[i]) REQUIRE(fresh.add(texts[i], i) == Status::Ok);
  }
  for (uint32_t k = 0; k < more.size(); ++k) REQUIRE(fresh.add(more[k], 100000 + k) == Status::Ok);
  CHECK(index.size() == fresh.size());
  for (size_t q = 0; q < texts.size(); q += 2) {
    const std::vector<TextMatch> answers = query(index, texts[q]);
    CHECK(answers == query(fresh, texts[q]));
    for (const TextMatch& m : answers) CHECK((m.id >= 100000 || !removed[m.id]));
  }
  CHECK(index.serialize() == fresh.serialize());
}

TEST_CASE("an index emptied by removals merges its band table to nothing and takes adds again", "[text_index]") {
  TextIndex index(0.8, {}, kSmallMerges);
  const std::vector<std::string> texts = plantedTexts(43, 60);
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(index.add(texts[i], i) == Status::Ok);
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(index.remove(i));
  REQUIRE(index.add("the only text left", 500) == Status::Ok);  // the merge of removed entries only
  TextIndex fresh(0.8);
  REQUIRE(fresh.add("the only text left", 500) == Status::Ok);
  CHECK(query(index, "the only text left") == std::vector<TextMatch>{{500, 1.0}});
  CHECK(query(index, texts[0]).empty());
  CHECK(index.serialize() == fresh.serialize());
}

TEST_CASE("serialize and deserialize round trip", "[text_index]") {
  const std::vector<std::string> texts = plantedTexts(41, 60);
  const size_t mergeAt = GENERATE(TextIndex::kMergeAt, kSmallMerges);
  TextIndex index(0.75, ShingleOptions{2, 2}, mergeAt);
  for (uint32_t i = 0; i < texts.size(); ++i) {
    uint32_t id;
    REQUIRE(index.addWithNewId(texts[i], id) == Status::Ok);
  }
  REQUIRE(index.remove(3));
  const std::vector<uint8_t> bytes = index.serialize();
  TextIndex loaded(0.5);
  std::string error;
  REQUIRE(TextIndex::deserialize(bytes.data(), bytes.size(), loaded, error) == Status::Ok);
  CHECK(loaded.threshold() == 0.75);
  CHECK((loaded.options().alphabetic == 2 && loaded.options().cjk == 2));
  CHECK(loaded.size() == index.size());
  CHECK(loaded.serialize() == bytes);
  for (const std::string& t : texts) CHECK(query(loaded, t) == query(index, t));
  uint32_t a, b;
  REQUIRE(index.addWithNewId("next", a) == Status::Ok);
  REQUIRE(loaded.addWithNewId("next", b) == Status::Ok);
  CHECK(a == b);
  CHECK(a == texts.size());
}

TEST_CASE("every truncation and every flipped byte is rejected, the target unchanged", "[text_index]") {
  const double review = GENERATE(0.0, 0.6);
  CAPTURE(review);
  TextIndex index(0.8, review);
  const std::vector<std::string> texts = {"the cat sat on the mat", "東京の天気", "a dog ran far away", ""};
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(index.add(texts[i], i * 3) == Status::Ok);
  const std::vector<uint8_t> bytes = index.serialize();
  TextIndex target(0.5);
  REQUIRE(target.add("untouched", 42) == Status::Ok);
  const std::vector<uint8_t> targetBytes = target.serialize();
  std::string error;
  size_t rejected = 0;
  for (size_t n = 0; n < bytes.size(); ++n) {
    rejected += TextIndex::deserialize(bytes.data(), n, target, error) == Status::CorruptData;
  }
  CHECK(rejected == bytes.size());
  rejected = 0;
  // Every byte flipped, in its lowest bit and its highest by turns.
  std::vector<uint8_t> damaged = bytes;
  for (size_t at = 0; at < bytes.size(); ++at) {
    const uint8_t bit = at % 2 == 0 ? 0x01 : 0x80;
    damaged[at] ^= bit;
    rejected += TextIndex::deserialize(damaged.data(), damaged.size(), target, error) == Status::CorruptData;
    damaged[at] ^= bit;
  }
  CHECK(rejected == bytes.size());
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  CHECK(TextIndex::deserialize(longer.data(), longer.size(), target, error) == Status::CorruptData);
  CHECK(target.serialize() == targetBytes);
}

TEST_CASE("the short measure's bytes carry its normalization's revision: earlier ones load normalized again, any beside the text normalization is refused", "[text_index]") {
  auto resealed = [](std::vector<uint8_t> b) {
    b.resize(b.size() - 8);
    simhash::bytes::putLE(b, simhash::bytes::checksum(b.data(), b.size()), 8);
    return b;
  };
  auto load = [](const std::vector<uint8_t>& b, std::string& error) {
    TextIndex out(0.5);
    return TextIndex::deserialize(b.data(), b.size(), out, error);
  };
  TextIndex shortIndex(0.6, simhash::kShortStringOptions);
  REQUIRE(shortIndex.add("ソニー株式会社", 1) == Status::Ok);
  std::vector<uint8_t> bytes = shortIndex.serialize();
  // The list normalization, revision 4: 0 in the flags' bits 2-3, 1 in the CJK size's high nibble.
  CHECK(bytes[6] >> 4 == 1);
  CHECK(bytes[7] == (2 | 1 << 4));
  std::string error;
  CHECK(load(bytes, error) == Status::Ok);
  for (unsigned revision : {0u, 1u, 2u, 3u}) {
    CAPTURE(revision);
    std::vector<uint8_t> earlier = bytes;
    earlier[6] = static_cast<uint8_t>((earlier[6] & 0x3F) | revision << 6);
    earlier[7] = 2;
    const std::vector<uint8_t> sealed = resealed(earlier);
    TextIndex loaded(0.5);
    REQUIRE(TextIndex::deserialize(sealed.data(), sealed.size(), loaded, error) == Status::Ok);
    CHECK(loaded.serialize() == bytes);  // normalized again, written back as revision 4
  }
  // A later revision is refused.
  std::vector<uint8_t> later = bytes;
  later[6] = static_cast<uint8_t>(later[6] | 1 << 6);
  CHECK(load(resealed(later), error) == Status::CorruptData);
  TextIndex textIndex(0.8);
  REQUIRE(textIndex.add("the cat sat", 1) == Status::Ok);
  for (unsigned revision : {1u, 2u, 3u, 4u}) {
    CAPTURE(revision);
    std::vector<uint8_t> text = textIndex.serialize();
    text[6] |= static_cast<uint8_t>((revision & 3) << 6);
    text[7] |= static_cast<uint8_t>((revision >> 2) << 4);
    CHECK(load(resealed(text), error) == Status::CorruptData);
  }
}

TEST_CASE("bytes with a valid checksum are still checked: sizes, ids, keys and header in range", "[text_index]") {
  TextIndex index(0.8);
  REQUIRE(index.add("the cat sat", 1) == Status::Ok);
  REQUIRE(index.add("a dog ran", 2) == Status::Ok);
  const std::vector<uint8_t> bytes = index.serialize();
  auto resealed = [](std::vector<uint8_t> b) {
    b.resize(b.size() - 8);
    simhash::bytes::putLE(b, simhash::bytes::checksum(b.data(), b.size()), 8);
    return b;
  };
  const size_t first = 32;                      // the first text's entry: id, shingles, length, bytes
  const size_t second = first + 12 + 11;        // "the cat sat" is 11 bytes
  const size_t keys = second + 12 + 9;          // "a dog ran" is 9 bytes
  const size_t bands = simhash::bandingFor(0.8).bands;
  REQUIRE(bytes.size() == keys + 8 * 2 * bands + 8);
  struct Damage {
    const char* what;
    size_t at;
    uint8_t value;
  };
  const Damage damages[] = {{"id twice", second, 1},
                            {"more shingles than bytes", first + 4, 200},
                            {"shingle size 0", 6, 0},
                            {"shingle size 4", 7, 4},
                            {"threshold 0", 15, 0},
                            {"next id above 2^32", 20, 2},
                            {"count too large", 24, 3},
                            {"bands not the threshold's", 28, 1},
                            {"length past the end", first + 8, 200},
                            {"a key of 0", keys, 0},
                            {"keys cut mid-entry", 0, 0},
                            {"more keys than the texts have", 0, 0}};
  for (const Damage& d : damages) {
    CAPTURE(d.what);
    std::vector<uint8_t> b = bytes;
    if (std::string(d.what) == "threshold 0") std::fill(b.begin() + 8, b.begin() + 16, 0);
    else if (std::string(d.what) == "a key of 0") std::fill(b.begin() + static_cast<std::ptrdiff_t>(keys), b.begin() + static_cast<std::ptrdiff_t>(keys) + 4, 0);
    else if (std::string(d.what) == "keys cut mid-entry") b.erase(b.end() - 12, b.end() - 8);
    else if (std::string(d.what) == "more keys than the texts have") b.insert(b.end() - 8, b.end() - 16, b.end() - 8);
    else b[d.at] = d.value;
    b = resealed(b);
    TextIndex out(0.5);
    std::string error;
    CHECK(TextIndex::deserialize(b.data(), b.size(), out, error) == Status::CorruptData);
    CHECK(out.size() == 0);
    CHECK_FALSE(error.empty());
  }
  const std::vector<uint8_t> same = resealed(bytes);
  TextIndex out(0.5);
  std::string error;
  CHECK(TextIndex::deserialize(same.data(), same.size(), out, error) == Status::Ok);
  // Keys are taken as written: every key of text 2 given to id 7, which is not stored,
  // loads; text 2 is then found by no query, text 1 still is, and nothing breaks.
  std::vector<uint8_t> foreign = bytes;
  for (size_t e = keys; e < keys + 8 * 2 * bands; e += 8) {
    if (foreign[e + 4] == 2) foreign[e + 4] = 7;
  }
  foreign = resealed(foreign);
  TextIndex loaded(0.5);
  REQUIRE(TextIndex::deserialize(foreign.data(), foreign.size(), loaded, error) == Status::Ok);
  CHECK(query(loaded, "the cat sat") == std::vector<TextMatch>{{1, 1.0}});
  CHECK(query(loaded, "a dog ran").empty());
  CHECK(loaded.remove(2));
  REQUIRE(loaded.add("a dog ran", 7) == Status::Ok);
  CHECK(query(loaded, "a dog ran") == std::vector<TextMatch>{{7, 1.0}});
  CHECK(loaded.size() == 2);
}

namespace {

// Band keys written in one order whatever the table's history: `bases` planted bases added in
// order with merges at `mergeAt`, against the same added in reverse after `churn` other texts
// (then removed) with small merges; a loaded index writes its bytes back.
void checkKeyOrder(size_t mergeAt, size_t bases, uint32_t churn) {
  const std::vector<std::string> texts = plantedTexts(7, bases);
  CAPTURE(mergeAt, bases, churn, texts.size());
  REQUIRE(churn > texts.size());  // the churned table outgrows the other
  TextIndex grown(0.8, {}, mergeAt), removedMany(0.8, {}, kSmallMerges);
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(grown.add(texts[i], i) == Status::Ok);
  // Another order of adds, and many texts added and removed: a larger table, other runs.
  for (uint32_t i = 0; i < churn; ++i) REQUIRE(removedMany.add(texts[i % texts.size()] + " extra " + std::to_string(i), 100000 + i) == Status::Ok);
  for (uint32_t i = static_cast<uint32_t>(texts.size()); i-- > 0;) REQUIRE(removedMany.add(texts[i], i) == Status::Ok);
  for (uint32_t i = 0; i < churn; ++i) REQUIRE(removedMany.remove(100000 + i));
  // Texts are written in the order they were added; the band keys in one order.
  const std::vector<uint8_t> a = grown.serialize(), b = removedMany.serialize();
  REQUIRE(a.size() == b.size());
  const size_t keyBytes = 8 * texts.size() * simhash::bandingFor(0.8).bands;
  CHECK(std::equal(a.end() - 8 - static_cast<std::ptrdiff_t>(keyBytes), a.end() - 8, b.end() - 8 - static_cast<std::ptrdiff_t>(keyBytes)));
  TextIndex loadedA(0.5), loadedB(0.5);
  std::string error;
  REQUIRE(TextIndex::deserialize(a.data(), a.size(), loadedA, error) == Status::Ok);
  REQUIRE(TextIndex::deserialize(b.data(), b.size(), loadedB, error) == Status::Ok);
  CHECK(loadedA.serialize() == a);
  CHECK(loadedB.serialize() == b);
  for (const std::string& t : texts) CHECK(query(loadedB, t) == query(grown, t));
  // Keys in another order than serialize() writes (reversed) are placed by probing: same answers.
  std::vector<uint8_t> reversed = a;
  const auto keysBegin = reversed.end() - 8 - static_cast<std::ptrdiff_t>(keyBytes);
  for (size_t i = 0, n = keyBytes / 8; i < n / 2; ++i) std::swap_ranges(keysBegin + 8 * i, keysBegin + 8 * i + 8, keysBegin + 8 * (n - 1 - i));
  reversed.resize(reversed.size() - 8);
  simhash::bytes::putLE(reversed, simhash::bytes::checksum(reversed.data(), reversed.size()), 8);
  TextIndex loadedReversed(0.5);
  REQUIRE(TextIndex::deserialize(reversed.data(), reversed.size(), loadedReversed, error) == Status::Ok);
  CHECK(loadedReversed.serialize() == a);
  for (const std::string& t : texts) CHECK(query(loadedReversed, t) == query(grown, t));
}

}  // namespace

TEST_CASE("band keys are written in one order whatever the table's history, and a loaded index writes its bytes back", "[text_index]") {
  checkKeyOrder(GENERATE(TextIndex::kMergeAt, kSmallMerges), 40, 250);
}

// The same on 400 bases and 3,000 texts added and removed, the long suite's (npm run test:long).
TEST_CASE("band keys are written in one order whatever the table's history, 400 bases", "[text_index][.full]") {
  checkKeyOrder(GENERATE(TextIndex::kMergeAt, kSmallMerges), 400, 3000);
}

TEST_CASE("the streaming checksum equals the checksum of the whole, however the bytes are cut", "[text_index]") {
  std::mt19937 rng(5);
  std::vector<uint8_t> data(200000);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 300; ++n) lengths.push_back(n);  // short inputs, and the switch at 240
  for (size_t blocks = 1; blocks <= 3; ++blocks) {           // around the 1,024-byte blocks and their last stripe
    for (size_t n = 1024 * blocks - 65; n <= 1024 * blocks + 65; ++n) lengths.push_back(n);
  }
  for (size_t n : {5000, 65536, 200000}) lengths.push_back(n);
  for (const size_t length : lengths) {
    for (const size_t most : {1, 63, 64, 1024, 1500, 300000}) {  // the largest piece
      simhash::bytes::StreamingChecksum streaming;
      for (size_t at = 0; at < length;) {
        const size_t piece = std::min(length - at, 1 + rng() % most);
        streaming.update(data.data() + at, piece);
        at += piece;
      }
      CAPTURE(length, most);
      REQUIRE(streaming.digest() == simhash::bytes::checksum(data.data(), length));
    }
  }
}

namespace {

// A writer's pieces of every size are serialize()'s bytes and a reader's are deserialize()'s,
// on `bases` planted bases and their variants: review 0 writes format 2, review > 0 format 3
// (sketches, two band tables).
void checkPieces(double review, size_t bases) {
  const std::vector<std::string> texts = plantedTexts(13, bases);
  CAPTURE(review, bases);
  REQUIRE(texts.size() > 2 * kSmallMerges);
  TextIndex index(0.8, review, {}, kSmallMerges);  // both parts of the band table, and removed entries
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(index.add(texts[i], i) == Status::Ok);
  for (uint32_t i = 0; i < texts.size(); i += 5) REQUIRE(index.remove(i));
  const std::vector<uint8_t> whole = index.serialize();
  TextIndex loaded(0.5);
  std::string error;
  REQUIRE(TextIndex::deserialize(whole.data(), whole.size(), loaded, error) == Status::Ok);
  // Pieces that cut the header, text headers, texts, band entries and the checksum anywhere.
  for (const size_t piece : {size_t{1}, size_t{3}, size_t{7}, size_t{8}, size_t{9}, size_t{12}, size_t{13}, size_t{31}, size_t{4096}}) {
    CAPTURE(piece);
    TextIndex::Writer writer(index);
    REQUIRE(writer.size() == whole.size());
    std::vector<uint8_t> pieces;
    std::vector<uint8_t> buffer(piece + 1, 0xEE);
    for (size_t written; (written = writer.write(buffer.data(), piece)) != 0;) {
      REQUIRE(written <= piece);
      CHECK(buffer[piece] == 0xEE);
      pieces.insert(pieces.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(written));
      if (written < piece) CHECK(pieces.size() == whole.size());
    }
    CHECK(pieces == whole);
    CHECK(writer.write(buffer.data(), piece) == 0);

    // Read back in pieces: the same index; damaged bytes the same error as read whole.
    auto readInPieces = [&](const std::vector<uint8_t>& bytes, TextIndex& out, std::string& message) {
      TextIndex::Reader reader(bytes.size());
      for (size_t at = 0; at < bytes.size(); at += piece) reader.read(bytes.data() + at, std::min(piece, bytes.size() - at));
      return reader.finish(out, message);
    };
    TextIndex fromPieces(0.5);
    REQUIRE(readInPieces(whole, fromPieces, error) == Status::Ok);
    CHECK(fromPieces.serialize() == whole);
    for (size_t i = 0; i < texts.size(); i += 7) CHECK(query(fromPieces, texts[i]) == query(index, texts[i]));
    // Bytes short of the length announced, or past it, are rejected, and the extra ones not kept.
    for (const size_t given : {whole.size() - 1, whole.size() + piece}) {
      std::vector<uint8_t> bytes = whole;
      bytes.resize(given, 0xAB);
      TextIndex::Reader reader(whole.size());
      for (size_t at = 0; at < bytes.size(); at += piece) reader.read(bytes.data() + at, std::min(piece, bytes.size() - at));
      TextIndex target(0.5);
      CHECK(reader.finish(target, error) == Status::CorruptData);
      CHECK(error == "invalid serialized text index: given " + std::to_string(given) + " bytes of " + std::to_string(whole.size()));
      CHECK(target.size() == 0);
    }
    std::mt19937 rng(static_cast<unsigned>(piece));
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<uint8_t> damaged = whole;
      if (trial % 2 == 0) {
        damaged[rng() % damaged.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      } else {
        damaged.resize(rng() % damaged.size());
      }
      TextIndex a(0.5), b(0.5);
      std::string wholeError, piecesError;
      const Status status = TextIndex::deserialize(damaged.data(), damaged.size(), a, wholeError);
      CHECK(status == Status::CorruptData);
      CHECK(readInPieces(damaged, b, piecesError) == status);
      CHECK(piecesError == wholeError);
    }
  }
}

}  // namespace

TEST_CASE("a writer's pieces, of any size, are serialize()'s bytes, which keep their format, and a reader's are deserialize()'s", "[text_index]") {
  // The format is a contract: format version 2 writes these bytes (their length and
  // checksum) for these texts, natively and through the JS layer (text-index.test.js).
  TextIndex golden(0.8);
  for (const char* text : {"the cat sat on the mat", "我们今天去公园散步吧", "How do I reset my password?", "How can I reset my password?", "a dog ran"}) {
    uint32_t id;
    REQUIRE(golden.addWithNewId(text, id) == Status::Ok);
  }
  REQUIRE(golden.remove(4));
  const std::vector<uint8_t> goldenBytes = golden.serialize();
  CHECK(goldenBytes.size() == 641);
  CHECK(goldenBytes[4] == 2);
  CHECK(simhash::bytes::getLE(goldenBytes.data() + goldenBytes.size() - 8, 8) == 0x128cef47cdb46cacULL);
  // Format version 3: the same texts with review at 0.5.
  TextIndex goldenReview(0.8, 0.5);
  for (const char* text : {"the cat sat on the mat", "我们今天去公园散步吧", "How do I reset my password?", "How can I reset my password?", "a dog ran"}) {
    uint32_t id;
    REQUIRE(goldenReview.addWithNewId(text, id) == Status::Ok);
  }
  REQUIRE(goldenReview.remove(4));
  const std::vector<uint8_t> goldenReviewBytes = goldenReview.serialize();
  CHECK(goldenReviewBytes[4] == 3);
  CHECK(goldenReviewBytes.size() == 2197);
  CHECK(simhash::bytes::getLE(goldenReviewBytes.data() + goldenReviewBytes.size() - 8, 8) == 0xeeeff7e4195d35daULL);

  // Pieces cut every structure at any size on 20 bases (the long suite's: 200).
  checkPieces(GENERATE(0.0, 0.5), 20);
}

// The same on 200 bases, the long suite's (npm run test:long).
TEST_CASE("a writer's pieces, of any size, are serialize()'s bytes and a reader's are deserialize()'s, 200 bases", "[text_index][.full]") {
  checkPieces(GENERATE(0.0, 0.5), 200);
}

TEST_CASE("band keys depend on the text alone: dedup's batches and the index agree", "[text_index]") {
  // The same text in batches of different code point frequencies gets the same keys, signed
  // from the stored sets or as addTexts builds them (long texts, over 256 code points, too).
  std::string longText;
  for (int k = 0; k < 40; ++k) longText += "word" + std::to_string(k % 13) + " 東京 ";
  const std::vector<std::string> a = {"the cat sat on the mat", "zzzz zzz zz", longText};
  const std::vector<std::string> b = {"qqq qqqq", longText, "東京の天気", "the cat sat on the mat"};
  auto keysIn = [](const std::vector<std::string>& texts, uint32_t i, bool observed) {
    std::string utf8;
    std::vector<uint32_t> offsets{0};
    for (const std::string& t : texts) {
      utf8 += t;
      offsets.push_back(static_cast<uint32_t>(utf8.size()));
    }
    const auto count = static_cast<uint32_t>(texts.size());
    simhash::ShingleSets sets;
    if (!observed) sets.build(utf8.data(), offsets.data(), count);
    else sets.countTexts(utf8.data(), offsets.data(), count);
    simhash::SimilarGroups groups(sets, 0.8, simhash::SimilarGroups::Grouping::Leader, simhash::bandingFor(0.8));
    if (observed) sets.addTexts(utf8.data(), offsets.data(), count, nullptr, &groups);
    std::vector<uint32_t> keys(simhash::bandingFor(0.8).bands);
    groups.bandKeys(i, keys.data());
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  const bool observed = GENERATE(false, true);
  CAPTURE(observed);
  CHECK(keysIn(a, 0, observed) == keysIn(b, 3, !observed));
  CHECK(keysIn(a, 0, observed) == bandKeys("the cat sat on the mat", 0.8));
  CHECK(keysIn(a, 2, observed) == keysIn(b, 1, !observed));
  CHECK(keysIn(a, 2, observed) == bandKeys(longText, 0.8));
}

namespace {

// A text of `bytes` queried and then stored: the scratch its calls needed (its code points
// alone, 4 bytes each, are some times the 64 KiB allowed) is given back after each.
void checkScratchGivenBack(size_t bytes) {
  TextIndex index(0.8);
  REQUIRE(index.add("a short text to begin with", 1) == Status::Ok);
  std::vector<TextMatch> out;
  index.query("another short text", SIZE_MAX, out);
  const size_t before = index.memoryBytes();
  std::string longText;
  for (int i = 0; longText.size() < bytes; ++i) longText += "word" + std::to_string(i) + " 東京" + std::to_string(i % 97) + " ";
  index.query(longText, SIZE_MAX, out);
  CHECK(index.memoryBytes() < before + 65536);
  REQUIRE(index.add(longText, 2) == Status::Ok);  // stored: its normalized text and keys stay
  const size_t stored = index.memoryBytes();
  CHECK(stored < before + longText.size() + 65536);
  CHECK(query(index, longText) == std::vector<TextMatch>{{2, 1.0}});
  CHECK(index.memoryBytes() < stored + 65536);
}

}  // namespace

TEST_CASE("a long text's scratch is given back after the call that needed it", "[text_index]") {
  checkScratchGivenBack(200000);
}

TEST_CASE("a long text's scratch is given back after the call that needed it: 2 MB", "[text_index][.full]") {
  checkScratchGivenBack(2000000);
}

namespace {

// Whether the keys of a and b at threshold t share one: a candidate of t's band table.
struct KeysAt {
  double threshold;
  std::vector<std::vector<uint32_t>> keys;
  KeysAt(const std::vector<std::string>& texts, double t) : threshold(t) {
    for (const std::string& text : texts) keys.push_back(bandKeys(text, t));
  }
  bool candidate(size_t a, size_t b) const { return shareKey(keys[a], keys[b]); }
};

}  // namespace

namespace {

// Review on `bases` planted bases and their variants, every text queried: the duplicates are
// those without review, each answer exact and in order, and at least 0.99 of the pairs in
// [review, threshold) listed, at each of `settings` ({threshold, review}) with the default
// merges, and with `smallMerges` with small merges too (the band table's merge path).
void checkReview(size_t bases, bool smallMerges, std::initializer_list<std::pair<double, double>> settings) {
  const std::vector<std::string> texts = plantedTexts(17, bases);
  CAPTURE(bases);
  const size_t count = texts.size();
  std::vector<std::vector<uint64_t>> textShingles;
  for (const std::string& t : texts) textShingles.push_back(shingles(t));
  // Brute force once for all six settings: the similarity of every pair.
  std::vector<double> similarities(count * count);
  for (size_t q = 0; q < count; ++q) {
    for (size_t i = q; i < count; ++i) similarities[q * count + i] = similarities[i * count + q] = jaccard(textShingles[q], textShingles[i]);
  }
  for (const auto& [threshold, review] : settings) {
    const KeysAt atThreshold(texts, threshold), atReview(texts, review);
    for (const size_t mergeAt : {TextIndex::kMergeAt, kSmallMerges}) {
      if (mergeAt == kSmallMerges && !smallMerges) continue;
      CAPTURE(threshold, review, mergeAt);
      TextIndex plain(threshold, {}, mergeAt), index(threshold, review, {}, mergeAt);
      for (uint32_t i = 0; i < count; ++i) REQUIRE((plain.add(texts[i], i) == Status::Ok && index.add(texts[i], i) == Status::Ok));
      CHECK(index.review() == review);
      size_t inRange = 0, listed = 0;
      for (size_t q = 0; q < count; ++q) {
        CAPTURE(texts[q]);
        const std::vector<TextMatch> answers = query(index, texts[q]);
        // Duplicates: exactly the answers without review; then every answer exact and sorted.
        std::vector<TextMatch> duplicates;
        for (const TextMatch& m : answers) {
          if (m.kind == simhash::MatchKind::Duplicate) duplicates.push_back(m);
        }
        REQUIRE(duplicates == query(plain, texts[q]));
        std::vector<uint8_t> answered(count, 0);
        for (size_t k = 0; k < answers.size(); ++k) {
          const TextMatch& m = answers[k];
          answered[m.id] = 1;
          REQUIRE(m.similarity == similarities[q * count + m.id]);
          REQUIRE(m.similarity >= review);
          REQUIRE((atThreshold.candidate(q, m.id) || atReview.candidate(q, m.id)));
          if (k > 0) {
            const TextMatch& p = answers[k - 1];
            REQUIRE((p.kind < m.kind || (p.kind == m.kind && (p.similarity > m.similarity || (p.similarity == m.similarity && p.id < m.id)))));
          }
        }
        for (uint32_t i = 0; i < count; ++i) {
          const double s = similarities[q * count + i];
          // The threshold's candidates are never set aside by sketches.
          if (s >= review && atThreshold.candidate(q, i)) REQUIRE(answered[i]);
          if (s >= review && s < threshold) inRange += 1, listed += answered[i];
        }
      }
      CAPTURE(listed, inRange);
      REQUIRE(inRange >= 100);
      CHECK(static_cast<double>(listed) >= 0.99 * static_cast<double>(inRange));
      WARN("threshold " << threshold << ", review " << review << ": " << listed << " of " << inRange << " pairs in [review, threshold) listed");
    }
  }
}

}  // namespace

// 120 bases: the fewest that keep 100 pairs in [review, threshold) at each setting (118 at 0.7 / 0.5);
// a case per setting, the small merges at 0.9 / 0.6, whose index is the quickest to build
// (ASan alone: 0.3 s each, 1.2 s with the small merges; 1.6 s at 0.8 / 0.5).
TEST_CASE("review: duplicates as without review, review matches exact, found at least 0.99 of brute force, at 0.8 / 0.5", "[text_index]") {
  checkReview(120, false, {{0.8, 0.5}});
}

TEST_CASE("review: duplicates as without review, review matches exact, found at least 0.99 of brute force, at 0.9 / 0.6", "[text_index]") {
  checkReview(120, true, {{0.9, 0.6}});
}

TEST_CASE("review: duplicates as without review, review matches exact, found at least 0.99 of brute force, at 0.7 / 0.5", "[text_index]") {
  checkReview(120, false, {{0.7, 0.5}});
}

// The same on 250 bases, every setting with both merge sizes: the long suite's (npm run test:long).
TEST_CASE("review: duplicates as without review, review matches exact, found at least 0.99 of brute force, 250 bases", "[text_index][.full]") {
  checkReview(250, true, {{0.8, 0.5}, {0.9, 0.6}, {0.7, 0.5}});
}

TEST_CASE("review: the stream keeps dedup's leaders, and limit keeps the first answers", "[text_index]") {
  const std::vector<std::string> texts = plantedTexts(29, 300);
  TextIndex index(0.8, 0.5, {}, kSmallMerges);
  std::vector<uint32_t> kept;
  size_t withReviewOnly = 0;
  std::vector<TextMatch> answers;
  for (uint32_t i = 0; i < texts.size(); ++i) {
    index.query(texts[i], SIZE_MAX, answers);
    const bool duplicate = std::any_of(answers.begin(), answers.end(), [](const TextMatch& m) { return m.kind == simhash::MatchKind::Duplicate; });
    if (duplicate) continue;
    withReviewOnly += !answers.empty();
    if (!answers.empty()) {
      std::vector<TextMatch> first;
      index.query(texts[i], 1, first);
      CHECK(first == std::vector<TextMatch>{answers[0]});
    }
    REQUIRE(index.add(texts[i], i) == Status::Ok);
    kept.push_back(i);
  }
  CHECK(withReviewOnly > 0);
  CHECK(kept == dedupLeaders(texts, 0.8, ShingleOptions{}));
}

TEST_CASE("review: removal, compaction, undone batches and reloads keep both tables and the sketches", "[text_index]") {
  const std::vector<std::string> texts = plantedTexts(37, 200);
  const size_t mergeAt = GENERATE(TextIndex::kMergeAt, kSmallMerges);
  TextIndex index(0.8, 0.55, {}, mergeAt);
  for (uint32_t i = 0; i < texts.size(); ++i) REQUIRE(index.add(texts[i], i) == Status::Ok);
  std::mt19937 rng(9);
  std::vector<uint8_t> removed(texts.size(), 0);
  for (uint32_t i = 0; i < texts.size(); ++i) {
    if (rng() % 3 != 0) removed[i] = index.remove(i);
  }
  // A batch that fails on its last id is undone; then adds that compact the arena.
  const std::string utf8 = "one texttwo text";
  const uint32_t offsets[] = {0, 8, 16};
  const auto stored = static_cast<uint32_t>(std::find(removed.begin(), removed.end(), 0) - removed.begin());
  const uint32_t clashing[] = {900000, stored};
  uint32_t idsOut[2];
  CHECK(index.addAll(utf8.data(), offsets, 2, clashing, idsOut) == 1);
  const std::vector<std::string> more = plantedTexts(38, 60);
  for (uint32_t k = 0; k < more.size(); ++k) REQUIRE(index.add(more[k], 100000 + k) == Status::Ok);
  TextIndex fresh(0.8, 0.55);
  for (uint32_t i = 0; i < texts.size(); ++i) {
    if (!removed[i]) REQUIRE(fresh.add(texts[i], i) == Status::Ok);
  }
  for (uint32_t k = 0; k < more.size(); ++k) REQUIRE(fresh.add(more[k], 100000 + k) == Status::Ok);
  const std::vector<uint8_t> bytes = index.serialize();
  CHECK(bytes[4] == 3);
  CHECK(bytes == fresh.serialize());
  TextIndex loaded(0.5);
  std::string error;
  REQUIRE(TextIndex::deserialize(bytes.data(), bytes.size(), loaded, error) == Status::Ok);
  CHECK(loaded.review() == 0.55);
  CHECK(loaded.serialize() == bytes);
  for (size_t q = 0; q < texts.size(); q += 3) {
    const std::vector<TextMatch> answers = query(index, texts[q]);
    CHECK(answers == query(fresh, texts[q]));
    CHECK(answers == query(loaded, texts[q]));
    for (const TextMatch& m : answers) CHECK((m.id >= 100000 || !removed[m.id]));
  }
  // Version 2 bytes of the same texts load without review.
  TextIndex plain(0.8);
  for (uint32_t i = 0; i < 20; ++i) REQUIRE(plain.add(texts[i], i) == Status::Ok);
  const std::vector<uint8_t> plainBytes = plain.serialize();
  CHECK(plainBytes[4] == 2);
  REQUIRE(TextIndex::deserialize(plainBytes.data(), plainBytes.size(), loaded, error) == Status::Ok);
  CHECK(loaded.review() == 0);
}

TEST_CASE("review: bytes with a valid checksum are still checked: the review threshold and its bands", "[text_index]") {
  TextIndex index(0.8, 0.5);
  REQUIRE(index.add("the cat sat", 1) == Status::Ok);
  const std::vector<uint8_t> bytes = index.serialize();
  REQUIRE(bytes.size() == 44 + 12 + 11 + 64 + 8 + 8 * (simhash::bandingFor(0.8).bands + simhash::bandingFor(0.5).bands) + 8);
  auto resealed = [](std::vector<uint8_t> b) {
    b.resize(b.size() - 8);
    simhash::bytes::putLE(b, simhash::bytes::checksum(b.data(), b.size()), 8);
    return b;
  };
  auto rejects = [&](std::vector<uint8_t> damaged, const std::string& expected) {
    TextIndex target(0.5);
    std::string error;
    const std::vector<uint8_t> sealed = resealed(std::move(damaged));
    CHECK(TextIndex::deserialize(sealed.data(), sealed.size(), target, error) == Status::CorruptData);
    CHECK(error == "invalid serialized text index: " + expected);
    CHECK(target.size() == 0);
  };
  auto withDouble = [&](size_t at, double value) {
    std::vector<uint8_t> b = bytes;
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(bits >> (8 * i));
    return b;
  };
  rejects(withDouble(32, 0.8), "the review threshold is not within (0, threshold)");
  rejects(withDouble(32, 0.0), "the review threshold is not within (0, threshold)");
  rejects(withDouble(32, 0.6), std::to_string(simhash::bandingFor(0.5).bands) + " review bands where the review threshold's banding has " +
                                   std::to_string(simhash::bandingFor(0.6).bands));
  const size_t entryCount = 44 + 12 + 11 + 64;
  std::vector<uint8_t> moreEntries = bytes;
  moreEntries[entryCount] += 1;
  rejects(moreEntries, "has " + std::to_string(simhash::bandingFor(0.8).bands + 1) + " band keys; 1 texts have at most " +
                           std::to_string(simhash::bandingFor(0.8).bands));
  std::vector<uint8_t> tooMany = bytes;
  tooMany[entryCount] = 0xFF;
  rejects(tooMany, "has " + std::to_string(simhash::bandingFor(0.8).bands + simhash::bandingFor(0.5).bands) + " band keys where its count says 255");
}

TEST_CASE("keysOf: the band keys and normalized text an add stores, nothing stored", "[text_index]") {
  TextIndex index(0.8);
  REQUIRE(index.add("stored before", 1) == Status::Ok);
  const std::vector<uint8_t> before = index.serialize();
  for (const std::string text : {"The cat, sat on the mat!", "東京の天気は晴れ", "ｶﾞｸｾｲ ﾉ ｺｰﾋｰ", "", "?!"}) {
    CAPTURE(text);
    std::vector<uint32_t> keys;
    std::vector<uint8_t> bytes;
    index.keysOf(text, keys, bytes);
    const std::string normalized(bytes.begin(), bytes.end());
    std::vector<uint32_t> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == bandKeys(text, 0.8));
    std::vector<char32_t> cps;
    simhash::normalizeForSimilarity(text, cps);
    std::vector<char32_t> again;
    simhash::normalizeForSimilarity(normalized, again);
    CHECK(again == cps);  // the normalized text, normalized again, is itself
    CHECK(simhash::similarity(text, normalized) == 1.0);
    CHECK(index.serialize() == before);
  }
}

namespace {

using simhash::BandTable;

// The entries of a band table in its cursor's order.
std::vector<std::pair<uint32_t, uint32_t>> entriesOf(const BandTable& table) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  BandTable::Cursor cursor(table);
  while (cursor.take(7, [&](uint32_t key, uint32_t id) { out.emplace_back(key, id); }) == 7) {
  }
  return out;
}

// The ids find() gives for key, sorted.
std::vector<uint32_t> idsOf(const BandTable& table, uint32_t key) {
  std::vector<simhash::KeyedItem> found;
  table.find(key, found);
  std::vector<uint32_t> ids;
  for (const simhash::KeyedItem& item : found) ids.push_back(static_cast<uint32_t>(item.key));
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

TEST_CASE("band table: exactly the entries inserted and not erased, through merges, splits and removals", "[text_index][band_table]") {
  // Random adds of a text's worth of keys (some keys shared by many ids) and removals,
  // against a multiset; merges at 4 or 16 entries a range, so that ranges split down to
  // the 256 the directory allows and every merge path runs (removed entries, other buckets).
  const size_t mergeAt = GENERATE(size_t{4}, size_t{16});
  CAPTURE(mergeAt);
  std::mt19937_64 rng(mergeAt);
  BandTable table(mergeAt);
  std::multiset<std::pair<uint32_t, uint32_t>> expected;
  std::vector<uint32_t> shared(40);
  for (uint32_t& key : shared) key = static_cast<uint32_t>(rng() | 1);
  auto anyKey = [&] { return rng() % 4 == 0 ? shared[rng() % shared.size()] : static_cast<uint32_t>(rng() % 0xFFFFFFFFu + 1); };
  auto check = [&] {
    REQUIRE(table.size() == expected.size());
    for (const uint32_t key : shared) {
      std::vector<uint32_t> ids;
      for (auto it = expected.lower_bound({key, 0}); it != expected.end() && it->first == key; ++it) ids.push_back(it->second);
      REQUIRE(idsOf(table, key) == ids);
    }
  };
  uint32_t nextId = 0;
  std::vector<std::pair<uint32_t, uint32_t>> entries;  // `expected`'s entries, in no order
  for (int step = 0; step < 3000; ++step) {
    if (rng() % 3 != 0 || expected.empty()) {
      uint32_t keys[20];
      const size_t count = 1 + rng() % 20;
      for (size_t k = 0; k < count; ++k) keys[k] = anyKey();
      table.reserve(keys, count);
      for (size_t k = 0; k < count; ++k) {
        table.insert(keys[k], nextId);
        expected.insert({keys[k], nextId});
        entries.emplace_back(keys[k], nextId);
      }
      ++nextId;
    } else {
      // A random entry, drawn from `entries`: walking the multiset to a random place costs
      // its size, which under ASan would be most of the case.
      const size_t k = rng() % entries.size();
      const auto [key, id] = entries[k];
      entries[k] = entries.back();
      entries.pop_back();
      table.erase(key, id);
      table.erase(key, nextId + 1);  // absent: nothing happens
      expected.erase(expected.find({key, id}));
    }
    if (step % 100 == 0) check();
  }
  check();
  // Every key's ids, each as often as inserted and not erased (`expected` is sorted by key, then id).
  for (auto it = expected.begin(); it != expected.end();) {
    const uint32_t key = it->first;
    std::vector<uint32_t> ids;
    for (; it != expected.end() && it->first == key; ++it) ids.push_back(it->second);
    REQUIRE(idsOf(table, key) == ids);
  }

  // The cursor gives every entry once, in (placing hash, id) order; a table built from
  // them, in that order or shuffled (the recent parts then), gives them back the same.
  std::vector<std::pair<uint32_t, uint32_t>> inOrder(expected.begin(), expected.end());
  auto placing = [](const std::pair<uint32_t, uint32_t>& e) { return uint64_t{e.first * 0x9E3779B9u} << 32 | e.second; };
  std::sort(inOrder.begin(), inOrder.end(), [&](const auto& a, const auto& b) { return placing(a) < placing(b); });
  const std::vector<std::pair<uint32_t, uint32_t>> given = entriesOf(table);
  REQUIRE(given == inOrder);
  for (const bool shuffled : {false, true}) {
    std::vector<std::pair<uint32_t, uint32_t>> input = given;
    if (shuffled) simhash::testing::shuffle(input, rng);
    BandTable::Builder builder(input.size(), mergeAt);
    for (const auto& [key, id] : input) builder.add(key, id);
    BandTable built(mergeAt);
    builder.finish(built);
    REQUIRE(entriesOf(built) == inOrder);
    for (const uint32_t key : shared) REQUIRE(idsOf(built, key) == idsOf(table, key));
    // And it takes adds and removals as a grown table does.
    uint32_t keys[3] = {shared[0], shared[1], anyKey()};
    built.reserve(keys, 3);
    for (const uint32_t key : keys) built.insert(key, nextId);
    for (const uint32_t key : keys) built.erase(key, nextId);
    REQUIRE(entriesOf(built) == inOrder);
  }
}

TEST_CASE("band table: ranges split so that no merge copies much more than 4 * mergeAt entries, and once emptied it takes entries again", "[text_index][band_table]") {
  BandTable table(16);
  for (uint32_t id = 0; id < 3000; ++id) {
    const uint32_t key = id * 2654435761u | 1;
    table.reserve(&key, 1);
    table.insert(key, id);
    // A range's recent part and an uneven split add some.
    REQUIRE(table.largestRange() <= 8 * 16);
  }
  for (uint32_t id = 0; id < 3000; ++id) table.erase(id * 2654435761u | 1, id);
  REQUIRE(table.size() == 0);
  const uint32_t key = 77;
  table.reserve(&key, 1);
  table.insert(key, 5);
  REQUIRE(entriesOf(table) == std::vector<std::pair<uint32_t, uint32_t>>{{77, 5}});
  REQUIRE(idsOf(table, 77) == std::vector<uint32_t>{5});
}
