// libFuzzer target: IDF weights (idf.h), learned from documents or loaded from bytes,
// and fingerprints made with them, against reference.h and the documented formula.
//
// Byte 0 picks the mode:
//   even: LEARN. Bytes 1-2 are the option header of reference::optionsFromHeader (the
//         high bits of byte 2 become the caller flags); the rest is documents separated
//         by '\n'. The learned table must give every feature the formula's weight for
//         its document frequency, survive a serialize/load round trip unchanged, and
//         fingerprint each document like per-bit sums of weight x occurrences.
//   odd:  LOAD. Bit 1 rewrites the feature count to fit the length, bit 2 the checksum
//         (reference::repairSerialized); bytes 1-2 are the table's length L (little
//         endian), then L bytes go to IdfTable::deserialize and the rest is a text. A
//         rejected table must leave the target table unchanged and explain itself; an
//         accepted one must serialize back to the same bytes, look up the weights it
//         holds, and fingerprint the text with them.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference.h"
#include "simhash/idf.h"

namespace {

using simhash::IdfTable;
using simhash::Status;
using simhash::Weighting;

// docs/formats.md "Serialized IDF format (version 1)": the count of features at byte 20 of a
// 24-byte header, 12-byte entries (u64 hash, u32 weight), an 8-byte checksum.
constexpr size_t kHeaderSize = 24, kEntrySize = 12, kCountOffset = 20;
constexpr size_t kMaxCheckedDocuments = 16;

// idf.h: floor(kIdfScale * (ln((N + 1) / (df + 1)) + 1) + 0.5), with std::log. The core
// computes the logarithm without libm; where the two could round to different integers
// (within 1e-6 of a .5 boundary, which the core's 1e-12 accuracy cannot reach from
// further away) either integer is accepted.
bool isFormulaWeight(uint32_t weight, uint32_t documents, uint32_t documentFrequency) {
  const double x = simhash::kIdfScale * (std::log((documents + 1.0) / (documentFrequency + 1.0)) + 1.0) + 0.5;
  return weight == static_cast<uint32_t>(std::floor(x - 1e-6)) || weight == static_cast<uint32_t>(std::floor(x + 1e-6));
}

// Per-bit sums of weight(h) per occurrence (tf) or once per distinct feature (binary), in
// integers: the core adds doubles, exact here since inputs are short (a weight below 2^32
// times at most a few thousand occurrences stays far below 2^53).
uint64_t expectedFingerprint(std::string_view text, const simhash::FingerprintOptions& options,
                             const std::map<uint64_t, uint32_t>& weights, uint32_t unseenWeight) {
  std::map<uint64_t, int64_t> occurrences;
  for (const std::string& f : reference::features(text, options.tokenizer)) ++occurrences[reference::hash(f)];
  std::vector<uint64_t> hashes;
  std::vector<int64_t> featureWeights;
  for (const auto& [hash, count] : occurrences) {
    const auto it = weights.find(hash);
    const int64_t weight = it == weights.end() ? unseenWeight : it->second;
    hashes.push_back(hash);
    featureWeights.push_back(weight * (options.weighting == Weighting::TermFrequency ? count : 1));
  }
  return reference::simhash(hashes, featureWeights);
}

// What a table must serialize to, written from the README rather than from idf.cpp.
std::vector<uint8_t> expectedBytes(const simhash::FingerprintOptions& options, uint8_t callerFlags,
                                   uint32_t documents, uint32_t unseenWeight,
                                   const std::map<uint64_t, uint32_t>& weights) {
  using reference::putLE;
  std::vector<uint8_t> out = {'S', 'H', 'I', 'F'};
  putLE(out, 1, 2);
  putLE(out, static_cast<uint8_t>(options.tokenizer.mode), 1);
  putLE(out, options.tokenizer.wordNgram, 1);
  putLE(out, options.tokenizer.charNgram, 1);
  putLE(out, (options.tokenizer.caseFold ? 1 : 0) | (options.tokenizer.stripPunctuation ? 2 : 0), 1);  // tokenizer flags
  putLE(out, static_cast<uint8_t>(options.weighting), 1);
  putLE(out, callerFlags, 1);
  putLE(out, documents, 4);
  putLE(out, unseenWeight, 4);
  putLE(out, weights.size(), 4);
  for (const auto& [hash, weight] : weights) {  // std::map: increasing hashes
    putLE(out, hash, 8);
    putLE(out, weight, 4);
  }
  putLE(out, XXH3_64bits(out.data(), out.size()), 8);
  return out;
}

simhash::Fingerprinter& reusedFingerprinter() {
  static simhash::Fingerprinter instance;
  return instance;
}

void runLearn(const uint8_t* data, size_t size) {
  if (size < 2) return;
  const simhash::FingerprintOptions options = reference::optionsFromHeader(data[0], data[1]);
  // Caller flags as the JS layer sets them: the segmenter only in separated mode.
  const auto callerFlags = static_cast<uint8_t>((data[1] >> 4) & (options.tokenizer.mode == simhash::TokenizerMode::Separated ? 3 : 1));
  std::vector<std::string_view> documents;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  for (size_t start = 0;;) {
    const size_t end = rest.find('\n', start);
    documents.push_back(rest.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }

  simhash::IdfLearner learner(options, callerFlags);
  std::map<uint64_t, uint32_t> documentFrequency;
  for (std::string_view document : documents) {
    learner.addDocument(document);
    std::set<uint64_t> distinct;
    for (const std::string& f : reference::features(document, options.tokenizer)) distinct.insert(reference::hash(f));
    for (uint64_t hash : distinct) ++documentFrequency[hash];
  }
  const IdfTable table = learner.table();
  const auto n = static_cast<uint32_t>(documents.size());
  FUZZ_CHECK(table.documents() == n);
  FUZZ_CHECK(table.features() == documentFrequency.size());
  FUZZ_CHECK(table.callerFlags() == callerFlags);
  FUZZ_CHECK(table.options().tokenizer.mode == options.tokenizer.mode);
  FUZZ_CHECK(table.options().tokenizer.wordNgram == options.tokenizer.wordNgram);
  FUZZ_CHECK(table.options().tokenizer.charNgram == options.tokenizer.charNgram);
  FUZZ_CHECK(table.options().tokenizer.caseFold == options.tokenizer.caseFold);
  FUZZ_CHECK(table.options().weighting == options.weighting);
  FUZZ_CHECK(isFormulaWeight(table.unseenWeight(), n, 0));
  std::map<uint64_t, uint32_t> weights;
  for (const auto& [hash, df] : documentFrequency) {
    weights[hash] = table.weight(hash);
    FUZZ_CHECK(isFormulaWeight(weights[hash], n, df));
    if (!documentFrequency.count(hash ^ 1)) FUZZ_CHECK(table.weight(hash ^ 1) == table.unseenWeight());
  }

  const std::vector<uint8_t> bytes = table.serialize();
  FUZZ_CHECK(bytes == expectedBytes(options, callerFlags, n, table.unseenWeight(), weights));
  IdfTable loaded;
  std::string error;
  FUZZ_CHECK(IdfTable::deserialize(bytes.data(), bytes.size(), loaded, error) == Status::Ok);
  FUZZ_CHECK(loaded.serialize() == bytes);

  for (size_t i = 0; i < documents.size() && i < kMaxCheckedDocuments; ++i) {
    const uint64_t want = expectedFingerprint(documents[i], options, weights, table.unseenWeight());
    FUZZ_CHECK(reusedFingerprinter().fingerprint(documents[i], table) == want);
    FUZZ_CHECK(reusedFingerprinter().fingerprint(documents[i], loaded) == want);
  }
}

void runLoad(const uint8_t* data, size_t size, uint8_t mode) {
  if (size < 2) return;
  const size_t length = std::min<size_t>(reference::getLE(data, 2), size - 2);
  std::vector<uint8_t> bytes(data + 2, data + 2 + length);
  const std::string_view text(reinterpret_cast<const char*>(data) + 2 + length, size - 2 - length);
  reference::repairSerialized(bytes, kHeaderSize, kEntrySize, kCountOffset, mode & 2, mode & 4);

  // Loading replaces a table that already holds something, which must survive a rejection.
  simhash::IdfLearner learner({});
  learner.addDocument("the cat sat");
  learner.addDocument("the dog");
  IdfTable table = learner.table();
  const std::vector<uint8_t> before = table.serialize();
  std::string error;
  const Status status = IdfTable::deserialize(bytes.data(), bytes.size(), table, error);
  if (status != Status::Ok) {
    FUZZ_CHECK(status == Status::CorruptData);
    FUZZ_CHECK(error.rfind("invalid serialized IDF weights: ", 0) == 0);
    FUZZ_CHECK(table.serialize() == before);
    return;
  }

  FUZZ_CHECK(table.serialize() == bytes);
  FUZZ_CHECK(simhash::isValid(table.options().tokenizer));
  const size_t count = reference::getLE(bytes.data() + kCountOffset, 4);
  FUZZ_CHECK(bytes.size() == kHeaderSize + kEntrySize * count + 8);
  FUZZ_CHECK(table.features() == count);
  FUZZ_CHECK(table.documents() == reference::getLE(bytes.data() + 12, 4));
  FUZZ_CHECK(table.unseenWeight() == reference::getLE(bytes.data() + 16, 4));
  std::map<uint64_t, uint32_t> weights;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* entry = bytes.data() + kHeaderSize + kEntrySize * i;
    const uint64_t hash = reference::getLE(entry, 8);
    const auto weight = static_cast<uint32_t>(reference::getLE(entry + 8, 4));
    FUZZ_CHECK(weights.emplace(hash, weight).second);  // accepted tables have distinct hashes
    FUZZ_CHECK(table.weight(hash) == weight);
  }
  FUZZ_CHECK(reusedFingerprinter().fingerprint(text, table) ==
             expectedFingerprint(text, table.options(), weights, table.unseenWeight()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  if ((data[0] & 1) == 0) {
    runLearn(data + 1, size - 1);
  } else {
    runLoad(data + 1, size - 1, data[0]);
  }
  return 0;
}
