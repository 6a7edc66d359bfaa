#include "simhash/tokenizer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "../fuzz/reference.h"
#include "text/unicode.h"

using simhash::FeatureExtractor;
using simhash::TokenizerMode;
using simhash::TokenizerOptions;

namespace {

std::vector<std::string> features(std::string_view text, TokenizerOptions options = {}) {
  FeatureExtractor extractor;
  std::vector<std::string> out;
  for (std::string_view f : extractor.extract(text, options)) out.emplace_back(f);
  return out;
}

TokenizerOptions with(TokenizerMode mode, unsigned wordNgram, unsigned charNgram, bool caseFold = true,
                      bool stripPunctuation = true) {
  TokenizerOptions o;
  o.mode = mode;
  o.wordNgram = static_cast<uint8_t>(wordNgram);
  o.charNgram = static_cast<uint8_t>(charNgram);
  o.caseFold = caseFold;
  o.stripPunctuation = stripPunctuation;
  return o;
}

TokenizerOptions keepingPunctuation(TokenizerMode mode = TokenizerMode::Auto, unsigned charNgram = 2) {
  return with(mode, 1, charNgram, true, false);
}

using Features = std::vector<std::string>;

}  // namespace

TEST_CASE("auto mode: words are runs of letters and digits, folded", "[tokenizer]") {
  CHECK(features("Hello, World! 42 times...") == Features{"hello", "world", "42", "times"});
  CHECK(features("don't stop") == Features{"dont", "stop"});  // punctuation is removed
  CHECK(features("don't stop", keepingPunctuation()) == Features{"don", "t", "stop"});
  CHECK(features("", {}) == Features{""});  // blank: the empty feature (format 4)
  CHECK(features(" ,.!?  ") == Features{",.", ".!", "!?"});  // no word: the characters (fallback)
  CHECK(features("Hello", with(TokenizerMode::Auto, 1, 2, false)) == Features{"Hello"});
}

TEST_CASE("auto mode: CJK runs become character n-grams", "[tokenizer]") {
  CHECK(features("回家吃饭") == Features{"回家", "家吃", "吃饭"});
  CHECK(features("回家，吃", keepingPunctuation()) == Features{"回家", "吃"});  // a run shorter than n is one feature
  CHECK(features("你好abc世界") == Features{"abc", "你好", "世界"});  // words first, then CJK
  CHECK(features("こんにちは") == Features{"こん", "んに", "にち", "ちは"});
  CHECK(features("안녕하세요") == Features{"안녕", "녕하", "하세", "세요"});
  CHECK(features("回家吃饭", with(TokenizerMode::Auto, 1, 3)) == Features{"回家吃", "家吃饭"});
}

TEST_CASE("word n-grams are slices of single-space-joined words", "[tokenizer]") {
  CHECK(features("the quick  brown, fox", with(TokenizerMode::Auto, 2, 2)) ==
        Features{"the quick", "quick brown", "brown fox"});
  CHECK(features("only", with(TokenizerMode::Auto, 3, 2)) == Features{"only"});
  CHECK(features("a b", with(TokenizerMode::Auto, 3, 2)) == Features{"a b"});
  CHECK(features("Go 回家 now", with(TokenizerMode::Words, 2, 2)) == Features{"go 回", "回 家", "家 now"});
}

TEST_CASE("chars mode: n-grams over the text with separator runs as one space", "[tokenizer]") {
  CHECK(features("Ab, c", keepingPunctuation(TokenizerMode::Chars, 3)) == Features{"ab ", "b c"});
  CHECK(features("Ab+ c", with(TokenizerMode::Chars, 1, 3)) == Features{"ab ", "b c"});  // a symbol is no punctuation
  CHECK(features("  ab  ", with(TokenizerMode::Chars, 1, 3)) == Features{"ab"});
  CHECK(features("回家 吃", keepingPunctuation(TokenizerMode::Chars)) == Features{"回家", "家 ", " 吃"});
}

TEST_CASE("stripPunctuation removes punctuation, and whitespace between CJK characters", "[tokenizer]") {
  CHECK(features("e-mail: Don't (stop)!") == Features{"email", "dont", "stop"});
  CHECK(features("a+b $5") == Features{"a", "b", "5"});  // symbols still separate
  CHECK(features("回家，吃饭") == Features{"回家", "家吃", "吃饭"});
  CHECK(features("回家。\n 「吃饭」") == Features{"回家", "家吃", "吃饭"});
  CHECK(features("回家 ok 吃饭") == Features{"ok", "回家", "吃饭"});  // a word still ends a run
  CHECK(features("回家 😀 吃饭") == Features{"回家", "吃饭"});         // so does a symbol
  CHECK(features("回家，吃饭", keepingPunctuation()) == Features{"回家", "吃饭"});
  CHECK(features("回家 吃", with(TokenizerMode::Chars, 1, 2)) == Features{"回家", "家吃"});
  CHECK(features("回家 ， ok", with(TokenizerMode::Chars, 1, 2)) == Features{"回家", "家 ", " o", "ok"});
  CHECK(features("it's 回，家", with(TokenizerMode::Words, 1, 2)) == Features{"its", "回", "家"});
  // Separated tokens are the caller's: nothing is removed.
  CHECK(features("don't\x1f回，家", with(TokenizerMode::Separated, 1, 2)) == Features{"don't", "回，家"});
  // Punctuation-only texts still fall back to their characters.
  CHECK(features("。！") == Features{"。！"});
}

TEST_CASE("punctuation is Unicode general category P", "[unicode]") {
  using simhash::unicode::isPunctuation;
  for (char32_t cp : std::u32string(U"!\"#%&'()*,-./:;?@[\\]_{}¡§«¶·»¿、。〃〈〉《》「」『』【】〔〕〜・！＂＃％＆＇（）＊，－．／：；？＠［＼］＿｛｝｡｢｣､･—–‐‘’“”…‰′″‹›※‼⁇⁈⁉")) {
    CAPTURE(static_cast<uint32_t>(cp));
    CHECK(isPunctuation(cp));
  }
  for (char32_t cp : std::u32string(U"$+<=>^`|~ aZ09é你ア한😀€©°±×÷\x1f\u3000\uFFFD")) {
    CAPTURE(static_cast<uint32_t>(cp));
    CHECK_FALSE(isPunctuation(cp));
  }
}

TEST_CASE("case folding covers Latin, Greek, Cyrillic, and full-width letters and digits", "[tokenizer][unicode]") {
  using simhash::unicode::foldCase;
  const auto [upper, lower] = GENERATE(table<char32_t, char32_t>({
      {U'A', U'a'}, {U'Z', U'z'}, {U'À', U'à'}, {U'Þ', U'þ'}, {U'Ā', U'ā'}, {U'Ł', U'ł'}, {U'Ÿ', U'ÿ'},
      {U'ſ', U's'}, {U'µ', U'μ'}, {U'Σ', U'σ'}, {U'ς', U'σ'}, {U'Ω', U'ω'}, {U'Ά', U'ά'}, {U'Ώ', U'ώ'},
      {U'Д', U'д'}, {U'Ё', U'ё'}, {U'Я', U'я'}, {U'Ѣ', U'ѣ'}, {U'Ӂ', U'ӂ'}, {U'Ա', U'ա'}, {U'Ḁ', U'ḁ'},
      {U'ẞ', U'ß'}, {U'Ａ', U'a'}, {U'ａ', U'a'}, {U'０', U'0'}, {U'９', U'9'}, {U'Ⴀ', U'ⴀ'},
  }));
  CAPTURE(static_cast<uint32_t>(upper));
  CHECK(foldCase(upper) == lower);
  CHECK(foldCase(lower) == lower);
}

TEST_CASE("characters outside the folding tables are unchanged", "[unicode]") {
  using simhash::unicode::foldCase;
  for (char32_t cp : {U'a', U'1', U'ß', U'ı', U'İ', U'中', U'あ', U'😀', char32_t{0x10FFFF}}) CHECK(foldCase(cp) == cp);
}

TEST_CASE("the per-page fast paths agree with the range tables everywhere", "[unicode]") {
  using namespace simhash::unicode;
  size_t disagreements = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (foldCase(cp) != simhash::unicode::detail::foldCaseByRanges(cp) || classify(cp) != simhash::unicode::detail::classifyByRanges(cp)) ++disagreements;
  }
  CHECK(disagreements == 0);
  size_t uniformPages = 0;
  for (uint8_t page : simhash::unicode::detail::kBmpPages) uniformPages += (page & simhash::unicode::detail::kUniformClass) != 0;
  CHECK(uniformPages > 100);  // CJK, Hangul and symbol blocks take the fast path
}

// The tokenizer sizes its buffers on this: folded text is never longer than its input.
TEST_CASE("folding never lengthens a code point's UTF-8", "[unicode]") {
  using namespace simhash::unicode;
  char before[4], after[4];
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    if (encodeUtf8(foldCase(cp), after) > encodeUtf8(cp, before)) FAIL("U+" << std::hex << static_cast<uint32_t>(cp));
  }
  SUCCEED();
}

// The auto tokenizer slices CJK features straight out of the input, which is only right
// while folding leaves every CJK code point as it is.
TEST_CASE("folding never changes a CJK code point", "[unicode]") {
  using namespace simhash::unicode;
  size_t cjk = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    if (classify(cp) != CharClass::Cjk) continue;
    ++cjk;
    if (foldCase(cp) != cp) FAIL("U+" << std::hex << static_cast<uint32_t>(cp) << " folds");
  }
  CHECK(cjk > 100000);
}

TEST_CASE("UTF-8 decoding replaces maximal invalid subsequences like WHATWG", "[unicode]") {
  auto decode = [](std::string_view bytes) {
    std::u32string out;
    size_t pos = 0;
    while (pos < bytes.size()) {
      out.push_back(simhash::unicode::decodeNext(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), pos));
    }
    return out;
  };
  CHECK(decode("a\xE4\xB8\xAD") == U"a中");
  CHECK(decode("\xF0\x9F\x98\x80") == U"😀");
  CHECK(decode("\xF0\x90\x80") == U"\uFFFD");            // truncated sequence: one replacement
  CHECK(decode("\xF0\x90\x80" "a") == U"\uFFFDa");
  CHECK(decode("\xC0\xAF") == U"\uFFFD\uFFFD");          // overlong lead is invalid on its own
  CHECK(decode("\xED\xA0\x80") == U"\uFFFD\uFFFD\uFFFD"); // surrogate
  CHECK(decode("\xF4\x90\x80\x80") == U"\uFFFD\uFFFD\uFFFD\uFFFD");  // above U+10FFFF
  CHECK(decode("\xE4\xB8" "x") == U"\uFFFDx");
  CHECK(decode("\x80\xFF") == U"\uFFFD\uFFFD");
}

TEST_CASE("random bytes never read out of bounds and give deterministic features", "[tokenizer]") {
  std::mt19937_64 rng(11);
  FeatureExtractor a, b;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) c = static_cast<char>(rng() % 4 == 0 ? 0x80 + rng() % 0x80 : rng() % 256);
    const auto mode = static_cast<TokenizerMode>(trial % 3);
    const auto options = with(mode, 1 + trial % 3, 1 + trial % 4);
    // A copy on the heap of exactly the text's size lets ASan catch any over-read.
    std::vector<char> exact(text.begin(), text.end());
    const auto& fa = a.extract(std::string_view(exact.data(), exact.size()), options);
    std::vector<std::string> first(fa.begin(), fa.end());
    const auto& fb = b.extract(text, options);
    CHECK(first == std::vector<std::string>(fb.begin(), fb.end()));
  }
}

TEST_CASE("texts without word or CJK features fall back to their characters", "[tokenizer]") {
  simhash::FeatureExtractor extractor;
  simhash::TokenizerOptions options;
  auto features = [&](std::string_view text) {
    const auto& views = extractor.extract(text, options);
    return std::vector<std::string>(views.begin(), views.end());
  };
  CHECK(features("。") == std::vector<std::string>{"。"});
  CHECK(features("  !!  ?\t") == std::vector<std::string>{"!!", "! ", " ?"});
  CHECK(features("😀🎉") == std::vector<std::string>{"😀🎉"});
  CHECK(features(" \t\u3000\n") == std::vector<std::string>{""});  // blank: one empty feature
  CHECK(features("") == std::vector<std::string>{""});
  CHECK(features("ok!") == std::vector<std::string>{"ok"});  // a word: no fallback
  options.mode = simhash::TokenizerMode::Chars;
  CHECK(features("- -") == std::vector<std::string>{"- ", " -"});
}

TEST_CASE("separated mode: tokens split on U+001F only, folded, joined into n-grams", "[tokenizer]") {
  simhash::FeatureExtractor extractor;
  simhash::TokenizerOptions options;
  options.mode = simhash::TokenizerMode::Separated;
  auto features = [&](std::string_view text) {
    const auto& views = extractor.extract(text, options);
    return std::vector<std::string>(views.begin(), views.end());
  };
  CHECK(features("New York\x1f" "你好\x1f\x1f" "!") == std::vector<std::string>{"new york", "你好", "!"});
  options.wordNgram = 2;
  CHECK(features("A\x1f" "b\x1f" "C") == std::vector<std::string>{"a b", "b c"});
}

TEST_CASE("invalid bytes never overflow the scratch buffers", "[tokenizer]") {
  // Each invalid byte decodes to the 3-byte U+FFFD, which the fallback and separated
  // mode keep as a character: the worst case for the buffer bounds.
  simhash::FeatureExtractor extractor;
  simhash::TokenizerOptions options;
  const std::string invalid(64, '\xff');
  const std::string fffd = "\xef\xbf\xbd";
  CHECK(extractor.extract(invalid, options).size() == 63);  // fallback: bigrams of 64 U+FFFD
  CHECK(std::string(extractor.extract(invalid, options)[0]) == fffd + fffd);
  options.mode = simhash::TokenizerMode::Separated;
  std::string tokens;
  for (int i = 0; i < 64; ++i) tokens += "\xff\x1f";
  const auto& views = extractor.extract(tokens, options);
  REQUIRE(views.size() == 64);
  CHECK(std::string(views[63]) == fffd);
}

namespace {

// Many batches of features, very long words and CJK runs of `span` bytes and more, every
// mode, n-grams of every size: the features equal the reference's (tests/fuzz/reference.h),
// in order, and fit the buffers sized for the mode (ASan checks the writes).
void checkLongTexts(size_t span) {
  std::mt19937_64 rng(5);
  const std::vector<std::string> pieces = {"word", "Ünïcödé", "你好世界", "、", " ", "\n", "don't", "x",
                                           "😀", "\xff", "\x1f", "ＡＢＣ", "...", "日本語のテキスト", "  "};
  auto randomText = [&](size_t bytes) {
    std::string text;
    while (text.size() < bytes) text += pieces[rng() % pieces.size()];
    return text;
  };
  std::vector<std::string> texts = {randomText(3 * span + 17), std::string(2 * span + 5, 'q') + " tail",
                                    "head " + std::string(span + 3, 'Q'), randomText(span - 1) + std::string(300, 'z')};
  std::string cjk;
  while (cjk.size() < 2 * span + 100) cjk += "漢字かな";
  texts.push_back(cjk);
  texts.push_back("a " + cjk + " b");
  std::string emoji;  // no word or CJK feature: the fallback, over many batches
  while (emoji.size() < 2 * span + 50) emoji += "😀 !";
  texts.push_back(emoji);
  FeatureExtractor extractor;
  size_t most = 0;
  for (const std::string& text : texts) {
    for (auto mode : {TokenizerMode::Auto, TokenizerMode::Words, TokenizerMode::Chars, TokenizerMode::Separated}) {
      for (unsigned n : {1u, 2u, 3u, 16u}) {
        const TokenizerOptions options = with(mode, n, n);
        std::vector<std::string> got = extractor.extract(text, options);
        std::vector<std::string> want = reference::features(text, options);
        CAPTURE(text.size(), static_cast<int>(mode), n);
        CHECK(got.size() == want.size());
        CHECK(got == want);
        most = std::max(most, got.size());
      }
    }
  }
  REQUIRE(most > 4 * FeatureExtractor::kBatch);  // many batches
}

}  // namespace

TEST_CASE("long texts give the features of the definition, in order", "[tokenizer][long]") {
  checkLongTexts(8192);
}

// The same on texts four times as long: the long suite's (npm run test:long).
TEST_CASE("long texts give the features of the definition, in order, 32 KB spans", "[tokenizer][long][.full]") {
  checkLongTexts(32768);
}

TEST_CASE("features are handed over in batches", "[tokenizer][long]") {
  FeatureExtractor extractor;
  struct Count final : simhash::FeatureSink {
    size_t features = 0, batches = 0;
    void take(const std::string_view*, size_t count) override {
      CHECK(count <= FeatureExtractor::kBatch);
      features += count;
      ++batches;
    }
  } count;
  std::string text;
  while (text.size() < 1 << 19) text += "lorem ipsum 你好世界 dolor. ";
  extractor.extract(text, TokenizerOptions{}, count);
  CHECK(count.features == reference::features(text, TokenizerOptions{}).size());
  CHECK(count.batches == (count.features + FeatureExtractor::kBatch - 1) / FeatureExtractor::kBatch);
  extractor = FeatureExtractor();  // frees the scratch
  CHECK(extractor.extract("still works", TokenizerOptions{}) == std::vector<std::string>{"still", "works"});
}
