#include "simhash/text_index.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>

#include "bytes.h"
#include "radix.h"
#include "simhash/index.h"
#include "unicode.h"

namespace simhash {

namespace {

constexpr char kMagic[4] = {'S', 'H', 'T', 'X'};
constexpr uint16_t kFormatVersion = 1;
// magic 4, version 2, alphabetic 1, cjk 1, threshold 8 (IEEE 754 binary64), next id 8,
// count 4, bands 4
constexpr size_t kHeaderSize = 32;
constexpr size_t kTextHeader = 12;  // id 4, distinct shingles 4, byte length 4
constexpr size_t kBandEntry = 8;    // key 4, id 4

using bytes::checksum;
using bytes::getLE;
using bytes::kChecksumSize;
using bytes::storeLE;

// Sorts items by key, stably: by insertion while few (a query's candidates and answers, a
// table run), else by radix.h's sort, whose six passes each count into 2,048 buckets: about
// the work of insertion-sorting 256 items. No comparison sort: each std::sort
// instantiation costs about 3 KB of WASM.
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

// The band table's placing hash of a key (home() scales it to the table), and back.
uint32_t placing(uint32_t key) { return key * 0x9E3779B9u; }
uint32_t keyOfPlacing(uint32_t hash) { return hash * 0x144CBC89u; }  // 0x9E3779B9's inverse mod 2^32

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

// SlotOfId's capacity for `reserved` ids: a power of two, at least 16, at load <= 1/2, of
// 8-byte entries.
size_t idTableBytes(size_t reserved) {
  if (reserved == 0) return 0;
  size_t capacity = 16;
  while (capacity < 2 * reserved) capacity *= 2;
  return capacity * 8;
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
  detail::SlotOfId slotOfId;
  size_t idsReserved = 0;  // the most ids slotOfId was asked room for (its capacity follows)
  uint64_t nextId = 0;

  // The band table: one entry per stored text and band, id << 32 | key, open addressing
  // with linear probing (keys are never 0; 0 marks an empty entry), several entries per
  // key. Key and id share one word so that a probe reads one cache line. Ids rather than
  // slots, so compacting the arena leaves it as it is.
  std::vector<uint64_t> table;
  size_t tableUsed = 0;

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
  size_t setMask = 0;
  unsigned setShift = 60;
  // The text the scratch was prepared from, when it was a caller's text: an add right after
  // a query of the same text (the stream of query-then-add) reuses it.
  std::string prepared;
  bool isPrepared = false;

  Impl(double s, const ShingleOptions& o) : threshold(s), options(o), signer(bandingFor(s)), bands(bandingFor(s).bands) {
    keys.resize(bands);
    table.assign(1024, 0);
  }

  size_t home(uint32_t key) const {
    // Multiply-shift onto any table size: the table grows by half, not doubling.
    return static_cast<size_t>((uint64_t{placing(key)} * table.size()) >> 32);
  }
  size_t after(size_t e) const { return e + 1 == table.size() ? 0 : e + 1; }
  static uint32_t keyOf(uint64_t entry) { return static_cast<uint32_t>(entry); }
  static uint32_t idOf(uint64_t entry) { return static_cast<uint32_t>(entry >> 32); }

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
  }

  size_t setSlot(uint64_t code) const { return static_cast<size_t>((code * 0x9E3779B97F4A7C15ull) >> setShift); }

  // The distinct shingles stored text `slot` shares with the prepared text; less than
  // `need` (not always exactly) once its shingles left cannot make `need`.
  size_t shared(size_t slot, size_t need) {
    decode(slot);
    if (raw.size() < storedCps.size() + 1) raw.resize(storedCps.size() + 1);
    const size_t n = canonicalShingleCodes(storedCps.data(), storedCps.size(), options, raw.data());
    if (++stamp == 0) {  // wrapped: forget the stamps of earlier candidates
      for (SetEntry& entry : set) entry.hit = 0;
      stamp = 1;
    }
    size_t count = 0;
    for (size_t k = 0; k < n; ++k) {
      // The n - k codes left (repeats included) bound the distinct shingles still to come.
      if (count + (n - k) < need) return count;
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
    return count;
  }

  // Room for `texts` more records of `bytes` normalized bytes in all: every allocation of
  // an add, before it changes anything. Compacts the arena when removed bytes outnumber
  // live ones (not observable: the table holds ids).
  void reserve(size_t texts, size_t bytes) {
    if (deadBytes > 4096 && deadBytes > arena.size() - deadBytes) compact();
    if (arena.size() + bytes > arena.capacity()) arena.reserve(std::max(arena.size() + bytes, arena.capacity() + arena.capacity() / 4));
    if (records.size() + texts > records.capacity()) {
      const size_t capacity = std::max(records.size() + texts, records.capacity() + records.capacity() / 4);
      records.reserve(capacity);
      alive.reserve(capacity);
    }
    slotOfId.reserve(slotOfId.size() + texts);
    idsReserved = std::max(idsReserved, slotOfId.size() + texts);
    const size_t entries = tableUsed + texts * bands;
    if (4 * entries > 3 * table.size()) {
      size_t capacity = table.size();
      while (4 * entries > 3 * capacity) capacity += capacity / 4 + 1024;
      rehash(capacity);
    }
  }

  void rehash(size_t capacity) {
    std::vector<uint64_t> old(capacity, 0);
    old.swap(table);
    for (const uint64_t entry : old) {
      if (entry != 0) insertEntry(entry);
    }
  }

  void insertEntry(uint64_t entry) {
    size_t e = home(keyOf(entry));
    while (table[e] != 0) e = after(e);
    table[e] = entry;
  }

  static uint64_t entryOf(uint32_t key, uint32_t id) { return uint64_t{id} << 32 | key; }

  // Erases one entry (key, id), if stored: it may not be, for a text loaded with other keys
  // than its own (deserialize takes keys as written).
  void eraseEntry(uint32_t key, uint32_t id) {
    const uint64_t entry = entryOf(key, id);
    size_t hole = home(key);
    while (table[hole] != 0 && table[hole] != entry) hole = after(hole);
    if (table[hole] == 0) return;
    --tableUsed;
    // Backward-shift deletion: pull later entries of the run into the hole, so lookups
    // never meet tombstones.
    const size_t n = table.size();
    for (size_t e = after(hole); table[e] != 0; e = after(e)) {
      const size_t want = home(keyOf(table[e]));
      // Move entry e into the hole unless its home lies cyclically in (hole, e].
      if ((e + n - want) % n >= (e + n - hole) % n) {
        table[hole] = table[e];
        hole = e;
      }
    }
    table[hole] = 0;
  }

  void compact() {
    std::vector<uint8_t> packed;
    packed.reserve(arena.size() - deadBytes);
    std::vector<Record> kept;
    kept.reserve(records.size());
    for (size_t slot = 0; slot < records.size(); ++slot) {
      if (!alive[slot]) continue;
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

  // The band table's entries in one order whatever its capacity and history: by the hash
  // that places them (home() is monotone in it), then id; as that order's keys (placing
  // hash << 32 | id). A run of the table (entries between two empty ones) holds exactly
  // the entries whose homes lie in it, so sorting each run sorts them all, but for the run
  // that wraps past the end: its entries homed at the table's start come first, those
  // homed at its end last.
  std::vector<uint64_t> canonicalOrder() const {
    std::vector<uint64_t> out(tableUsed);
    size_t filled = 0;
    std::vector<KeyedItem> items, scratch;
    // Appends the order keys of positions [from, end) (cyclic), sorted.
    auto appendRun = [&](size_t from, size_t end) {
      const size_t first = filled;
      for (size_t e = from; e != end; e = after(e)) out[filled++] = uint64_t{placing(keyOf(table[e]))} << 32 | idOf(table[e]);
      if (filled - first <= 256) {
        for (size_t i = first + 1; i < filled; ++i) {
          const uint64_t order = out[i];
          size_t j = i;
          for (; j > first && out[j - 1] > order; --j) out[j] = out[j - 1];
          out[j] = order;
        }
        return;
      }
      items.clear();
      for (size_t i = first; i < filled; ++i) items.push_back({out[i], 0});
      sortItems(items, scratch);
      for (size_t i = first; i < filled; ++i) out[i] = items[i - first].key;
    };
    const size_t n = table.size();
    size_t firstEmpty = 0, lastEmpty = n - 1;  // the table is never full (load <= 3/4)
    while (table[firstEmpty] != 0) ++firstEmpty;
    while (table[lastEmpty] != 0) --lastEmpty;
    appendRun(after(lastEmpty), firstEmpty);
    // Of the run that wraps, those homed at the end go last.
    size_t homedAtStart = 0;
    while (homedAtStart < filled && home(keyOfPlacing(static_cast<uint32_t>(out[homedAtStart] >> 32))) < firstEmpty) ++homedAtStart;
    const std::vector<uint64_t> homedAtEnd(out.begin() + static_cast<std::ptrdiff_t>(homedAtStart), out.begin() + static_cast<std::ptrdiff_t>(filled));
    filled = homedAtStart;
    for (size_t e = firstEmpty; e < lastEmpty;) {
      if (table[e] == 0) {
        ++e;
        continue;
      }
      size_t end = e;
      while (table[end] != 0) ++end;
      appendRun(e, end);
      e = end;
    }
    for (const uint64_t order : homedAtEnd) out[filled++] = order;
    return out;
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
    for (const uint32_t key : keys) insertEntry(entryOf(key, id));
    tableUsed += bands;
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

  // Undoes the adds of ids[0, count), the last records stored, whose keys are
  // keys[i * bands, ...): no allocation, so it runs after an out-of-memory error too.
  void undo(const uint32_t* ids, const uint32_t* batchKeys, size_t count, size_t records0, size_t arena0) {
    for (size_t i = 0; i < count; ++i) {
      for (unsigned b = 0; b < bands; ++b) eraseEntry(batchKeys[i * bands + b], ids[i]);
      slotOfId.erase(ids[i]);
    }
    records.resize(records0);
    alive.resize(records0);
    arena.resize(arena0);
  }

  // The stored text of slot s as code points, into storedCps.
  void decode(size_t s) {
    const Record& r = records[s];
    const auto* text = arena.data() + r.start;
    storedCps.clear();
    for (size_t pos = 0; pos < r.length;) storedCps.push_back(unicode::decodeNext(text, r.length, pos));
  }
};

TextIndex::TextIndex(double threshold, const ShingleOptions& options) : impl_(new Impl(threshold, options)) {}
TextIndex::~TextIndex() = default;
TextIndex::TextIndex(TextIndex&&) noexcept = default;
TextIndex& TextIndex::operator=(TextIndex&&) noexcept = default;

double TextIndex::threshold() const { return impl_->threshold; }
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
  std::vector<uint32_t> batchKeys(count * m.bands);
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
    std::copy(m.keys.begin(), m.keys.end(), batchKeys.begin() + static_cast<std::ptrdiff_t>(done * m.bands));
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
  for (const uint32_t key : m.keys) m.eraseEntry(key, id);
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
  for (const uint32_t key : m.keys) __builtin_prefetch(&m.table[m.home(key)]);  // the probes' misses overlap
  for (const uint32_t key : m.keys) {
    for (size_t e = m.home(key); m.table[e] != 0; e = m.after(e)) {
      if (Impl::keyOf(m.table[e]) == key) m.items.push_back({Impl::idOf(m.table[e]), 0});
    }
  }
  sortItems(m.items, m.scratch);
  const size_t na = m.codeCount;
  uint64_t previous = UINT64_MAX;
  for (const KeyedItem& candidate : m.items) {
    if (candidate.key == previous) continue;  // found by several bands
    previous = candidate.key;
    const auto id = static_cast<uint32_t>(candidate.key);
    const uint32_t* found = m.slotOfId.find(id);
    if (!found) continue;  // keys of a loaded file whose id it does not hold
    const uint32_t slot = *found;
    const size_t nb = m.records[slot].shingles;
    double similarity = 1.0;  // both sets empty
    if (na + nb > 0) {
      // The best a pair of sizes na, nb can reach is min/max, as the quotient computes it.
      const size_t least = std::min(na, nb), most = std::max(na, nb);
      if (static_cast<double>(least) / static_cast<double>(most) < m.threshold) continue;
      const size_t shared = m.shared(slot, leastShared(static_cast<uint32_t>(na), static_cast<uint32_t>(nb), m.threshold));
      similarity = static_cast<double>(shared) / static_cast<double>(na + nb - shared);
    }
    if (similarity >= m.threshold) out.push_back({id, similarity});
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
  std::vector<TextMatch>& sorted = m.answers;
  sorted.clear();
  for (size_t i = 0; i < m.items.size() && i < limit; ++i) sorted.push_back(out[m.items[i].item]);
  out.swap(sorted);
  m.trimScratch();
}

size_t TextIndex::serializedSize() const {
  const Impl& m = *impl_;
  return kHeaderSize + (m.arena.size() - m.deadBytes) + kTextHeader * size() + kBandEntry * m.tableUsed + kChecksumSize;
}

std::vector<uint8_t> TextIndex::serialize() const {
  std::vector<uint8_t> out(serializedSize());
  serializeTo(out.data());
  return out;
}

void TextIndex::serializeTo(uint8_t* out) const {
  const Impl& m = *impl_;
  const std::vector<uint64_t> order = m.canonicalOrder();
  uint8_t* at = out;
  std::memcpy(at, kMagic, 4);
  at = storeLE(at + 4, kFormatVersion, 2);
  at = storeLE(at, m.options.alphabetic, 1);
  at = storeLE(at, m.options.cjk, 1);
  uint64_t thresholdBits;
  std::memcpy(&thresholdBits, &m.threshold, 8);
  at = storeLE(at, thresholdBits, 8);
  at = storeLE(at, m.nextId, 8);
  at = storeLE(at, size(), 4);
  at = storeLE(at, m.bands, 4);
  for (size_t slot = 0; slot < m.records.size(); ++slot) {
    if (!m.alive[slot]) continue;
    const Impl::Record& r = m.records[slot];
    at = storeLE(at, r.id, 4);
    at = storeLE(at, r.shingles, 4);
    at = storeLE(at, r.length, 4);
    if (r.length != 0) std::memcpy(at, m.arena.data() + r.start, r.length);  // an empty arena's data() may be null
    at += r.length;
  }
  for (const uint64_t o : order) {
    at = storeLE(at, keyOfPlacing(static_cast<uint32_t>(o >> 32)), 4);
    at = storeLE(at, static_cast<uint32_t>(o), 4);
  }
  storeLE(at, checksum(out, static_cast<size_t>(at - out)), 8);
}

Status TextIndex::deserialize(const uint8_t* data, size_t size, TextIndex& out, std::string& error) {
  // Messages are built by one function from their pieces: each std::string concatenation
  // chain would inline its own allocations (WASM size).
  auto fail = [&](std::initializer_list<Piece> pieces) {
    error = describe(pieces);
    return Status::CorruptData;
  };
  if (std::string damage = bytes::checkHeader(data, size, kMagic, kFormatVersion, kHeaderSize); !damage.empty()) return fail({damage.c_str()});
  if (!bytes::checksumHolds(data, size)) return fail({"checksum mismatch (the data is corrupted or truncated)"});
  const size_t body = size - kChecksumSize;
  // Past the checksum, anything odd is a writer's bug rather than damage; still checked.
  const ShingleOptions options{data[6], data[7]};
  if (!isValid(options)) return fail({"shingle sizes ", data[6], ", ", data[7], " are not within 1..3"});
  const uint64_t thresholdBits = getLE(data + 8, 8);
  double threshold;
  std::memcpy(&threshold, &thresholdBits, 8);
  // Messages format integers only: formatting a double links printf (4.5 KB of gzipped WASM).
  if (!(threshold > 0 && threshold <= 1)) return fail({"the threshold is not within (0, 1]"});
  const uint64_t nextId = getLE(data + 16, 8);
  if (nextId > uint64_t{UINT32_MAX} + 1) return fail({"next id ", nextId, " exceeds 2^32"});
  const uint64_t count = getLE(data + 24, 4);
  const uint64_t bands = getLE(data + 28, 4);
  if (bands != bandingFor(threshold).bands) {
    return fail({bands, " bands where the threshold's banding has ", bandingFor(threshold).bands});
  }
  if (count > (body - kHeaderSize) / (kTextHeader + kBandEntry * bands)) return fail({"a count of ", count, " texts exceeds the data"});

  TextIndex index(threshold, options);
  Impl& m = *index.impl_;
  m.reserve(count, body - kHeaderSize - count * (kTextHeader + kBandEntry * bands));
  size_t at = kHeaderSize;
  for (uint64_t i = 0; i < count; ++i) {
    if (body - at < kTextHeader) return fail({"text ", i, " is cut off"});
    const auto id = static_cast<uint32_t>(getLE(data + at, 4));
    const auto shingles = static_cast<uint32_t>(getLE(data + at + 4, 4));
    const uint64_t length = getLE(data + at + 8, 4);
    at += kTextHeader;
    if (body - at < length) return fail({"text ", i, " is cut off"});
    // A text of L bytes has at most L code points, each starting at most one shingle.
    if (shingles > length) return fail({"text ", i, " has ", shingles, " shingles in ", length, " bytes"});
    if (!m.slotOfId.insert(id, static_cast<uint32_t>(m.records.size()))) return fail({"id ", id, " appears twice"});
    m.records.push_back({m.arena.size(), static_cast<uint32_t>(length), shingles, id});
    m.alive.push_back(1);
    m.arena.insert(m.arena.end(), data + at, data + at + length);
    at += length;
  }
  if ((body - at) % kBandEntry != 0) return fail({"has ", body - at, " bytes of band keys, not a multiple of ", kBandEntry});
  const size_t entries = (body - at) / kBandEntry;
  if (entries > count * bands) return fail({"has ", entries, " band keys; ", count, " texts have at most ", count * bands});
  // Their ids are not looked up (a cache miss each): query() skips an id not stored. In
  // the order serialize() writes them, homes never decrease, so each entry goes to its home
  // or right after the one before (every slot between is taken): no probing, sequential
  // writes. An entry out of that order, or one that would pass the end, is inserted as add
  // does.
  const size_t capacity = m.table.size();
  size_t lastHome = 0, next = 0;  // the last home placed this way, and the slot after it
  for (size_t e = 0; e < entries; ++e, at += kBandEntry) {
    const auto key = static_cast<uint32_t>(getLE(data + at, 4));
    if (key == 0) return fail({"band key ", e, " is 0"});
    const uint64_t entry = Impl::entryOf(key, static_cast<uint32_t>(getLE(data + at + 4, 4)));
    const size_t home = m.home(key);
    const size_t slot = std::max(home, next);
    if (home >= lastHome && slot < capacity && m.table[slot] == 0) {
      m.table[slot] = entry;
      lastHome = home;
      next = slot + 1;
    } else {
      m.insertEntry(entry);
    }
  }
  m.tableUsed = entries;
  m.nextId = nextId;
  out = std::move(index);
  return Status::Ok;
}

size_t TextIndex::memoryBytes() const {
  const Impl& m = *impl_;
  return m.arena.capacity() + m.records.capacity() * sizeof(Impl::Record) + m.alive.capacity() +
         m.table.capacity() * sizeof(uint64_t) + idTableBytes(m.idsReserved) +
         (m.cps.capacity() + m.storedCps.capacity()) * sizeof(char32_t) + (m.codes.capacity() + m.raw.capacity()) * sizeof(uint64_t) +
         m.set.capacity() * sizeof(Impl::SetEntry) + m.keys.capacity() * sizeof(uint32_t) + (m.items.capacity() + m.scratch.capacity()) * sizeof(KeyedItem) + m.answers.capacity() * sizeof(TextMatch) + m.prepared.capacity();
}

}  // namespace simhash
