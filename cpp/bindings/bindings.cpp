// The Embind declarations of the module, and nothing else: the calls they name are in
// helpers.h (address-level conversions over the core) and out_of_memory.cpp (what a
// failed allocation does). Raw names carry a leading underscore; js/ wraps them.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cstdlib>

#include "helpers.h"
#include "searches.h"
#include "similarity_glue.h"
#include "simhash/similar_groups.h"
#include "simhash/fingerprint.h"

using namespace emscripten;
using namespace simhash::bindings;

// Single calls, meant to be made once per item, are raw exports (Module._simhash_*): built
// without dynamic execution (-sDYNAMIC_EXECUTION=0), Embind's invokers convert arguments in a
// generic loop that costs several times the work of one call.
extern "C" {
EMSCRIPTEN_KEEPALIVE void simhash_fingerprint_one(uintptr_t utf8, uint32_t length, uintptr_t out, double optionsWire) {
  fingerprintOne(utf8, length, out, optionsWire);
}
EMSCRIPTEN_KEEPALIVE void simhash_fingerprint_one_idf(uintptr_t utf8, uint32_t length, uintptr_t out, uintptr_t idf) {
  fingerprintOneIdf(utf8, length, out, idf);
}
EMSCRIPTEN_KEEPALIVE double simhash_index_add_one(uintptr_t index, uint32_t low, uint32_t high, uint32_t id, int withId) {
  return at<IndexHandle>(index)->addOne(low, high, id, withId != 0);
}
EMSCRIPTEN_KEEPALIVE uint32_t simhash_index_query_one(uintptr_t index, uint32_t low, uint32_t high) {
  return at<IndexHandle>(index)->queryOne(low, high);
}
EMSCRIPTEN_KEEPALIVE double simhash_text_index_add_one(uintptr_t index, uintptr_t utf8, uint32_t length, uint32_t id, int withId) {
  return at<TextIndexHandle>(index)->addOne(utf8, length, id, withId != 0);
}
EMSCRIPTEN_KEEPALIVE uint32_t simhash_text_index_query_one(uintptr_t index, uintptr_t utf8, uint32_t length, uint32_t limit) {
  return at<TextIndexHandle>(index)->queryOne(utf8, length, limit);
}
EMSCRIPTEN_KEEPALIVE int simhash_text_index_remove(uintptr_t index, uint32_t id) { return at<TextIndexHandle>(index)->remove(id); }
EMSCRIPTEN_KEEPALIVE int simhash_text_index_has(uintptr_t index, uint32_t id) { return at<TextIndexHandle>(index)->has(id); }
EMSCRIPTEN_KEEPALIVE uint32_t simhash_text_index_size(uintptr_t index) { return at<TextIndexHandle>(index)->size(); }
EMSCRIPTEN_KEEPALIVE double simhash_similarity_one(uintptr_t a, uint32_t lengthA, uintptr_t b, uint32_t lengthB) {
  return similarityOne(a, lengthA, b, lengthB);
}
EMSCRIPTEN_KEEPALIVE uintptr_t simhash_result_address() { return resultAddress(); }
EMSCRIPTEN_KEEPALIVE void simhash_result_release() { resultRelease(); }
}

EMSCRIPTEN_BINDINGS(simhash) {
  function("_malloc", optional_override([](size_t size) { return reinterpret_cast<uintptr_t>(std::malloc(size)); }));
  function("_free", optional_override([](uintptr_t address) { std::free(reinterpret_cast<void*>(address)); }));
  function("_resultAddress", &resultAddress);
  function("_resultRelease", &resultRelease);
  function("_formatVersion", optional_override([] { return simhash::kFingerprintFormatVersion; }));
  // Bytes malloc has handed out and not taken back: what leak tests watch.
  function("_heapInUse", optional_override([] { return static_cast<uint32_t>(mallinfo().uordblks); }));

  function("_fingerprintBatch", &fingerprintBatch);
  function("_fingerprintBatchIdf", &fingerprintBatchIdf);
  function("_fingerprintTokens", &fingerprintTokens);

  // IDF learners and tables cross as addresses, like indexes.
  function("_idfLearnerCreate", &idfLearnerCreate);
  function("_idfLearnerAdd", &idfLearnerAdd);
  function("_idfLearnerTable", &idfLearnerTable);
  function("_idfLearnerDelete", &idfLearnerDelete);
  function("_idfCreate", &idfCreate);
  function("_idfDelete", &idfDelete);
  function("_idfDocuments", &idfDocuments);
  function("_idfFeatures", &idfFeatures);
  function("_idfOptions", &idfOptions);
  function("_idfSerialize", &idfSerialize);
  function("_idfLoad", &idfLoad);

  function("_findPairs", &findPairs);
  function("_leaderLabels", &leaderLabels);
  // The same searches a slice at a time (searches.h).
  function("_pairSearchCreate", &pairSearchCreate);
  function("_pairSearchRun", &pairSearchRun);
  function("_pairSearchProgress", &pairSearchProgress);
  function("_pairSearchVerify", &pairSearchVerify);
  function("_pairSearchFound", &pairSearchFound);
  function("_pairSearchFoundAddress", &pairSearchFoundAddress);
  function("_pairSearchClear", &pairSearchClear);
  function("_pairSearchDelete", &pairSearchDelete);
  function("_equalFingerprintsCreate", &equalFingerprintsCreate);
  function("_equalFingerprintsDistinct", &equalFingerprintsDistinct);
  function("_equalFingerprintsDistinctCount", &equalFingerprintsDistinctCount);
  function("_equalFingerprintsRepeated", &equalFingerprintsRepeated);
  function("_equalFingerprintsExpand", &equalFingerprintsExpand);
  function("_equalFingerprintsDelete", &equalFingerprintsDelete);
  function("_leaderSearchCreate", &leaderSearchCreate);
  function("_leaderSearchRun", &leaderSearchRun);
  function("_leaderSearchProgress", &leaderSearchProgress);
  function("_leaderSearchTake", &leaderSearchTake);
  function("_leaderSearchUsesPairs", &leaderSearchUsesPairs);
  function("_leaderSearchDelete", &leaderSearchDelete);
  function("_similarGroupsCreate", &similarGroupsCreate);
  function("_similarGroupsRun", &similarGroupsRun);
  function("_similarGroupsProgress", &similarGroupsProgress);
  function("_similarGroupsTake", &similarGroupsTake);
  function("_similarGroupsDelete", &similarGroupsDelete);
  function("_reviewPairsCreate", &reviewPairsCreate);
  function("_reviewPairsRun", &reviewPairsRun);
  function("_reviewPairsProgress", &reviewPairsProgress);
  function("_reviewPairsTake", &reviewPairsTake);
  function("_reviewPairsDelete", &reviewPairsDelete);
  function("_shingleSetsCreate", &shingleSetsCreate);
  function("_shingleSetsDelete", &shingleSetsDelete);
  function("_shingleSetsCount", &shingleSetsCount);
  function("_shingleSetsAdd", &shingleSetsAdd);

  // The index crosses as its address: Embind's class_ would add ~4 KB of gzipped glue
  // for handle bookkeeping that js/ does anyway (dispose, FinalizationRegistry).
  function("_indexCreate", optional_override([](unsigned maxDistance) { return reinterpret_cast<uintptr_t>(new IndexHandle(maxDistance)); }));
  function("_indexDelete", optional_override([](uintptr_t index) { delete at<IndexHandle>(index); }));
  function("_indexMaxDistance", optional_override([](uintptr_t index) { return at<IndexHandle>(index)->maxDistance(); }));
  function("_indexSize", optional_override([](uintptr_t index) { return at<IndexHandle>(index)->size(); }));
  function("_indexClear", optional_override([](uintptr_t index) { at<IndexHandle>(index)->clear(); }));
  function("_indexRemove", optional_override([](uintptr_t index, uint32_t id) { return at<IndexHandle>(index)->remove(id); }));
  function("_indexAddBatch", optional_override([](uintptr_t index, uintptr_t fps, uintptr_t ids, uint32_t count, uintptr_t idsOut) {
             return at<IndexHandle>(index)->addBatch(fps, ids, count, idsOut);
           }));
  function("_indexSerialize", optional_override([](uintptr_t index) { return at<IndexHandle>(index)->serialize(); }));
  function("_indexLoad", optional_override([](uintptr_t index, uintptr_t bytes, uint32_t length) {
             return at<IndexHandle>(index)->load(bytes, length);
           }));

  // Text indexes cross as addresses too; their per-text calls are the raw exports above.
  function("_textIndexCreate", optional_override([](double threshold) { return reinterpret_cast<uintptr_t>(new TextIndexHandle(threshold)); }));
  function("_textIndexDelete", optional_override([](uintptr_t index) { delete at<TextIndexHandle>(index); }));
  function("_textIndexThreshold", optional_override([](uintptr_t index) { return at<TextIndexHandle>(index)->threshold(); }));
  function("_textIndexAddBatch", optional_override([](uintptr_t index, uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t ids, uintptr_t idsOut) {
             return at<TextIndexHandle>(index)->addBatch(utf8, offsets, count, ids, idsOut);
           }));
  function("_textIndexSerializeBegin", optional_override([](uintptr_t index) { return at<TextIndexHandle>(index)->serializeBegin(); }));
  function("_textIndexSerializeNext", optional_override([](uintptr_t index, uint32_t capacity) { return at<TextIndexHandle>(index)->serializeNext(capacity); }));
  function("_textIndexSerializeEnd", optional_override([](uintptr_t index) { at<TextIndexHandle>(index)->serializeEnd(); }));
  function("_textIndexLoadBegin", optional_override([](uintptr_t index, uint32_t length) { at<TextIndexHandle>(index)->loadBegin(length); }));
  function("_textIndexLoadNext", optional_override([](uintptr_t index, uintptr_t bytes, uint32_t length) { at<TextIndexHandle>(index)->loadNext(bytes, length); }));
  function("_textIndexLoadEnd", optional_override([](uintptr_t index) { return at<TextIndexHandle>(index)->loadEnd(); }));

  // The exact similarity of given pairs of texts in one call (sh.similarities).
  function("_pairSimilarities", &similarity_glue::pairSimilarities);
  // Verification of candidate pairs in batches, and the exact similarity join: the
  // benchmarks' ground truth (tests/bench/quality/exact.js). Only test builds declare them
  // (CMake SIMHASH_WASM_BENCH_BINDINGS), so the shipped module does not carry them.
#ifdef SIMHASH_WASM_BENCH_BINDINGS
  function("_verifyPairs", &similarity_glue::verifyPairs);
  function("_similarityJoin", &similarity_glue::join);
  // The band keys of a text (tests/bench/calibrate.js): bandingFor(threshold).bands words at out.
  function("_similarGroupsBandKeys", optional_override([](uintptr_t groups, uint32_t i, uintptr_t out) {
             at<simhash::SimilarGroups>(groups)->bandKeys(i, at<uint32_t>(out));
           }));
  function("_bandingBands", optional_override([](double threshold) { return simhash::bandingFor(threshold).bands; }));
#endif
}
