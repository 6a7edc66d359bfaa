// The one file that knows about Emscripten: Embind declarations over the core.
//
// Bulk data crosses as raw WASM addresses (uintptr_t) of buffers the JS layer allocated
// with _malloc and filled in one go; results of unknown size go to one module-wide result
// buffer that JS copies out at once (it stays valid until the next such call). The core never throws, and the
// JS layer validates every argument first, so no call here can abort the module.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "simhash/fingerprint.h"
#include "simhash/idf.h"
#include "simhash/index.h"
#include "simhash/pairs.h"
#include "similarity_glue.h"

using namespace emscripten;

// Out of memory. The build does not catch C++ exceptions (that would cost size and speed),
// so libc++'s operator new would abort the whole module on a failed allocation. Instead
// the allocation throws a JS Error, which unwinds the WASM stack back to the JS caller:
// the module stays usable, and the core commits its changes only after allocating
// (Index::rebuild), so nothing it holds is left half-changed.
EM_JS(void, throwOutOfMemory, (size_t size), { throw new Error('out of WebAssembly memory allocating ' + size + ' bytes'); });

// Not inlined: LLVM would otherwise fuse malloc and a following memset into a calloc that
// LTO has already dropped from the link.
__attribute__((noinline)) void* operator new(size_t size) {
  if (void* p = std::malloc(size ? size : 1)) return p;
  throwOutOfMemory(size);
  __builtin_unreachable();
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace {

simhash::Fingerprinter& fingerprinter() {
  static simhash::Fingerprinter instance;
  return instance;
}

// tokenizerFlags: bit 0 caseFold, bit 1 stripPunctuation (as in the serialized IDF format).
simhash::FingerprintOptions makeOptions(unsigned mode, unsigned wordNgram, unsigned charNgram, unsigned tokenizerFlags,
                                        unsigned weighting) {
  simhash::FingerprintOptions options;
  options.tokenizer.mode = static_cast<simhash::TokenizerMode>(mode);
  options.tokenizer.wordNgram = static_cast<uint8_t>(wordNgram);
  options.tokenizer.charNgram = static_cast<uint8_t>(charNgram);
  options.tokenizer.caseFold = tokenizerFlags & 1;
  options.tokenizer.stripPunctuation = tokenizerFlags & 2;
  options.weighting = static_cast<simhash::Weighting>(weighting);
  return options;
}

template <class T>
T* at(uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

// Texts are one UTF-8 buffer and count + 1 byte offsets; out receives count fingerprints.
void fingerprintBatch(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, unsigned mode,
                      unsigned wordNgram, unsigned charNgram, unsigned tokenizerFlags, unsigned weighting) {
  const auto options = makeOptions(mode, wordNgram, charNgram, tokenizerFlags, weighting);
  const uint32_t* bounds = at<uint32_t>(offsets);
  uint64_t* result = at<uint64_t>(out);
  for (uint32_t i = 0; i < count; ++i) {
    const std::string_view text(at<char>(utf8) + bounds[i], bounds[i + 1] - bounds[i]);
    result[i] = fingerprinter().fingerprint(text, options);
  }
}

// As fingerprintBatch, with the tokenizer, weighting and weights of an IDF table.
void fingerprintBatchIdf(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, uintptr_t idf) {
  const uint32_t* bounds = at<uint32_t>(offsets);
  uint64_t* result = at<uint64_t>(out);
  const simhash::IdfTable& table = *at<simhash::IdfTable>(idf);
  for (uint32_t i = 0; i < count; ++i) {
    result[i] = fingerprinter().fingerprint(std::string_view(at<char>(utf8) + bounds[i], bounds[i + 1] - bounds[i]), table);
  }
}

// Documents as in fingerprintBatch.
void idfLearnerAdd(uintptr_t learner, uintptr_t utf8, uintptr_t offsets, uint32_t count) {
  const uint32_t* bounds = at<uint32_t>(offsets);
  for (uint32_t i = 0; i < count; ++i) {
    at<simhash::IdfLearner>(learner)->addDocument(std::string_view(at<char>(utf8) + bounds[i], bounds[i + 1] - bounds[i]));
  }
}

// A table's options packed into one number: mode, wordNgram, charNgram, caseFold, weighting, caller flags, stripPunctuation.
uint32_t idfOptions(uintptr_t idf) {
  const simhash::IdfTable& table = *at<simhash::IdfTable>(idf);
  const simhash::FingerprintOptions& o = table.options();
  return static_cast<uint32_t>(o.tokenizer.mode) | uint32_t{o.tokenizer.wordNgram} << 4 | uint32_t{o.tokenizer.charNgram} << 9 |
         uint32_t{o.tokenizer.caseFold} << 14 | static_cast<uint32_t>(o.weighting) << 15 | uint32_t{table.callerFlags()} << 16 |
         uint32_t{o.tokenizer.stripPunctuation} << 24;
}

// Tokens as in fingerprintBatch; weights is 0 or count doubles.
void fingerprintTokens(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t weights, uintptr_t out) {
  const uint32_t* bounds = at<uint32_t>(offsets);
  std::vector<std::string_view> tokens(count);
  for (uint32_t i = 0; i < count; ++i) tokens[i] = {at<char>(utf8) + bounds[i], bounds[i + 1] - bounds[i]};
  *at<uint64_t>(out) = fingerprinter().fingerprintTokens(tokens.data(), weights ? at<double>(weights) : nullptr, count);
}

std::vector<uint32_t>& result() {
  static std::vector<uint32_t> words;
  return words;
}

// Serialized bytes into the result buffer; returns their length.
uint32_t bytesToResult(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t>& words = result();
  words.resize((bytes.size() + 3) / 4);
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(words.data()));
  return static_cast<uint32_t>(bytes.size());
}

uintptr_t resultAddress() { return reinterpret_cast<uintptr_t>(result().data()); }

// Pairs as triples (a, b, distance) in the result buffer; returns the pair count.
uint32_t findPairs(uintptr_t fingerprints, uint32_t count, unsigned maxDistance) {
  const std::vector<simhash::Pair> pairs = simhash::findPairs(at<uint64_t>(fingerprints), count, maxDistance);
  std::vector<uint32_t>& words = result();
  words.resize(3 * pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    words[3 * i] = pairs[i].a;
    words[3 * i + 1] = pairs[i].b;
    words[3 * i + 2] = pairs[i].distance;
  }
  return static_cast<uint32_t>(pairs.size());
}

// Component label per item, from pairs given as (a, b) index arrays.
void componentLabels(uintptr_t a, uintptr_t b, uint32_t pairCount, uint32_t count, uintptr_t out) {
  std::vector<simhash::Pair> pairs(pairCount);
  for (uint32_t i = 0; i < pairCount; ++i) pairs[i] = {at<uint32_t>(a)[i], at<uint32_t>(b)[i], 0};
  const std::vector<uint32_t> labels = simhash::componentLabels(count, pairs);
  std::copy(labels.begin(), labels.end(), at<uint32_t>(out));
}

// out receives count labels: dedup's leader grouping without materialising the pairs.
void leaderLabels(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t out) {
  const std::vector<uint32_t> labels = simhash::leaderLabels(at<uint64_t>(fingerprints), count, maxDistance);
  std::copy(labels.begin(), labels.end(), at<uint32_t>(out));
}

class IndexHandle {
 public:
  explicit IndexHandle(unsigned maxDistance) : index_(maxDistance) {}

  unsigned maxDistance() const { return index_.maxDistance(); }
  size_t size() const { return index_.size(); }
  void clear() { index_.clear(); }
  bool remove(uint32_t id) { return index_.remove(id); }

  // Adds count fingerprints; ids is 0 for fresh ids, written back to idsOut.
  // Returns the number added before a duplicate id stopped it (count when all were).
  uint32_t addBatch(uintptr_t fingerprints, uintptr_t ids, uint32_t count, uintptr_t idsOut) {
    index_.reserveForAdding(count);  // out of memory here adds nothing, so addAll stays all or nothing
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t fp = at<uint64_t>(fingerprints)[i];
      uint32_t id;
      const simhash::Status status = ids ? index_.add(fp, id = at<uint32_t>(ids)[i]) : index_.addWithNewId(fp, id);
      if (status != simhash::Status::Ok) return i;
      at<uint32_t>(idsOut)[i] = id;
    }
    return count;
  }

  // Matches as (id, distance) pairs in the result buffer; returns the match count.
  uint32_t query(uintptr_t fingerprint) {
    index_.query(*at<uint64_t>(fingerprint), matches_);
    std::vector<uint32_t>& words = result();
    words.resize(2 * matches_.size());
    for (size_t i = 0; i < matches_.size(); ++i) {
      words[2 * i] = matches_[i].id;
      words[2 * i + 1] = matches_[i].distance;
    }
    return static_cast<uint32_t>(matches_.size());
  }

  // The serialized bytes in the result buffer; returns their length in bytes.
  uint32_t serialize() const { return bytesToResult(index_.serialize()); }

  // Replaces this index; returns "" on success or the reason the bytes were rejected.
  std::string load(uintptr_t bytes, uint32_t length) {
    std::string error;
    simhash::Index::deserialize(at<uint8_t>(bytes), length, index_, error);
    return error;
  }

 private:
  simhash::Index index_;
  std::vector<simhash::Match> matches_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(simhash) {
  function("_malloc", optional_override([](size_t size) { return reinterpret_cast<uintptr_t>(std::malloc(size)); }));
  function("_free", optional_override([](uintptr_t address) { std::free(reinterpret_cast<void*>(address)); }));
  function("_resultAddress", &resultAddress);
  function("_formatVersion", optional_override([] { return simhash::kFingerprintFormatVersion; }));
  // Bytes malloc has handed out and not taken back: what leak tests watch.
  function("_heapInUse", optional_override([] { return static_cast<uint32_t>(mallinfo().uordblks); }));
  function("_fingerprintBatch", &fingerprintBatch);
  function("_fingerprintTokens", &fingerprintTokens);
  function("_fingerprintBatchIdf", &fingerprintBatchIdf);
  // IDF learners and tables cross as addresses, like indexes.
  function("_idfLearnerCreate", optional_override([](unsigned mode, unsigned wordNgram, unsigned charNgram, unsigned tokenizerFlags,
                                                      unsigned weighting, unsigned callerFlags) {
             return reinterpret_cast<uintptr_t>(new simhash::IdfLearner(makeOptions(mode, wordNgram, charNgram, tokenizerFlags, weighting),
                                                                        static_cast<uint8_t>(callerFlags)));
           }));
  function("_idfLearnerAdd", &idfLearnerAdd);
  function("_idfLearnerTable", optional_override([](uintptr_t learner) {
             return reinterpret_cast<uintptr_t>(new simhash::IdfTable(at<simhash::IdfLearner>(learner)->table()));
           }));
  function("_idfLearnerDelete", optional_override([](uintptr_t learner) { delete at<simhash::IdfLearner>(learner); }));
  function("_idfCreate", optional_override([] { return reinterpret_cast<uintptr_t>(new simhash::IdfTable()); }));
  function("_idfDelete", optional_override([](uintptr_t idf) { delete at<simhash::IdfTable>(idf); }));
  function("_idfDocuments", optional_override([](uintptr_t idf) { return at<simhash::IdfTable>(idf)->documents(); }));
  function("_idfFeatures", optional_override([](uintptr_t idf) { return static_cast<uint32_t>(at<simhash::IdfTable>(idf)->features()); }));
  function("_idfOptions", &idfOptions);
  function("_idfSerialize", optional_override([](uintptr_t idf) { return bytesToResult(at<simhash::IdfTable>(idf)->serialize()); }));
  function("_idfLoad", optional_override([](uintptr_t idf, uintptr_t bytes, uint32_t length) {
             std::string error;
             simhash::IdfTable::deserialize(at<uint8_t>(bytes), length, *at<simhash::IdfTable>(idf), error);
             return error;
           }));
  function("_findPairs", &findPairs);
  function("_componentLabels", &componentLabels);
  function("_leaderLabels", &leaderLabels);
  // The index crosses as its address: Embind's class_ would add ~4 KB of gzipped glue
  // for handle bookkeeping that js/simhash.js does anyway (dispose, FinalizationRegistry).
  function("_indexCreate", optional_override([](unsigned maxDistance) { return reinterpret_cast<uintptr_t>(new IndexHandle(maxDistance)); }));
  function("_indexDelete", optional_override([](uintptr_t index) { delete at<IndexHandle>(index); }));
  function("_indexMaxDistance", optional_override([](uintptr_t index) { return at<IndexHandle>(index)->maxDistance(); }));
  function("_indexSize", optional_override([](uintptr_t index) { return static_cast<uint32_t>(at<IndexHandle>(index)->size()); }));
  function("_indexClear", optional_override([](uintptr_t index) { at<IndexHandle>(index)->clear(); }));
  function("_indexRemove", optional_override([](uintptr_t index, uint32_t id) { return at<IndexHandle>(index)->remove(id); }));
  function("_indexAddBatch", optional_override([](uintptr_t index, uintptr_t fps, uintptr_t ids, uint32_t count, uintptr_t idsOut) {
             return at<IndexHandle>(index)->addBatch(fps, ids, count, idsOut);
           }));
  function("_indexQuery", optional_override([](uintptr_t index, uintptr_t fp) { return at<IndexHandle>(index)->query(fp); }));
  function("_indexSerialize", optional_override([](uintptr_t index) { return at<IndexHandle>(index)->serialize(); }));
  function("_indexLoad", optional_override([](uintptr_t index, uintptr_t bytes, uint32_t length) {
             return at<IndexHandle>(index)->load(bytes, length);
           }));
  // Exact similarity of candidate pairs (similarity.h, similarity_glue.h): one call per batch.
  function("_verifyPairs", &similarity_glue::verifyPairs);
  function("_pairSimilarities", &similarity_glue::pairSimilarities);
  function("_similarityJoin", &similarity_glue::join);
  function("_similarityResult", optional_override([] { return reinterpret_cast<uintptr_t>(similarity_glue::joined().data()); }));
  function("_similarityRelease", &similarity_glue::release);
}
