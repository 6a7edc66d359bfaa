#include "simhash/text_index.h"

#include <algorithm>
#include <cstring>

#include "bytes.h"
#include "simhash/index.h"
#include "unicode.h"

namespace simhash {

namespace {

constexpr char kMagic[4] = {'S', 'H', 'T', 'X'};
constexpr uint16_t kFormatVersion = 1;
// magic 4, version 2, alphabetic 1, cjk 1, threshold 8 (IEEE 754 binary64), next id 8, count 4
constexpr size_t kHeaderSize = 28;
constexpr size_t kEntryHeader = 8;  // id 4, byte length 4

using bytes::checksum;
using bytes::getLE;
using bytes::kChecksumSize;
using bytes::putLE;

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

  // The band table: one (key, id) entry per stored text and band, open addressing with
  // linear probing (keys are never 0; 0 marks an empty entry), several entries per key.
  // Ids rather than slots, so compacting the arena leaves it as it is.
  std::vector<uint32_t> tableKey, tableId;
  size_t tableUsed = 0;

  // Scratch of one call. The text's distinct shingles are also in an open-addressing set
  // (setCode, 0 empty: no code is 0), where a candidate's shingles are looked up, each
  // distinct one counted once (setStamp marks those the candidate already hit): no sort.
  std::vector<char32_t> cps, storedCps;
  std::vector<uint64_t> codes, raw, setCode;
  std::vector<uint32_t> setStamp, keys, candidates;
  uint32_t stamp = 0;
  unsigned setShift = 60;
  // The text the scratch was prepared from, when it was a caller's text: an add right after
  // a query of the same text (the stream of query-then-add) reuses it.
  std::string prepared;
  bool isPrepared = false;

  Impl(double s, const ShingleOptions& o) : threshold(s), options(o), signer(bandingFor(s)), bands(bandingFor(s).bands) {
    keys.resize(bands);
    tableKey.assign(1024, 0);
    tableId.assign(1024, 0);
  }

  size_t home(uint32_t key) const {
    // Multiply-shift onto any table size: the table grows by half, not doubling.
    return static_cast<size_t>((uint64_t{key * 0x9E3779B9u} * tableKey.size()) >> 32);
  }
  size_t after(size_t e) const { return e + 1 == tableKey.size() ? 0 : e + 1; }

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
    setCode.assign(slots, 0);
    setStamp.assign(slots, 0);
    stamp = 0;
    codes.clear();
    for (size_t k = 0; k < n; ++k) {
      const uint64_t code = raw[k];
      size_t e = setSlot(code);
      while (setCode[e] != 0 && setCode[e] != code) e = (e + 1) & (slots - 1);
      if (setCode[e] == 0) {
        setCode[e] = code;
        codes.push_back(code);
      }
    }
    signer.keys(codes.data(), codes.size(), keys.data());
  }

  size_t setSlot(uint64_t code) const { return static_cast<size_t>((code * 0x9E3779B97F4A7C15ull) >> setShift); }

  // The distinct shingles stored text `slot` shares with the prepared text; less than
  // `need` (not always exactly) once its shingles left cannot make `need`.
  size_t shared(size_t slot, size_t need) {
    decode(slot);
    if (raw.size() < storedCps.size() + 1) raw.resize(storedCps.size() + 1);
    const size_t n = canonicalShingleCodes(storedCps.data(), storedCps.size(), options, raw.data());
    ++stamp;  // a fresh mark per candidate (the set is rebuilt per query, long before 2^32)
    const size_t mask = setCode.size() - 1;
    size_t count = 0;
    for (size_t k = 0; k < n; ++k) {
      // The n - k codes left (repeats included) bound the distinct shingles still to come.
      if (count + (n - k) < need) return count;
      const uint64_t code = raw[k];
      for (size_t e = setSlot(code); setCode[e] != 0; e = (e + 1) & mask) {
        if (setCode[e] != code) continue;
        if (setStamp[e] != stamp) {
          setStamp[e] = stamp;
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
    if (arena.size() + bytes > arena.capacity()) arena.reserve(std::max(arena.size() + bytes, arena.capacity() + arena.capacity() / 2));
    if (records.size() + texts > records.capacity()) {
      const size_t capacity = std::max(records.size() + texts, 2 * records.capacity());
      records.reserve(capacity);
      alive.reserve(capacity);
    }
    slotOfId.reserve(slotOfId.size() + texts);
    idsReserved = std::max(idsReserved, slotOfId.size() + texts);
    const size_t entries = tableUsed + texts * bands;
    if (4 * entries > 3 * tableKey.size()) {
      size_t capacity = tableKey.size();
      while (4 * entries > 3 * capacity) capacity += capacity / 2 + 1024;
      rehash(capacity);
    }
  }

  void rehash(size_t capacity) {
    std::vector<uint32_t> oldKey(capacity, 0), oldId(capacity);
    oldKey.swap(tableKey);
    oldId.swap(tableId);
    for (size_t e = 0; e < oldKey.size(); ++e) {
      if (oldKey[e] != 0) insertEntry(oldKey[e], oldId[e]);
    }
  }

  void insertEntry(uint32_t key, uint32_t id) {
    size_t e = home(key);
    while (tableKey[e] != 0) e = after(e);
    tableKey[e] = key;
    tableId[e] = id;
  }

  void eraseEntry(uint32_t key, uint32_t id) {
    size_t hole = home(key);
    while (tableKey[hole] != 0 && !(tableKey[hole] == key && tableId[hole] == id)) hole = after(hole);
    if (tableKey[hole] == 0) return;  // not stored (cannot happen for a stored text's keys)
    // Backward-shift deletion: pull later entries of the run into the hole, so lookups
    // never meet tombstones.
    const size_t n = tableKey.size();
    for (size_t e = after(hole); tableKey[e] != 0; e = after(e)) {
      const size_t want = home(tableKey[e]);
      // Move entry e into the hole unless its home lies cyclically in (hole, e].
      if ((e + n - want) % n >= (e + n - hole) % n) {
        tableKey[hole] = tableKey[e];
        tableId[hole] = tableId[e];
        hole = e;
      }
    }
    tableKey[hole] = 0;
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

  // Stores the prepared text (cps, codes, keys) under id. @pre room reserved, id not stored.
  void store(uint32_t id) {
    const size_t start = arena.size();
    char utf8[4];
    for (const char32_t cp : cps) {
      const size_t n = unicode::encodeUtf8(cp, utf8);
      arena.insert(arena.end(), utf8, utf8 + n);
    }
    slotOfId.insert(id, static_cast<uint32_t>(records.size()));
    records.push_back({start, static_cast<uint32_t>(arena.size() - start), static_cast<uint32_t>(codes.size()), id});
    alive.push_back(1);
    for (const uint32_t key : keys) insertEntry(key, id);
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
    tableUsed -= count * bands;
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

Status TextIndex::add(std::string_view text, uint32_t id) { return impl_->add(text, id); }

Status TextIndex::addWithNewId(std::string_view text, uint32_t& id) {
  Impl& m = *impl_;
  // Ids a caller stored at or above the counter are stepped over: the counter only moves up.
  uint64_t next = m.nextId;
  while (next <= UINT32_MAX && m.slotOfId.find(static_cast<uint32_t>(next))) ++next;
  if (next > UINT32_MAX) return Status::DuplicateId;
  const Status status = m.add(text, static_cast<uint32_t>(next));
  if (status != Status::Ok) return status;
  id = static_cast<uint32_t>(next);
  m.nextId = next + 1;
  return Status::Ok;
}

size_t TextIndex::addAll(const char* utf8, const uint32_t* offsets, size_t count, const uint32_t* ids, uint32_t* idsOut) {
  Impl& m = *impl_;
  std::vector<uint32_t> batchKeys(count * m.bands);
  m.reserve(count, offsets[count] - offsets[0]);  // most of the room at once (compaction first)
  const size_t records0 = m.records.size(), arena0 = m.arena.size();
  const uint64_t nextId = m.nextId;
  size_t done = 0;
  try {
    for (; done < count; ++done) {
      const std::string_view text(utf8 + offsets[done], offsets[done + 1] - offsets[done]);
      const Status status = ids ? m.add(text, idsOut[done] = ids[done]) : addWithNewId(text, idsOut[done]);
      if (status != Status::Ok) break;
      std::copy(m.keys.begin(), m.keys.end(), batchKeys.begin() + static_cast<std::ptrdiff_t>(done * m.bands));
    }
  } catch (...) {
    m.undo(idsOut, batchKeys.data(), done, records0, arena0);
    m.nextId = nextId;
    throw;
  }
  if (done == count) return count;
  m.undo(idsOut, batchKeys.data(), done, records0, arena0);
  m.nextId = nextId;
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
  m.tableUsed -= m.bands;
  m.slotOfId.erase(id);
  m.alive[slot] = 0;
  m.deadBytes += m.records[slot].length;
  return true;
}

void TextIndex::query(std::string_view text, size_t limit, std::vector<TextMatch>& out) {
  Impl& m = *impl_;
  out.clear();
  m.prepare(text);
  m.candidates.clear();
  for (const uint32_t key : m.keys) {
    for (size_t e = m.home(key); m.tableKey[e] != 0; e = m.after(e)) {
      if (m.tableKey[e] == key) m.candidates.push_back(m.tableId[e]);
    }
  }
  std::sort(m.candidates.begin(), m.candidates.end());
  m.candidates.erase(std::unique(m.candidates.begin(), m.candidates.end()), m.candidates.end());
  const size_t na = m.codes.size();
  for (const uint32_t id : m.candidates) {
    const uint32_t slot = *m.slotOfId.find(id);
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
  std::sort(out.begin(), out.end(), [](const TextMatch& a, const TextMatch& b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.id < b.id;
  });
  if (out.size() > limit) out.resize(limit);
}

std::vector<uint8_t> TextIndex::serialize() const {
  const Impl& m = *impl_;
  std::vector<uint8_t> out;
  out.reserve(kHeaderSize + (m.arena.size() - m.deadBytes) + kEntryHeader * size() + kChecksumSize);
  for (char c : kMagic) out.push_back(static_cast<uint8_t>(c));
  putLE(out, kFormatVersion, 2);
  putLE(out, m.options.alphabetic, 1);
  putLE(out, m.options.cjk, 1);
  uint64_t thresholdBits;
  std::memcpy(&thresholdBits, &m.threshold, 8);
  putLE(out, thresholdBits, 8);
  putLE(out, m.nextId, 8);
  putLE(out, size(), 4);
  for (size_t slot = 0; slot < m.records.size(); ++slot) {
    if (!m.alive[slot]) continue;
    const Impl::Record& r = m.records[slot];
    putLE(out, r.id, 4);
    putLE(out, r.length, 4);
    out.insert(out.end(), m.arena.begin() + static_cast<std::ptrdiff_t>(r.start),
               m.arena.begin() + static_cast<std::ptrdiff_t>(r.start + r.length));
  }
  putLE(out, checksum(out.data(), out.size()), 8);
  return out;
}

Status TextIndex::deserialize(const uint8_t* data, size_t size, TextIndex& out, std::string& error) {
  auto fail = [&](std::string message) {
    error = "invalid serialized text index: " + message;
    return Status::CorruptData;
  };
  if (size < kHeaderSize + kChecksumSize) {
    return fail("truncated (" + std::to_string(size) + " bytes; the smallest has " + std::to_string(kHeaderSize + kChecksumSize) + ")");
  }
  if (std::memcmp(data, kMagic, 4) != 0) return fail("missing the 'SHTX' signature");
  const uint64_t version = getLE(data + 4, 2);
  if (version != kFormatVersion) {
    return fail("format version " + std::to_string(version) + " is not supported (this build reads version " + std::to_string(kFormatVersion) + ")");
  }
  const size_t body = size - kChecksumSize;
  if (getLE(data + body, 8) != checksum(data, body)) return fail("checksum mismatch (the data is corrupted or truncated)");
  // Past the checksum, anything odd is a writer's bug rather than damage; still checked.
  const ShingleOptions options{data[6], data[7]};
  if (!isValid(options)) return fail("shingle sizes " + std::to_string(data[6]) + ", " + std::to_string(data[7]) + " are not within 1..3");
  const uint64_t thresholdBits = getLE(data + 8, 8);
  double threshold;
  std::memcpy(&threshold, &thresholdBits, 8);
  if (!(threshold > 0 && threshold <= 1)) return fail("threshold " + std::to_string(threshold) + " is not within (0, 1]");
  const uint64_t nextId = getLE(data + 16, 8);
  if (nextId > uint64_t{UINT32_MAX} + 1) return fail("next id " + std::to_string(nextId) + " exceeds 2^32");
  const uint64_t count = getLE(data + 24, 4);
  if (count > (body - kHeaderSize) / kEntryHeader) return fail("a count of " + std::to_string(count) + " texts exceeds the data");

  TextIndex index(threshold, options);
  Impl& m = *index.impl_;
  m.reserve(count, body - kHeaderSize - count * kEntryHeader);
  size_t at = kHeaderSize;
  for (uint64_t i = 0; i < count; ++i) {
    if (body - at < kEntryHeader) return fail("text " + std::to_string(i) + " is cut off");
    const auto id = static_cast<uint32_t>(getLE(data + at, 4));
    const uint64_t length = getLE(data + at + 4, 4);
    at += kEntryHeader;
    if (body - at < length) return fail("text " + std::to_string(i) + " is cut off");
    const std::string_view text(reinterpret_cast<const char*>(data + at), length);
    const size_t stored = m.arena.size();
    if (m.add(text, id) != Status::Ok) return fail("id " + std::to_string(id) + " appears twice");
    // Only normalized texts (valid UTF-8 included) are stored: normalizing changes nothing.
    if (m.arena.size() - stored != length || std::memcmp(m.arena.data() + stored, text.data(), length) != 0) {
      return fail("text " + std::to_string(i) + " is not a normalized text");
    }
    at += length;
  }
  if (at != body) return fail("has " + std::to_string(body - at) + " trailing bytes");
  m.nextId = nextId;
  out = std::move(index);
  return Status::Ok;
}

size_t TextIndex::memoryBytes() const {
  const Impl& m = *impl_;
  return m.arena.capacity() + m.records.capacity() * sizeof(Impl::Record) + m.alive.capacity() +
         (m.tableKey.capacity() + m.tableId.capacity()) * sizeof(uint32_t) + idTableBytes(m.idsReserved) +
         (m.cps.capacity() + m.storedCps.capacity()) * sizeof(char32_t) + (m.codes.capacity() + m.raw.capacity() + m.setCode.capacity()) * sizeof(uint64_t) +
         (m.setStamp.capacity() + m.keys.capacity() + m.candidates.capacity()) * sizeof(uint32_t) + m.prepared.capacity();
}

}  // namespace simhash
