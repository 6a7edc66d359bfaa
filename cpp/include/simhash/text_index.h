#pragma once
// An index of texts that answers by exact similarity (similarity.h): query(text) returns
// the stored texts whose similarity with it reaches the index's threshold, among the
// candidates MinHash banding proposes, each answer verified exactly.
//
// Candidates: a stored text is a candidate for a query when one of its band keys equals
// one of the query's (MinHashBands at bandingFor(threshold), over canonical shingle
// codes), the same rule SimilarGroups applies among the texts it has kept. Hence the
// stream contract: querying texts in order and adding each one that finds nothing keeps
// exactly the texts that SimilarGroups' leader grouping makes leaders (label[i] == i) at
// the same threshold and options. A pair at similarity J >= threshold is a candidate with
// probability about 1 - (1 - J^rows)^bands >= 0.995 (similar_groups.h).
// Long texts are banded like short ones: this index does not use the fingerprint radius
// that dedup switches to when the texts average over 2,000 UTF-16 units.
// Copies of a text (texts that normalize alike) share every band key, so the band table
// holds them side by side under each key: a query that meets them verifies each, and a
// removal steps over them. The stream stores no copies.
//
// Review (optional, below the threshold): query also answers the stored texts whose
// similarity reaches `review`, marked apart (TextMatch::kind), for a person to confirm, as
// dedup's review pairs are. Their candidates come from a second band table at
// bandingFor(review), of which those whose sets' sketches show them far below `review`
// are set aside (set_sketch.h), and from the threshold's bands. A match is a Duplicate
// only when the threshold's bands propose it and it reaches the threshold, so the stream
// contract is the same with review as without; any other match reaching `review` is a
// Review match (rarely, one at or above the threshold that only the review bands proposed).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "simhash/similar_groups.h"
#include "simhash/similarity.h"
#include "simhash/status.h"

namespace simhash {

enum class MatchKind : uint8_t { Duplicate, Review };

struct TextMatch {
  uint32_t id;
  double similarity;  ///< similarity(query, stored text), exactly as similarity() computes it
  MatchKind kind = MatchKind::Duplicate;
  bool operator==(const TextMatch& o) const { return id == o.id && similarity == o.similarity && kind == o.kind; }
};

class TextIndex {
 public:
  /// The band table keeps most entries sorted, 6 bytes each, and takes new ones in a hash
  /// table that an add merges into the sorted part once it holds a twelfth as many and more
  /// than `mergeAt` (tests make it small, to have both parts in small indexes).
  static constexpr size_t kMergeAt = size_t{1} << 16;
  /// The index keeps its own copy of options.weights. @pre 0 < threshold <= 1, isValid(options).
  explicit TextIndex(double threshold, const ShingleOptions& options = {}, size_t mergeAt = kMergeAt);
  /// With review matches from `review` on (0: none). @pre 0 <= review < threshold <= 1, isValid(options).
  TextIndex(double threshold, double review, const ShingleOptions& options = {}, size_t mergeAt = kMergeAt);
  ~TextIndex();
  TextIndex(TextIndex&&) noexcept;
  TextIndex& operator=(TextIndex&&) noexcept;

  double threshold() const;
  /// The review threshold, 0 when the index has none.
  double review() const;
  const ShingleOptions& options() const;
  Banding banding() const;
  /// Number of stored texts.
  size_t size() const;
  bool has(uint32_t id) const;

  // Ids as Index's (index.h): a fresh id is the smallest id that no stored text holds and
  // that is above every id handed out before (0 first); caller-chosen ids never move that
  // counter, a failed call leaves it as it was, and serialize()/deserialize() carry it.

  /// Stores text under a caller-chosen id. @return DuplicateId, storing nothing, if id is
  /// stored. Cost: the text's normalization, shingles and min-hashes (none when it is the
  /// text last queried), and `bands` table inserts; now and then (once per twelfth of
  /// growth) a merge of the band table, O(stored texts × bands): 140-220 ms for 1M texts
  /// in WASM (cpp/src/text_index/band_table.h).
  Status add(std::string_view text, uint32_t id);
  /// Stores text under a fresh id, returned through `id`. @return DuplicateId, storing
  /// nothing, when the fresh ids are used up.
  Status addWithNewId(std::string_view text, uint32_t& id);
  /// Stores count texts, all or nothing: text i is utf8[offsets[i], offsets[i + 1]),
  /// stored under ids[i], or a fresh id when `ids` is null, written to idsOut[i] either way.
  /// @return count when all were stored; else the position of the first that could not be
  /// (its id is stored, by an earlier text of the batch too, or fresh ids are used up), and
  /// nothing was stored. Out of memory (thrown by the allocator) also stores nothing.
  size_t addAll(const char* utf8, const uint32_t* offsets, size_t count, const uint32_t* ids, uint32_t* idsOut);
  /// @return false when no text has this id. A removed id is never handed out again.
  bool remove(uint32_t id);

  /// Every stored text with similarity(text, stored) >= threshold among the candidates,
  /// and with review, every other reaching review among its candidates (as Review
  /// matches); duplicates first, each kind sorted by similarity descending, then id
  /// ascending; the first `limit` of them, to `out` (cleared first).
  /// Cost: the query's normalization, shingles (a hash set, no sort) and min-hashes,
  /// `bands` table probes, and per distinct candidate a size check (J <= min/max of the
  /// set sizes) and, when it passes, the candidate's shingles rebuilt from its stored text
  /// and looked up in the query's set until they can no longer reach the threshold. An add
  /// of the text last queried reuses its shingles and keys (the query-then-add stream).
  /// Review adds the review bands' probes and, per candidate they alone propose, a sketch
  /// comparison (8 words) before the exact test.
  void query(std::string_view text, size_t limit, std::vector<TextMatch>& out);

  /// What an add of `text` would store: its band keys (the threshold's, in band order, to
  /// `keys`) and its normalized text (UTF-8, to `normalized`), for an index kept elsewhere
  /// (js/redis.js) that must propose the candidates this index proposes. Changes nothing
  /// stored. Cost: the text's normalization, shingles and min-hashes.
  void keysOf(std::string_view text, std::vector<uint32_t>& keys, std::vector<uint8_t>& normalized);
  /// Words of a set's sketch (set_sketch.h), as reviewKeysOf writes it and reviewMayReach reads it.
  static constexpr unsigned kSketchWords = 8;
  /// With review, what an add of `text` stores for the review besides keysOf's: the review
  /// bands' keys (in band order, to `keys`) and the set's sketch (kSketchWords words, to
  /// `sketch`). @return the text's distinct shingles, the size reviewMayReach takes.
  /// @pre review() > 0. Changes nothing stored. Cost: keysOf's (none again for the text
  /// keysOf or query last prepared).
  uint32_t reviewKeysOf(std::string_view text, std::vector<uint32_t>& keys, uint64_t* sketch);
  /// With review: whether query() goes on to verify a stored text that only the review
  /// bands propose, given both texts' sketches and distinct shingles as reviewKeysOf gives
  /// them (SketchFilter at review(), set_sketch.h): for an index kept elsewhere that must
  /// answer as this one. @pre review() > 0. Cost: 8 XORs and popcounts.
  bool reviewMayReach(const uint64_t* query, uint32_t queryShingles, const uint64_t* stored, uint32_t storedShingles) const;

  /// The versioned byte format, little-endian: "SHTX" · u16 version (2 without review, 3
  /// with; version 1, whose texts were normalized before half-width katakana folded, loads
  /// with each text normalized and added again) · u8 alphabetic and u8 CJK shingle size ·
  /// f64 threshold · u64 next id · u32 count n · u32 bands B · [3: f64 review · u32 review
  /// bands R] · n × (u32 id, u32 distinct shingles, u32 length L, L bytes of the normalized
  /// text, [3: the set's sketch, 8 × u64]) · [3: u64 band entries E] · the band table's
  /// entries (u32 key, u32 id; B per text, at most n × B), ordered by the key's hash, then
  /// id, [3: E of them, then the review band table's entries, at most n × R, in the same
  /// order] up to the checksum · u64 XXH3_64bits of everything before it (framed as the
  /// fingerprint index's, docs/formats.md "Serialized index format").
  /// Texts in the order they were added; keys in an order independent of the table's size
  /// and history, so a loaded index writes back the bytes it was loaded from. Cost: linear
  /// (the band table keeps most entries in that order already).
  std::vector<uint8_t> serialize() const;
  /// serialize()'s bytes a piece at a time, for a caller that moves them elsewhere as they
  /// come (WASM memory to JS) and so needs neither all of them at once nor a second copy.
  /// The index must not change while a writer of it is in use.
  class Writer {
   public:
    explicit Writer(const TextIndex& index);
    ~Writer();
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    /// All the bytes, what is written and what is left.
    size_t size() const;
    /// Writes the next min(capacity, bytes left) bytes to out. @return how many: fewer
    /// than capacity only once all are written.
    size_t write(uint8_t* out, size_t capacity);

   private:
    struct State;
    std::unique_ptr<State> state_;
  };
  /// Replaces `out` with the index stored in data. On failure returns CorruptData, sets
  /// `error` to what is wrong, and leaves `out` unchanged.
  /// The header (length, signature, version) is checked first, then the checksum, which
  /// guards against damage; past them the structure is checked (sizes, ids unique, B as
  /// the threshold's banding, keys not 0, at most n × B of them; 0 < review < threshold, R
  /// as its banding) but the texts, shingle counts, sketches and keys are taken as written, not recomputed nor matched to their ids: that
  /// is what makes loading linear in the bytes, the keys copied in order into the band
  /// table's sorted part (no normalizing, shingling or signing, no lookup per key). Bytes
  /// this library did not write may thus give answers other than their texts'
  /// similarities, never a crash; a key of an id not stored proposes nothing.
  static Status deserialize(const uint8_t* data, size_t size, TextIndex& out, std::string& error);
  /// deserialize() of bytes given a piece at a time, for a caller that moves them in from
  /// elsewhere (JS to WASM memory) and so needs neither all of them at once nor a second
  /// copy: the index is built as they come, and given out by finish() if they hold.
  class Reader {
   public:
    /// For `size` bytes in all.
    explicit Reader(size_t size);
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    /// The next `count` bytes.
    void read(const uint8_t* data, size_t count);
    /// Once all `size` bytes are read: as deserialize() returns. Fewer or more bytes in
    /// all are rejected (CorruptData) and nothing past `size` is kept.
    Status finish(TextIndex& out, std::string& error);

   private:
    struct State;
    std::unique_ptr<State> state_;
  };

  /// Bytes held now. Per stored text: its normalized text's UTF-8 (what verification
  /// rebuilds the shingles from: punctuation removed, whitespace runs as one space, so
  /// usually less than the text's UTF-8), a 16-byte record (24 natively), 1 alive flag,
  /// 11-21 in the id table (load 3/8 to 3/4), and per band about 6 in the band table's
  /// sorted part plus 1 in its recent part (band_table.h; 0.8: 14 bands, about 100 bytes);
  /// with review, 64 for the sketch and 7 per review band (0.5: 40 bands, about 340 bytes).
  /// The text arena grows by an eighth at a time, the records by a quarter. Removed texts'
  /// bytes are reclaimed by an add once they outnumber the live ones and 4 KB; their band
  /// entries at the band table's next merge.
  size_t memoryBytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simhash
