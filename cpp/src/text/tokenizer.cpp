#include "simhash/tokenizer.h"

#include <cstring>
#include <new>

#include "text/unicode.h"

namespace simhash {

using unicode::CharClass;

bool isValid(const TokenizerOptions& options) {
  return options.mode <= TokenizerMode::Separated && options.wordNgram >= 1 &&
         options.wordNgram <= kMaxNgram && options.charNgram >= 1 && options.charNgram <= kMaxNgram;
}

namespace {

// Sizes are computed in 64 bits: 4 bytes per input byte of a 1.5 GB text do not fit a
// 32-bit size_t, and must fail as an allocation rather than wrap around.
template <typename Vector>
auto* atLeast(Vector& buffer, uint64_t size) {
  if (size > buffer.max_size()) throw std::bad_alloc();
  if (buffer.size() < size) buffer.resize(static_cast<size_t>(size));  // grows only: no per-call zero fill
  return buffer.data();
}

class Collector final : public FeatureSink {
 public:
  void take(const std::string_view* features, size_t count) override { all.insert(all.end(), features, features + count); }
  std::vector<std::string> all;
};

}  // namespace

// Appends n-grams of consecutive units of `buffer`: unit i spans [starts[i], starts[i+1])
// minus `trailing` bytes (the space that follows each word). An n-gram is one slice.
size_t FeatureExtractor::appendNgrams(const char* buffer, const uint32_t* starts, size_t first, size_t end,
                                      unsigned n, unsigned trailing, size_t filled, FeatureSink& sink) {
  if (first == end) return filled;
  const size_t units = end - first;
  const size_t count = units < n ? 1 : units - n + 1;
  const size_t span = units < n ? units : n;
  std::string_view* const out = features_.data();
  for (size_t i = first; i < first + count; ++i) {
    const size_t begin = starts[i];
    const size_t stop = starts[i + span] - trailing;
    out[filled++] = std::string_view(buffer + begin, stop - begin);
    if (filled == kBatch) {
      sink.take(out, kBatch);
      filled = 0;
    }
  }
  return filled;
}

std::vector<std::string> FeatureExtractor::extract(std::string_view utf8, const TokenizerOptions& options) {
  Collector collector;
  extract(utf8, options, collector);
  return std::move(collector.all);
}

void FeatureExtractor::extract(std::string_view utf8, const TokenizerOptions& options, FeatureSink& sink) {
  const auto* text = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t size = utf8.size();
  const TokenizerMode mode = options.mode;
  const bool strip = options.stripPunctuation && mode != TokenizerMode::Separated;

  // The loop writes through raw pointers into buffers sized for the worst case of the mode:
  // a push_back per byte cost 2x in WASM (libc++'s string checks its short-string flag
  // every time). Bounds: folding never lengthens a code point's UTF-8 (tested), and an
  // invalid byte becomes the 3-byte U+FFFD, a separator except in separated mode; a word
  // is followed by one space and by at least one input byte before the next; a CJK code
  // point spans at least 3 input bytes, and so does a CJK run (closed by one more offset).
  // Chars mode keeps every code point and a space per separator run.
  const bool separated = mode == TokenizerMode::Separated, charsMode = mode == TokenizerMode::Chars;
  const bool autoMode = mode == TokenizerMode::Auto;
  const uint64_t n = size;
  // + 8: the ASCII path stores 8 bytes at a time.
  char* const words = atLeast(words_, charsMode ? 8 : (separated ? 4 : 2) * n + 8);
  char* const chars = atLeast(chars_, charsMode ? 4 * n + 1 : autoMode ? n + 1 : 1);
  uint32_t* const wordStarts = atLeast(wordStarts_, charsMode ? 1 : n / 2 + 3);
  uint32_t* const charStarts = atLeast(charStarts_, charsMode ? 2 * n + 2 : autoMode ? 2 * (n / 3) + 3 : 1);
  uint32_t* const runEnds = atLeast(runEnds_, autoMode ? n / 3 + 2 : 1);
  size_t wordBytes = 0, wordCount = 0, charBytes = 0, charCount = 0, runCount = 0;

  bool inWord = false;  // the last code point kept extended a word of `words`
  auto closeWord = [&] {
    if (inWord) words[wordBytes++] = ' ';
    inWord = false;
  };
  // Auto: the code points of each CJK run are copied to `chars`; a run is closed by the
  // offset one past its last byte, and runEnds holds the index one past that offset.
  auto closeRun = [&] {
    const size_t runStart = runCount == 0 ? 0 : runEnds[runCount - 1];
    if (charCount > runStart) {
      charStarts[charCount++] = static_cast<uint32_t>(charBytes);
      runEnds[runCount++] = static_cast<uint32_t>(charCount);
    }
  };
  auto appendChar = [&](char32_t cp) {
    charStarts[charCount++] = static_cast<uint32_t>(charBytes);
    charBytes += unicode::encodeUtf8(cp, chars + charBytes);
  };
  // Chars: a separator run since the last character kept awaits its one space; with
  // stripPunctuation, a run of whitespace only between two CJK characters gets none.
  bool pendingSpace = false, pendingWhitespaceOnly = false, lastCjk = false;

  // ASCII fast path for the word modes: letters and digits extend a word (folded to lower
  // case when asked), other ASCII bytes separate or, as punctuation, are dropped. Same
  // result as the general path below, without decoding, folding and classifying byte by
  // byte (most of English text's cost).
  const bool wordModes = mode == TokenizerMode::Auto || mode == TokenizerMode::Words;
  const unsigned foldDelta = options.caseFold ? 32 : 0;
  static_assert(unicode::kLittleEndian, "load8 reads the first byte into the low bits");

  size_t pos = 0;
  while (pos < size) {
    if (wordModes && text[pos] < 0x80) {
      unsigned byte = text[pos];
      if (!unicode::kAsciiWord[byte]) {
        ++pos;
        if (strip && unicode::kAsciiPunctuation[byte]) continue;
        closeWord();
        if (!(strip && unicode::isWhitespace(byte))) closeRun();
        continue;
      }
      closeRun();
      if (!inWord) wordStarts[wordCount++] = static_cast<uint32_t>(wordBytes);
      inWord = true;
      // Eight bytes at a time while they last: copy them folded, stop at the first byte
      // that is not an ASCII word character (the copy past it is overwritten later).
      for (;;) {
        if (pos + 8 > size) {
          // A non-ASCII byte leaves for the general path.
          for (; pos < size && unicode::kAsciiWord[byte = text[pos]]; ++pos) {
            words[wordBytes++] = static_cast<char>(byte + (byte - 'A' < 26u ? foldDelta : 0));
          }
          break;
        }
        const uint64_t eight = unicode::load8(text + pos);
        unicode::store8(words + wordBytes, options.caseFold ? unicode::asciiLower8(eight) : eight);
        const unsigned length = unicode::asciiWordPrefix8(eight);
        pos += length;
        wordBytes += length;
        if (length < 8) break;
      }
      continue;
    }
    // CJK fast path (Auto): a well-formed 3-byte sequence from a page that is all CJK, with
    // no folding and no punctuation, is copied as it is. Leads E0 and ED, whose second bytes
    // have narrower bounds, take the general path.
    if (mode == TokenizerMode::Auto && pos + 2 < size && text[pos] >= 0xE1 && text[pos] <= 0xEF && text[pos] != 0xED &&
        (text[pos + 1] & 0xC0) == 0x80 && (text[pos + 2] & 0xC0) == 0x80) {
      const auto page = static_cast<unsigned>(((text[pos] & 0x0F) << 4) | ((text[pos + 1] & 0x3F) >> 2));
      constexpr uint8_t kPlainCjk = unicode::detail::kUniformClass | unicode::detail::kNoFolding |
                                    unicode::detail::kNoPunctuation | static_cast<uint8_t>(CharClass::Cjk);
      if ((unicode::detail::kBmpPages[page] & (kPlainCjk | unicode::detail::kClassMask)) == kPlainCjk) {
        closeWord();
        charStarts[charCount++] = static_cast<uint32_t>(charBytes);
        std::memcpy(chars + charBytes, text + pos, 3);
        charBytes += 3;
        pos += 3;
        continue;
      }
    }
    char32_t cp = unicode::decodeNext(text, size, pos);
    // Removed punctuation joins what is on either side of it: don't -> dont, 你好，世界 -> 你好世界.
    if (strip && unicode::isPunctuation(cp)) continue;
    if (options.caseFold) cp = unicode::foldCase(cp);
    const CharClass cls = unicode::classify(cp);

    if (mode == TokenizerMode::Separated) {
      if (cp == kTokenSeparator) {
        closeWord();
      } else {
        if (!inWord) wordStarts[wordCount++] = static_cast<uint32_t>(wordBytes);
        inWord = true;
        wordBytes += unicode::encodeUtf8(cp, words + wordBytes);
      }
    } else if (mode == TokenizerMode::Chars) {
      if (cls == CharClass::Separator) {
        if (charCount > 0 && !pendingSpace) pendingSpace = pendingWhitespaceOnly = true;
        pendingWhitespaceOnly = pendingWhitespaceOnly && unicode::isWhitespace(cp);
        continue;
      }
      const bool cjk = cls == CharClass::Cjk;
      if (pendingSpace && !(strip && pendingWhitespaceOnly && lastCjk && cjk)) appendChar(' ');
      pendingSpace = false;
      lastCjk = cjk;
      appendChar(cp);
    } else if (cls == CharClass::Word) {
      closeRun();
      if (!inWord) wordStarts[wordCount++] = static_cast<uint32_t>(wordBytes);
      inWord = true;
      wordBytes += unicode::encodeUtf8(cp, words + wordBytes);
    } else if (cls == CharClass::Cjk && mode == TokenizerMode::Words) {
      closeWord();  // each CJK character is a word of its own
      wordStarts[wordCount++] = static_cast<uint32_t>(wordBytes);
      wordBytes += unicode::encodeUtf8(cp, words + wordBytes);
      words[wordBytes++] = ' ';
    } else if (cls == CharClass::Cjk) {
      closeWord();
      appendChar(cp);
    } else {
      closeWord();
      // With stripPunctuation, whitespace between two CJK characters is dropped: a line
      // break inside a Chinese sentence does not split its run.
      if (!(strip && unicode::isWhitespace(cp))) closeRun();
    }
  }
  closeWord();
  if (mode == TokenizerMode::Auto) closeRun();

  atLeast(features_, kBatch);
  wordStarts[wordCount] = static_cast<uint32_t>(wordBytes);
  size_t filled = appendNgrams(words, wordStarts, 0, wordCount, options.wordNgram, 1, 0, sink);

  if (mode == TokenizerMode::Chars) {
    charStarts[charCount] = static_cast<uint32_t>(charBytes);
    filled = appendNgrams(chars, charStarts, 0, charCount, options.charNgram, 0, filled, sink);
  } else if (mode == TokenizerMode::Auto) {
    size_t runStart = 0;  // each run's code point offsets end with its end offset
    for (size_t r = 0; r < runCount; ++r) {
      filled = appendNgrams(chars, charStarts, runStart, runEnds[r] - 1, options.charNgram, 0, filled, sink);
      runStart = runEnds[r];
    }
  }
  if (wordCount == 0 && charCount == 0) filled = appendFallbackFeatures(utf8, options, sink);
  if (filled > 0) sink.take(features_.data(), filled);
}

size_t FeatureExtractor::appendFallbackFeatures(std::string_view utf8, const TokenizerOptions& options, FeatureSink& sink) {
  // Punctuation-only or emoji-only texts would otherwise all get fingerprint 0 and look
  // like duplicates of each other: their characters, whitespace aside, become the features.
  // Blank texts get one empty feature: fingerprint 0 lies within k = 12 of texts whose few
  // features leave most bits tied (21 of 37,997 fortunes, npm run bench:quality).
  const auto* text = reinterpret_cast<const unsigned char*>(utf8.data());
  char* const chars = atLeast(chars_, 4 * uint64_t{utf8.size()} + 1);  // 3 bytes and a space per input byte
  uint32_t* const charStarts = atLeast(charStarts_, 2 * uint64_t{utf8.size()} + 2);
  size_t charBytes = 0, charCount = 0;
  bool pendingSpace = false;
  for (size_t pos = 0; pos < utf8.size();) {
    char32_t cp = unicode::decodeNext(text, utf8.size(), pos);
    if (unicode::isWhitespace(cp)) {
      pendingSpace = charCount > 0;
      continue;
    }
    if (options.caseFold) cp = unicode::foldCase(cp);
    if (pendingSpace) {
      charStarts[charCount++] = static_cast<uint32_t>(charBytes);
      chars[charBytes++] = ' ';
      pendingSpace = false;
    }
    charStarts[charCount++] = static_cast<uint32_t>(charBytes);
    charBytes += unicode::encodeUtf8(cp, chars + charBytes);
  }
  charStarts[charCount] = static_cast<uint32_t>(charBytes);
  if (charCount == 0) {
    features_[0] = std::string_view(chars, 0);
    return 1;
  }
  return appendNgrams(chars, charStarts, 0, charCount, options.charNgram, 0, 0, sink);
}

}  // namespace simhash
