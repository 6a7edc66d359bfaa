#include "simhash/idf.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "base/bytes.h"
#include "simhash/hamming.h"

using namespace simhash;

namespace {

IdfTable learnIdf(const std::vector<std::string>& documents, FingerprintOptions options = {}) {
  IdfLearner learner(options);
  for (const std::string& d : documents) learner.addDocument(d);
  return learner.table();
}

uint32_t expectedWeight(double documents, double df) {
  return static_cast<uint32_t>(std::lround(kIdfScale * (std::log((documents + 1) / (df + 1)) + 1)));
}

}  // namespace

TEST_CASE("IDF weights follow the documented formula", "[idf]") {
  const IdfTable idf = learnIdf({"the cat sat", "the dog sat", "the bird flew", "the the the"});
  CHECK(idf.documents() == 4);
  CHECK(idf.features() == 6);  // the cat sat dog bird flew
  CHECK(idf.weight(hashFeature("the")) == expectedWeight(4, 4));
  CHECK(idf.weight(hashFeature("sat")) == expectedWeight(4, 2));
  CHECK(idf.weight(hashFeature("cat")) == expectedWeight(4, 1));
  CHECK(idf.weight(hashFeature("never seen")) == idf.unseenWeight());
  CHECK(idf.unseenWeight() == expectedWeight(4, 0));
  CHECK(idf.weight(hashFeature("cat")) > idf.weight(hashFeature("the")));
}

TEST_CASE("equal IDF weights give the plain fingerprint", "[idf]") {
  // Every feature in every document: all weights equal, so only the counts matter.
  const std::string text = "alpha beta gamma beta";
  Fingerprinter fingerprinter;
  for (Weighting weighting : {Weighting::TermFrequency, Weighting::Binary}) {
    FingerprintOptions options;
    options.weighting = weighting;
    const IdfTable idf = learnIdf({text, text, "gamma alpha beta"}, options);
    CHECK(fingerprinter.fingerprint(text, idf) == fingerprinter.fingerprint(text, options));
  }
}

TEST_CASE("IDF weighting lets rare words decide", "[idf]") {
  // Two texts sharing common filler and differing in rare words: IDF pushes them apart,
  // two texts sharing rare words and differing in filler: IDF pulls them together.
  std::vector<std::string> corpus;
  for (int i = 0; i < 200; ++i) corpus.push_back("please note that the order number is " + std::to_string(i));
  const IdfTable idf = learnIdf(corpus);
  Fingerprinter fp;
  FingerprintOptions plain;
  const std::string a = "please note that the order number is zebra quartz";
  const std::string b = "please note that the order number is violin maple";
  const std::string c = "zebra quartz";
  CHECK(hammingDistance(fp.fingerprint(a, idf), fp.fingerprint(b, idf)) > hammingDistance(fp.fingerprint(a, plain), fp.fingerprint(b, plain)));
  CHECK(hammingDistance(fp.fingerprint(a, idf), fp.fingerprint(c, idf)) < hammingDistance(fp.fingerprint(a, plain), fp.fingerprint(c, plain)));
}

TEST_CASE("IDF tables round-trip and reject every truncation and byte flip", "[idf]") {
  FingerprintOptions options;
  options.tokenizer.mode = TokenizerMode::Chars;
  options.tokenizer.charNgram = 3;
  options.weighting = Weighting::Binary;
  const IdfTable idf = learnIdf({"你妈妈喊你回家吃饭哦", "回家罗回家罗", "unrelated text"}, options);
  const std::vector<uint8_t> bytes = idf.serialize();
  IdfTable loaded;
  std::string error;
  REQUIRE(IdfTable::deserialize(bytes.data(), bytes.size(), loaded, error) == Status::Ok);
  CHECK(loaded.serialize() == bytes);
  CHECK(loaded.options().tokenizer.mode == TokenizerMode::Chars);
  CHECK(loaded.options().weighting == Weighting::Binary);
  Fingerprinter fp;
  CHECK(fp.fingerprint("回家吃饭", loaded) == fp.fingerprint("回家吃饭", idf));

  for (size_t size = 0; size < bytes.size(); ++size) {
    CAPTURE(size);
    CHECK(IdfTable::deserialize(bytes.data(), size, loaded, error) == Status::CorruptData);
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> corrupted = bytes;
    corrupted[i] ^= 0x40;
    CAPTURE(i);
    CHECK(IdfTable::deserialize(corrupted.data(), corrupted.size(), loaded, error) == Status::CorruptData);
    CHECK(error.rfind("invalid serialized IDF weights: ", 0) == 0);
  }
}

namespace {

// bytes with fields rewritten and the checksum recomputed: what a buggy writer, not
// damage, would produce.
std::vector<uint8_t> rewritten(std::vector<uint8_t> bytes, size_t offset, uint64_t value, unsigned width) {
  for (unsigned i = 0; i < width; ++i) bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
  const uint64_t sum = bytes::checksum(bytes.data(), bytes.size() - 8);
  for (unsigned i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<uint8_t>(sum >> (8 * i));
  return bytes;
}

}  // namespace

TEST_CASE("IDF tables the learner cannot produce are rejected, field by field", "[idf][serialize]") {
  FingerprintOptions options;  // auto mode
  const IdfTable idf = learnIdf({"one two three", "two three four", "three"}, options);
  const std::vector<uint8_t> bytes = idf.serialize();
  REQUIRE(idf.documents() == 3);
  REQUIRE(idf.unseenWeight() == 611);  // floor(256 * (ln(4 / 1) + 1) + 0.5)
  // Header: options at 6..10, caller flags 11, documents 12, unseen weight 16, count 20;
  // entries from 24: hash (8 bytes), weight (4). Weights for 3 documents: 256..433.
  auto [offset, value, width, message] = GENERATE(table<size_t, uint64_t, unsigned, std::string>({
      {11, 255, 1, "caller flags 255 has bits other than 1 (NFKC) and 2 (segmenter)"},
      {11, 4, 1, "caller flags 4 has bits other than 1 (NFKC) and 2 (segmenter)"},
      {11, 2, 1, "the segmenter flag is set but the tokenizer mode is not 'separated'"},
      {12, 0, 4, "0 documents cannot have 4 features"},
      {16, 0, 4, "the weight of unseen features is 0, not 611 as for 3 documents"},
      {16, 4294967295u, 4, "the weight of unseen features is 4294967295, not 611 as for 3 documents"},
      {16, 610, 4, "the weight of unseen features is 610, not 611 as for 3 documents"},
      {24 + 8, 255, 4, "feature 0 weighs 255, outside 256..433 for 3 documents"},
      {24 + 8, 434, 4, "feature 0 weighs 434, outside 256..433 for 3 documents"},
      {24 + 12 + 8, 0, 4, "feature 1 weighs 0, outside 256..433 for 3 documents"},
  }));
  CAPTURE(offset, value);
  IdfTable loaded;
  std::string error;
  CHECK(IdfTable::deserialize(bytes.data(), bytes.size(), loaded, error) == Status::Ok);
  const std::vector<uint8_t> bad = rewritten(bytes, offset, value, width);
  CHECK(IdfTable::deserialize(bad.data(), bad.size(), loaded, error) == Status::CorruptData);
  CHECK(error == "invalid serialized IDF weights: " + message);
  CHECK(loaded.serialize() == bytes);  // untouched by the rejected bytes
}

TEST_CASE("IDF tables of every kind the learner makes load", "[idf][serialize]") {
  FingerprintOptions separated;
  separated.tokenizer.mode = TokenizerMode::Separated;
  for (uint8_t flags = 0; flags <= kCallerFlagsKnown; ++flags) {
    for (const std::vector<std::string>& corpus : {std::vector<std::string>{}, {""}, {"a", "a"}, {"x y", "z", " "}}) {
      IdfLearner learner(separated, flags);
      for (const std::string& text : corpus) learner.addDocument(text);
      const std::vector<uint8_t> bytes = learner.table().serialize();
      IdfTable loaded;
      std::string error;
      CAPTURE(flags, corpus.size());
      CHECK(IdfTable::deserialize(bytes.data(), bytes.size(), loaded, error) == Status::Ok);
      CHECK(error.empty());
    }
  }
}
