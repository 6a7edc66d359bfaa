#include "helpers.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string_view>

#include "simhash/fingerprint.h"
#include "simhash/idf.h"
#include "simhash/pairs.h"

namespace simhash::bindings {

namespace {

Fingerprinter*& fingerprinter() {
  static Fingerprinter* instance = new Fingerprinter;
  return instance;
}

// Scratch is kept between calls while they handle texts of up to 64 KB (2 MB of scratch
// at most, reused); a call with a longer text, or one that fails, frees it when it ends,
// and so does a result buffer or match list beyond 1 MB: little stays allocated between
// calls whatever they were.
bool small(size_t bytes) { return bytes <= (size_t{1} << 16); }
bool smallBuffer(size_t bytes) { return bytes <= (size_t{1} << 20); }

struct FingerprinterCall {
  Fingerprinter& fingerprinter = *bindings::fingerprinter();
  bool keepScratch = false;  // set when the call has ended with small texts only
  ~FingerprinterCall() {
    if (keepScratch) return;
    delete &fingerprinter;
    bindings::fingerprinter() = new Fingerprinter;
  }
};

struct WireOptions {
  FingerprintOptions options;
  uint8_t callerFlags = 0;
};

// The JS layer checks every option before encoding it, so the bytes always decode.
WireOptions fromWire(double wire) {
  const uint64_t bits = static_cast<uint64_t>(wire);
  uint8_t bytes[kOptionBytes + 1];
  for (size_t i = 0; i <= kOptionBytes; ++i) bytes[i] = static_cast<uint8_t>(bits >> (8 * i));
  WireOptions out;
  decodeOptions(bytes, out.options);
  out.callerFlags = bytes[kOptionBytes];
  return out;
}

std::string_view textAt(uintptr_t utf8, const uint32_t* bounds, uint32_t i) {
  return {at<char>(utf8) + bounds[i], bounds[i + 1] - bounds[i]};
}

}  // namespace

ResultWords& result() {
  static ResultWords words;
  return words;
}

uintptr_t resultAddress() { return reinterpret_cast<uintptr_t>(result().data()); }

uint32_t bytesToResult(const uint8_t* bytes, size_t size) {
  ResultWords& words = result();
  words.resize((size + 3) / 4);
  std::copy(bytes, bytes + size, reinterpret_cast<uint8_t*>(words.data()));
  return static_cast<uint32_t>(size);
}

void resultRelease() {
  ResultWords& words = result();
  if (!smallBuffer(words.capacity() * sizeof(uint32_t))) ResultWords().swap(words);
}

namespace {

// Fingerprints count texts with `how` (options or an IDF table); the scratch stays for the
// next call when every text was small.
template <class How>
void fingerprintTexts(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, const How& how) {
  const uint32_t* bounds = at<uint32_t>(offsets);
  uint64_t* result = at<uint64_t>(out);
  FingerprinterCall call;
  bool smallTexts = true;
  for (uint32_t i = 0; i < count; ++i) {
    const std::string_view text = textAt(utf8, bounds, i);
    smallTexts = smallTexts && small(text.size());
    result[i] = call.fingerprinter.fingerprint(text, how);
  }
  call.keepScratch = smallTexts;
}

}  // namespace

void fingerprintBatch(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, double optionsWire) {
  fingerprintTexts(utf8, offsets, count, out, fromWire(optionsWire).options);
}

void fingerprintBatchIdf(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t out, uintptr_t idf) {
  fingerprintTexts(utf8, offsets, count, out, *at<IdfTable>(idf));
}

void fingerprintOne(uintptr_t utf8, uint32_t length, uintptr_t out, double optionsWire) {
  FingerprinterCall call;
  *at<uint64_t>(out) = call.fingerprinter.fingerprint({at<char>(utf8), length}, fromWire(optionsWire).options);
  call.keepScratch = small(length);
}

void fingerprintOneIdf(uintptr_t utf8, uint32_t length, uintptr_t out, uintptr_t idf) {
  FingerprinterCall call;
  *at<uint64_t>(out) = call.fingerprinter.fingerprint({at<char>(utf8), length}, *at<IdfTable>(idf));
  call.keepScratch = small(length);
}

uintptr_t wordWeightsCreate(uint32_t texts, uintptr_t hashes, uintptr_t counts, uint32_t words) {
  auto weights = std::make_unique<WordWeights>();
  if (!weights->assign(texts, at<uint64_t>(hashes), at<uint32_t>(counts), words)) return 0;
  return reinterpret_cast<uintptr_t>(weights.release());
}

void wordWeightsCount(uintptr_t weights, uintptr_t utf8, uintptr_t offsets, uint32_t count) {
  std::vector<char32_t> cps;
  const uint32_t* bounds = at<uint32_t>(offsets);
  for (uint32_t i = 0; i < count; ++i) {
    normalizeForSimilarity(textAt(utf8, bounds, i), cps, Normalization::kList);
    at<WordWeights>(weights)->count(cps.data(), cps.size());
  }
}

uint32_t wordWeightsFinish(uintptr_t handle) {
  WordWeights& weights = *at<WordWeights>(handle);
  weights.finish();
  ResultWords& out = result();
  const size_t words = weights.words();
  out.resize(3 * words);
  for (size_t i = 0; i < words; ++i) {
    out[i] = static_cast<uint32_t>(weights.hashes()[i]);
    out[words + i] = static_cast<uint32_t>(weights.hashes()[i] >> 32);
    out[2 * words + i] = weights.counts()[i];
  }
  return static_cast<uint32_t>(words);
}

double similarityOne(uintptr_t a, uint32_t lengthA, uintptr_t b, uint32_t lengthB, uint32_t measure, uintptr_t weights) {
  // One scratch for every single call, of a fixed size that short texts stay within (about
  // 80 KB): what a longer pair grows is given back after it, so the heap between calls is
  // always the same.
  constexpr size_t kKeep = 4096;  // code points, shingles
  static simhash::SimilarityScratch scratch;
  auto fixed = [] {
    scratch = simhash::SimilarityScratch{};
    scratch.cps.reserve(kKeep);
    for (auto& set : scratch.sets) set.reserve(kKeep);
  };
  if (scratch.cps.capacity() < kKeep) fixed();
  const double s = simhash::similarity(std::string_view(at<char>(a), lengthA), std::string_view(at<char>(b), lengthB),
                                          shingleOptionsOf(measure, weights), scratch);
  if (scratch.cps.capacity() > kKeep || scratch.sets[0].capacity() > kKeep || scratch.sets[1].capacity() > kKeep) fixed();
  return s;
}

void fingerprintTokens(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t weights, uintptr_t out) {
  const uint32_t* bounds = at<uint32_t>(offsets);
  std::vector<std::string_view> tokens(count);
  for (uint32_t i = 0; i < count; ++i) tokens[i] = textAt(utf8, bounds, i);
  FingerprinterCall call;
  *at<uint64_t>(out) = call.fingerprinter.fingerprintTokens(tokens.data(), weights ? at<double>(weights) : nullptr, count);
  call.keepScratch = small(count);
}

uintptr_t idfLearnerCreate(double optionsWire) {
  const WireOptions wire = fromWire(optionsWire);
  return reinterpret_cast<uintptr_t>(new IdfLearner(wire.options, wire.callerFlags));
}

void idfLearnerAdd(uintptr_t learner, uintptr_t utf8, uintptr_t offsets, uint32_t count) {
  const uint32_t* bounds = at<uint32_t>(offsets);
  struct Call {  // as FingerprinterCall
    IdfLearner& idf;
    bool keepScratch = false;
    ~Call() {
      if (!keepScratch) idf.releaseScratch();
    }
  } call{*at<IdfLearner>(learner)};
  bool smallTexts = true;
  for (uint32_t i = 0; i < count; ++i) {
    const std::string_view text = textAt(utf8, bounds, i);
    smallTexts = smallTexts && small(text.size());
    call.idf.addDocument(text);
  }
  call.keepScratch = smallTexts;
}

uintptr_t idfLearnerTable(uintptr_t learner) { return reinterpret_cast<uintptr_t>(new IdfTable(at<IdfLearner>(learner)->table())); }
void idfLearnerDelete(uintptr_t learner) { delete at<IdfLearner>(learner); }
uintptr_t idfCreate() { return reinterpret_cast<uintptr_t>(new IdfTable()); }
void idfDelete(uintptr_t idf) { delete at<IdfTable>(idf); }
uint32_t idfDocuments(uintptr_t idf) { return at<IdfTable>(idf)->documents(); }
uint32_t idfFeatures(uintptr_t idf) { return static_cast<uint32_t>(at<IdfTable>(idf)->features()); }

double idfOptions(uintptr_t idf) {
  const IdfTable& table = *at<IdfTable>(idf);
  uint8_t bytes[kOptionBytes];
  encodeOptions(table.options(), bytes);
  uint64_t wire = uint64_t{table.callerFlags()} << (8 * kOptionBytes);
  for (size_t i = 0; i < kOptionBytes; ++i) wire |= uint64_t{bytes[i]} << (8 * i);
  return static_cast<double>(wire);
}

uint32_t idfSerialize(uintptr_t idf) {
  const std::vector<uint8_t> bytes = at<IdfTable>(idf)->serialize();
  return bytesToResult(bytes.data(), bytes.size());
}

std::string idfLoad(uintptr_t idf, uintptr_t bytes, uint32_t length) {
  std::string error;
  IdfTable::deserialize(at<uint8_t>(bytes), length, *at<IdfTable>(idf), error);
  return error;
}

double findPairs(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, double maxPairs) {
  std::vector<Pair> pairs;
  size_t repeated = 0;
  const uint64_t total = simhash::findPairs(at<uint64_t>(fingerprints), count, maxDistance, static_cast<uint64_t>(maxPairs), pairs, &repeated);
  ResultWords& words = result();
  if (static_cast<double>(total) > maxPairs) {
    words.assign(1, static_cast<uint32_t>(repeated));
    return static_cast<double>(total);
  }
  const size_t n = pairs.size();
  words.resize(2 * n + (n + 3) / 4);
  uint8_t* distance = reinterpret_cast<uint8_t*>(words.data() + 2 * n);
  for (size_t i = 0; i < n; ++i) {
    words[i] = pairs[i].a;
    words[n + i] = pairs[i].b;
    distance[i] = static_cast<uint8_t>(pairs[i].distance);
  }
  return static_cast<double>(n);
}

void leaderLabels(uintptr_t fingerprints, uint32_t count, unsigned maxDistance, uintptr_t out) {
  const std::vector<uint32_t> labels = simhash::leaderLabels(at<uint64_t>(fingerprints), count, maxDistance);
  std::copy(labels.begin(), labels.end(), at<uint32_t>(out));
}

void leaderOfPairs(uintptr_t pairs, uint32_t pairCount, uint32_t count, uintptr_t out) {
  const simhash::Pair* first = at<simhash::Pair>(pairs);
  std::vector<simhash::Pair> sorted(first, first + pairCount);
  simhash::sortPairs(sorted);
  uint32_t* labels = at<uint32_t>(out);
  std::iota(labels, labels + count, 0u);
  simhash::leaderOfSortedPairs(sorted.data(), sorted.size(), labels);
}

uint32_t IndexHandle::addBatch(uintptr_t fingerprints, uintptr_t ids, uint32_t count, uintptr_t idsOut) {
  return static_cast<uint32_t>(index_.addAll(at<uint64_t>(fingerprints), ids ? at<uint32_t>(ids) : nullptr, count, at<uint32_t>(idsOut)));
}

double IndexHandle::addOne(uint32_t low, uint32_t high, uint32_t id, bool withId) {
  const uint64_t fp = uint64_t{high} << 32 | low;
  const Status status = withId ? index_.add(fp, id) : index_.addWithNewId(fp, id);
  if (status == Status::Ok) return id;
  return withId ? -1 : -2;
}

uint32_t IndexHandle::queryOne(uint32_t low, uint32_t high) {
  struct Release {
    std::vector<Match>& matches;
    ~Release() {
      if (!smallBuffer(matches.capacity() * sizeof(Match))) std::vector<Match>().swap(matches);
    }
  } release{matches_};
  index_.query(uint64_t{high} << 32 | low, matches_);
  ResultWords& words = result();
  words.resize(2 * matches_.size());
  for (size_t i = 0; i < matches_.size(); ++i) {
    words[2 * i] = matches_[i].id;
    words[2 * i + 1] = matches_[i].distance;
  }
  return static_cast<uint32_t>(matches_.size());
}

uint32_t IndexHandle::serialize() const {
  const std::vector<uint8_t> bytes = index_.serialize();
  return bytesToResult(bytes.data(), bytes.size());
}

std::string IndexHandle::load(uintptr_t bytes, uint32_t length) {
  std::string error;
  Index::deserialize(at<uint8_t>(bytes), length, index_, error);
  return error;
}

double TextIndexHandle::addOne(uintptr_t utf8, uint32_t length, uint32_t id, bool withId) {
  const std::string_view text(at<char>(utf8), length);
  const Status status = withId ? index_.add(text, id) : index_.addWithNewId(text, id);
  if (status == Status::Ok) return id;
  return withId ? -1 : -2;
}

uint32_t TextIndexHandle::addBatch(uintptr_t utf8, uintptr_t offsets, uint32_t count, uintptr_t ids, uintptr_t idsOut) {
  const uint32_t* given = ids ? at<uint32_t>(ids) : nullptr;
  for (uint32_t i = 0; given && i < count; ++i) {
    if (index_.has(given[i])) return i;
  }
  return static_cast<uint32_t>(index_.addAll(at<char>(utf8), at<uint32_t>(offsets), count, given, at<uint32_t>(idsOut)));
}

uint32_t TextIndexHandle::queryOne(uintptr_t utf8, uint32_t length, uint32_t limit) {
  struct Release {
    std::vector<TextMatch>& matches;
    ~Release() {
      if (!smallBuffer(matches.capacity() * sizeof(TextMatch))) std::vector<TextMatch>().swap(matches);
    }
  } release{matches_};
  index_.query({at<char>(utf8), length}, limit, matches_);
  const size_t n = matches_.size();
  ResultWords& words = result();
  words.resize(4 * n);
  double* similarity = reinterpret_cast<double*>(words.data());
  for (size_t i = 0; i < n; ++i) {
    similarity[i] = matches_[i].similarity;
    words[2 * n + i] = matches_[i].id;
    words[3 * n + i] = static_cast<uint32_t>(matches_[i].kind);
  }
  return static_cast<uint32_t>(n);
}

uint32_t TextIndexHandle::keysOf(uintptr_t utf8, uint32_t length) {
  constexpr size_t kHead = 4 + 2 * TextIndex::kSketchWords;
  std::vector<uint32_t> keys, reviewKeys;
  std::vector<uint8_t> normalized;
  uint64_t sketch[TextIndex::kSketchWords] = {};
  const std::string_view text(at<char>(utf8), length);
  index_.keysOf(text, keys, normalized);
  const uint32_t shingles = index_.review() > 0 ? index_.reviewKeysOf(text, reviewKeys, sketch) : 0;
  ResultWords& words = result();
  words.resize(kHead + keys.size() + reviewKeys.size() + (normalized.size() + 3) / 4);
  words[0] = static_cast<uint32_t>(keys.size());
  words[1] = static_cast<uint32_t>(normalized.size());
  words[2] = static_cast<uint32_t>(reviewKeys.size());
  words[3] = shingles;
  std::memcpy(words.data() + 4, sketch, sizeof sketch);
  auto out = std::copy(keys.begin(), keys.end(), words.begin() + kHead);
  out = std::copy(reviewKeys.begin(), reviewKeys.end(), out);
  if (!normalized.empty()) std::memcpy(&*out, normalized.data(), normalized.size());
  return static_cast<uint32_t>(keys.size());
}

void TextIndexHandle::reviewFilter(uintptr_t sketches, uintptr_t shingles, uint32_t count, uintptr_t out) const {
  const uint64_t* sketch = at<uint64_t>(sketches);
  const uint32_t* sizes = at<uint32_t>(shingles);
  uint8_t* pass = at<uint8_t>(out);
  for (uint32_t i = 0; i < count; ++i) {
    pass[i] = index_.reviewMayReach(sketch, sizes[0], sketch + (i + 1) * TextIndex::kSketchWords, sizes[i + 1]) ? 1 : 0;
  }
}

uint32_t TextIndexHandle::serializeBegin() {
  writer_ = std::make_unique<TextIndex::Writer>(index_);
  return static_cast<uint32_t>(writer_->size());
}

uint32_t TextIndexHandle::serializeNext(uint32_t capacity) {
  ResultWords& words = result();
  words.resize((capacity + 3) / 4);
  return static_cast<uint32_t>(writer_->write(reinterpret_cast<uint8_t*>(words.data()), capacity));
}

void TextIndexHandle::serializeEnd() { writer_.reset(); }

void TextIndexHandle::loadBegin(uint32_t length) { reader_ = std::make_unique<TextIndex::Reader>(length); }

void TextIndexHandle::loadNext(uintptr_t bytes, uint32_t length) { reader_->read(at<uint8_t>(bytes), length); }

std::string TextIndexHandle::loadEnd() {
  std::string error;
  reader_->finish(index_, error);
  reader_.reset();
  return error;
}

}  // namespace simhash::bindings
