#include "simhash/fingerprint.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "simhash/hamming.h"

// xxHash itself, to compare with (static, so apart from the core's copy).
#define XXH_INLINE_ALL
#include <xxhash.h>

using namespace simhash;

namespace {

// The definition, literally: one signed sum per bit.
uint64_t referenceSimhash(const std::vector<uint64_t>& hashes, const std::vector<double>& weights) {
  double sums[64] = {};
  for (size_t j = 0; j < hashes.size(); ++j) {
    for (unsigned i = 0; i < 64; ++i) sums[i] += ((hashes[j] >> i) & 1) ? weights[j] : -weights[j];
  }
  uint64_t fp = 0;
  for (unsigned i = 0; i < 64; ++i) fp |= static_cast<uint64_t>(sums[i] > 0) << i;
  return fp;
}

}  // namespace

TEST_CASE("vectorized accumulation equals the per-bit definition", "[fingerprint]") {
  std::mt19937_64 rng(3);
  const size_t count = GENERATE(0, 1, 2, 3, 254, 255, 256, 511, 1000, 70000);
  CAPTURE(count);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<uint64_t> hashes(count);
    // Few distinct values make ties and lopsided sums common.
    for (auto& h : hashes) h = trial == 0 ? rng() : (rng() % 4) * 0x9E3779B97F4A7C15ull;
    std::vector<double> ones(count, 1.0), weights(count);
    for (auto& w : weights) w = static_cast<double>(rng() % 2000) / 7.0 - 100.0;
    CHECK(simhashOfHashes(hashes.data(), count) == referenceSimhash(hashes, ones));
    CHECK(simhashOfWeightedHashes(hashes.data(), weights.data(), count) == referenceSimhash(hashes, weights));
  }
}

TEST_CASE("ties and no hashes give zero bits, and blank texts the empty feature", "[fingerprint]") {
  CHECK(simhashOfHashes(nullptr, 0) == 0);
  const uint64_t opposite[2] = {0x0123456789ABCDEFull, ~0x0123456789ABCDEFull};
  CHECK(simhashOfHashes(opposite, 2) == 0);
  CHECK(fingerprint("") == hashFeature(""));
  CHECK(fingerprint(" \t\n\u3000") == hashFeature(""));
  FingerprintOptions separated;
  separated.tokenizer.mode = TokenizerMode::Separated;
  CHECK(fingerprint("", separated) == hashFeature(""));
  // Punctuation-only texts fall back to their characters: not 0, and not all alike.
  CHECK(fingerprint("!!! ...") != 0);
  CHECK(hammingDistance(fingerprint("!!! ..."), fingerprint("。")) > 10);
}

TEST_CASE("a single feature's fingerprint is its XXH3 hash", "[fingerprint]") {
  CHECK(fingerprint("hello") == hashFeature("hello"));
  CHECK(fingerprint("HELLO!") == hashFeature("hello"));
  CHECK(hashFeature("") == 0x2D06800538D394C2ull);  // XXH3_64bits of no bytes, from xxHash's own tests
}

TEST_CASE("hashFeature is xxHash's XXH3_64bits at every length, around each of its paths' bounds", "[fingerprint]") {
  std::mt19937 rng(3);
  std::string bytes(5000, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  for (size_t length = 0; length <= bytes.size(); length += length < 1100 ? 1 : 37) {
    CAPTURE(length);
    REQUIRE(hashFeature(std::string_view(bytes.data(), length)) == XXH3_64bits(bytes.data(), length));
  }
}

TEST_CASE("term frequency: a feature seen three times weighs three", "[fingerprint]") {
  Fingerprinter fingerprinter;
  const std::string_view tokens[] = {"a", "b", "b", "b", "c"};
  const std::string_view unique[] = {"a", "b", "c"};
  const double weights[] = {1, 3, 1};
  FingerprintOptions tf;
  tf.weighting = Weighting::TermFrequency;
  CHECK(fingerprint("a b b b c", tf) == fingerprinter.fingerprintTokens(tokens, nullptr, 5));
  CHECK(fingerprint("a b b b c", tf) == fingerprinter.fingerprintTokens(unique, weights, 3));
  // Binary, the default: each distinct feature once.
  CHECK(fingerprint("a b b b c") == fingerprinter.fingerprintTokens(unique, nullptr, 3));
}

TEST_CASE("near-duplicate Chinese sentences land far closer than unrelated texts", "[fingerprint]") {
  const uint64_t a = fingerprint("你妈妈喊你回家吃饭哦，回家罗回家罗");
  const uint64_t b = fingerprint("你妈妈叫你回家吃饭啦，回家罗回家罗");
  const unsigned near = hammingDistance(a, b);

  std::mt19937_64 rng(5);
  const char32_t* alphabet = U"的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴试乎";
  std::u32string chars(alphabet);
  double total = 0;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    std::string x, y;
    auto randomText = [&](std::string& s) {
      for (int i = 0; i < 17; ++i) {
        const char32_t cp = chars[rng() % chars.size()];
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
      }
    };
    randomText(x);
    randomText(y);
    total += hammingDistance(fingerprint(x), fingerprint(y));
  }
  const double unrelated = total / trials;
  CAPTURE(near, unrelated);
  CHECK(unrelated > 28.0);
  CHECK(unrelated < 36.0);
  CHECK(near < 16);
  CHECK(hammingDistance(fingerprint("你妈妈喊你回家吃饭哦，回家罗回家罗"), fingerprint("今天的天气非常好，我们去公园散步吧")) > near);
}
