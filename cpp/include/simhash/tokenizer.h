#pragma once
// Turning text into SimHash features.
//
// Text is decoded from UTF-8 as WHATWG's TextDecoder does: each maximal invalid
// subsequence becomes U+FFFD, so invalid input is deterministic and never read out of
// bounds. Each code point is then case-folded (unicode.h: simple folding for Latin,
// Greek, Cyrillic, Armenian, Georgian; full-width letters and digits to ASCII) and classified as
//   - word: letters, digits and combining marks of alphabetic scripts;
//   - CJK: Han ideographs, kana, Hangul, bopomofo (scripts written without spaces);
//   - separator: everything else (spaces, punctuation, symbols, emoji, U+FFFD).
// Features are the UTF-8 bytes of the folded text:
//   Auto  (default): word n-grams (wordNgram words joined by one U+0020) over all words of
//                    the text, plus character n-grams (charNgram) inside each CJK run.
//   Words: every word and every CJK character is a token; features are token n-grams
//          (wordNgram tokens joined by one U+0020).
//   Chars: separator runs become one U+0020, leading and trailing ones are dropped, and
//          features are character n-grams (charNgram code points) of the result.
//   Separated: the text is already split into tokens, separated by U+001F (for tokenizers
//          outside the core, such as Intl.Segmenter in the JS layer); each folded token is
//          a word, whatever its characters, and features are word n-grams as in Words.
// stripPunctuation (default; not in Separated mode, whose tokens are the caller's): before
// all this, code points of Unicode general category P are removed (don't -> dont,
// e-mail -> email), then whitespace (White_Space) between two CJK characters (你好，\n世界 ->
// 你好世界), so edits to punctuation and line breaks change no feature.
// A sequence shorter than its n-gram size yields one feature: the whole sequence.
// Fallback: a text that yields no feature this way (only punctuation, symbols, emoji...)
// gets the character n-grams (charNgram) of its folded text with every whitespace run as
// one U+0020, leading and trailing whitespace dropped. Texts that are empty or all
// whitespace have one feature, the empty byte string (format 4).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simhash {

enum class TokenizerMode : uint8_t { Auto = 0, Words = 1, Chars = 2, Separated = 3 };

/// Separated mode's token boundary: U+001F, the ASCII unit separator.
constexpr char32_t kTokenSeparator = 0x1F;

struct TokenizerOptions {
  TokenizerMode mode = TokenizerMode::Auto;
  uint8_t wordNgram = 1;  ///< 1..kMaxNgram
  uint8_t charNgram = 2;  ///< 1..kMaxNgram
  bool caseFold = true;
  /// Auto, Words, Chars (format 3): punctuation is removed before tokenizing, and so is
  /// whitespace between two CJK characters. Default on: measured better on both corpora
  /// of the quality benchmark (edits to punctuation and line breaks move no feature).
  bool stripPunctuation = true;
};

constexpr unsigned kMaxNgram = 16;

/// @return true when the n-gram sizes are within 1..kMaxNgram and the mode is known.
bool isValid(const TokenizerOptions& options);

/// Receives features as FeatureExtractor produces them, a batch at a time.
class FeatureSink {
 public:
  /// The views are valid during the call only.
  virtual void take(const std::string_view* features, size_t count) = 0;

 protected:
  ~FeatureSink() = default;
};

/// Splits text into features. Reuses its buffers between calls; not thread-safe.
class FeatureExtractor {
 public:
  /// Features are handed over kBatch at a time, so none is stored for long.
  static constexpr size_t kBatch = 4096;

  /// Hands every feature of the text to `sink`: word features in text order, then CJK ones
  /// in text order. @pre isValid(options).
  /// Cost: O(text length × n-gram size). Memory: buffers of about 9 bytes per input byte
  /// (mode auto; 3 in words, 6 in chars and 7 in separated mode, 10 for the fallback),
  /// kept for reuse; assigning a new FeatureExtractor frees them.
  void extract(std::string_view utf8, const TokenizerOptions& options, FeatureSink& sink);
  /// Every feature of the text, copied, in the order above: for tests and tools.
  std::vector<std::string> extract(std::string_view utf8, const TokenizerOptions& options);

 private:
  /// Adds n-grams to features_[filled..), handing over each full batch; returns the new fill.
  size_t appendNgrams(const char* buffer, const uint32_t* starts, size_t first, size_t end, unsigned n,
                      unsigned trailing, size_t filled, FeatureSink& sink);
  size_t appendFallbackFeatures(std::string_view utf8, const TokenizerOptions& options, FeatureSink& sink);

  std::string words_;                ///< folded words, each followed by one space
  std::vector<uint32_t> wordStarts_; ///< byte offset of each word in words_
  std::string chars_;                ///< Chars: the folded text
  std::vector<uint32_t> charStarts_; ///< Chars: byte offset of each code point in chars_;
                                     ///< Auto: input offset of each CJK code point, each run closed by its end offset
  std::vector<uint32_t> runEnds_;    ///< Auto: index into charStarts_ one past each run's end offset
  std::vector<std::string_view> features_;  ///< kBatch slots for features not yet handed over
};

}  // namespace simhash
