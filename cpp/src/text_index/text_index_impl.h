#pragma once
// Internal: TextIndex's state (text_index.h), shared by its operations (text_index.cpp,
// compiled for speed) and its byte format's Writer and Reader (text_index_format.cpp,
// compiled for size).
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/radix.h"
#include "simhash/index.h"
#include "simhash/text_index.h"
#include "simhash/word_weights.h"
#include "similarity/set_sketch.h"
#include "text/unicode.h"
#include "text_index/band_table.h"
#include "text_index/text_arena.h"

namespace simhash {

struct TextIndex::Impl {
  double threshold;
  std::unique_ptr<WordWeights> weights;  // a copy of the given options.weights, which then point here
  ShingleOptions options;
  MinHashBands signer;
  unsigned bands;

  // Stored texts by slot: normalized UTF-8 in the arena (text_arena.h); removed slots stay
  // until an add compacts the arena.
  struct Record {
    size_t start;
    uint32_t length, shingles, id;
  };
  TextArena arena;
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
    if (o.weights != nullptr) {
      weights = o.weights->copy();
      options.weights = weights.get();
    }
  }

  // Band keys a text has in both tables.
  unsigned allBands() const { return bands + (review ? review->bands : 0); }

  // The text's normalized code points, distinct canonical codes (in the set too) and band
  // keys, into cps, codes and keys.
  void prepare(std::string_view text);

  // prepare() from code points (a stored text's, to remove it).
  void shingle(const std::vector<char32_t>& points);

  size_t setSlot(uint64_t code) const { return static_cast<size_t>((code * 0x9E3779B97F4A7C15ull) >> setShift); }

  // The distinct shingles stored text `slot` shares with the prepared text; less than
  // `need` (not always exactly) once its shingles left cannot make `need`.
  size_t shared(size_t slot, size_t need) {
    decode(slot);
    const size_t points = storedCps.size();
    const size_t most = shingleRoom(points, options);  // codes, repeats and weighted copies included
    if (raw.size() < most) raw.resize(most);
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
    // codes a text has (one per code point, and one more; times the heaviest weight): most
    // candidates are far from the threshold and are rejected before the rest is computed.
    // Not with weights: a word cut by the prefix would weigh as another word.
    const size_t prefix = options.weights == nullptr ? points / 3 : 0;
    if (prefix >= 32) {
      canonicalShingleCodes(storedCps.data(), prefix + kMaxShingle, options, raw.data());
      if (!countUntil(prefix, most)) return count;
    }
    const size_t n = canonicalShingleCodes(storedCps.data(), points, options, raw.data());
    countUntil(n, n);
    return count;
  }

  // Room to store the prepared text: every allocation of an add, before it changes
  // anything.
  void reserve() {
    reserveTexts(1, utf8Length());
    table.reserve(keys.data(), keys.size());
    if (review) review->table.reserve(review->keys.data(), review->keys.size());
  }

  // Room for `texts` more records of `bytes` normalized bytes in all. Compacts the arena
  // when removed bytes outnumber live ones (not observable: the table holds ids).
  void reserveTexts(size_t texts, size_t bytes) {
    if (deadBytes > 4096 && deadBytes > arena.bytes() - deadBytes) compact();
    arena.reserve(bytes);
    if (records.size() + texts > records.capacity()) {
      const size_t capacity = std::max(records.size() + texts, records.capacity() + records.capacity() / 4);
      records.reserve(capacity);
      alive.reserve(capacity);
      if (review) review->sketches.reserve(capacity * SetSketch::kWords);
    }
    slotOfId.reserve(slotOfId.size() + texts);
  }

  void compact() {
    TextArena packed;
    packed.reserve(arena.bytes() - deadBytes);
    std::vector<Record> kept;
    kept.reserve(records.size());
    std::vector<uint64_t> keptSketches;
    if (review) keptSketches.reserve(review->sketches.capacity());
    for (size_t slot = 0; slot < records.size(); ++slot) {
      if (!alive[slot]) continue;
      // Appended word by word, not by a range insert: its template is 0.3 KB gz of the download.
      if (review) {
        for (unsigned w = 0; w < SetSketch::kWords; ++w) keptSketches.push_back(review->sketchOf(slot)[w]);
      }
      Record r = records[slot];
      const uint8_t* text = arena.at(r.start);
      std::copy_n(text, r.length, packed.append(r.length, r.start));
      *slotOfId.find(r.id) = static_cast<uint32_t>(kept.size());
      kept.push_back(r);
    }
    arena = std::move(packed);
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
    const size_t length = utf8Length();
    size_t start;
    char* utf8 = reinterpret_cast<char*>(arena.append(length, start));  // within the room reserve() made
    for (const char32_t cp : cps) utf8 += unicode::encodeUtf8(cp, utf8);
    slotOfId.insert(id, static_cast<uint32_t>(records.size()));
    records.push_back({start, static_cast<uint32_t>(length), static_cast<uint32_t>(codeCount), id});
    alive.push_back(1);
    for (const uint32_t key : keys) table.insert(key, id);
    if (review) {
      for (const uint32_t key : review->keys) review->table.insert(key, id);
      for (unsigned w = 0; w < SetSketch::kWords; ++w) review->sketches.push_back(review->sketch[w]);  // as in compact()
    }
  }

  Status add(std::string_view text, uint32_t id) {
    if (slotOfId.find(id)) return Status::DuplicateId;
    prepare(text);
    reserve();
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
  void undo(const uint32_t* ids, const uint32_t* batchKeys, size_t count, size_t records0, const TextArena::Mark& arena0) {
    for (size_t i = 0; i < count; ++i) {
      eraseKeys(batchKeys + i * allBands(), ids[i]);
      slotOfId.erase(ids[i]);
    }
    records.resize(records0);
    alive.resize(records0);
    if (review) review->sketches.resize(records0 * SetSketch::kWords);
    arena.truncate(arena0);
  }

  // The stored text of slot s as code points, into storedCps.
  void decode(size_t s) {
    const Record& r = records[s];
    const auto* text = arena.at(r.start);
    // Written through a pointer into room for a code point per byte: push_back per code
    // point costs about twice as much in WASM.
    storedCps.resize(r.length);
    char32_t* const out = storedCps.data();
    size_t n = 0;
    for (size_t pos = 0; pos < r.length;) out[n++] = unicode::decodeNext(text, r.length, pos);
    storedCps.resize(n);
  }
};

}  // namespace simhash
