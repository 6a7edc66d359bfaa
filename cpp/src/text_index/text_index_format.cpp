// TextIndex's byte format (text_index.h "The versioned byte format"): serialize(), the
// Writer and Reader that write and read it a piece at a time, deserialize(). Compiled for
// size (CMakeLists.txt): it runs once per save or load, linear in the bytes.
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "base/bytes.h"
#include "simhash/word_weights.h"
#include "text_index/text_index_impl.h"

namespace simhash {

namespace {

constexpr char kMagic[4] = {'S', 'H', 'T', 'X'};
// 2: texts normalized with half-width katakana folded (similarity.h); 3: the same with
// review (its threshold, sketches and band table). An index without review is written as
// version 2, so its bytes are those of the releases before review. Version 1 bytes, whose
// texts were normalized without that fold, still load: their texts are normalized again
// and their keys made anew (Reader::finish).
constexpr uint16_t kFormatVersion = 2;
constexpr uint16_t kReviewVersion = 3;
constexpr uint16_t kUnfoldedKanaVersion = 1;
// The alphabetic shingle size's byte carries the normalization in its high nibble: bit 0 the
// normalization (0, the text normalization, in every byte written before the list
// normalization existed), bit 1 set when word weights follow the header(s): u32 texts, u32
// words, then each word's u64 hash and u32 count, ascending by hash.
// Bits 2-3, with the list normalization: the revision of its definition the texts were
// normalized by: 0 before legal forms and conjunctions were shortened and traditional Han
// characters folded (similarity.h), 1 with those, 2 with CJK legal forms dropped too, 3
// with legal forms of several words shortened too, 4 (kListRevision) with `(株)` and `(有)`
// dropped, and address counters between numbers (`1丁目2番3号` as `1-2-3`). The revision's bits
// above these two are the CJK shingle size's byte's high nibble. Texts of an earlier
// revision are normalized again when loaded, as version 1's are; any revision beside the
// text normalization is refused.
constexpr unsigned kNormalizationShift = 4;
constexpr unsigned kNormalizationFlag = 1;
constexpr unsigned kWeightedFlag = 2;
constexpr unsigned kRevisionShift = 2;
constexpr unsigned kListRevision = 4;
constexpr size_t kWeightsHeader = 8;
constexpr size_t kWeightEntry = 12;
// magic 4, version 2, alphabetic 1, cjk 1, threshold 8 (IEEE 754 binary64), next id 8,
// count 4, bands 4
constexpr size_t kHeaderSize = 32;
constexpr size_t kReviewHeader = 12;  // version 3: review 8, review bands 4
constexpr size_t kTextHeader = 12;    // id 4, distinct shingles 4, byte length 4
constexpr size_t kSketchBytes = 8 * SetSketch::kWords;
constexpr size_t kEntryCount = 8;     // version 3: u64 band entries
constexpr size_t kBandEntry = 8;      // key 4, id 4

using bytes::checksum;
using bytes::getLE;
using bytes::kChecksumSize;
using bytes::storeLE;

// A piece of an error message: text, or an unsigned integer written in decimal.
struct Piece {
  Piece(const char* text) : text(text) {}  // NOLINT: pieces are written inline
  Piece(uint64_t number) : number(number) {}  // NOLINT
  const char* text = nullptr;
  uint64_t number = 0;
};

std::string describe(std::initializer_list<Piece> pieces) {
  std::string out = "invalid serialized text index: ";
  for (const Piece& piece : pieces) {
    if (piece.text) {
      out += piece.text;
      continue;
    }
    char digits[20];
    size_t n = 0;
    uint64_t value = piece.number;
    do digits[n++] = static_cast<char>('0' + value % 10);
    while ((value /= 10) != 0);
    while (n > 0) out += digits[--n];
  }
  return out;
}


}  // namespace

std::vector<uint8_t> TextIndex::serialize() const {
  Writer writer(*this);
  std::vector<uint8_t> out(writer.size());
  writer.write(out.data(), out.size());
  return out;
}

struct TextIndex::Writer::State {
  explicit State(const TextIndex& index) : index(index), m(*index.impl_), cursor(m.table) {
    if (m.review) reviewCursor.emplace(m.review->table);
  }
  const TextIndex& index;
  const Impl& m;
  BandTable::Cursor cursor;
  std::optional<BandTable::Cursor> reviewCursor;
  BandTable::Cursor* entries = &cursor;  // the table whose entries are being written
  bytes::StreamingChecksum checksum;
  enum class Part { kHeader, kWeights, kTextHeader, kText, kSketch, kEntryCount, kBandEntries, kChecksum, kDone } part = Part::kHeader;
  std::vector<uint8_t> weights;  // the word weights' bytes, when the index has weights
  size_t slot = 0;  // the text being written (kTextHeader, kText, kSketch)
  // The part's bytes, unless it is a text (read from the arena), and how many are written.
  uint8_t bytes[kSketchBytes];
  size_t partSize = 0, partWritten = 0;
};

TextIndex::Writer::Writer(const TextIndex& index) : state_(std::make_unique<State>(index)) {
  State& w = *state_;
  const Impl& m = w.m;
  uint8_t* at = w.bytes;
  std::memcpy(at, kMagic, 4);
  at = storeLE(at + 4, m.review ? kReviewVersion : kFormatVersion, 2);
  const bool list = m.options.normalization == Normalization::kList;
  const unsigned revision = list ? kListRevision : 0;
  const unsigned flags = static_cast<unsigned>(m.options.normalization) | (m.options.weights != nullptr ? kWeightedFlag : 0) |
                         (revision & 3) << kRevisionShift;
  at = storeLE(at, m.options.alphabetic | flags << kNormalizationShift, 1);
  at = storeLE(at, m.options.cjk | (revision >> 2) << kNormalizationShift, 1);
  uint64_t thresholdBits;
  std::memcpy(&thresholdBits, &m.threshold, 8);
  at = storeLE(at, thresholdBits, 8);
  at = storeLE(at, m.nextId, 8);
  at = storeLE(at, index.size(), 4);
  at = storeLE(at, m.bands, 4);
  w.partSize = kHeaderSize;
  if (m.review) {
    uint64_t reviewBits;
    std::memcpy(&reviewBits, &m.review->threshold, 8);
    storeLE(storeLE(at, reviewBits, 8), m.review->bands, 4);
    w.partSize += kReviewHeader;
  }
  if (m.options.weights != nullptr) {
    const WordWeights& weights = *m.options.weights;
    w.weights.resize(kWeightsHeader + kWeightEntry * weights.words());
    uint8_t* to = storeLE(storeLE(w.weights.data(), weights.texts(), 4), weights.words(), 4);
    for (size_t i = 0; i < weights.words(); ++i) to = storeLE(storeLE(to, weights.hashes()[i], 8), weights.counts()[i], 4);
  }
}

TextIndex::Writer::~Writer() = default;

size_t TextIndex::Writer::size() const {
  const Impl& m = state_->m;
  const size_t texts = state_->index.size();
  const size_t common = kHeaderSize + state_->weights.size() + (m.arena.bytes() - m.deadBytes) + kTextHeader * texts +
                        kBandEntry * m.table.size() + kChecksumSize;
  if (!m.review) return common;
  return common + kReviewHeader + kSketchBytes * texts + kEntryCount + kBandEntry * m.review->table.size();
}

size_t TextIndex::Writer::write(uint8_t* out, size_t capacity) {
  using Part = State::Part;
  State& w = *state_;
  const Impl& m = w.m;
  uint8_t* at = out;
  uint8_t* const end = out + capacity;
  const uint8_t* unhashed = out;  // the checksum covers every byte before it
  // Copies what fits of the part's bytes, read from `from`. @return whether the part is written.
  auto put = [&](const uint8_t* from) {
    const size_t count = std::min(w.partSize - w.partWritten, static_cast<size_t>(end - at));
    if (count != 0) std::memcpy(at, from + w.partWritten, count);  // an empty arena's data() may be null
    at += count;
    w.partWritten += count;
    return w.partWritten == w.partSize;
  };
  auto begin = [&](Part part, size_t size) {
    w.part = part;
    w.partSize = size;
    w.partWritten = 0;
  };
  // The next stored text's header, or the band entries after the last text.
  auto beginText = [&]() {
    while (w.slot < m.records.size() && !m.alive[w.slot]) ++w.slot;
    if (w.slot == m.records.size()) {
      if (!m.review) return begin(Part::kBandEntries, 0);
      storeLE(w.bytes, m.table.size(), kEntryCount);
      return begin(Part::kEntryCount, kEntryCount);
    }
    const Impl::Record& r = m.records[w.slot];
    storeLE(storeLE(storeLE(w.bytes, r.id, 4), r.shingles, 4), r.length, 4);
    begin(Part::kTextHeader, kTextHeader);
  };
  while (at != end && w.part != Part::kDone) {
    switch (w.part) {
      case Part::kHeader:
        if (!put(w.bytes)) break;
        if (w.weights.empty()) beginText();
        else begin(Part::kWeights, w.weights.size());
        break;
      case Part::kWeights:
        if (put(w.weights.data())) beginText();
        break;
      case Part::kTextHeader:
        if (put(w.bytes)) begin(Part::kText, m.records[w.slot].length);
        break;
      case Part::kText:
        if (!put(m.arena.at(m.records[w.slot].start))) break;
        if (m.review) {
          const uint64_t* sketch = m.review->sketchOf(w.slot);
          for (unsigned i = 0; i < SetSketch::kWords; ++i) storeLE(w.bytes + 8 * i, sketch[i], 8);
          begin(Part::kSketch, kSketchBytes);
          break;
        }
        ++w.slot;
        beginText();
        break;
      case Part::kSketch:
        if (put(w.bytes)) {
          ++w.slot;
          beginText();
        }
        break;
      case Part::kEntryCount:
        if (put(w.bytes)) begin(Part::kBandEntries, 0);
        break;
      case Part::kBandEntries: {
        // Whole entries while they fit; one cut at the end of the room waits in w.bytes.
        if (!put(w.bytes)) break;
        const size_t whole = static_cast<size_t>(end - at) / kBandEntry;
        uint8_t* to = at;  // a local that only this loop writes, so it stays in a register
        auto store = [&](uint32_t key, uint32_t id) { to = storeLE(storeLE(to, key, 4), id, 4); };
        bool more = w.entries->take(whole, store) == whole;
        at = to;
        if (more && at != end) {
          to = w.bytes;
          more = w.entries->take(1, store) == 1;
          if (more) begin(Part::kBandEntries, kBandEntry);
        } else if (more) {
          begin(Part::kBandEntries, 0);
        }
        if (!more && w.entries == &w.cursor && w.reviewCursor) {  // the review table's entries next
          w.entries = &*w.reviewCursor;
          begin(Part::kBandEntries, 0);
        } else if (!more) {
          w.checksum.update(unhashed, static_cast<size_t>(at - unhashed));
          storeLE(w.bytes, w.checksum.digest(), 8);
          begin(Part::kChecksum, kChecksumSize);
        }
        break;
      }
      case Part::kChecksum:
        if (put(w.bytes)) begin(Part::kDone, 0);
        break;
      case Part::kDone:
        break;
    }
  }
  if (w.part != Part::kChecksum && w.part != Part::kDone) w.checksum.update(unhashed, static_cast<size_t>(at - unhashed));
  return static_cast<size_t>(at - out);
}

Status TextIndex::deserialize(const uint8_t* data, size_t size, TextIndex& out, std::string& error) {
  Reader reader(size);
  reader.read(data, size);
  return reader.finish(out, error);
}

// The bytes are parsed as they come; what is wrong is kept and reported in deserialize()'s
// order (header, checksum, structure), so a damaged byte is reported as damage whatever
// it made of the structure. Parsing stops at the first problem; the bytes are still hashed.
struct TextIndex::Reader::State {
  explicit State(size_t size) : size(size), body(size > kChecksumSize ? size - kChecksumSize : 0) {}
  const size_t size, body;  // body: the bytes before the checksum
  size_t read = 0;          // bytes given so far
  bytes::StreamingChecksum checksum;
  uint8_t stored[kChecksumSize] = {};  // the checksum's bytes, as they pass
  std::string headerError, error;
  std::optional<TextIndex> index;  // from the header on
  // Once the texts are read: the band table's entries, then the review band table's.
  std::optional<BandTable::Builder> keys, reviewKeys;
  BandTable::Builder* builder = nullptr;  // the one being read
  enum class Part { kHeader, kReviewHeader, kWeightsHeader, kWeightEntry, kTextHeader, kText, kSketch, kEntryCount, kBandEntry, kDone } part = Part::kHeader;
  // Word weights, when the header's flag says they follow it: read into these, then assigned.
  bool weighted = false;
  uint64_t weightTexts = 0, weightWords = 0;
  std::vector<uint64_t> wordHashes;
  std::vector<uint32_t> wordCounts;
  WordWeights weights;
  // The part's bytes, unless it is a text (written to `text`, its room in the arena, as it
  // comes), and how many are read.
  uint8_t bytes[kSketchBytes];
  uint8_t* text = nullptr;
  size_t partSize = kHeaderSize, partRead = 0;
  ShingleOptions options;
  double threshold = 0, review = 0;
  uint64_t count = 0, bands = 0, reviewBands = 0, nextId = 0, texts = 0;
  size_t entries = 0, entriesRead = 0, mainEntries = 0, reviewEntries = 0, weightsBytes = 0;
  uint16_t version = 0;
  bool normalizedBefore = false;  // texts normalized before the current definition: normalized again

  bool failed() const { return !headerError.empty() || !error.empty(); }
  void fail(std::initializer_list<Piece> pieces) { error = describe(pieces); }
  void begin(Part next, size_t size) {
    part = next;
    partSize = size;
    partRead = 0;
  }
  bool withReview() const { return version == kReviewVersion; }
  size_t headerSize() const { return kHeaderSize + (withReview() ? kReviewHeader : 0); }
  // The header is in `bytes`; `at` is where what follows it starts.
  void readHeader(size_t at) {
    version = static_cast<uint16_t>(getLE(bytes + 4, 2));
    const uint16_t expected = version == kUnfoldedKanaVersion || version == kFormatVersion ? version : kReviewVersion;
    if (std::string damage = bytes::checkHeader(bytes, size, kMagic, expected, headerSize()); !damage.empty()) {
      headerError = describe({damage.c_str()});
      return;
    }
    const unsigned flags = bytes[6] >> kNormalizationShift;
    weighted = (flags & kWeightedFlag) != 0;
    const unsigned revision = flags >> kRevisionShift | (bytes[7] >> kNormalizationShift) << 2;
    options = ShingleOptions{static_cast<uint8_t>(bytes[6] & 0xF), static_cast<uint8_t>(bytes[7] & 0xF), static_cast<Normalization>(flags & kNormalizationFlag),
                             weighted ? &weights : nullptr};
    const bool list = options.normalization == Normalization::kList;
    normalizedBefore = list && revision < kListRevision;
    if (!isValid(options) || revision > (list ? kListRevision : 0)) {
      return fail({"shingle sizes ", uint64_t{bytes[6] & 0xFu}, ", ", bytes[7], " with normalization flags ", flags,
                   " are not a measure's"});
    }
    const uint64_t thresholdBits = getLE(bytes + 8, 8);
    std::memcpy(&threshold, &thresholdBits, 8);
    // Messages format integers only: formatting a double links printf (4.5 KB of gzipped WASM).
    if (!(threshold > 0 && threshold <= 1)) return fail({"the threshold is not within (0, 1]"});
    nextId = getLE(bytes + 16, 8);
    if (nextId > uint64_t{UINT32_MAX} + 1) return fail({"next id ", nextId, " exceeds 2^32"});
    count = getLE(bytes + 24, 4);
    bands = getLE(bytes + 28, 4);
    if (bands != bandingFor(threshold).bands) return fail({bands, " bands where the threshold's banding has ", bandingFor(threshold).bands});
    if (withReview()) return begin(Part::kReviewHeader, kReviewHeader);
    endHeaders(at);
  }
  // The review header is in `bytes`.
  void readReviewHeader(size_t at) {
    const uint64_t reviewBits = getLE(bytes, 8);
    std::memcpy(&review, &reviewBits, 8);
    if (!(review > 0 && review < threshold)) return fail({"the review threshold is not within (0, threshold)"});
    reviewBands = getLE(bytes + 8, 4);
    if (reviewBands != bandingFor(review).bands) {
      return fail({reviewBands, " review bands where the review threshold's banding has ", bandingFor(review).bands});
    }
    endHeaders(at);
  }
  // The header(s) end at `at`: the word weights next, if any, else the texts.
  void endHeaders(size_t at) {
    if (!weighted) return beginTexts(at);
    if (body - at < kWeightsHeader) return fail({"the word weights are cut off"});
    begin(Part::kWeightsHeader, kWeightsHeader);
  }
  // The word weights' header is in `bytes`; their entries start at `at`.
  void readWeightsHeader(size_t at) {
    weightTexts = getLE(bytes, 4);
    weightWords = getLE(bytes + 4, 4);
    if ((body - at) / kWeightEntry < weightWords) return fail({"a count of ", weightWords, " weighted words exceeds the data"});
    wordHashes.reserve(weightWords);
    wordCounts.reserve(weightWords);
    if (weightWords == 0) return endWeights(at);
    begin(Part::kWeightEntry, kWeightEntry);
  }
  // A word's entry is in `bytes`; what follows it starts at `at`.
  void readWeightEntry(size_t at) {
    wordHashes.push_back(getLE(bytes, 8));
    wordCounts.push_back(static_cast<uint32_t>(getLE(bytes + 8, 4)));
    if (wordHashes.size() < weightWords) return begin(Part::kWeightEntry, kWeightEntry);
    endWeights(at);
  }
  void endWeights(size_t at) {
    if (!weights.assign(static_cast<uint32_t>(weightTexts), wordHashes.data(), wordCounts.data(), wordHashes.size())) {
      // assign() checked the contract; on this path only, the first entry that breaks it.
      size_t i = 0;
      while (!(i > 0 && wordHashes[i] <= wordHashes[i - 1]) && wordCounts[i] != 0 && wordCounts[i] <= weightTexts) ++i;
      if (i > 0 && wordHashes[i] <= wordHashes[i - 1]) return fail({"the word weights' hash ", i, " is not above hash ", i - 1});
      return fail({"the word weights' count ", i, " is ", wordCounts[i], ", not within 1..", weightTexts});
    }
    weightsBytes = kWeightsHeader + kWeightEntry * weightWords;
    std::vector<uint64_t>().swap(wordHashes);
    std::vector<uint32_t>().swap(wordCounts);
    beginTexts(at);
  }
  // The header is read: the index, then its texts from `at`.
  void beginTexts(size_t at) {
    const uint64_t perText = kTextHeader + kBandEntry * bands + (withReview() ? kSketchBytes + kBandEntry * reviewBands : 0);
    const uint64_t fixed = headerSize() + weightsBytes + (withReview() ? kEntryCount : 0);
    if (body < fixed || count > (body - fixed) / perText) return fail({"a count of ", count, " texts exceeds the data"});
    index.emplace(threshold, review, options);
    index->impl_->reserveTexts(count, body - fixed - count * perText);
    beginText(at);
  }
  // The next text's header, or the band keys after the last text; `at` is where it starts.
  void beginText(size_t at) {
    if (texts < count) {
      if (body - at < kTextHeader) return fail({"text ", texts, " is cut off"});
      return begin(Part::kTextHeader, kTextHeader);
    }
    if (withReview()) {
      if (body - at < kEntryCount) return fail({"the band entry count is cut off"});
      return begin(Part::kEntryCount, kEntryCount);
    }
    beginEntries(at, (body - at) / kBandEntry);
  }
  // Band entries from `at`: `main` of the band table, the rest of the review band table's.
  void beginEntries(size_t at, uint64_t main) {
    if ((body - at) % kBandEntry != 0) return fail({"has ", body - at, " bytes of band keys, not a multiple of ", kBandEntry});
    const uint64_t all = (body - at) / kBandEntry;
    if (main > all) return fail({"has ", all, " band keys where its count says ", main});
    if (main > count * bands) return fail({"has ", main, " band keys; ", count, " texts have at most ", count * bands});
    if (all - main > count * reviewBands) return fail({"has ", all - main, " review band keys; ", count, " texts have at most ", count * reviewBands});
    entries = mainEntries = main;
    reviewEntries = all - main;
    keys.emplace(entries, TextIndex::kMergeAt);
    if (withReview()) reviewKeys.emplace(reviewEntries, TextIndex::kMergeAt);
    builder = &*keys;
    begin(all == 0 ? Part::kDone : Part::kBandEntry, kBandEntry);
    if (entries == 0) nextEntries();
  }
  // The band table's entries are read: the review band table's next, or the end.
  void nextEntries() {
    if (builder == &*keys && reviewKeys) {
      builder = &*reviewKeys;
      entries = reviewEntries;
      entriesRead = 0;
      if (entries != 0) return;
    }
    begin(Part::kDone, 0);
  }
  // The text header is in `bytes`; its text starts at `at`.
  void readTextHeader(size_t at) {
    Impl& m = *index->impl_;
    const auto id = static_cast<uint32_t>(getLE(bytes, 4));
    const auto shingles = static_cast<uint32_t>(getLE(bytes + 4, 4));
    const uint64_t length = getLE(bytes + 8, 4);
    if (body - at < length) return fail({"text ", texts, " is cut off"});
    // A text of L bytes has at most L code points, each starting at most one shingle (of at
    // most kMaxWeight copies with weights).
    if (shingles > length * (weighted ? WordWeights::kMaxWeight : 1)) {
      return fail({"text ", texts, " has ", shingles, " shingles in ", length, " bytes"});
    }
    if (!m.slotOfId.insert(id, static_cast<uint32_t>(m.records.size()))) return fail({"id ", id, " appears twice"});
    m.arena.reserve(length);
    size_t start;
    text = m.arena.append(length, start);
    m.records.push_back({start, static_cast<uint32_t>(length), shingles, id});
    m.alive.push_back(1);
    begin(Part::kText, length);
    if (length == 0) endText(at);
  }
  // The text ends at `at`: its sketch next, or the next text.
  void endText(size_t at) {
    if (withReview()) {
      if (body - at < kSketchBytes) return fail({"text ", texts, "'s sketch is cut off"});
      return begin(Part::kSketch, kSketchBytes);
    }
    ++texts;
    beginText(at);
  }
  // The sketch is in `bytes`.
  void readSketch(size_t at) {
    std::vector<uint64_t>& sketches = index->impl_->review->sketches;
    for (unsigned i = 0; i < SetSketch::kWords; ++i) sketches.push_back(getLE(bytes + 8 * i, 8));
    ++texts;
    beginText(at);
  }
  // Adds `count` band entries (u32 key, u32 id) read from `from`. @pre within the entries.
  void addKeys(const uint8_t* from, size_t count) {
    BandTable::Builder& to = *builder;
    const size_t before = builder == &*keys ? 0 : mainEntries;  // the entries before, for messages
    for (size_t e = 0; e < count; ++e, from += kBandEntry) {
      const auto key = static_cast<uint32_t>(getLE(from, 4));
      if (key == 0) return fail({"band key ", before + entriesRead + e, " is 0"});
      to.add(key, static_cast<uint32_t>(getLE(from + 4, 4)));
    }
    entriesRead += count;
    if (entriesRead == entries) nextEntries();
  }

  // Parses the body's bytes [at, at + count).
  void parse(const uint8_t* data, size_t count, size_t at) {
    const uint8_t* p = data;
    const uint8_t* const end = data + count;
    auto gather = [&]() {
      const size_t n = std::min(partSize - partRead, static_cast<size_t>(end - p));
      std::memcpy(bytes + partRead, p, n);
      p += n;
      partRead += n;
      return partRead == partSize;
    };
    auto position = [&]() { return at + static_cast<size_t>(p - data); };
    while (p != end && !failed()) {
      switch (part) {
        case Part::kHeader:
          if (gather()) readHeader(position());
          break;
        case Part::kReviewHeader:
          if (gather()) readReviewHeader(position());
          break;
        case Part::kWeightsHeader:
          if (gather()) readWeightsHeader(position());
          break;
        case Part::kWeightEntry:
          if (gather()) readWeightEntry(position());
          break;
        case Part::kSketch:
          if (gather()) readSketch(position());
          break;
        case Part::kEntryCount:
          if (gather()) beginEntries(position(), getLE(bytes, 8));
          break;
        case Part::kTextHeader:
          if (gather()) readTextHeader(position());
          break;
        case Part::kText: {
          const size_t n = std::min(partSize - partRead, static_cast<size_t>(end - p));
          std::copy_n(p, n, text + partRead);
          p += n;
          partRead += n;
          if (partRead == partSize) endText(position());
          break;
        }
        case Part::kBandEntry: {
          // Whole entries straight from the piece; one cut by its end is gathered.
          if (partRead != 0) {
            if (!gather()) break;
            addKeys(bytes, 1);
            partRead = 0;
            break;
          }
          const size_t whole = std::min(static_cast<size_t>(end - p) / kBandEntry, entries - entriesRead);
          addKeys(p, whole);
          p += whole * kBandEntry;
          if (p != end && part == Part::kBandEntry && !failed()) gather();
          break;
        }
        case Part::kDone:
          p = end;  // not reached: the parts end where the body does
          break;
      }
    }
  }
};

TextIndex::Reader::Reader(size_t size) : state_(std::make_unique<State>(size)) {}
TextIndex::Reader::~Reader() = default;

void TextIndex::Reader::read(const uint8_t* data, size_t count) {
  State& r = *state_;
  const size_t inBody = r.read < r.body ? std::min(count, r.body - r.read) : 0;
  r.checksum.update(data, inBody);
  if (!r.failed()) r.parse(data, inBody, r.read);
  for (size_t i = inBody; i < count && r.read + i < r.size; ++i) r.stored[r.read + i - r.body] = data[i];
  r.read += count;
}

Status TextIndex::Reader::finish(TextIndex& out, std::string& error) {
  State& r = *state_;
  auto fail = [&](std::string message) {
    error = std::move(message);
    return Status::CorruptData;
  };
  if (r.read != r.size) return fail(describe({"given ", r.read, " bytes of ", r.size}));
  if (r.size < kHeaderSize + kChecksumSize) {
    return fail(describe({bytes::checkHeader(r.bytes, r.size, kMagic, kFormatVersion, kHeaderSize).c_str()}));
  }
  if (r.part == State::Part::kReviewHeader && !r.failed()) {  // a version 3 header cut short: shorter than its header
    return fail(describe({bytes::checkHeader(r.bytes, r.size, kMagic, kReviewVersion, kHeaderSize + kReviewHeader).c_str()}));
  }
  if (!r.headerError.empty()) return fail(r.headerError);
  if (getLE(r.stored, 8) != r.checksum.digest()) return fail(describe({"checksum mismatch (the data is corrupted or truncated)"}));
  if (!r.error.empty()) return fail(r.error);
  r.keys->finish(r.index->impl_->table);
  if (r.reviewKeys) r.reviewKeys->finish(r.index->impl_->review->table);
  r.index->impl_->nextId = r.nextId;
  if (r.version == kUnfoldedKanaVersion || r.normalizedBefore) {
    // Each stored text normalized again (idempotent but for what the definition now adds)
    // and added anew, in order, by add() (text_index.cpp's, compiled for speed).
    const Impl& old = *r.index->impl_;
    TextIndex again(old.threshold, old.review ? old.review->threshold : 0, old.options);
    for (const Impl::Record& record : old.records) {
      const std::string_view text(reinterpret_cast<const char*>(old.arena.at(record.start)), record.length);
      if (again.add(text, record.id) != Status::Ok) return fail(describe({"id ", record.id, " appears twice"}));
    }
    again.impl_->nextId = r.nextId;
    out = std::move(again);
    return Status::Ok;
  }
  out = std::move(*r.index);
  return Status::Ok;
}


}  // namespace simhash
