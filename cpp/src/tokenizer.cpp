#include "simhash/tokenizer.h"

#include "unicode.h"

namespace simhash {

using unicode::CharClass;

bool isValid(const TokenizerOptions& options) {
  return options.mode <= TokenizerMode::Chars && options.wordNgram >= 1 &&
         options.wordNgram <= kMaxNgram && options.charNgram >= 1 && options.charNgram <= kMaxNgram;
}

namespace {

// Appends n-grams of consecutive units of `buffer`: unit i spans [starts[i], starts[i+1])
// minus `trailing` bytes (the space that follows each word). An n-gram is one slice.
void appendNgrams(std::vector<std::string_view>& out, const std::string& buffer,
                  const std::vector<uint32_t>& starts, size_t first, size_t end, unsigned n,
                  unsigned trailing) {
  if (first == end) return;
  const size_t units = end - first;
  const size_t count = units < n ? 1 : units - n + 1;
  const size_t span = units < n ? units : n;
  for (size_t i = first; i < first + count; ++i) {
    const size_t begin = starts[i];
    const size_t stop = starts[i + span] - trailing;
    out.emplace_back(buffer.data() + begin, stop - begin);
  }
}

}  // namespace

const std::vector<std::string_view>& FeatureExtractor::extract(std::string_view utf8,
                                                               const TokenizerOptions& options) {
  words_.clear();
  wordStarts_.clear();
  chars_.clear();
  charStarts_.clear();
  runEnds_.clear();
  features_.clear();

  const auto* text = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t size = utf8.size();
  const TokenizerMode mode = options.mode;
  bool inWord = false;        // the last code point extended a word of words_
  bool pendingSpace = false;  // Chars: a separator run awaits its single space
  auto closeWord = [&] {
    if (inWord) words_.push_back(' ');
    inWord = false;
  };
  auto closeRun = [&] {
    const size_t runStart = runEnds_.empty() ? 0 : runEnds_.back();
    if (charStarts_.size() > runStart) runEnds_.push_back(static_cast<uint32_t>(charStarts_.size()));
  };
  auto appendChar = [&](char32_t cp) {
    charStarts_.push_back(static_cast<uint32_t>(chars_.size()));
    unicode::appendUtf8(chars_, cp);
  };

  size_t pos = 0;
  while (pos < size) {
    char32_t cp = unicode::decodeNext(text, size, pos);
    if (options.caseFold) cp = unicode::foldCase(cp);
    const CharClass cls = unicode::classify(cp);

    if (mode == TokenizerMode::Chars) {
      if (cls == CharClass::Separator) {
        pendingSpace = !charStarts_.empty();
        continue;
      }
      if (pendingSpace) appendChar(' ');
      pendingSpace = false;
      appendChar(cp);
    } else if (cls == CharClass::Word) {
      closeRun();
      if (!inWord) wordStarts_.push_back(static_cast<uint32_t>(words_.size()));
      inWord = true;
      unicode::appendUtf8(words_, cp);
    } else if (cls == CharClass::Cjk && mode == TokenizerMode::Words) {
      closeWord();  // each CJK character is a word of its own
      wordStarts_.push_back(static_cast<uint32_t>(words_.size()));
      unicode::appendUtf8(words_, cp);
      words_.push_back(' ');
    } else if (cls == CharClass::Cjk) {
      closeWord();
      appendChar(cp);
    } else {
      closeWord();
      closeRun();
    }
  }
  closeWord();
  closeRun();

  wordStarts_.push_back(static_cast<uint32_t>(words_.size()));
  appendNgrams(features_, words_, wordStarts_, 0, wordStarts_.size() - 1, options.wordNgram, 1);

  charStarts_.push_back(static_cast<uint32_t>(chars_.size()));
  const size_t charCount = charStarts_.size() - 1;
  if (mode == TokenizerMode::Chars) {
    appendNgrams(features_, chars_, charStarts_, 0, charCount, options.charNgram, 0);
  } else if (mode == TokenizerMode::Auto) {
    size_t runStart = 0;
    for (uint32_t runEnd : runEnds_) {
      appendNgrams(features_, chars_, charStarts_, runStart, runEnd, options.charNgram, 0);
      runStart = runEnd;
    }
  }
  return features_;
}

}  // namespace simhash
