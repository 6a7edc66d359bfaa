// The module's exports, and nothing else: each is a raw export (Module._name, a C
// function) that forwards to the calls of helpers.h and searches.h (address-level
// conversions over the core) or, for handles, to their methods; out_of_memory.cpp says
// what a failed allocation does. js/ wraps them.
//
// Raw exports rather than Embind's: JS passes numbers (addresses, counts, doubles) only,
// so Embind's conversions, invokers and runtime would add glue (several KB gzipped) for
// nothing. What the raw ABI changes for JS: bool comes back as 0 or 1; unsigned values
// come back as int32 (every count and address here is below 2^31, as WASM memory is at
// most 2 GB; ids go through memory or doubles); a message comes back as the length of
// its UTF-8 in the result buffer (0: none).
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cstdlib>
#include <string>

#include "helpers.h"
#include "searches.h"
#include "similarity_glue.h"
#include "simhash/similar_groups.h"
#include "simhash/fingerprint.h"
#include "simhash/similarity.h"

namespace bindings = simhash::bindings;
using bindings::IndexHandle;
using bindings::TextIndexHandle;

namespace {

// An error message for JS: its UTF-8 in the result buffer; returns its length (0: none).
uint32_t message(const std::string& text) {
  return bindings::bytesToResult(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

}  // namespace

extern "C" {

// Single calls, meant to be made once per item.
EMSCRIPTEN_KEEPALIVE void simhash_fingerprint_one(uintptr_t utf8, uint32_t length, uintptr_t out, double optionsWire) {
  bindings::fingerprintOne(utf8, length, out, optionsWire);
}
EMSCRIPTEN_KEEPALIVE void simhash_fingerprint_one_idf(uintptr_t utf8, uint32_t length, uintptr_t out, uintptr_t idf) {
  bindings::fingerprintOneIdf(utf8, length, out, idf);
}
EMSCRIPTEN_KEEPALIVE double simhash_index_add_one(uintptr_t index, uint32_t low, uint32_t high, uint32_t id, int withId) {
  return bindings::at<IndexHandle>(index)->addOne(low, high, id, withId != 0);
}
EMSCRIPTEN_KEEPALIVE uint32_t simhash_index_query_one(uintptr_t index, uint32_t low, uint32_t high) {
  return bindings::at<IndexHandle>(index)->queryOne(low, high);
}
EMSCRIPTEN_KEEPALIVE double simhash_text_index_add_one(uintptr_t index, uintptr_t utf8, uint32_t length, uint32_t id, int withId) {
  return bindings::at<TextIndexHandle>(index)->addOne(utf8, length, id, withId != 0);
}
EMSCRIPTEN_KEEPALIVE uint32_t simhash_text_index_query_one(uintptr_t index, uintptr_t utf8, uint32_t length, uint32_t limit) {
  return bindings::at<TextIndexHandle>(index)->queryOne(utf8, length, limit);
}
EMSCRIPTEN_KEEPALIVE int simhash_text_index_remove(uintptr_t index, uint32_t id) { return bindings::at<TextIndexHandle>(index)->remove(id); }
EMSCRIPTEN_KEEPALIVE int simhash_text_index_has(uintptr_t index, uint32_t id) { return bindings::at<TextIndexHandle>(index)->has(id); }
EMSCRIPTEN_KEEPALIVE uint32_t simhash_text_index_size(uintptr_t index) { return bindings::at<TextIndexHandle>(index)->size(); }
EMSCRIPTEN_KEEPALIVE double simhash_similarity_one(uintptr_t a, uint32_t lengthA, uintptr_t b, uint32_t lengthB, uint32_t measure, uintptr_t weights) {
  return bindings::similarityOne(a, lengthA, b, lengthB, measure, weights);
}

// The short measure's Han table from the bytes of han_variants.bin (similarity.h): the table installed, or 0.
EMSCRIPTEN_KEEPALIVE uintptr_t installHanVariants(uintptr_t bytes, uint32_t size) {
  return reinterpret_cast<uintptr_t>(simhash::installHanVariants(reinterpret_cast<const unsigned char*>(bytes), size));
}

// The short measure's table of words it writes short (similarity.h listForms), a C string.
EMSCRIPTEN_KEEPALIVE uintptr_t listForms() { return reinterpret_cast<uintptr_t>(simhash::listForms()); }
// Its CJK legal forms (similarity.h cjkLegalForms), a UTF-16 C string.
EMSCRIPTEN_KEEPALIVE uintptr_t cjkLegalForms() { return reinterpret_cast<uintptr_t>(simhash::cjkLegalForms()); }

EMSCRIPTEN_KEEPALIVE uint32_t formatVersion() { return simhash::kFingerprintFormatVersion; }
// Bytes malloc has handed out and not taken back: what leak tests watch.
EMSCRIPTEN_KEEPALIVE uint32_t heapInUse() { return static_cast<uint32_t>(mallinfo().uordblks); }

// Batches, IDF learners and tables (they cross as addresses), and the searches a slice at
// a time (searches.h).
EMSCRIPTEN_KEEPALIVE uintptr_t resultAddress() { return bindings::resultAddress(); }
EMSCRIPTEN_KEEPALIVE void resultRelease() { bindings::resultRelease(); }
EMSCRIPTEN_KEEPALIVE void fingerprintBatch(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, double optionsWire) { bindings::fingerprintBatch(utf8, offsets, count, out, optionsWire); }
EMSCRIPTEN_KEEPALIVE void fingerprintBatchIdf(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, uintptr_t idf) { bindings::fingerprintBatchIdf(utf8, offsets, count, out, idf); }
EMSCRIPTEN_KEEPALIVE void fingerprintTokens(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t weights, uintptr_t out) { bindings::fingerprintTokens(utf8, offsets, count, weights, out); }
EMSCRIPTEN_KEEPALIVE uintptr_t idfLearnerCreate(double optionsWire) { return bindings::idfLearnerCreate(optionsWire); }
EMSCRIPTEN_KEEPALIVE void idfLearnerAdd(uintptr_t learner, uintptr_t utf8, uintptr_t offsets, uint32_t count) { bindings::idfLearnerAdd(learner, utf8, offsets, count); }
EMSCRIPTEN_KEEPALIVE uintptr_t idfLearnerTable(uintptr_t learner) { return bindings::idfLearnerTable(learner); }
EMSCRIPTEN_KEEPALIVE void idfLearnerDelete(uintptr_t learner) { bindings::idfLearnerDelete(learner); }
EMSCRIPTEN_KEEPALIVE uintptr_t idfCreate() { return bindings::idfCreate(); }
EMSCRIPTEN_KEEPALIVE void idfDelete(uintptr_t idf) { bindings::idfDelete(idf); }
EMSCRIPTEN_KEEPALIVE uint32_t idfDocuments(uintptr_t idf) { return bindings::idfDocuments(idf); }
EMSCRIPTEN_KEEPALIVE uint32_t idfFeatures(uintptr_t idf) { return bindings::idfFeatures(idf); }
EMSCRIPTEN_KEEPALIVE double idfOptions(uintptr_t idf) { return bindings::idfOptions(idf); }
EMSCRIPTEN_KEEPALIVE uint32_t idfSerialize(uintptr_t idf) { return bindings::idfSerialize(idf); }
EMSCRIPTEN_KEEPALIVE uint32_t idfLoad(uintptr_t idf, uintptr_t bytes, uint32_t length) { return message(bindings::idfLoad(idf, bytes, length)); }
EMSCRIPTEN_KEEPALIVE double findPairs(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, double maxPairs) { return bindings::findPairs(fingerprints, count, maxDistance, maxPairs); }
EMSCRIPTEN_KEEPALIVE void leaderLabels(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t out) { bindings::leaderLabels(fingerprints, count, maxDistance, out); }
EMSCRIPTEN_KEEPALIVE void leaderOfPairs(uintptr_t pairs, uint32_t pairCount, uint32_t count, uintptr_t out) { bindings::leaderOfPairs(pairs, pairCount, count, out); }
EMSCRIPTEN_KEEPALIVE uintptr_t pairSearchCreate(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, unsigned shard, unsigned shards) { return bindings::pairSearchCreate(fingerprints, count, maxDistance, shard, shards); }
EMSCRIPTEN_KEEPALIVE int pairSearchRun(uintptr_t search, double workBudget) { return bindings::pairSearchRun(search, workBudget); }
EMSCRIPTEN_KEEPALIVE double pairSearchProgress(uintptr_t search) { return bindings::pairSearchProgress(search); }
EMSCRIPTEN_KEEPALIVE uint32_t pairSearchVerify(uintptr_t search, uintptr_t sets, double threshold) { return bindings::pairSearchVerify(search, sets, threshold); }
EMSCRIPTEN_KEEPALIVE uint32_t pairSearchFound(uintptr_t search) { return bindings::pairSearchFound(search); }
EMSCRIPTEN_KEEPALIVE uintptr_t pairSearchFoundAddress(uintptr_t search) { return bindings::pairSearchFoundAddress(search); }
EMSCRIPTEN_KEEPALIVE void pairSearchClear(uintptr_t search) { bindings::pairSearchClear(search); }
EMSCRIPTEN_KEEPALIVE void pairSearchDelete(uintptr_t search) { bindings::pairSearchDelete(search); }
EMSCRIPTEN_KEEPALIVE uintptr_t equalFingerprintsCreate(uintptr_t fingerprints, uint32_t count) { return bindings::equalFingerprintsCreate(fingerprints, count); }
EMSCRIPTEN_KEEPALIVE uintptr_t equalFingerprintsDistinct(uintptr_t groups) { return bindings::equalFingerprintsDistinct(groups); }
EMSCRIPTEN_KEEPALIVE uint32_t equalFingerprintsDistinctCount(uintptr_t groups) { return bindings::equalFingerprintsDistinctCount(groups); }
EMSCRIPTEN_KEEPALIVE uint32_t equalFingerprintsRepeated(uintptr_t groups) { return bindings::equalFingerprintsRepeated(groups); }
EMSCRIPTEN_KEEPALIVE double equalFingerprintsExpand(uintptr_t groups, uintptr_t groupPairs, uint32_t count, bool withinGroups, double maxPairs) { return bindings::equalFingerprintsExpand(groups, groupPairs, count, withinGroups, maxPairs); }
EMSCRIPTEN_KEEPALIVE void equalFingerprintsDelete(uintptr_t groups) { bindings::equalFingerprintsDelete(groups); }
EMSCRIPTEN_KEEPALIVE uintptr_t leaderSearchCreate(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t sets, double similarity) { return bindings::leaderSearchCreate(fingerprints, count, maxDistance, sets, similarity); }
EMSCRIPTEN_KEEPALIVE int leaderSearchRun(uintptr_t search, double workBudget) { return bindings::leaderSearchRun(search, workBudget); }
EMSCRIPTEN_KEEPALIVE double leaderSearchProgress(uintptr_t search) { return bindings::leaderSearchProgress(search); }
EMSCRIPTEN_KEEPALIVE void leaderSearchTake(uintptr_t search, uintptr_t out) { bindings::leaderSearchTake(search, out); }
EMSCRIPTEN_KEEPALIVE int leaderSearchUsesPairs(uintptr_t search) { return bindings::leaderSearchUsesPairs(search); }
EMSCRIPTEN_KEEPALIVE void leaderSearchDelete(uintptr_t search) { bindings::leaderSearchDelete(search); }
EMSCRIPTEN_KEEPALIVE double leaderSearchPairBound(double items) { return bindings::leaderSearchPairBound(items); }
EMSCRIPTEN_KEEPALIVE uintptr_t similarGroupsCreate(uintptr_t sets, double threshold, bool components) { return bindings::similarGroupsCreate(sets, threshold, components); }
EMSCRIPTEN_KEEPALIVE int similarGroupsRun(uintptr_t groups, double workBudget) { return bindings::similarGroupsRun(groups, workBudget); }
EMSCRIPTEN_KEEPALIVE double similarGroupsProgress(uintptr_t groups) { return bindings::similarGroupsProgress(groups); }
EMSCRIPTEN_KEEPALIVE void similarGroupsTake(uintptr_t groups, uintptr_t out) { bindings::similarGroupsTake(groups, out); }
EMSCRIPTEN_KEEPALIVE void similarGroupsDelete(uintptr_t groups) { bindings::similarGroupsDelete(groups); }
EMSCRIPTEN_KEEPALIVE uintptr_t reviewPairsCreate(uintptr_t sets, uintptr_t labels, uint32_t count, double review, double limit, uint32_t maxBucket, double mostPairs, double mostProposals) { return bindings::reviewPairsCreate(sets, labels, count, review, limit, maxBucket, mostPairs, mostProposals); }
EMSCRIPTEN_KEEPALIVE int reviewPairsRun(uintptr_t review, double workBudget) { return bindings::reviewPairsRun(review, workBudget); }
EMSCRIPTEN_KEEPALIVE double reviewPairsProgress(uintptr_t review) { return bindings::reviewPairsProgress(review); }
EMSCRIPTEN_KEEPALIVE double reviewPairsTake(uintptr_t review, double limit) { return bindings::reviewPairsTake(review, limit); }
EMSCRIPTEN_KEEPALIVE void reviewPairsDelete(uintptr_t review) { bindings::reviewPairsDelete(review); }
EMSCRIPTEN_KEEPALIVE uintptr_t shingleSetsCreate() { return bindings::shingleSetsCreate(); }
EMSCRIPTEN_KEEPALIVE void shingleSetsDelete(uintptr_t sets) { bindings::shingleSetsDelete(sets); }
EMSCRIPTEN_KEEPALIVE void shingleSetsCount(uintptr_t sets, uintptr_t utf8, uintptr_t offsets, uint32_t count, uint32_t measure, uintptr_t weights) { bindings::shingleSetsCount(sets, utf8, offsets, count, measure, weights); }
EMSCRIPTEN_KEEPALIVE uintptr_t wordWeightsCreate(uint32_t texts, uintptr_t hashes, uintptr_t counts, uint32_t words) { return bindings::wordWeightsCreate(texts, hashes, counts, words); }
EMSCRIPTEN_KEEPALIVE void wordWeightsDelete(uintptr_t weights) { delete bindings::at<simhash::WordWeights>(weights); }
EMSCRIPTEN_KEEPALIVE void wordWeightsCount(uintptr_t weights, uintptr_t utf8, uintptr_t offsets, uint32_t count) { bindings::wordWeightsCount(weights, utf8, offsets, count); }
EMSCRIPTEN_KEEPALIVE uint32_t wordWeightsFinish(uintptr_t weights) { return bindings::wordWeightsFinish(weights); }
EMSCRIPTEN_KEEPALIVE void shingleSetsAdd(uintptr_t sets, uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t groups) { bindings::shingleSetsAdd(sets, utf8, offsets, count, groups); }
EMSCRIPTEN_KEEPALIVE void shingleSetsSimilarities(uintptr_t sets, uintptr_t a, uintptr_t b, uint32_t count, uintptr_t out) { bindings::shingleSetsSimilarities(sets, a, b, count, out); }

// The index crosses as its address (js/ does the handle bookkeeping: dispose,
// FinalizationRegistry).
EMSCRIPTEN_KEEPALIVE uintptr_t indexCreate(unsigned maxDistance) { return reinterpret_cast<uintptr_t>(new IndexHandle(maxDistance)); }
EMSCRIPTEN_KEEPALIVE void indexDelete(uintptr_t index) { delete bindings::at<IndexHandle>(index); }
EMSCRIPTEN_KEEPALIVE uint32_t indexMaxDistance(uintptr_t index) { return bindings::at<IndexHandle>(index)->maxDistance(); }
EMSCRIPTEN_KEEPALIVE uint32_t indexSize(uintptr_t index) { return bindings::at<IndexHandle>(index)->size(); }
EMSCRIPTEN_KEEPALIVE void indexClear(uintptr_t index) { bindings::at<IndexHandle>(index)->clear(); }
EMSCRIPTEN_KEEPALIVE int indexRemove(uintptr_t index, uint32_t id) { return bindings::at<IndexHandle>(index)->remove(id); }
EMSCRIPTEN_KEEPALIVE uint32_t indexAddBatch(uintptr_t index, uintptr_t fps, uintptr_t ids, uint32_t count, uintptr_t idsOut) {
  return bindings::at<IndexHandle>(index)->addBatch(fps, ids, count, idsOut);
}
EMSCRIPTEN_KEEPALIVE uint32_t indexSerialize(uintptr_t index) { return bindings::at<IndexHandle>(index)->serialize(); }
EMSCRIPTEN_KEEPALIVE uint32_t indexLoad(uintptr_t index, uintptr_t bytes, uint32_t length) {
  return message(bindings::at<IndexHandle>(index)->load(bytes, length));
}

// Text indexes cross as addresses too; their per-text calls are the single calls above.
EMSCRIPTEN_KEEPALIVE uintptr_t textIndexCreate(double threshold, double review, uint32_t measure, uintptr_t weights) {
  return reinterpret_cast<uintptr_t>(new TextIndexHandle(threshold, review, measure, weights));
}
EMSCRIPTEN_KEEPALIVE uint32_t textIndexMeasure(uintptr_t index) { return bindings::at<TextIndexHandle>(index)->measure(); }
EMSCRIPTEN_KEEPALIVE void textIndexDelete(uintptr_t index) { delete bindings::at<TextIndexHandle>(index); }
EMSCRIPTEN_KEEPALIVE double textIndexThreshold(uintptr_t index) { return bindings::at<TextIndexHandle>(index)->threshold(); }
EMSCRIPTEN_KEEPALIVE double textIndexReview(uintptr_t index) { return bindings::at<TextIndexHandle>(index)->review(); }
EMSCRIPTEN_KEEPALIVE uint32_t textIndexAddBatch(uintptr_t index, uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t ids, uintptr_t idsOut) {
  return bindings::at<TextIndexHandle>(index)->addBatch(utf8, offsets, count, ids, idsOut);
}
EMSCRIPTEN_KEEPALIVE uint32_t textIndexSerializeBegin(uintptr_t index) { return bindings::at<TextIndexHandle>(index)->serializeBegin(); }
EMSCRIPTEN_KEEPALIVE uint32_t textIndexSerializeNext(uintptr_t index, uint32_t capacity) { return bindings::at<TextIndexHandle>(index)->serializeNext(capacity); }
EMSCRIPTEN_KEEPALIVE void textIndexSerializeEnd(uintptr_t index) { bindings::at<TextIndexHandle>(index)->serializeEnd(); }
EMSCRIPTEN_KEEPALIVE void textIndexLoadBegin(uintptr_t index, uint32_t length) { bindings::at<TextIndexHandle>(index)->loadBegin(length); }
EMSCRIPTEN_KEEPALIVE void textIndexLoadNext(uintptr_t index, uintptr_t bytes, uint32_t length) { bindings::at<TextIndexHandle>(index)->loadNext(bytes, length); }
EMSCRIPTEN_KEEPALIVE uint32_t textIndexLoadEnd(uintptr_t index) { return message(bindings::at<TextIndexHandle>(index)->loadEnd()); }

// The exact similarity of given pairs of texts in one call (sh.similarities).
EMSCRIPTEN_KEEPALIVE void pairSimilarities(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t a, uintptr_t bs, uint32_t pairCount, uintptr_t out, uint32_t measure, uintptr_t weights) {
  similarity_glue::pairSimilarities(utf8, offsets, count, a, bs, pairCount, out, measure, weights);
}

// What an add to a text index would store, and its query's sketch test, for the index
// shared through Redis (js/bindings/text-index-keys.js). Node only: the module that
// simhash-wasm/redis loads (CMake SIMHASH_WASM_SHARED_INDEX_BINDINGS) and the test builds
// declare them, so the module a browser downloads does not carry them (0.7 KB gzipped).
#if defined(SIMHASH_WASM_SHARED_INDEX_BINDINGS) || defined(SIMHASH_WASM_BENCH_BINDINGS)
EMSCRIPTEN_KEEPALIVE uint32_t textIndexKeysOf(uintptr_t index, uintptr_t utf8, uint32_t length) {
  return bindings::at<TextIndexHandle>(index)->keysOf(utf8, length);
}
EMSCRIPTEN_KEEPALIVE void textIndexReviewFilter(uintptr_t index, uintptr_t sketches, uintptr_t shingles, uint32_t count, uintptr_t out) {
  bindings::at<TextIndexHandle>(index)->reviewFilter(sketches, shingles, count, out);
}
#endif

// Verification of candidate pairs in batches, and the exact similarity join: the
// benchmarks' ground truth (tests/bench/quality/exact.js). Only test builds declare them
// (CMake SIMHASH_WASM_BENCH_BINDINGS), so the shipped module does not carry them.
#ifdef SIMHASH_WASM_BENCH_BINDINGS
EMSCRIPTEN_KEEPALIVE void verifyPairs(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t a, uintptr_t bs, uint32_t pairCount, double threshold, uintptr_t out, uint32_t measure) {
  similarity_glue::verifyPairs(utf8, offsets, count, a, bs, pairCount, threshold, out, measure, 0);
}
EMSCRIPTEN_KEEPALIVE uint32_t similarityJoin(uintptr_t utf8, uintptr_t offsets, uint32_t count, double threshold, uint32_t measure) {
  return similarity_glue::join(utf8, offsets, count, threshold, measure);
}
// The band keys of a text (tests/bench/calibrate.js): similarGroupsBands(groups) words at out.
EMSCRIPTEN_KEEPALIVE void similarGroupsBandKeys(uintptr_t groups, uint32_t i, uintptr_t out) {
  bindings::at<simhash::SimilarGroups>(groups)->bandKeys(i, bindings::at<uint32_t>(out));
}
// The bands of the groups' banding (their sets built).
EMSCRIPTEN_KEEPALIVE uint32_t similarGroupsBands(uintptr_t groups) { return bindings::at<simhash::SimilarGroups>(groups)->banding().bands; }
#endif

}  // extern "C"
