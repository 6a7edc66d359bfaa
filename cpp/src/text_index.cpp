#include "simhash/text_index.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <utility>

#include "band_table.h"
#include "bytes.h"
#include "radix.h"
#include "set_sketch.h"
#include "simhash/index.h"
#include "unicode.h"

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

// Sorts a query's candidates or answers by key, stably: by insertion while few, else by
// radix.h's sort, whose six passes each count into 2,048 buckets: about the work of
// insertion-sorting 256 items. No comparison sort: each std::sort instantiation costs
// about 3 KB of WASM.
void sortItems(std::vector<KeyedItem>& items, std::vector<KeyedItem>& scratch) {
  if (items.size() > 256) {
    radixSort(items, scratch, 64);
    return;
  }
  for (size_t i = 1; i < items.size(); ++i) {
    const KeyedItem item = items[i];
    size_t j = i;
    for (; j > 0 && items[j - 1].key > item.key; --j) items[j] = items[j - 1];
    items[j] = item;
  }
}

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

struct TextIndex::Impl {
  double threshold;
  ShingleOptions options;
  MinHashBands signer;
  unsigned bands;

  // Stored texts by slot: normalized UTF-8 in one arena; removed slots stay until an add
  // compacts the arena.
  struct Record {
    size_t start;
    uint32_t length, shingles, id;
  };
  std::vector<uint8_t> arena;
  std::vector<Record> records;
  std::vector<uint8_t> alive;
  size_t deadBytes = 0;
  detail::SlotOfId slotOfId{3};  // load at most 3/4
  uint64_t nextId = 0;

  // The band table: one entry per stored text and band. Ids rather than slots, so
  // compacting the arena leaves it as it is.
  BandTable table;

  // Review (text_index.h): a second band table at bandingFor(review), and each stored
  // text's sketch, by slot, that sets aside the chance candidates its few rows propose.
  struct Review {
    Review(double r, size_t mergeAt)
        : threshold(r), signer(bandingFor(r)), bands(bandingFor(r).bands), table(mergeAt), filter(r), keys(bands) {}
    double threshold;
    MinHashBands signer;
    unsigned bands;
    BandTable table;
    SetSketch sketcher;
    SketchFilter filter;
    std::vector<uint32_t> keys;           // the prepared text's
    uint64_t sketch[SetSketch::kWords];   // the prepared text's
    std::vector<uint64_t> sketches;       // SetSketch::kWords per slot
    const uint64_t* sketchOf(size_t slot) const { return sketches.data() + slot * SetSketch::kWords; }
  };
  std::unique_ptr<Review> review;

  // Scratch of one call. The text's distinct shingles (codes[0, codeCount)) are also in an
  // open-addressing set, where a candidate's shingles are looked up, each distinct one
  // counted once: an entry is in the set when its `generation` is the current one (so the
  // set is emptied by a new generation, not by clearing), and counted for the candidate
  // when its `hit` is the candidate's stamp.
  struct SetEntry {
    uint64_t code;
    uint32_t generation, hit;
  };
  std::vector<char32_t> cps, storedCps;
  std::vector<uint64_t> codes, raw;
  std::vector<SetEntry> set;
  std::vector<uint32_t> keys;
  std::vector<KeyedItem> items, scratch;  // sortItems' (candidates, answers)
  std::vector<TextMatch> answers;
  size_t codeCount = 0;
  uint32_t generation = 0, stamp = 0;
  uint64_t touched = 0;  // the sum of what a query's touching loads read: stored, so that they are not dropped
  size_t setMask = 0;
  unsigned setShift = 60;
  // The text the scratch was prepared from, when it was a caller's text: an add right after
  // a query of the same text (the stream of query-then-add) reuses it.
  std::string prepared;
  bool isPrepared = false;

  Impl(double s, double r, const ShingleOptions& o, size_t mergeAt)
      : threshold(s), options(o), signer(bandingFor(s)), bands(bandingFor(s).bands), table(mergeAt),
        review(r > 0 ? std::make_unique<Review>(r, mergeAt) : nullptr) {
    keys.resize(bands);
  }

  // Band keys a text has in both tables.
  unsigned allBands() const { return bands + (review ? review->bands : 0); }

  // The text's normalized code points, distinct canonical codes (in the set too) and band
  // keys, into cps, codes and keys.
  void prepare(std::string_view text) {
    if (isPrepared && text == prepared) return;
    isPrepared = false;
    normalizeForSimilarity(text, cps);
    shingle(cps);
    prepared.assign(text);
    isPrepared = true;
  }

  void shingle(const std::vector<char32_t>& points) {
    isPrepared = false;
    if (raw.size() < points.size() + 1) raw.resize(points.size() + 1);
    const size_t n = canonicalShingleCodes(points.data(), points.size(), options, raw.data());
    size_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    setShift = 64 - static_cast<unsigned>(__builtin_ctzll(slots));
    setMask = slots - 1;
    // The set uses the first `slots` entries; entries of older generations read as empty.
    if (set.size() < slots) {
      set.assign(slots, SetEntry{0, 0, 0});
      generation = stamp = 0;
    }
    if (++generation == 0) {  // wrapped: forget every generation and stamp
      for (SetEntry& entry : set) entry = SetEntry{0, 0, 0};
      generation = 1;
      stamp = 0;
    }
    if (codes.size() < n) codes.resize(n);
    uint64_t* distinct = codes.data();
    size_t count = 0;
    for (size_t k = 0; k < n; ++k) {
      const uint64_t code = raw[k];
      size_t e = setSlot(code);
      while (set[e].generation == generation && set[e].code != code) e = (e + 1) & setMask;
      if (set[e].generation != generation) {
        set[e] = SetEntry{code, generation, 0};
        distinct[count++] = code;
      }
    }
    codeCount = count;
    signer.keys(distinct, count, keys.data());
    if (review) {
      review->signer.keys(distinct, count, review->keys.data());
      review->sketcher.make(distinct, count, review->sketch);
    }
  }

  size_t setSlot(uint64_t code) const { return static_cast<size_t>((code * 0x9E3779B97F4A7C15ull) >> setShift); }

  // The distinct shingles stored text `slot` shares with the prepared text; less than
  // `need` (not always exactly) once its shingles left cannot make `need`.
  size_t shared(size_t slot, size_t need) {
    decode(slot);
    const size_t points = storedCps.size();
    if (raw.size() < points + 1) raw.resize(points + 1);
    if (++stamp == 0) {  // wrapped: forget the stamps of earlier candidates
      for (SetEntry& entry : set) entry.hit = 0;
      stamp = 1;
    }
    size_t count = 0, k = 0;
    // Counts codes raw[k, end) in; false once the `total` codes (repeats included) minus
    // those seen bound the distinct shingles still to come below `need`.
    auto countUntil = [&](size_t end, size_t total) {
      for (; k < end; ++k) {
        if (count + (total - k) < need) return false;
        const uint64_t code = raw[k];
        for (size_t e = setSlot(code); set[e].generation == generation; e = (e + 1) & setMask) {
          if (set[e].code != code) continue;
          if (set[e].hit != stamp) {
            set[e].hit = stamp;
            ++count;
          }
          break;
        }
      }
      return true;
    };
    // Codes come position by position, and those of the first m positions depend only on
    // the first m + kMaxShingle code points. So a third of them first, bounded by the most
    // codes a text has (one per code point, and one more): most candidates are far from
    // the threshold and are rejected before the rest is computed.
    const size_t prefix = points / 3;
    if (prefix >= 32) {
      canonicalShingleCodes(storedCps.data(), prefix + kMaxShingle, options, raw.data());
      if (!countUntil(prefix, points + 1)) return count;
    }
    const size_t n = canonicalShingleCodes(storedCps.data(), points, options, raw.data());
    countUntil(n, n);
    return count;
  }

  // Room for `texts` more records of `bytes` normalized bytes in all: every allocation of
  // an add, before it changes anything. Compacts the arena when removed bytes outnumber
  // live ones (not observable: the table holds ids).
  void reserve(size_t texts, size_t bytes) {
    reserveTexts(texts, bytes);
    table.reserve(texts * bands);
    if (review) review->table.reserve(texts * review->bands);
  }

  // reserve() but for the band table.
  void reserveTexts(size_t texts, size_t bytes) {
    if (deadBytes > 4096 && deadBytes > arena.size() - deadBytes) compact();
    // The arena grows by an eighth: the normalized texts are most of an index's bytes.
    if (arena.size() + bytes > arena.capacity()) arena.reserve(std::max(arena.size() + bytes, arena.capacity() + arena.capacity() / 8));
    if (records.size() + texts > records.capacity()) {
      const size_t capacity = std::max(records.size() + texts, records.capacity() + records.capacity() / 4);
      records.reserve(capacity);
      alive.reserve(capacity);
      if (review) review->sketches.reserve(capacity * SetSketch::kWords);
    }
    slotOfId.reserve(slotOfId.size() + texts);
  }

  void compact() {
    std::vector<uint8_t> packed;
    packed.reserve(arena.size() - deadBytes);
    std::vector<Record> kept;
    kept.reserve(records.size());
    std::vector<uint64_t> keptSketches;
    if (review) keptSketches.reserve(review->sketches.capacity());
    for (size_t slot = 0; slot < records.size(); ++slot) {
      if (!alive[slot]) continue;
      if (review) keptSketches.insert(keptSketches.end(), review->sketchOf(slot), review->sketchOf(slot) + SetSketch::kWords);
      Record r = records[slot];
      const size_t start = packed.size();
      packed.insert(packed.end(), arena.begin() + static_cast<std::ptrdiff_t>(r.start),
                    arena.begin() + static_cast<std::ptrdiff_t>(r.start + r.length));
      r.start = start;
      *slotOfId.find(r.id) = static_cast<uint32_t>(kept.size());
      kept.push_back(r);
    }
    arena.swap(packed);
    records.swap(kept);
    if (review) review->sketches.swap(keptSketches);
    alive.assign(records.size(), 1);
    deadBytes = 0;
  }

  // Gives back the scratch of a long text after the call that needed it: one long text
  // must not hold megabytes until the index is disposed. Short texts keep theirs.
  void trimScratch() {
    constexpr size_t kKeep = size_t{1} << 16;  // code points, shingles or candidates
    if (cps.capacity() <= kKeep && storedCps.capacity() <= kKeep && raw.capacity() <= kKeep && set.size() <= 2 * kKeep &&
        items.capacity() <= kKeep && answers.capacity() <= kKeep) {
      return;
    }
    std::vector<char32_t>().swap(cps);
    std::vector<char32_t>().swap(storedCps);
    std::vector<uint64_t>().swap(codes);
    std::vector<uint64_t>().swap(raw);
    std::vector<SetEntry>().swap(set);
    std::vector<KeyedItem>().swap(items);
    std::vector<KeyedItem>().swap(scratch);
    std::vector<TextMatch>().swap(answers);
    std::string().swap(prepared);
    isPrepared = false;
  }

  // Stores the prepared text (cps, codes, keys) under id. @pre room reserved, id not stored.
  void store(uint32_t id) {
    const size_t start = arena.size();
    arena.resize(start + utf8Length());  // within the capacity reserve() made
    char* utf8 = reinterpret_cast<char*>(arena.data() + start);
    for (const char32_t cp : cps) utf8 += unicode::encodeUtf8(cp, utf8);
    slotOfId.insert(id, static_cast<uint32_t>(records.size()));
    records.push_back({start, static_cast<uint32_t>(arena.size() - start), static_cast<uint32_t>(codeCount), id});
    alive.push_back(1);
    for (const uint32_t key : keys) table.insert(key, id);
    if (review) {
      for (const uint32_t key : review->keys) review->table.insert(key, id);
      review->sketches.insert(review->sketches.end(), review->sketch, review->sketch + SetSketch::kWords);
    }
  }

  Status add(std::string_view text, uint32_t id) {
    if (slotOfId.find(id)) return Status::DuplicateId;
    prepare(text);
    reserve(1, utf8Length());
    store(id);
    return Status::Ok;
  }

  size_t utf8Length() const {
    size_t n = 0;
    for (const char32_t cp : cps) n += 1 + (cp >= 0x80) + (cp >= 0x800) + (cp >= 0x10000);
    return n;
  }

  // The prepared text's keys in both tables, to out[0, allBands()).
  void copyKeys(uint32_t* out) const {
    out = std::copy(keys.begin(), keys.end(), out);
    if (review) std::copy(review->keys.begin(), review->keys.end(), out);
  }

  // Removes the entries of keys[0, allBands()) (as copyKeys wrote them) for id.
  void eraseKeys(const uint32_t* all, uint32_t id) {
    for (unsigned b = 0; b < bands; ++b) table.erase(all[b], id);
    for (unsigned b = 0; review && b < review->bands; ++b) review->table.erase(all[bands + b], id);
  }

  // Undoes the adds of ids[0, count), the last records stored, whose keys are
  // batchKeys[i * allBands(), ...): no allocation, so it runs after an out-of-memory error too.
  void undo(const uint32_t* ids, const uint32_t* batchKeys, size_t count, size_t records0, size_t arena0) {
    for (size_t i = 0; i < count; ++i) {
      eraseKeys(batchKeys + i * allBands(), ids[i]);
      slotOfId.erase(ids[i]);
    }
    records.resize(records0);
    alive.resize(records0);
    if (review) review->sketches.resize(records0 * SetSketch::kWords);
    arena.resize(arena0);
  }

  // The stored text of slot s as code points, into storedCps.
  void decode(size_t s) {
    const Record& r = records[s];
    const auto* text = arena.data() + r.start;
    // Written through a pointer into room for a code point per byte: push_back per code
    // point costs about twice as much in WASM.
    storedCps.resize(r.length);
    char32_t* const out = storedCps.data();
    size_t n = 0;
    for (size_t pos = 0; pos < r.length;) out[n++] = unicode::decodeNext(text, r.length, pos);
    storedCps.resize(n);
  }
};

TextIndex::TextIndex(double threshold, const ShingleOptions& options, size_t mergeAt)
    : impl_(new Impl(threshold, 0, options, mergeAt)) {}
TextIndex::TextIndex(double threshold, double review, const ShingleOptions& options, size_t mergeAt)
    : impl_(new Impl(threshold, review, options, mergeAt)) {}
TextIndex::~TextIndex() = default;
TextIndex::TextIndex(TextIndex&&) noexcept = default;
TextIndex& TextIndex::operator=(TextIndex&&) noexcept = default;

double TextIndex::threshold() const { return impl_->threshold; }
double TextIndex::review() const { return impl_->review ? impl_->review->threshold : 0; }
const ShingleOptions& TextIndex::options() const { return impl_->options; }
Banding TextIndex::banding() const { return impl_->signer.banding(); }
size_t TextIndex::size() const { return impl_->slotOfId.size(); }
bool TextIndex::has(uint32_t id) const { return const_cast<detail::SlotOfId&>(impl_->slotOfId).find(id) != nullptr; }

Status TextIndex::add(std::string_view text, uint32_t id) {
  const Status status = impl_->add(text, id);
  impl_->trimScratch();
  return status;
}

Status TextIndex::addWithNewId(std::string_view text, uint32_t& id) {
  Impl& m = *impl_;
  // Ids a caller stored at or above the counter are stepped over: the counter only moves up.
  uint64_t next = m.nextId;
  while (next <= UINT32_MAX && m.slotOfId.find(static_cast<uint32_t>(next))) ++next;
  if (next > UINT32_MAX) return Status::DuplicateId;
  const Status status = m.add(text, static_cast<uint32_t>(next));
  m.trimScratch();
  if (status != Status::Ok) return status;
  id = static_cast<uint32_t>(next);
  m.nextId = next + 1;
  return Status::Ok;
}

size_t TextIndex::addAll(const char* utf8, const uint32_t* offsets, size_t count, const uint32_t* ids, uint32_t* idsOut) {
  Impl& m = *impl_;
  std::vector<uint32_t> batchKeys(count * m.allBands());
  m.reserve(count, offsets[count] - offsets[0]);  // most of the room at once (compaction first)
  size_t done = 0;
  // Undoes the batch's adds on every way out but success, a failed allocation's unwinding
  // included (a text's add allocates only before it changes anything).
  struct Undo {
    Impl& m;
    const uint32_t* ids;
    const uint32_t* keys;
    const size_t& done;
    size_t records0, arena0;
    uint64_t nextId;
    bool kept;
    ~Undo() {
      if (kept) return;
      m.undo(ids, keys, done, records0, arena0);
      m.nextId = nextId;
    }
  } undo{m, idsOut, batchKeys.data(), done, m.records.size(), m.arena.size(), m.nextId, false};
  for (; done < count; ++done) {
    const std::string_view text(utf8 + offsets[done], offsets[done + 1] - offsets[done]);
    const Status status = ids ? m.add(text, idsOut[done] = ids[done]) : addWithNewId(text, idsOut[done]);
    if (status != Status::Ok) break;
    m.copyKeys(batchKeys.data() + done * m.allBands());
  }
  undo.kept = done == count;
  m.trimScratch();
  return done;
}

bool TextIndex::remove(uint32_t id) {
  Impl& m = *impl_;
  const uint32_t* found = m.slotOfId.find(id);
  if (!found) return false;
  const uint32_t slot = *found;
  // The keys from the stored text: its code points are the normalized text.
  m.decode(slot);
  m.shingle(m.storedCps);
  for (const uint32_t key : m.keys) m.table.erase(key, id);
  if (m.review) {
    for (const uint32_t key : m.review->keys) m.review->table.erase(key, id);
  }
  m.slotOfId.erase(id);
  m.alive[slot] = 0;
  m.deadBytes += m.records[slot].length;
  m.trimScratch();
  return true;
}

void TextIndex::query(std::string_view text, size_t limit, std::vector<TextMatch>& out) {
  Impl& m = *impl_;
  out.clear();
  m.prepare(text);
  m.items.clear();
  uint64_t touched = m.table.touch(m.keys.data(), m.keys.size());
  for (const uint32_t key : m.keys) m.table.find(key, m.items);
  // The threshold's bands' candidates are marked (item 1): only they can be duplicates.
  for (KeyedItem& item : m.items) item.item = 1;
  Impl::Review* const review = m.review.get();
  if (review) {
    touched += review->table.touch(review->keys.data(), review->keys.size());
    for (const uint32_t key : review->keys) review->table.find(key, m.items);
  }
  sortItems(m.items, m.scratch);
  // The distinct candidates, in id order (a candidate is found by several bands), each
  // key then id | mark << 32. Each is a chain of reads, id to slot to record to text, and
  // each read a cache miss in a large index: they are taken a link at a time for every
  // candidate, so that the candidates' misses overlap rather than add up.
  size_t candidates = 0;
  for (size_t i = 0; i < m.items.size(); ++i) {
    if (candidates == 0 || m.items[i].key != m.items[candidates - 1].key) {
      m.items[candidates++] = m.items[i];
    } else {
      m.items[candidates - 1].item |= m.items[i].item;
    }
  }
  m.items.resize(candidates);
  for (KeyedItem& candidate : m.items) candidate.key |= uint64_t{candidate.item} << 32;
  constexpr uint64_t kFromThreshold = uint64_t{1} << 32;
  const double least = review ? review->threshold : m.threshold;  // what an answer reaches
  for (const KeyedItem& candidate : m.items) touched += m.slotOfId.touch(static_cast<uint32_t>(candidate.key));
  constexpr uint32_t kSkipped = UINT32_MAX;
  for (KeyedItem& candidate : m.items) {
    const uint32_t* found = m.slotOfId.find(static_cast<uint32_t>(candidate.key));
    candidate.item = found ? *found : kSkipped;  // absent: keys of a loaded file whose id it does not hold
    if (found) touched += m.records[*found].shingles;
  }
  const size_t na = m.codeCount;
  for (KeyedItem& candidate : m.items) {
    if (candidate.item == kSkipped) continue;
    const Impl::Record& record = m.records[candidate.item];
    const size_t nb = record.shingles;
    // The best a pair of sizes na, nb can reach is min/max, as the quotient computes it.
    const size_t fewer = std::min(na, nb), more = std::max(na, nb);
    if (more > 0 && static_cast<double>(fewer) / static_cast<double>(more) < least) {
      candidate.item = kSkipped;
      continue;
    }
    // A candidate of the review bands alone: its sketch first.
    if (!(candidate.key & kFromThreshold) &&
        !review->filter.mayReach(review->sketch, static_cast<uint32_t>(na), review->sketchOf(candidate.item), static_cast<uint32_t>(nb))) {
      candidate.item = kSkipped;
      continue;
    }
    if (record.length != 0) touched += m.arena[record.start];
  }
  m.touched = touched;
  for (const KeyedItem& candidate : m.items) {
    if (candidate.item == kSkipped) continue;
    const auto id = static_cast<uint32_t>(candidate.key);
    const uint32_t slot = candidate.item;
    const size_t nb = m.records[slot].shingles;
    double similarity = 1.0;  // both sets empty
    if (na + nb > 0) {
      const size_t shared = m.shared(slot, leastShared(static_cast<uint32_t>(na), static_cast<uint32_t>(nb), least));
      similarity = static_cast<double>(shared) / static_cast<double>(na + nb - shared);
    }
    if (similarity >= m.threshold && (candidate.key & kFromThreshold)) {
      out.push_back({id, similarity, MatchKind::Duplicate});
    } else if (similarity >= least) {
      out.push_back({id, similarity, MatchKind::Review});
    }
  }
  // By similarity, descending: the answers are in id order, and the sort is stable. A
  // positive double's bits order as its value.
  m.items.clear();
  for (uint32_t i = 0; i < out.size(); ++i) {
    uint64_t bits;
    std::memcpy(&bits, &out[i].similarity, 8);
    m.items.push_back({~bits, i});
  }
  sortItems(m.items, m.scratch);
  // Duplicates first, then review matches, each in that order.
  std::vector<TextMatch>& sorted = m.answers;
  sorted.clear();
  for (const MatchKind kind : {MatchKind::Duplicate, MatchKind::Review}) {
    for (size_t i = 0; i < m.items.size() && sorted.size() < limit; ++i) {
      if (out[m.items[i].item].kind == kind) sorted.push_back(out[m.items[i].item]);
    }
  }
  out.swap(sorted);
  m.trimScratch();
}

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
  enum class Part { kHeader, kTextHeader, kText, kSketch, kEntryCount, kBandEntries, kChecksum, kDone } part = Part::kHeader;
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
  at = storeLE(at, m.options.alphabetic, 1);
  at = storeLE(at, m.options.cjk, 1);
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
}

TextIndex::Writer::~Writer() = default;

size_t TextIndex::Writer::size() const {
  const Impl& m = state_->m;
  const size_t texts = state_->index.size();
  const size_t common = kHeaderSize + (m.arena.size() - m.deadBytes) + kTextHeader * texts + kBandEntry * m.table.size() + kChecksumSize;
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
        if (put(w.bytes)) beginText();
        break;
      case Part::kTextHeader:
        if (put(w.bytes)) begin(Part::kText, m.records[w.slot].length);
        break;
      case Part::kText:
        if (!put(m.arena.data() + m.records[w.slot].start)) break;
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
  enum class Part { kHeader, kReviewHeader, kTextHeader, kText, kSketch, kEntryCount, kBandEntry, kDone } part = Part::kHeader;
  // The part's bytes, unless it is a text (appended to the arena as it comes), and how
  // many are read.
  uint8_t bytes[kSketchBytes];
  size_t partSize = kHeaderSize, partRead = 0;
  ShingleOptions options;
  double threshold = 0, review = 0;
  uint64_t count = 0, bands = 0, reviewBands = 0, nextId = 0, texts = 0;
  size_t entries = 0, entriesRead = 0, mainEntries = 0, reviewEntries = 0;
  uint16_t version = 0;

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
    options = ShingleOptions{bytes[6], bytes[7]};
    if (!isValid(options)) return fail({"shingle sizes ", bytes[6], ", ", bytes[7], " are not within 1..3"});
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
    beginTexts(at);
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
    beginTexts(at);
  }
  // The header is read: the index, then its texts from `at`.
  void beginTexts(size_t at) {
    const uint64_t perText = kTextHeader + kBandEntry * bands + (withReview() ? kSketchBytes + kBandEntry * reviewBands : 0);
    const uint64_t fixed = headerSize() + (withReview() ? kEntryCount : 0);
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
    keys.emplace(entries);
    if (withReview()) reviewKeys.emplace(reviewEntries);
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
    // A text of L bytes has at most L code points, each starting at most one shingle.
    if (shingles > length) return fail({"text ", texts, " has ", shingles, " shingles in ", length, " bytes"});
    if (!m.slotOfId.insert(id, static_cast<uint32_t>(m.records.size()))) return fail({"id ", id, " appears twice"});
    m.records.push_back({m.arena.size(), static_cast<uint32_t>(length), shingles, id});
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
          std::vector<uint8_t>& arena = index->impl_->arena;
          const size_t n = std::min(partSize - partRead, static_cast<size_t>(end - p));
          arena.insert(arena.end(), p, p + n);
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
  if (r.version == kUnfoldedKanaVersion) {
    // Each stored text normalized again (idempotent but for the fold) and added anew, in order.
    const Impl& old = *r.index->impl_;
    TextIndex again(old.threshold, old.options);
    for (const Impl::Record& record : old.records) {
      const std::string_view text(reinterpret_cast<const char*>(old.arena.data()) + record.start, record.length);
      if (again.impl_->add(text, record.id) != Status::Ok) return fail(describe({"id ", record.id, " appears twice"}));
    }
    again.impl_->trimScratch();
    again.impl_->nextId = r.nextId;
    out = std::move(again);
    return Status::Ok;
  }
  out = std::move(*r.index);
  return Status::Ok;
}

size_t TextIndex::memoryBytes() const {
  const Impl& m = *impl_;
  return m.arena.capacity() + m.records.capacity() * sizeof(Impl::Record) + m.alive.capacity() +
         m.table.memoryBytes() + m.slotOfId.memoryBytes() +
         (m.review ? m.review->table.memoryBytes() + m.review->sketches.capacity() * sizeof(uint64_t) + m.review->keys.capacity() * sizeof(uint32_t) : 0) +
         (m.cps.capacity() + m.storedCps.capacity()) * sizeof(char32_t) + (m.codes.capacity() + m.raw.capacity()) * sizeof(uint64_t) +
         m.set.capacity() * sizeof(Impl::SetEntry) + m.keys.capacity() * sizeof(uint32_t) + (m.items.capacity() + m.scratch.capacity()) * sizeof(KeyedItem) + m.answers.capacity() * sizeof(TextMatch) + m.prepared.capacity();
}

}  // namespace simhash
