#include "simhash/idf.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "base/bytes.h"
#include "base/radix.h"

namespace simhash {

using bytes::checksum;
using bytes::kChecksumSize;
using bytes::getLE;
using bytes::putLE;

namespace {

constexpr char kMagic[4] = {'S', 'H', 'I', 'F'};
constexpr uint64_t kFormatVersion = 1;
constexpr size_t kHeaderSize = 24;
constexpr size_t kEntrySize = 12;

// ln(x) for x >= 1 from IEEE-754 arithmetic alone (no libm: its results and tables
// differ between platforms and would cost the WASM build 4 KB): x = m * 2^e with m in
// [1, 2), ln x = e ln 2 + 2 atanh((m - 1) / (m + 1)), the series summed to below 1e-12.
double naturalLog(double x) {
  int exponent = 0;
  while (x >= 2.0) {
    x *= 0.5;
    ++exponent;
  }
  const double t = (x - 1.0) / (x + 1.0), t2 = t * t;
  double term = t, sum = 0.0;
  for (int k = 1; k < 60; k += 2) {
    sum += term / k;
    term *= t2;
  }
  return exponent * 0.69314718055994530942 + 2.0 * sum;
}

uint32_t idfWeight(uint32_t documents, uint32_t documentFrequency) {
  const double idf = naturalLog((documents + 1.0) / (documentFrequency + 1.0)) + 1.0;
  return static_cast<uint32_t>(kIdfScale * idf + 0.5);
}

}  // namespace

uint32_t IdfTable::weight(uint64_t hash) const {
  const auto it = std::lower_bound(hashes_.begin(), hashes_.end(), hash);
  return it != hashes_.end() && *it == hash ? weights_[it - hashes_.begin()] : unseenWeight_;
}

IdfLearner::IdfLearner(const FingerprintOptions& options, uint8_t callerFlags)
    : options_(options), callerFlags_(callerFlags) {}

void IdfLearner::addDocument(std::string_view utf8) {
  distinct_.clear(false);
  extractor_.extract(utf8, options_.tokenizer, distinct_);
  // Not a range insert: that template alone is 0.3 KB gz of the download (docs/download.md).
  for (size_t h = 0; h < distinct_.size(); ++h) seen_.push_back(distinct_.hashes()[h]);
  ++documents_;
}

void IdfLearner::releaseScratch() {
  extractor_.~FeatureExtractor();
  new (&extractor_) FeatureExtractor();
  distinct_.~DistinctHashes();
  new (&distinct_) DistinctHashes();
}

IdfTable IdfLearner::table() const {
  IdfTable table;
  table.options_ = options_;
  table.callerFlags_ = callerFlags_;
  table.documents_ = documents_;
  table.unseenWeight_ = idfWeight(documents_, 0);
  // Each hash occurs in seen_ once per document containing it: runs of the sorted list
  // are the document frequencies.
  std::vector<KeyedItem> sorted(seen_.size()), scratch;
  for (size_t i = 0; i < seen_.size(); ++i) sorted[i] = {seen_[i], 0};
  radixSort(sorted, scratch, 64);  // the one sort of the core: no std::sort in the WASM build
  for (size_t i = 0; i < sorted.size();) {
    size_t end = i + 1;
    while (end < sorted.size() && sorted[end].key == sorted[i].key) ++end;
    table.hashes_.push_back(sorted[i].key);
    table.weights_.push_back(idfWeight(documents_, static_cast<uint32_t>(end - i)));
    i = end;
  }
  return table;
}

std::vector<uint8_t> IdfTable::serialize() const {
  std::vector<uint8_t> out(kMagic, kMagic + 4);
  out.reserve(kHeaderSize + kEntrySize * hashes_.size() + kChecksumSize);
  putLE(out, kFormatVersion, 2);
  uint8_t options[kOptionBytes];
  encodeOptions(options_, options);
  out.insert(out.end(), options, options + kOptionBytes);
  putLE(out, callerFlags_, 1);
  putLE(out, documents_, 4);
  putLE(out, unseenWeight_, 4);
  putLE(out, hashes_.size(), 4);
  for (size_t i = 0; i < hashes_.size(); ++i) {
    putLE(out, hashes_[i], 8);
    putLE(out, weights_[i], 4);
  }
  putLE(out, checksum(out.data(), out.size()), 8);
  return out;
}

Status IdfTable::deserialize(const uint8_t* data, size_t size, IdfTable& out, std::string& error) {
  auto fail = [&](std::string message) {
    error = "invalid serialized IDF weights: " + message;
    return Status::CorruptData;
  };
  uint64_t count = 0;
  const std::string damage = bytes::checkEnvelope(data, size, {kMagic, kFormatVersion, kHeaderSize, 20, kEntrySize, "features"}, count);
  if (!damage.empty()) return fail(damage);
  // Past the checksum, anything odd is a writer's bug rather than damage; still checked.
  // Every field is held to what IdfLearner::table() can write.
  IdfTable table;
  if (!decodeOptions(data + 6, table.options_)) return fail("unknown tokenizer options");
  table.callerFlags_ = data[11];
  if (table.callerFlags_ > kCallerFlagsKnown) {
    return fail("caller flags " + bytes::decimal(table.callerFlags_) + " has bits other than 1 (NFKC) and 2 (segmenter)");
  }
  if ((table.callerFlags_ & kCallerFlagSegmenter) && table.options_.tokenizer.mode != TokenizerMode::Separated) {
    return fail("the segmenter flag is set but the tokenizer mode is not 'separated'");
  }
  const uint32_t n = table.documents_ = static_cast<uint32_t>(getLE(data + 12, 4));
  // Every document has at least one feature (a blank one the empty feature).
  if ((n == 0) != (count == 0)) {
    return fail(bytes::decimal(n) + " documents cannot have " + bytes::decimal(count) + " features");
  }
  table.unseenWeight_ = static_cast<uint32_t>(getLE(data + 16, 4));
  if (table.unseenWeight_ != idfWeight(n, 0)) {
    return fail("the weight of unseen features is " + bytes::decimal(table.unseenWeight_) + ", not " +
                bytes::decimal(idfWeight(n, 0)) + " as for " + bytes::decimal(n) + " documents");
  }
  // A feature is in 1..n documents; the weight falls as that number grows.
  const uint32_t lightest = idfWeight(n, n), heaviest = idfWeight(n, 1);
  table.hashes_.resize(count);
  table.weights_.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* entry = data + kHeaderSize + kEntrySize * i;
    table.hashes_[i] = getLE(entry, 8);
    table.weights_[i] = static_cast<uint32_t>(getLE(entry + 8, 4));
    if (i > 0 && table.hashes_[i] <= table.hashes_[i - 1]) return fail("feature hashes are not in increasing order");
    if (table.weights_[i] < lightest || table.weights_[i] > heaviest) {
      return fail("feature " + bytes::decimal(i) + " weighs " + bytes::decimal(table.weights_[i]) + ", outside " +
                  bytes::decimal(lightest) + ".." + bytes::decimal(heaviest) + " for " + bytes::decimal(n) + " documents");
    }
  }
  out = std::move(table);
  return Status::Ok;
}

}  // namespace simhash
