#pragma once
// The address-level calls that bindings.cpp declares to Embind: each takes raw WASM
// addresses (uintptr_t) of buffers the JS layer allocated with _malloc and filled in one
// go, converts them to the core's types and calls the core. Nothing here knows Embind.
//
// Texts cross as one UTF-8 buffer and count + 1 uint32 byte offsets (text i is
// utf8[offsets[i] .. offsets[i + 1])). Results of unknown size go to one module-wide
// result buffer that JS copies out at once, then gives back (resultRelease); it stays
// valid until the next such call. Scratch stays between calls that handle texts of up to
// 64 KB; what a call grows beyond that is freed when it ends, failed calls included, so a
// few MB at most stay allocated between calls.
// Fingerprint options cross as one number, optionsWire: the serialized IDF header's
// option bytes 6..11 as a little-endian 48-bit integer (fingerprint.h kOptionBytes, then
// the caller flags byte), exactly representable in a JS number.
#include <cstdint>
#include <string>
#include <vector>

#include "simhash/index.h"

namespace simhash::bindings {

template <class T>
T* at(uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

uintptr_t resultAddress();
/// Frees the result buffer if it is large (JS calls it once it has copied a result out);
/// a small one stays for reuse.
void resultRelease();

void fingerprintBatch(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, double optionsWire);
/// As fingerprintBatch, with the tokenizer, weighting and weights of an IDF table.
void fingerprintBatchIdf(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, uintptr_t idf);
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

/// Pairs as triples (a, b, distance) in the result buffer; returns the pair count.
uint32_t findPairs(uintptr_t fingerprints, uint32_t count, unsigned maxDistance);
/// Component label per item into out, from pairs given as (a, b) index arrays.
void componentLabels(uintptr_t a, uintptr_t b, uint32_t pairCount, uint32_t count, uintptr_t out);
/// out receives count labels: dedup's leader grouping without materialising the pairs.
void leaderLabels(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t out);

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
  /// Matches as (id, distance) pairs in the result buffer; returns the match count.
  uint32_t query(uintptr_t fingerprint);
  /// The serialized bytes in the result buffer; returns their length in bytes.
  uint32_t serialize() const;
  /// Replaces this index; returns "" on success or the reason the bytes were rejected.
  std::string load(uintptr_t bytes, uint32_t length);

 private:
  Index index_;
  std::vector<Match> matches_;
};

}  // namespace simhash::bindings
