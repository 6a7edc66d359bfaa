#include "simhash/text_index.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "text_index/text_index_impl.h"

namespace simhash {

namespace {

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


}  // namespace

void TextIndex::Impl::prepare(std::string_view text) {
  if (isPrepared && text == prepared) return;
  isPrepared = false;
  normalizeForSimilarity(text, cps, options.normalization);
  shingle(cps);
  prepared.assign(text);
  isPrepared = true;
}

void TextIndex::Impl::shingle(const std::vector<char32_t>& points) {
  isPrepared = false;
  const size_t room = shingleRoom(points.size(), options);
  if (raw.size() < room) raw.resize(room);
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
  m.reserveTexts(count, offsets[count] - offsets[0]);  // the texts' room at once (compaction first)
  size_t done = 0;
  // Undoes the batch's adds on every way out but success, a failed allocation's unwinding
  // included (a text's add allocates only before it changes anything).
  struct Undo {
    Impl& m;
    const uint32_t* ids;
    const uint32_t* keys;
    const size_t& done;
    size_t records0;
    TextArena::Mark arena0;
    uint64_t nextId;
    bool kept;
    ~Undo() {
      if (kept) return;
      m.undo(ids, keys, done, records0, arena0);
      m.nextId = nextId;
    }
  } undo{m, idsOut, batchKeys.data(), done, m.records.size(), m.arena.mark(), m.nextId, false};
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

void TextIndex::keysOf(std::string_view text, std::vector<uint32_t>& keys, std::vector<uint8_t>& normalized) {
  Impl& m = *impl_;
  m.prepare(text);
  keys.assign(m.keys.begin(), m.keys.end());
  normalized.resize(4 * m.cps.size());  // at most 4 bytes a code point
  char* const begin = reinterpret_cast<char*>(normalized.data());
  char* utf8 = begin;
  for (const char32_t cp : m.cps) utf8 += unicode::encodeUtf8(cp, utf8);
  normalized.resize(static_cast<size_t>(utf8 - begin));
  m.trimScratch();
}

static_assert(TextIndex::kSketchWords == SetSketch::kWords, "text_index.h states the sketch's size");

uint32_t TextIndex::reviewKeysOf(std::string_view text, std::vector<uint32_t>& keys, uint64_t* sketch) {
  Impl& m = *impl_;
  m.prepare(text);
  keys.assign(m.review->keys.begin(), m.review->keys.end());
  std::copy(m.review->sketch, m.review->sketch + SetSketch::kWords, sketch);
  const auto shingles = static_cast<uint32_t>(m.codeCount);
  m.trimScratch();
  return shingles;
}

bool TextIndex::reviewMayReach(const uint64_t* query, uint32_t queryShingles, const uint64_t* stored, uint32_t storedShingles) const {
  return impl_->review->filter.mayReach(query, queryShingles, stored, storedShingles);
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
    if (record.length != 0) touched += *m.arena.at(record.start);
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

size_t TextIndex::memoryBytes() const {
  const Impl& m = *impl_;
  return m.arena.capacity() + m.records.capacity() * sizeof(Impl::Record) + m.alive.capacity() +
         m.table.memoryBytes() + m.slotOfId.memoryBytes() +
         (m.review ? m.review->table.memoryBytes() + m.review->sketches.capacity() * sizeof(uint64_t) + m.review->keys.capacity() * sizeof(uint32_t) : 0) +
         (m.cps.capacity() + m.storedCps.capacity()) * sizeof(char32_t) + (m.codes.capacity() + m.raw.capacity()) * sizeof(uint64_t) +
         m.set.capacity() * sizeof(Impl::SetEntry) + m.keys.capacity() * sizeof(uint32_t) + (m.items.capacity() + m.scratch.capacity()) * sizeof(KeyedItem) + m.answers.capacity() * sizeof(TextMatch) + m.prepared.capacity();
}


}  // namespace simhash
