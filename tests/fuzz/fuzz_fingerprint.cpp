// libFuzzer target: bytes -> options -> features and fingerprints, checked against the
// plain reimplementation of the fingerprint specification in reference.h.
//
// Input: the two option bytes of reference::optionsFromHeader, then the text (any bytes,
// invalid UTF-8 included). The high bits of byte 1: bits 4-6 pick the weight scale for
// fingerprintTokens, bit 7 skips the tokenizer: each text byte then picks one of a few
// hashes, so that ties, lopsided sums and counts across the 255-hash SWAR chunks are
// common.
//
// Checked for every input:
//   - FeatureExtractor yields exactly the reference features (the reference decodes with
//     its own WHATWG decoder and re-encodes every code point; the core slices CJK
//     features straight out of the input and writes into buffers sized in advance);
//   - Fingerprinter::fingerprint equals per-bit sums over XXH3 of those features;
//   - a Fingerprinter reused across inputs agrees with a fresh one and with
//     simhash::fingerprint (no state leaks between calls);
//   - fingerprintTokens, unweighted and weighted, equals per-bit sums in input order.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reference.h"
#include "simhash/fingerprint.h"

namespace {

using simhash::Weighting;

// Weights for fingerprintTokens: the text's bytes as signed integers times a scale that
// makes the sums exact, fractional, tiny (subnormal) or huge. Weights stay finite (the
// precondition; |byte| <= 128), but with 1e306 the sums can overflow to infinity and then
// become NaN, which must still round the same way in the core and in the reference.
std::vector<double> makeWeights(std::string_view text, size_t count, unsigned scheme) {
  static constexpr double kScales[8] = {1.0, 1.0 / 3, -0.75, 4.9e-324, 1e-300, 1e306, 0.0, 1e15};
  std::vector<double> weights(count);
  for (size_t j = 0; j < count; ++j) {
    // A blank text (possibly empty) has one feature, the empty one (format 4).
    const int byte = text.empty() ? 1 : static_cast<signed char>(text[j % text.size()]);
    weights[j] = byte * kScales[scheme];
  }
  return weights;
}

// One Fingerprinter for the whole run, as the bindings use one for the module's lifetime.
simhash::Fingerprinter& reusedFingerprinter() {
  static simhash::Fingerprinter instance;
  return instance;
}

void checkRawHashes(std::string_view payload) {
  static constexpr uint64_t kPalette[8] = {0,
                                           ~uint64_t{0},
                                           0x5555555555555555ull,
                                           0xAAAAAAAAAAAAAAAAull,
                                           0x00000000FFFFFFFFull,
                                           0x8000000000000001ull,
                                           0x9E3779B97F4A7C15ull,
                                           0x0123456789ABCDEFull};
  std::vector<uint64_t> hashes;
  std::vector<double> weights;
  for (unsigned char byte : payload) {
    hashes.push_back(kPalette[byte & 7]);
    weights.push_back(static_cast<double>(static_cast<int>(byte >> 3) - 15));
  }
  const std::vector<int64_t> ones(hashes.size(), 1);
  FUZZ_CHECK(simhash::simhashOfHashes(hashes.data(), hashes.size()) == reference::simhash(hashes, ones));
  FUZZ_CHECK(simhash::simhashOfWeightedHashes(hashes.data(), weights.data(), hashes.size()) ==
             reference::simhash(hashes, weights));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
  if (data[1] & 0x80) {
    checkRawHashes(text);
    return 0;
  }
  const simhash::FingerprintOptions options = reference::optionsFromHeader(data[0], data[1]);

  const std::vector<std::string> expected = reference::features(text, options.tokenizer);
  simhash::FeatureExtractor extractor;
  const std::vector<std::string> features = extractor.extract(text, options.tokenizer);
  FUZZ_CHECK(features.size() == expected.size());
  for (size_t j = 0; j < features.size(); ++j) FUZZ_CHECK(features[j] == expected[j]);

  std::vector<uint64_t> hashes;
  if (options.weighting == Weighting::Binary) {
    for (const std::string& f : std::set<std::string>(expected.begin(), expected.end())) hashes.push_back(reference::hash(f));
  } else {
    for (const std::string& f : expected) hashes.push_back(reference::hash(f));
  }
  const uint64_t want = reference::simhash(hashes, std::vector<int64_t>(hashes.size(), 1));
  FUZZ_CHECK(reusedFingerprinter().fingerprint(text, options) == want);
  simhash::Fingerprinter fresh;
  FUZZ_CHECK(fresh.fingerprint(text, options) == want);
  FUZZ_CHECK(fresh.fingerprint(text, options) == want);  // again, with buffers from the first call
  FUZZ_CHECK(simhash::fingerprint(text, options) == want);

  // The caller-supplied features path, fed the same features.
  const std::vector<std::string_view> tokens(expected.begin(), expected.end());
  std::vector<uint64_t> tokenHashes;
  for (std::string_view t : tokens) tokenHashes.push_back(reference::hash(t));
  const uint64_t unweighted = reference::simhash(tokenHashes, std::vector<int64_t>(tokens.size(), 1));
  FUZZ_CHECK(reusedFingerprinter().fingerprintTokens(tokens.data(), nullptr, tokens.size()) == unweighted);
  if (options.weighting == Weighting::TermFrequency) FUZZ_CHECK(unweighted == want);
  const std::vector<double> ones(tokens.size(), 1.0);
  FUZZ_CHECK(reusedFingerprinter().fingerprintTokens(tokens.data(), ones.data(), tokens.size()) == unweighted);
  const std::vector<double> weights = makeWeights(text, tokens.size(), (data[1] >> 4) & 7);
  FUZZ_CHECK(reusedFingerprinter().fingerprintTokens(tokens.data(), weights.data(), tokens.size()) ==
             reference::simhash(tokenHashes, weights));
  return 0;
}
