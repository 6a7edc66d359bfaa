// libFuzzer target: the text index (text_index.h) against a brute-force model.
//
// The model holds the stored texts (id -> text, in insertion order) with each text's
// shingle set (normalizeForSimilarity + canonicalShingles, by the index's normalization and
// word weights) and band keys (MinHashBands at
// bandingFor(threshold)). text_index.h defines the answer from these alone: the stored
// texts that share a band key with the query and whose similarity reaches the threshold,
// sorted by similarity descending, then id ascending, the first `limit` of them. So every
// query is checked for the exact answer, similarities included, not only for plausible
// ones; and the first answers' similarities must also equal simhash::similarity(query,
// stored text) exactly. A stored text with the query's very shingles (J = 1) has the
// query's keys and must answer.
//
// Byte 0 picks the mode:
//   bit 0 clear: LOAD. The rest is handed to TextIndex::deserialize, its checksum first
//         rewritten when bit 2 is set (to get past it to the structure). A rejected input
//         must leave the target index unchanged and explain itself. An accepted one must
//         hold the header, word weights (of the short measure, which keep their contract)
//         and texts the bytes list. When its shingle counts and band keys
//         are the texts' own (bytes as the library writes them), it must serialize back to
//         the very same bytes, answer queries like the model, and go on to add, remove and
//         reload; otherwise (taken as written, text_index.h) its answers must still be
//         stored ids at or above the threshold in order, and it must add, remove and
//         round-trip. A TextIndex::Reader given the bytes in pieces of 1 + 7 × (bits 3-7)
//         bytes must give the same verdict, message and index.
//   bit 0 set: OPS. The rest drives (FuzzedDataProvider) an index's threshold and shingle
//         sizes, optionally a start from a loaded empty index whose next fresh id is near
//         2^32, then a sequence of add / addWithNewId / addAll (all or nothing) / remove
//         (one, or many at once so that the stored texts get compacted) / has / query with
//         a limit / query-then-add / serialize+reload operations on the index and the
//         model, and the stream contract (a fresh index fed query-then-add keeps
//         SimilarGroups' leaders). Texts are drawn from a small alphabet of ASCII words,
//         CJK, kana, punctuation and spaces, and edited copies of stored texts, so that
//         near-duplicates near the threshold are common.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "reference.h"
#include "simhash/similar_groups.h"
#include "simhash/similarity.h"
#include "simhash/text_index.h"
#include "simhash/word_weights.h"

namespace {

using reference::getLE;
using reference::putLE;
using reference::setLE;
using simhash::ShingleOptions;
using simhash::Status;
using simhash::TextIndex;
using simhash::TextMatch;

// text_index.h "The versioned byte format": a 32-byte header (44 in version 3), texts of
// (u32 id, u32 distinct shingles, u32 length, length bytes, and in version 3 a 64-byte
// sketch), band entries of (u32 key, u32 id) (version 3: their count first, then the review
// band table's after them), an 8-byte checksum.
constexpr size_t kHeaderSize = 32, kReviewHeader = 12, kTextHeader = 12, kSketchBytes = 64, kBandEntry = 8, kChecksumSize = 8;
// Bound one input's work to tens of milliseconds under the sanitizers: every query scans
// the whole model, and a reload re-signs every text.
constexpr size_t kMaxModelTexts = 160;
constexpr size_t kMaxPieces = 48;
constexpr size_t kMaxBatch = 12;
constexpr size_t kMaxStream = 40;
constexpr size_t kMaxCheckedTexts = 16;
constexpr size_t kMaxWitnessed = 8;  // answers per query whose similarity() is computed
constexpr int kMaxOps = 160;
constexpr int kMaxReloads = 3;
constexpr int kMaxStreams = 2;

// The alphabet texts are drawn from: ASCII words (some differing only in case, which folds
// away), CJK and kana (shingled by ShingleOptions::cjk), full-width letters (folded to
// ASCII), punctuation (removed), whitespace (runs collapse; between CJK it goes), an
// accented letter and a byte that is not UTF-8 (one U+FFFD).
constexpr const char* kPieces[32] = {
    "the", "cat", "sat", "on", "a", "mat", "The", "CAT", " ", " ", " ", ", ", ".", "!", "\n", "dog",
    "\xC3\xA9",              // é
    "\xE6\x97\xA5",          // 日
    "\xE6\x9C\xAC",          // 本
    "\xE8\xAA\x9E",          // 語
    "\xE6\x9D\xB1\xE4\xBA\xAC",  // 東京
    "\xE7\x8C\xAB",          // 猫
    "\xE5\xA4\xA9\xE6\xB0\x97",  // 天気
    "\xE3\x81\xAE",          // の
    "\xE3\x81\xAF",          // は
    "\xE3\x81\xAD\xE3\x81\x93",  // ねこ
    "\xE3\x82\xAB",          // カ
    "\xE3\x83\xA1\xE3\x83\xA9",  // メラ
    "\xE3\x80\x80",          // ideographic space
    "\xE3\x80\x82",          // 。
    "\xFF",                  // not UTF-8
    "\xEF\xBC\xA1\xEF\xBC\xA2",  // ＡＢ
};

std::string piecesFrom(FuzzedDataProvider& input) {
  const size_t count = input.ConsumeIntegralInRange<size_t>(0, kMaxPieces);
  std::string text;
  for (size_t i = 0; i < count && input.remaining_bytes() > 0; ++i) text += kPieces[input.ConsumeIntegral<uint8_t>() % 32];
  return text;
}

// The first position at or after pos that does not continue a UTF-8 sequence.
size_t boundary(const std::string& text, size_t pos) {
  while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) ++pos;
  return pos;
}

// text with 1-3 edits of the kinds people make: a piece inserted, a few characters
// deleted, or replaced by a piece.
std::string edited(std::string text, FuzzedDataProvider& input) {
  for (int edits = input.ConsumeIntegralInRange<int>(1, 3); edits > 0; --edits) {
    const size_t at = boundary(text, input.ConsumeIntegralInRange<size_t>(0, text.size()));
    const int kind = input.ConsumeIntegralInRange<int>(0, 2);
    if (kind != 0) {
      const size_t end = boundary(text, std::min(text.size(), at + input.ConsumeIntegralInRange<size_t>(1, 6)));
      text.erase(at, end - at);
    }
    if (kind != 1) text.insert(at, kPieces[input.ConsumeIntegral<uint8_t>() % 32]);
  }
  return text;
}

// A stored text as the model sees it: its shingles' canonical codes (ascending, distinct)
// and its band keys (ascending).
struct Stored {
  uint32_t id;
  std::string text;
  std::vector<uint64_t> shingles;
  std::vector<uint32_t> keys;
};

class Model {
 public:
  Model(double threshold, const ShingleOptions& options)
      : threshold_(threshold), options_(options), signer_(simhash::bandingFor(threshold)) {}

  Stored describe(uint32_t id, std::string_view text) {
    Stored s{id, std::string(text), {}, {}};
    std::vector<char32_t> cps;
    simhash::normalizeForSimilarity(text, cps, options_.normalization);
    simhash::canonicalShingles(cps.data(), cps.size(), options_, s.shingles);
    s.keys.resize(signer_.banding().bands);
    signer_.keys(s.shingles.data(), s.shingles.size(), s.keys.data());
    std::sort(s.keys.begin(), s.keys.end());
    return s;
  }

  // The quotient similarity() defines, from two sets of canonical codes.
  static double jaccard(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
    if (a.empty() && b.empty()) return 1.0;
    size_t shared = 0;
    for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
      if (a[i] < b[j]) {
        ++i;
      } else if (b[j] < a[i]) {
        ++j;
      } else {
        ++shared, ++i, ++j;
      }
    }
    return static_cast<double>(shared) / static_cast<double>(a.size() + b.size() - shared);
  }

  static bool shareKey(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
      if (a[i] == b[j]) return true;
      if (a[i] < b[j]) ++i;
      else ++j;
    }
    return false;
  }

  // Checks index.query(text, limit) against the definition over `stored`; returns the
  // full answer (no limit).
  std::vector<TextMatch> checkQuery(TextIndex& index, const std::vector<Stored>& stored, std::string_view text,
                                    size_t limit) {
    const Stored query = describe(0, text);
    std::vector<TextMatch> expected;
    for (const Stored& s : stored) {
      const double j = jaccard(query.shingles, s.shingles);
      if (j == 1.0) FUZZ_CHECK(query.keys == s.keys);  // the same set, the same min-hashes
      if (j >= threshold_ && shareKey(query.keys, s.keys)) expected.push_back({s.id, j});
    }
    std::sort(expected.begin(), expected.end(), [](const TextMatch& x, const TextMatch& y) {
      return x.similarity != y.similarity ? x.similarity > y.similarity : x.id < y.id;
    });
    std::vector<TextMatch> got;
    index.query(text, limit, got);
    FUZZ_CHECK(got.size() == std::min(limit, expected.size()));
    FUZZ_CHECK(std::equal(got.begin(), got.end(), expected.begin()));
    // Each answer's similarity is the texts' own: the quotient above, and (for the first
    // answers: it normalizes both texts again, most of an input's time when answers are
    // many) what similarity() computes of the query and the text as stored.
    for (size_t i = 0; i < got.size(); ++i) {
      FUZZ_CHECK(got[i].similarity >= threshold_);
      if (i >= kMaxWitnessed) continue;
      const auto s = std::find_if(stored.begin(), stored.end(), [&](const Stored& x) { return x.id == got[i].id; });
      FUZZ_CHECK(s != stored.end());
      FUZZ_CHECK(got[i].similarity == simhash::similarity(text, s->text, options_));
    }
    return expected;
  }

  double threshold() const { return threshold_; }
  const ShingleOptions& options() const { return options_; }

 private:
  double threshold_;
  ShingleOptions options_;
  simhash::MinHashBands signer_;
};

// What serialized bytes hold, as the format in text_index.h and docs/formats.md lay it out
// (not as text_index.cpp writes it).
struct Content {
  uint16_t version = 0;  // 2, 3 (with review), or 1 (texts normalized before half-width katakana folded)
  uint8_t alphabetic = 0, cjk = 0;
  // The alphabetic size's high nibble: bit 0 the list normalization, bit 1 word weights follow
  // the header(s), bits 2-3 (with bit 0) the low bits of its revision; then the CJK size's high
  // nibble, the revision's high bits.
  uint8_t flags = 0;
  uint32_t weightTexts = 0;       // with word weights: the texts they were learned from,
  std::vector<uint64_t> hashes;   // each word's hash,
  std::vector<uint32_t> counts;   // and how many texts hold it
  double threshold = 0, review = 0;
  uint64_t nextId = 0;
  uint32_t bands = 0, reviewBands = 0;
  struct Text {
    uint32_t id, shingles;
    std::string utf8;
    bool operator==(const Text& o) const { return id == o.id && shingles == o.shingles && utf8 == o.utf8; }
  };
  std::vector<Text> texts;                             // in the order written
  std::vector<std::pair<uint32_t, uint32_t>> entries;  // (key, id), sorted: the order is the writer's
  std::vector<std::pair<uint32_t, uint32_t>> reviewEntries;  // version 3, as entries
};

// false when the bytes do not parse to exactly their body, or the checksum is wrong.
bool parse(const std::vector<uint8_t>& bytes, Content& out) {
  if (bytes.size() < kHeaderSize + kChecksumSize || std::memcmp(bytes.data(), "SHTX", 4) != 0) return false;
  out.version = static_cast<uint16_t>(getLE(bytes.data() + 4, 2));
  if (out.version < 1 || out.version > 3) return false;
  const bool review = out.version == 3;
  const size_t header = kHeaderSize + (review ? kReviewHeader : 0);
  if (bytes.size() < header + kChecksumSize) return false;
  const size_t body = bytes.size() - kChecksumSize;
  if (getLE(bytes.data() + body, 8) != XXH3_64bits(bytes.data(), body)) return false;
  out.alphabetic = bytes[6] & 0xF;
  // The list normalization's revision: the flags' bits 2-3, and above them the CJK byte's high nibble.
  out.flags = static_cast<uint8_t>(bytes[6] >> 4 | (bytes[7] >> 4) << 4);
  out.cjk = bytes[7] & 0xF;
  const uint64_t thresholdBits = getLE(bytes.data() + 8, 8);
  std::memcpy(&out.threshold, &thresholdBits, 8);
  out.nextId = getLE(bytes.data() + 16, 8);
  const uint64_t count = getLE(bytes.data() + 24, 4);
  out.bands = static_cast<uint32_t>(getLE(bytes.data() + 28, 4));
  if (review) {
    const uint64_t reviewBits = getLE(bytes.data() + 32, 8);
    std::memcpy(&out.review, &reviewBits, 8);
    out.reviewBands = static_cast<uint32_t>(getLE(bytes.data() + 40, 4));
  }
  size_t at = header;
  if (out.flags & 2) {
    if (body - at < 8) return false;
    out.weightTexts = static_cast<uint32_t>(getLE(bytes.data() + at, 4));
    const uint64_t words = getLE(bytes.data() + at + 4, 4);
    at += 8;
    if ((body - at) / 12 < words) return false;
    for (uint64_t w = 0; w < words; ++w, at += 12) {
      out.hashes.push_back(getLE(bytes.data() + at, 8));
      out.counts.push_back(static_cast<uint32_t>(getLE(bytes.data() + at + 8, 4)));
    }
  }
  for (uint64_t i = 0; i < count; ++i) {
    if (body - at < kTextHeader) return false;
    const uint64_t length = getLE(bytes.data() + at + 8, 4);
    Content::Text text{static_cast<uint32_t>(getLE(bytes.data() + at, 4)), static_cast<uint32_t>(getLE(bytes.data() + at + 4, 4)), {}};
    at += kTextHeader;
    if (body - at < length) return false;
    text.utf8.assign(reinterpret_cast<const char*>(bytes.data() + at), length);
    out.texts.push_back(std::move(text));
    at += length;
    if (review) {
      if (body - at < kSketchBytes) return false;
      at += kSketchBytes;
    }
  }
  uint64_t main = UINT64_MAX;  // the band table's entries: all but version 3's review entries
  if (review) {
    if (body - at < 8) return false;
    main = getLE(bytes.data() + at, 8);
    at += 8;
  }
  if ((body - at) % kBandEntry != 0 || (review && main > (body - at) / kBandEntry)) return false;
  for (uint64_t e = 0; at < body; at += kBandEntry, ++e) {
    (e < main ? out.entries : out.reviewEntries)
        .emplace_back(static_cast<uint32_t>(getLE(bytes.data() + at, 4)), static_cast<uint32_t>(getLE(bytes.data() + at + 4, 4)));
  }
  std::sort(out.entries.begin(), out.entries.end());
  std::sort(out.reviewEntries.begin(), out.reviewEntries.end());
  return true;
}

// What an index of these texts (in insertion order) holds: each text normalized, its
// distinct shingles, and its `bands` band keys.
Content expectedContent(const Model& model, uint64_t nextId, const std::vector<Stored>& stored) {
  Content c;
  c.version = 2;
  c.alphabetic = model.options().alphabetic;
  c.cjk = model.options().cjk;
  const simhash::WordWeights* weights = model.options().weights;
  const bool list = model.options().normalization == simhash::Normalization::kList;
  c.flags = static_cast<uint8_t>(static_cast<unsigned>(model.options().normalization) | (weights != nullptr ? 2 : 0) | (list ? 16 : 0));  // list: revision 4
  if (weights != nullptr) {
    c.weightTexts = weights->texts();
    c.hashes = weights->hashes();
    c.counts = weights->counts();
  }
  c.threshold = model.threshold();
  c.nextId = nextId;
  c.bands = simhash::bandingFor(model.threshold()).bands;
  for (const Stored& s : stored) {
    std::vector<char32_t> cps;
    simhash::normalizeForSimilarity(s.text, cps, model.options().normalization);
    std::string normalized;
    for (char32_t cp : cps) normalized += reference::encodeUtf8(cp);
    c.texts.push_back({s.id, static_cast<uint32_t>(s.shingles.size()), normalized});
    for (const uint32_t key : s.keys) c.entries.emplace_back(key, s.id);
  }
  std::sort(c.entries.begin(), c.entries.end());
  return c;
}

bool operator==(const Content& a, const Content& b) {
  return a.version == b.version && a.alphabetic == b.alphabetic && a.cjk == b.cjk && a.flags == b.flags && a.weightTexts == b.weightTexts &&
         a.hashes == b.hashes && a.counts == b.counts && a.threshold == b.threshold && a.nextId == b.nextId &&
         a.bands == b.bands && a.texts == b.texts && a.entries == b.entries;
}

void checkBytes(const std::vector<uint8_t>& bytes, const Model& model, uint64_t nextId, const std::vector<Stored>& stored) {
  Content content;
  FUZZ_CHECK(parse(bytes, content));
  FUZZ_CHECK(content == expectedContent(model, nextId, stored));
}

// The bytes of an index holding nothing.
std::vector<uint8_t> emptyBytes(const Model& model, uint64_t nextId) {
  std::vector<uint8_t> out = {'S', 'H', 'T', 'X'};
  putLE(out, 2, 2);
  putLE(out, model.options().alphabetic, 1);
  putLE(out, model.options().cjk, 1);
  uint64_t thresholdBits;
  const double threshold = model.threshold();
  std::memcpy(&thresholdBits, &threshold, 8);
  putLE(out, thresholdBits, 8);
  putLE(out, nextId, 8);
  putLE(out, 0, 4);
  putLE(out, simhash::bandingFor(threshold).bands, 4);
  putLE(out, XXH3_64bits(out.data(), out.size()), 8);
  return out;
}

// The index, the model of what it holds, and the operations on both.
class Run {
 public:
  Run(TextIndex index, const Model& model, std::vector<Stored> stored, uint64_t nextId)
      : model_(model), index_(std::move(index)), stored_(std::move(stored)), nextId_(nextId) {
    for (const Stored& s : stored_) FUZZ_CHECK(ids_.insert(s.id).second);
    checkSize();
  }

  void run(FuzzedDataProvider& input) {
    for (int op = 0; op < kMaxOps && input.remaining_bytes() > 0; ++op) {
      switch (input.ConsumeIntegralInRange<int>(0, 10)) {
        case 0: add(textFrom(input), idFrom(input)); break;
        case 1: addWithNewId(textFrom(input)); break;
        case 2: addAll(input); break;
        case 3: remove(input); break;
        case 4: has(idFrom(input)); break;
        case 5: query(textFrom(input), limitFrom(input)); break;
        case 6: queryThenAdd(textFrom(input)); break;
        case 7: if (reloads_++ < kMaxReloads) reload(); break;
        case 8: if (streams_++ < kMaxStreams) streamContract(input); break;
        case 9: query(last_, limitFrom(input)); break;  // the text just queried or added again
        case 10: removeMany(input); break;
      }
      checkSize();
    }
    finish();
  }

  // Every stored text (some) finds itself; the index survives a round trip; then it still
  // adds and removes.
  void finish() {
    for (size_t i = 0; i < stored_.size() && i < kMaxCheckedTexts; ++i) {
      const std::vector<TextMatch> all = model_.checkQuery(index_, stored_, stored_[i].text, SIZE_MAX);
      FUZZ_CHECK(std::any_of(all.begin(), all.end(), [&](const TextMatch& m) { return m.id == stored_[i].id && m.similarity == 1.0; }));
    }
    reload();
    if (!stored_.empty()) {
      const Stored first = stored_.front();
      FUZZ_CHECK(index_.remove(first.id));
      ids_.erase(first.id);
      stored_.erase(stored_.begin());
      add(first.text, first.id);  // re-added at the end of the insertion order
      checkSize();
      checkBytes(index_.serialize(), model_, nextId_, stored_);
    }
    addWithNewId(stored_.empty() ? std::string("the cat") : stored_.back().text + " the cat");
    checkSize();
  }

 private:
  void checkSize() { FUZZ_CHECK(index_.size() == stored_.size()); }

  const Stored* pick(FuzzedDataProvider& input) {
    if (stored_.empty()) return nullptr;
    return &stored_[input.ConsumeIntegralInRange<size_t>(0, stored_.size() - 1)];
  }

  // Mostly texts near stored ones, so that answers are found near the threshold; some long
  // ones (copies of a short text), so that the stored bytes reach the size of compaction.
  std::string textFrom(FuzzedDataProvider& input) {
    const Stored* base = pick(input);
    switch (base ? input.ConsumeIntegralInRange<int>(0, 5) : 0) {
      case 0: return piecesFrom(input);
      case 5: {
        const std::string text = piecesFrom(input);
        std::string repeated;
        for (int copies = input.ConsumeIntegralInRange<int>(2, 8); copies > 0; --copies) repeated += text;
        return repeated;
      }
      case 1: return base->text;  // an exact copy (a J = 1 answer under another id)
      case 2: return edited(last_, input);
      default: return edited(base->text, input);
    }
  }

  // Mostly small ids, so that duplicates and re-adds after remove are common; also ids at
  // the top of the range.
  static uint32_t idFrom(FuzzedDataProvider& input) {
    switch (input.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: return input.ConsumeIntegralInRange<uint32_t>(0, 15);
      case 1: return UINT32_MAX - input.ConsumeIntegralInRange<uint32_t>(0, 15);
      default: return input.ConsumeIntegral<uint32_t>();
    }
  }

  static size_t limitFrom(FuzzedDataProvider& input) {
    const uint8_t byte = input.ConsumeIntegral<uint8_t>();
    return byte < 128 ? SIZE_MAX : byte % 4;
  }

  // The smallest id no text holds at or above the counter; UINT32_MAX + 1 when none is left.
  uint64_t freshId(const std::unordered_set<uint32_t>& ids, uint64_t next) const {
    while (next <= UINT32_MAX && ids.count(static_cast<uint32_t>(next))) ++next;
    return next;
  }

  void add(const std::string& text, uint32_t id) {
    last_ = text;
    if (stored_.size() >= kMaxModelTexts) return;
    const Status status = index_.add(text, id);
    if (ids_.count(id)) {
      FUZZ_CHECK(status == Status::DuplicateId);
      return;
    }
    FUZZ_CHECK(status == Status::Ok);
    ids_.insert(id);
    stored_.push_back(model_.describe(id, text));  // a caller's id does not move the counter
  }

  // @return whether the text was stored.
  bool addWithNewId(const std::string& text) {
    last_ = text;
    if (stored_.size() >= kMaxModelTexts) return false;
    uint32_t id = 0;
    const Status status = index_.addWithNewId(text, id);
    const uint64_t next = freshId(ids_, nextId_);
    if (next > UINT32_MAX) {
      FUZZ_CHECK(status == Status::DuplicateId);
      return false;
    }
    FUZZ_CHECK(status == Status::Ok);
    FUZZ_CHECK(id == next);
    ids_.insert(id);
    stored_.push_back(model_.describe(id, text));
    nextId_ = next + 1;
    return true;
  }

  // A batch of texts, edits of one another and of stored texts, under chosen ids (which
  // may repeat within the batch or a stored id) or fresh ones: all stored, or none.
  void addAll(FuzzedDataProvider& input) {
    const size_t count = input.ConsumeIntegralInRange<size_t>(0, kMaxBatch);
    if (stored_.size() + count > kMaxModelTexts) return;
    const bool chosen = input.ConsumeBool();
    std::vector<std::string> texts;
    std::string utf8;
    std::vector<uint32_t> offsets = {0}, chosenIds;
    for (size_t i = 0; i < count; ++i) {
      texts.push_back(i > 0 && input.ConsumeBool() ? edited(texts.back(), input) : textFrom(input));
      utf8 += texts.back();
      offsets.push_back(static_cast<uint32_t>(utf8.size()));
      if (chosen) chosenIds.push_back(idFrom(input));
    }
    // The model's answer: the first text whose id is taken (or, fresh, when none is left).
    std::unordered_set<uint32_t> taken = ids_;
    std::vector<uint32_t> expectedIds;
    uint64_t next = nextId_;
    size_t failsAt = count;
    for (size_t i = 0; i < count && failsAt == count; ++i) {
      if (chosen) {
        if (!taken.insert(chosenIds[i]).second) failsAt = i;
        else expectedIds.push_back(chosenIds[i]);
      } else {
        next = freshId(taken, next);
        if (next > UINT32_MAX) {
          failsAt = i;
        } else {
          taken.insert(static_cast<uint32_t>(next));
          expectedIds.push_back(static_cast<uint32_t>(next++));
        }
      }
    }
    // A sentinel past the batch: addAll writes idsOut[0, count) only.
    std::vector<uint32_t> idsOut(count + 1, 0xA5A5A5A5u);
    const std::vector<uint8_t> before = failsAt < count ? index_.serialize() : std::vector<uint8_t>();
    const size_t done = index_.addAll(utf8.data(), offsets.data(), count, chosen ? chosenIds.data() : nullptr, idsOut.data());
    FUZZ_CHECK(done == failsAt);
    FUZZ_CHECK(idsOut[count] == 0xA5A5A5A5u);
    if (failsAt < count) {
      FUZZ_CHECK(index_.serialize() == before);  // nothing stored, the counter as it was
      return;
    }
    FUZZ_CHECK(std::equal(expectedIds.begin(), expectedIds.end(), idsOut.begin()));
    for (size_t i = 0; i < count; ++i) {
      ids_.insert(idsOut[i]);
      stored_.push_back(model_.describe(idsOut[i], texts[i]));
    }
    if (!chosen && count > 0) nextId_ = next;
    if (!texts.empty()) last_ = texts.back();
  }

  void remove(FuzzedDataProvider& input) {
    const Stored* s = input.ConsumeBool() ? pick(input) : nullptr;
    const uint32_t id = s ? s->id : idFrom(input);
    const bool stored = ids_.erase(id) == 1;
    FUZZ_CHECK(index_.remove(id) == stored);
    FUZZ_CHECK(!index_.has(id));
    if (stored) stored_.erase(std::find_if(stored_.begin(), stored_.end(), [&](const Stored& x) { return x.id == id; }));
  }

  // Each stored text with probability 1/2 or 1/4, so that removed bytes come to outnumber
  // the live ones and the next add compacts the stored texts.
  void removeMany(FuzzedDataProvider& input) {
    const uint64_t seed = input.ConsumeIntegral<uint64_t>() | 1;
    const unsigned mask = input.ConsumeBool() ? 1 : 3;
    std::vector<Stored> kept;
    for (size_t i = 0; i < stored_.size(); ++i) {
      if (((seed * (i + 1)) >> 40 & mask) != 0) {
        kept.push_back(std::move(stored_[i]));
        continue;
      }
      FUZZ_CHECK(index_.remove(stored_[i].id));
      ids_.erase(stored_[i].id);
    }
    stored_.swap(kept);
  }

  void has(uint32_t id) { FUZZ_CHECK(index_.has(id) == (ids_.count(id) == 1)); }

  void query(const std::string& text, size_t limit) {
    last_ = text;
    model_.checkQuery(index_, stored_, text, limit);
  }

  // The stream of query-then-add: the add reuses what the query prepared.
  void queryThenAdd(const std::string& text) {
    const std::vector<TextMatch> found = model_.checkQuery(index_, stored_, text, SIZE_MAX);
    if (addWithNewId(text)) {
      const std::vector<TextMatch> again = model_.checkQuery(index_, stored_, text, SIZE_MAX);
      FUZZ_CHECK(again.size() == found.size() + 1);  // the text finds itself as well
    }
  }

  // Serializes, checks the bytes against the format, and continues with the reloaded index
  // (loaded over one of another threshold and sizes), which must answer as before.
  void reload() {
    const std::vector<uint8_t> bytes = index_.serialize();
    checkBytes(bytes, model_, nextId_, stored_);
    std::vector<TextMatch> before, after;
    index_.query(last_, SIZE_MAX, before);
    TextIndex reloaded(0.5, ShingleOptions{1, 1});
    std::string error;
    FUZZ_CHECK(TextIndex::deserialize(bytes.data(), bytes.size(), reloaded, error) == Status::Ok);
    FUZZ_CHECK(reloaded.threshold() == model_.threshold());
    FUZZ_CHECK(reloaded.options().alphabetic == model_.options().alphabetic);
    FUZZ_CHECK(reloaded.options().cjk == model_.options().cjk);
    FUZZ_CHECK(reloaded.serialize() == bytes);
    index_ = std::move(reloaded);
    index_.query(last_, SIZE_MAX, after);
    FUZZ_CHECK(before == after);
  }

  // text_index.h's stream contract, on a fresh index of the same threshold and sizes:
  // querying texts in order and adding each that finds nothing keeps SimilarGroups'
  // leaders.
  void streamContract(FuzzedDataProvider& input) {
    const size_t count = input.ConsumeIntegralInRange<size_t>(1, kMaxStream);
    std::vector<std::string> texts;
    std::string utf8;
    std::vector<uint32_t> offsets = {0};
    for (size_t i = 0; i < count; ++i) {
      texts.push_back(i > 0 && input.ConsumeIntegralInRange<int>(0, 3) != 0
                          ? edited(texts[input.ConsumeIntegralInRange<size_t>(0, i - 1)], input)
                          : textFrom(input));
      utf8 += texts.back();
      offsets.push_back(static_cast<uint32_t>(utf8.size()));
    }
    TextIndex stream(model_.threshold(), model_.options());
    std::vector<uint32_t> kept;
    std::vector<TextMatch> found;
    for (uint32_t i = 0; i < count; ++i) {
      stream.query(texts[i], SIZE_MAX, found);
      if (!found.empty()) continue;
      FUZZ_CHECK(stream.add(texts[i], i) == Status::Ok);
      kept.push_back(i);
    }
    simhash::ShingleSets sets;
    sets.build(utf8.data(), offsets.data(), static_cast<uint32_t>(count), model_.options());
    simhash::SimilarGroups groups(sets, model_.threshold(), simhash::SimilarGroups::Grouping::Leader,
                                  simhash::bandingFor(model_.threshold()));
    FUZZ_CHECK(groups.run(SIZE_MAX));
    const std::vector<uint32_t> labels = groups.takeLabels();
    std::vector<uint32_t> leaders;
    for (uint32_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == i) leaders.push_back(i);
    }
    FUZZ_CHECK(kept == leaders);
  }

  Model model_;
  TextIndex index_;
  std::vector<Stored> stored_;        // in insertion order, as serialize() writes them
  std::unordered_set<uint32_t> ids_;  // the ids of stored_
  uint64_t nextId_;
  std::string last_;  // the text last queried or added
  int reloads_ = 0;
  int streams_ = 0;
};

// Mostly the thresholds people use; any in (0, 1] as well (down to 0.001, where banding
// takes 1 row and up to 256 bands).
double thresholdFrom(FuzzedDataProvider& input) {
  static constexpr double kCommon[] = {0.5, 0.7, 0.8, 0.9, 0.95, 1.0};
  const uint8_t byte = input.ConsumeIntegral<uint8_t>();
  if (byte < 192) return kCommon[byte % 6];
  return static_cast<double>(input.ConsumeIntegralInRange<int>(1, 1000)) / 1000;
}

ShingleOptions shingleOptionsFrom(FuzzedDataProvider& input) {
  const uint8_t byte = input.ConsumeIntegral<uint8_t>();
  if (byte < 128) return {};
  return {static_cast<uint8_t>(byte % 3 + 1), static_cast<uint8_t>(byte / 3 % 3 + 1)};
}

// What any answer must be, whatever the bytes loaded: stored ids, duplicates at or above
// the threshold, review matches (with review) at or above the review threshold, in order
// (duplicates first), at most `limit` of them.
void checkAnswerShape(TextIndex& index, std::string_view text, size_t limit) {
  std::vector<TextMatch> found;
  index.query(text, limit, found);
  FUZZ_CHECK(found.size() <= limit);
  for (size_t i = 0; i < found.size(); ++i) {
    FUZZ_CHECK(index.has(found[i].id));
    if (found[i].kind == simhash::MatchKind::Duplicate) {
      FUZZ_CHECK(found[i].similarity >= index.threshold());
    } else {
      FUZZ_CHECK(index.review() > 0 && found[i].similarity >= index.review());
    }
    if (i > 0) {
      const TextMatch& a = found[i - 1];
      const TextMatch& b = found[i];
      FUZZ_CHECK(a.kind < b.kind || (a.kind == b.kind && (a.similarity > b.similarity || (a.similarity == b.similarity && a.id < b.id))));
    }
  }
}

void runLoad(const uint8_t* data, size_t size, uint8_t mode) {
  std::vector<uint8_t> bytes(data, data + size);
  if ((mode & 4) && bytes.size() >= kHeaderSize + kChecksumSize) {
    const size_t body = bytes.size() - kChecksumSize;
    setLE(bytes.data() + body, XXH3_64bits(bytes.data(), body), 8);
  }

  // Loading replaces an index that already holds something, which must survive a rejection.
  TextIndex index(0.8);
  FUZZ_CHECK(index.add("the cat sat on the mat", 42) == Status::Ok);
  const std::vector<uint8_t> before = index.serialize();
  std::string error;
  const Status status = TextIndex::deserialize(bytes.data(), bytes.size(), index, error);
  {
    // In pieces (their size from the mode bits), the same verdict and the same message.
    const size_t piece = size_t{1} + (mode >> 3) * 7;
    TextIndex::Reader reader(bytes.size());
    for (size_t at = 0; at < bytes.size(); at += piece) reader.read(bytes.data() + at, std::min(piece, bytes.size() - at));
    TextIndex fromPieces(0.5);
    std::string piecesError;
    FUZZ_CHECK(reader.finish(fromPieces, piecesError) == status);
    FUZZ_CHECK(piecesError == error);
    if (status == Status::Ok) FUZZ_CHECK(fromPieces.serialize() == index.serialize());
  }
  if (status != Status::Ok) {
    FUZZ_CHECK(status == Status::CorruptData);
    FUZZ_CHECK(error.rfind("invalid serialized text index: ", 0) == 0);
    FUZZ_CHECK(index.serialize() == before);
    std::vector<TextMatch> found;
    index.query("the cat sat on the mat", SIZE_MAX, found);
    FUZZ_CHECK(found.size() == 1 && found[0].id == 42 && found[0].similarity == 1.0);
    return;
  }

  // Accepted: the header and the texts are what the bytes say.
  Content content;
  FUZZ_CHECK(parse(bytes, content));
  FUZZ_CHECK(content.threshold > 0 && content.threshold <= 1);
  FUZZ_CHECK(index.threshold() == content.threshold);
  FUZZ_CHECK(index.review() == content.review);
  FUZZ_CHECK(content.review == 0 || (content.review < content.threshold && content.reviewBands == simhash::bandingFor(content.review).bands));
  FUZZ_CHECK(index.options().alphabetic == content.alphabetic && index.options().cjk == content.cjk);
  FUZZ_CHECK(static_cast<unsigned>(index.options().normalization) == (content.flags & 1u));
  // Word weights as the bytes hold them, which keep their contract (word_weights.h assign).
  const simhash::WordWeights* weights = index.options().weights;
  FUZZ_CHECK((weights != nullptr) == ((content.flags & 2) != 0));
  simhash::WordWeights table;
  if (weights != nullptr) {
    FUZZ_CHECK(weights->texts() == content.weightTexts && weights->hashes() == content.hashes && weights->counts() == content.counts);
    for (size_t w = 0; w < content.hashes.size(); ++w) {
      FUZZ_CHECK(w == 0 || content.hashes[w] > content.hashes[w - 1]);
      FUZZ_CHECK(content.counts[w] >= 1 && content.counts[w] <= content.weightTexts);
    }
    FUZZ_CHECK(table.assign(content.weightTexts, content.hashes.data(), content.counts.data(), content.hashes.size()));
  }
  FUZZ_CHECK(content.nextId <= uint64_t{UINT32_MAX} + 1);
  FUZZ_CHECK(index.size() == content.texts.size());
  for (const Content::Text& text : content.texts) FUZZ_CHECK(index.has(text.id));

  const Model model(content.threshold, {content.alphabetic, content.cjk, static_cast<simhash::Normalization>(content.flags & 1),
                                        weights != nullptr ? &table : nullptr});
  Model describer = model;
  std::vector<Stored> stored;
  for (const Content::Text& text : content.texts) stored.push_back(describer.describe(text.id, text.utf8));
  const bool normalizedAgain = content.version == 1 || (content.version == 2 && (content.flags & 1) != 0 && (content.flags >> 2) < 4);
  if (normalizedAgain) {
    // Format 1, and the short measure's bytes of an earlier revision (before its Han and
    // legal-form folding, before CJK legal forms were dropped, before legal forms of several words were shortened, or before `(株)` was written out and address counters dropped):
    // each text normalized again and added anew, so whatever the bytes held, the index
    // holds what this library makes of their texts, and writes format 2. (Such bytes with
    // review, version 3, are checked in shape below, as the model knows no review.)
    checkBytes(index.serialize(), model, content.nextId, stored);
  } else if (content.version == 3 || !(expectedContent(model, content.nextId, stored) == content)) {
    // Bytes this library did not write: texts, shingle counts and keys are taken as
    // written, so the answers need not be the texts' similarities; the index must still
    // answer in shape, add, remove, and round-trip. (Version 3 too: the model knows no
    // review; text_index_test.cpp checks review against brute force.)
    for (size_t i = 0; i < content.texts.size() && i < kMaxCheckedTexts; ++i) checkAnswerShape(index, content.texts[i].utf8, SIZE_MAX);
    checkAnswerShape(index, "the cat sat on the mat", 2);
    // The fresh id: the smallest at or above the stored counter that no text holds.
    uint64_t next = content.nextId;
    while (next <= UINT32_MAX && index.has(static_cast<uint32_t>(next))) ++next;
    uint32_t id = 0;
    const Status fresh = index.addWithNewId("the cat sat on the mat", id);
    FUZZ_CHECK(fresh == (next <= UINT32_MAX ? Status::Ok : Status::DuplicateId));
    if (fresh == Status::Ok) FUZZ_CHECK(id == next && index.has(id));
    for (const Content::Text& text : content.texts) {
      FUZZ_CHECK(index.remove(text.id));
      FUZZ_CHECK(!index.has(text.id));
      checkAnswerShape(index, text.utf8, SIZE_MAX);
    }
    const std::vector<uint8_t> once = index.serialize();
    TextIndex reloaded(0.5);
    FUZZ_CHECK(TextIndex::deserialize(once.data(), once.size(), reloaded, error) == Status::Ok);
    FUZZ_CHECK(reloaded.serialize() == once);
    return;
  }
  // Bytes as this library writes them: written back the same, and answering like the model.
  if (content.version == 2 && !normalizedAgain) FUZZ_CHECK(index.serialize() == bytes);
  for (size_t i = 0; i < stored.size() && i < kMaxCheckedTexts; ++i) {
    describer.checkQuery(index, stored, stored[i].text, SIZE_MAX);
    describer.checkQuery(index, stored, stored[i].text + " the cat", 2);
  }
  Run run(std::move(index), model, std::move(stored), content.nextId);
  run.finish();
}

// An empty index whose next fresh id is `nextId`, loaded from bytes (the only way to get
// near the end of the ids without 2^32 adds).
TextIndex loadedEmpty(double threshold, const ShingleOptions& options, uint64_t nextId) {
  const std::vector<uint8_t> bytes = emptyBytes(Model(threshold, options), nextId);
  TextIndex index(0.5);
  std::string error;
  FUZZ_CHECK(TextIndex::deserialize(bytes.data(), bytes.size(), index, error) == Status::Ok);
  return index;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  if ((data[0] & 1) == 0) {
    runLoad(data + 1, size - 1, data[0]);
    return 0;
  }
  FuzzedDataProvider input(data + 1, size - 1);
  const double threshold = thresholdFrom(input);
  const ShingleOptions options = shingleOptionsFrom(input);
  const Model model(threshold, options);
  uint64_t nextId = 0;
  if (input.ConsumeIntegralInRange<int>(0, 7) == 0) nextId = uint64_t{UINT32_MAX} + 1 - input.ConsumeIntegralInRange<uint32_t>(0, 8);
  // Merges of the band table after as few as 1 recent entry, or at the default size.
  const size_t mergeAt = input.ConsumeBool() ? TextIndex::kMergeAt : input.ConsumeIntegralInRange<size_t>(1, 64);
  Run run(nextId == 0 ? TextIndex(threshold, options, mergeAt) : loadedEmpty(threshold, options, nextId), model, {}, nextId);
  run.run(input);
  return 0;
}
