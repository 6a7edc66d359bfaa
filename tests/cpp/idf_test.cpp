#include "simhash/idf.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "simhash/hamming.h"

using namespace simhash;

namespace {

IdfTable learn(const std::vector<std::string>& documents, FingerprintOptions options = {}) {
  IdfLearner learner(options);
  for (const std::string& d : documents) learner.addDocument(d);
  return learner.table();
}

uint32_t expectedWeight(double documents, double df) {
  return static_cast<uint32_t>(std::lround(kIdfScale * (std::log((documents + 1) / (df + 1)) + 1)));
}

}  // namespace

TEST_CASE("IDF weights follow the documented formula", "[idf]") {
  const IdfTable idf = learn({"the cat sat", "the dog sat", "the bird flew", "the the the"});
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
    const IdfTable idf = learn({text, text, "gamma alpha beta"}, options);
    CHECK(fingerprinter.fingerprint(text, idf) == fingerprinter.fingerprint(text, options));
  }
}

TEST_CASE("IDF weighting lets rare words decide", "[idf]") {
  // Two texts sharing common filler and differing in rare words: IDF pushes them apart,
  // two texts sharing rare words and differing in filler: IDF pulls them together.
  std::vector<std::string> corpus;
  for (int i = 0; i < 200; ++i) corpus.push_back("please note that the order number is " + std::to_string(i));
  const IdfTable idf = learn(corpus);
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
  const IdfTable idf = learn({"你妈妈喊你回家吃饭哦", "回家罗回家罗", "unrelated text"}, options);
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
