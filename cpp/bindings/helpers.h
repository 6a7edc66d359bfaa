#pragma once
// The address-level calls that bindings.cpp exports: each takes raw WASM
// addresses (uintptr_t) of buffers the JS layer allocated with _malloc and filled in one
// go, converts them to the core's types and calls the core. Nothing here knows Emscripten.
//
// Texts cross as one UTF-8 buffer and count + 1 uint32 byte offsets (text i is
// utf8[offsets[i] .. offsets[i + 1])). Results of unknown size go to one module-wide
// result buffer that JS copies out at once, then gives back (resultRelease); it stays
// valid until the next such call. Scratch stays between calls that handle texts of up to
// 64 KB; what a call grows beyond that is freed when it ends, failed calls included, so a
// few MB at most stay allocated between calls.
// Calls that overlap on one instance (README "Errors and memory"): JS calls in here from one
// thread, and only a dedup waits between calls (between its slices), so other calls run
// only there. The module-wide state (the result buffer, and the Fingerprinter with its
// scratch in helpers.cpp) is filled and read within one call from JS that returns before
// any other starts, so no two calls ever share it. What a dedup keeps between its slices
// lives in handles of its own (searches.h).
// Fingerprint options cross as one number, optionsWire: the serialized IDF header's
// option bytes 6..11 as a little-endian 48-bit integer (fingerprint.h kOptionBytes, then
// the caller flags byte), exactly representable in a JS number.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "simhash/index.h"
#include "simhash/text_index.h"
#include "simhash/word_weights.h"
#include "../src/base/uninitialized.h"

namespace simhash::bindings {

template <class T>
T* at(uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

// Every call that fills the result buffer writes what JS reads of it: zeroing a large text
// index's bytes first took a sixth of its serialize() (WASM).
using ResultWords = std::vector<uint32_t, simhash::UninitializedAllocator<uint32_t>>;

/// The result buffer, for calls that fill it.
ResultWords& result();
uintptr_t resultAddress();
/// Bytes (serialized data, a message's UTF-8) into the result buffer; returns their length.
uint32_t bytesToResult(const uint8_t* bytes, size_t size);
/// Frees the result buffer if it is large (JS calls it once it has copied a result out);
/// a small one stays for reuse.
void resultRelease();

void fingerprintBatch(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, double optionsWire);
/// As fingerprintBatch, with the tokenizer, weighting and weights of an IDF table.
void fingerprintBatchIdf(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, uintptr_t idf);
/// Single calls: one text of `length` bytes at utf8; the fingerprint goes to out (8 bytes).
void fingerprintOne(uintptr_t utf8, uint32_t length, uintptr_t out, double optionsWire);
void fingerprintOneIdf(uintptr_t utf8, uint32_t length, uintptr_t out, uintptr_t idf);
/// The similarity of the two texts (UTF-8 at a and b): simhash::similarity, no table built.
/// The shingle options of a measure as JS numbers it (js/core/thresholds.js measureCode): 0
/// the text similarity, 1 the similarity of short strings (similarity.h
/// kShortStringOptions), weighted by `weights` (a wordWeightsCreate handle) unless 0.
inline ShingleOptions shingleOptionsOf(uint32_t measure, uintptr_t weights = 0) {
  if (measure == 0) return ShingleOptions{};
  ShingleOptions options = kShortStringOptions;
  options.weights = weights == 0 ? nullptr : at<WordWeights>(weights);
  return options;
}
double similarityOne(uintptr_t a, uint32_t lengthA, uintptr_t b, uint32_t lengthB, uint32_t measure, uintptr_t weights);
/// Word weights (word_weights.h) of texts hashes[i] held by counts[i] of `texts` texts, or 0
/// when they are not a table's (wordWeightsCreate); wordWeightsDelete frees them.
uintptr_t wordWeightsCreate(uint32_t texts, uintptr_t hashes, uintptr_t counts, uint32_t words);
/// Learning: wordWeightsCreate(0, 0, 0, 0), wordWeightsCount for each slice of texts, then
/// wordWeightsFinish, which leaves three columns in the result buffer, the words' hashes'
/// low and high halves and their counts, ascending by hash, and returns the word count.
void wordWeightsCount(uintptr_t weights, uintptr_t utf8, uintptr_t offsets, uint32_t count);
uint32_t wordWeightsFinish(uintptr_t weights);

/// One fingerprint of count tokens; weights is 0 or count doubles.
void fingerprintTokens(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t weights, uintptr_t out);

uintptr_t idfLearnerCreate(double optionsWire);
void idfLearnerAdd(uintptr_t learner, uintptr_t utf8, uintptr_t offsets, uint32_t count);
uintptr_t idfLearnerTable(uintptr_t learner);
void idfLearnerDelete(uintptr_t learner);
uintptr_t idfCreate();
void idfDelete(uintptr_t idf);
uint32_t idfDocuments(uintptr_t idf);
uint32_t idfFeatures(uintptr_t idf);
/// The table's options (with its caller flags) in the optionsWire encoding.
double idfOptions(uintptr_t idf);
/// The serialized bytes in the result buffer; returns their length.
uint32_t idfSerialize(uintptr_t idf);
/// Replaces the table; returns "" on success or the reason the bytes were rejected.
std::string idfLoad(uintptr_t idf, uintptr_t bytes, uint32_t length);

/// The pairs of simhash::findPairs, at most maxPairs (< 2^32): returns their count n, and
/// the result buffer holds n uint32 a, then n uint32 b, then n uint8 distances. When there
/// are more than maxPairs, returns their number and the result buffer holds one uint32:
/// how many items repeat an earlier item's fingerprint.
double findPairs(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, double maxPairs);
/// out receives count labels: dedup's leader grouping without materialising the pairs.
void leaderLabels(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t out);
/// out receives count labels: the leader rule (pairs.h leaderOfSortedPairs) over `pairs`,
/// (a, b, distance) triples with a < b < count in any order (sorted here first).
void leaderOfPairs(uintptr_t pairs, uint32_t pairCount, uint32_t count, uintptr_t out);

/// An index as JS holds it: the core's Index plus a reusable match buffer.
class IndexHandle {
 public:
  explicit IndexHandle(unsigned maxDistance) : index_(maxDistance) {}

  unsigned maxDistance() const { return index_.maxDistance(); }
  uint32_t size() const { return static_cast<uint32_t>(index_.size()); }
  void clear() { index_.clear(); }
  bool remove(uint32_t id) { return index_.remove(id); }
  /// Index::addAll: ids is 0 for fresh ids; the ids used are written to idsOut. Returns
  /// count, or the position of the item that stopped it (nothing is stored then).
  uint32_t addBatch(uintptr_t fingerprints, uintptr_t ids, uint32_t count, uintptr_t idsOut);
  /// Adds one fingerprint (given as its low and high 32 bits) under `id`, or under a fresh
  /// id when withId is false. Returns the id, or -1 when the id is taken, -2 when the
  /// index has no fresh id left.
  double addOne(uint32_t low, uint32_t high, uint32_t id, bool withId);
  /// Matches of a fingerprint (given as its low and high 32 bits) as (id, distance) pairs
  /// in the result buffer; returns the match count.
  uint32_t queryOne(uint32_t low, uint32_t high);
  /// The serialized bytes in the result buffer; returns their length in bytes.
  uint32_t serialize() const;
  /// Replaces this index; returns "" on success or the reason the bytes were rejected.
  std::string load(uintptr_t bytes, uint32_t length);

 private:
  Index index_;
  std::vector<Match> matches_;
};

/// A text index as JS holds it: the core's TextIndex plus a reusable match list. Texts
/// cross as UTF-8 at an address with their byte length. The core gives back a long
/// text's scratch after the call that needed it.
class TextIndexHandle {
 public:
  /// @pre 0 <= review < threshold <= 1, review 0 for none (the JS layer checks it).
  /// Default shingle sizes: the similarity of the texts themselves, whatever the
  /// fingerprint options.
  TextIndexHandle(double threshold, double review, uint32_t measure, uintptr_t weights)
      : index_(threshold, review, shingleOptionsOf(measure, weights)) {}
  /// The measure (as shingleOptionsOf numbers it) the index compares by.
  uint32_t measure() const { return index_.options().normalization == Normalization::kList ? 1 : 0; }

  double threshold() const { return index_.threshold(); }
  double review() const { return index_.review(); }
  uint32_t size() const { return static_cast<uint32_t>(index_.size()); }
  bool has(uint32_t id) const { return index_.has(id); }
  bool remove(uint32_t id) { return index_.remove(id); }
  /// Adds the text under `id`, or under a fresh id when withId is false. Returns the id,
  /// or -1 when the id is taken, -2 when the index has no fresh id left; nothing is
  /// allocated then.
  double addOne(uintptr_t utf8, uint32_t length, uint32_t id, bool withId);
  /// TextIndex::addAll of count texts (utf8 and count + 1 offsets): ids is 0 for fresh
  /// ids; the ids used are written to idsOut. Returns count, or the position of the text
  /// that stopped it (nothing is stored then). An id already stored is found before the
  /// core reserves room, so that failure leaves the heap as it was. @pre the caller's ids
  /// do not repeat one another (JS checks it, for the same reason).
  uint32_t addBatch(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t ids, uintptr_t idsOut);
  /// The first `limit` matches of the text in the result buffer: their count n doubles
  /// (the similarities; the buffer is 8-byte aligned), n uint32 ids, then n uint32 kinds
  /// (MatchKind: 0 duplicate, 1 review). Returns n.
  uint32_t queryOne(uintptr_t utf8, uint32_t length, uint32_t limit);
  /// TextIndex::keysOf of the text, and with review its reviewKeysOf, in the result buffer:
  /// u32 key count n, u32 byte length L of the normalized text, u32 review key count r and
  /// u32 distinct shingles (0 without review), the sketch (16 u32, 0 without review), n
  /// u32 keys, r u32 review keys, then the L bytes. Returns n.
  uint32_t keysOf(uintptr_t utf8, uint32_t length);
  /// TextIndex::reviewMayReach of a query and `count` stored texts: sketches holds
  /// count + 1 sketches (the query's first, kSketchWords u64 each), shingles count + 1
  /// u32; out[i] is 1 when stored text i passes, else 0. @pre the index has review.
  void reviewFilter(uintptr_t sketches, uintptr_t shingles, uint32_t count, uintptr_t out) const;
  /// serialize(): serializeBegin() returns the length in bytes, each serializeNext()
  /// writes the next piece of them, up to `capacity` bytes, to the result buffer and
  /// returns its length, and serializeEnd() frees what the pieces were read from. The
  /// index must not change until then: JS makes the three calls within one serialize(),
  /// which no other call interrupts.
  uint32_t serializeBegin();
  uint32_t serializeNext(uint32_t capacity);
  void serializeEnd();
  /// Replaces this index with serialized bytes given in pieces: loadBegin() with their
  /// length, loadNext() with each piece in order, then loadEnd() returns "" on success or
  /// the reason the bytes were rejected (this index unchanged then).
  void loadBegin(uint32_t length);
  void loadNext(uintptr_t bytes, uint32_t length);
  std::string loadEnd();

 private:
  TextIndex index_;
  std::vector<TextMatch> matches_;
  std::unique_ptr<TextIndex::Writer> writer_;
  std::unique_ptr<TextIndex::Reader> reader_;
};

}  // namespace simhash::bindings
