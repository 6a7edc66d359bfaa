#pragma once
// Oracles for the fuzz targets: the README's and the public headers' definitions written
// out plainly, for clarity rather than speed, and independently of cpp/src wherever
// that is practical. (Case folding and character classes come from the core's tables,
// which tokenizer_test.cpp checks against their definitions.)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "simhash/fingerprint.h"
#include "text/unicode.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

// Prints the failed invariant and aborts, so that libFuzzer saves the input as a crash.
#define FUZZ_CHECK(condition)                                                             \
  do {                                                                                    \
    if (!(condition)) {                                                                   \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace reference {

using simhash::unicode::CharClass;

constexpr char32_t kReplacement = 0xFFFD;

inline uint64_t hash(std::string_view feature) { return XXH3_64bits(feature.data(), feature.size()); }

// The definition, literally: one signed sum per bit; bit i is set iff sum_i > 0.
template <class Weight>
uint64_t simhash(const std::vector<uint64_t>& hashes, const std::vector<Weight>& weights) {
  Weight sums[64] = {};
  for (size_t j = 0; j < hashes.size(); ++j) {
    for (unsigned i = 0; i < 64; ++i) sums[i] += ((hashes[j] >> i) & 1) ? weights[j] : -weights[j];
  }
  uint64_t fingerprint = 0;
  for (unsigned i = 0; i < 64; ++i) fingerprint |= static_cast<uint64_t>(sums[i] > 0) << i;
  return fingerprint;
}

// WHATWG Encoding Standard, "UTF-8 decoder", step by step.
inline std::u32string decodeUtf8(std::string_view text) {
  std::u32string out;
  char32_t codePoint = 0;
  unsigned bytesSeen = 0, bytesNeeded = 0;
  unsigned char lowerBoundary = 0x80, upperBoundary = 0xBF;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (bytesNeeded == 0) {
      if (byte <= 0x7F) {
        out.push_back(byte);
      } else if (byte >= 0xC2 && byte <= 0xDF) {
        bytesNeeded = 1;
        codePoint = byte & 0x1F;
      } else if (byte >= 0xE0 && byte <= 0xEF) {
        if (byte == 0xE0) lowerBoundary = 0xA0;
        if (byte == 0xED) upperBoundary = 0x9F;
        bytesNeeded = 2;
        codePoint = byte & 0xF;
      } else if (byte >= 0xF0 && byte <= 0xF4) {
        if (byte == 0xF0) lowerBoundary = 0x90;
        if (byte == 0xF4) upperBoundary = 0x8F;
        bytesNeeded = 3;
        codePoint = byte & 0x7;
      } else {
        out.push_back(kReplacement);
      }
      continue;
    }
    if (byte < lowerBoundary || byte > upperBoundary) {
      codePoint = 0;
      bytesNeeded = bytesSeen = 0;
      lowerBoundary = 0x80;
      upperBoundary = 0xBF;
      --i;  // "restore byte to the stream": it starts the next sequence
      out.push_back(kReplacement);
      continue;
    }
    lowerBoundary = 0x80;
    upperBoundary = 0xBF;
    codePoint = (codePoint << 6) | (byte & 0x3F);
    if (++bytesSeen == bytesNeeded) {
      out.push_back(codePoint);
      codePoint = 0;
      bytesNeeded = bytesSeen = 0;
    }
  }
  if (bytesNeeded != 0) out.push_back(kReplacement);
  return out;
}

inline std::string encodeUtf8(char32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// Unicode PropList.txt, White_Space.
inline bool isWhiteSpace(char32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F ||
         cp == 0x3000;
}

// n-grams of `sequence` joined by `joiner`; a sequence shorter than n is one feature.
inline void appendNgrams(const std::vector<std::string>& sequence, size_t n, std::string_view joiner,
                         std::vector<std::string>& out) {
  if (sequence.empty()) return;
  const size_t span = std::min(n, sequence.size());
  for (size_t first = 0; first + span <= sequence.size(); ++first) {
    std::string feature = sequence[first];
    for (size_t i = first + 1; i < first + span; ++i) feature.append(joiner).append(sequence[i]);
    out.push_back(std::move(feature));
  }
}

// docs/spec.md step 4 and tokenizer.h (the separated mode).
inline std::vector<std::string> features(std::string_view text, const simhash::TokenizerOptions& options) {
  using simhash::TokenizerMode;
  const std::u32string original = decodeUtf8(text);
  auto fold = [&](char32_t cp) { return options.caseFold ? simhash::unicode::foldCase(cp) : cp; };
  auto isCjk = [&](char32_t cp) { return simhash::unicode::classify(fold(cp)) == CharClass::Cjk; };
  std::vector<std::string> out;

  // stripPunctuation (format 3), literally: remove general category P, then whitespace
  // between two CJK characters.
  std::u32string decoded = original;
  if (options.stripPunctuation && options.mode != TokenizerMode::Separated) {
    std::u32string kept;
    for (char32_t cp : original) {
      if (!simhash::unicode::isPunctuation(cp)) kept.push_back(cp);
    }
    decoded.clear();
    for (size_t i = 0; i < kept.size(); ++i) {
      if (isWhiteSpace(kept[i]) && !decoded.empty() && isCjk(decoded.back())) {
        size_t next = i;
        while (next < kept.size() && isWhiteSpace(kept[next])) ++next;
        if (next < kept.size() && isCjk(kept[next])) {
          i = next - 1;  // the whole whitespace run goes
          continue;
        }
      }
      decoded.push_back(kept[i]);
    }
  }

  if (options.mode == TokenizerMode::Separated) {
    // Tokens are the non-empty runs between U+001F, whatever their characters.
    std::vector<std::string> tokens(1);
    for (char32_t cp : decoded) {
      if (fold(cp) == simhash::kTokenSeparator) {
        if (!tokens.back().empty()) tokens.emplace_back();
      } else {
        tokens.back() += encodeUtf8(fold(cp));
      }
    }
    if (tokens.back().empty()) tokens.pop_back();
    appendNgrams(tokens, options.wordNgram, " ", out);
  } else if (options.mode == TokenizerMode::Chars) {
    std::vector<std::string> chars;
    bool separatorPending = false;
    for (char32_t cp : decoded) {
      cp = fold(cp);
      if (simhash::unicode::classify(cp) == CharClass::Separator) {
        separatorPending = !chars.empty();  // leading separators are dropped
        continue;
      }
      if (separatorPending) chars.push_back(" ");
      separatorPending = false;
      chars.push_back(encodeUtf8(cp));
    }
    appendNgrams(chars, options.charNgram, "", out);
  } else {
    // Words: words and CJK characters are tokens. Auto: words, then CJK runs apart.
    std::vector<std::string> words;
    std::vector<std::vector<std::string>> cjkRuns(1);
    CharClass previous = CharClass::Separator;
    for (char32_t cp : decoded) {
      cp = fold(cp);
      const CharClass cls = simhash::unicode::classify(cp);
      if (cls == CharClass::Word) {
        if (previous != CharClass::Word) words.emplace_back();
        words.back() += encodeUtf8(cp);
      } else if (cls == CharClass::Cjk && options.mode == TokenizerMode::Words) {
        words.push_back(encodeUtf8(cp));
      } else if (cls == CharClass::Cjk) {
        if (previous != CharClass::Cjk && !cjkRuns.back().empty()) cjkRuns.emplace_back();
        cjkRuns.back().push_back(encodeUtf8(cp));
      }
      previous = cls;
    }
    appendNgrams(words, options.wordNgram, " ", out);
    for (const auto& run : cjkRuns) appendNgrams(run, options.charNgram, "", out);
  }
  if (!out.empty()) return out;

  // Fallback (format 2): the characters of the folded text, whitespace runs as one space,
  // leading and trailing whitespace dropped.
  std::vector<std::string> chars;
  bool spacePending = false;
  for (char32_t cp : original) {
    if (isWhiteSpace(cp)) {
      spacePending = !chars.empty();
      continue;
    }
    if (spacePending) chars.push_back(" ");
    spacePending = false;
    chars.push_back(encodeUtf8(fold(cp)));
  }
  appendNgrams(chars, options.charNgram, "", out);
  if (chars.empty()) out.emplace_back();  // a blank text: the empty feature (format 4)
  return out;
}

// The option header shared by the text targets, two bytes:
//   byte 0: bits 0-1 mode (auto, words, chars, separated), bit 2 caseFold,
//           bit 3 binary weighting, bits 4-6 wordNgram - 1, bit 7 punctuation kept
//   byte 1: bits 0-3 charNgram - 1 (bits 4-7 are left to each target)
inline simhash::FingerprintOptions optionsFromHeader(uint8_t byte0, uint8_t byte1) {
  simhash::FingerprintOptions options;
  options.tokenizer.mode = static_cast<simhash::TokenizerMode>(byte0 & 3);
  options.tokenizer.caseFold = (byte0 >> 2) & 1;
  options.weighting = ((byte0 >> 3) & 1) ? simhash::Weighting::Binary : simhash::Weighting::TermFrequency;
  options.tokenizer.wordNgram = static_cast<uint8_t>(((byte0 >> 4) & 7) + 1);
  options.tokenizer.stripPunctuation = !(byte0 >> 7);
  options.tokenizer.charNgram = static_cast<uint8_t>((byte1 & 15) + 1);
  FUZZ_CHECK(simhash::isValid(options.tokenizer));
  return options;
}

inline uint64_t getLE(const uint8_t* data, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(data[i]) << (8 * i);
  return value;
}

inline void putLE(std::vector<uint8_t>& out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

inline void setLE(uint8_t* data, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) data[i] = static_cast<uint8_t>(value >> (8 * i));
}

// Lets the fuzzer past the integrity checks of a serialized format to what lies behind
// them: `fixCount` rewrites the u32 count at countOffset to fit the length (dropping a
// partial entry), `fixChecksum` rewrites the trailing XXH3 of everything before it.
inline void repairSerialized(std::vector<uint8_t>& bytes, size_t headerSize, size_t entrySize, size_t countOffset,
                             bool fixCount, bool fixChecksum) {
  constexpr size_t kChecksumSize = 8;
  if (bytes.size() < headerSize + kChecksumSize) return;
  if (fixCount) {
    const size_t count = (bytes.size() - headerSize - kChecksumSize) / entrySize;
    bytes.resize(headerSize + entrySize * count + kChecksumSize);
    setLE(bytes.data() + countOffset, count, 4);
  }
  if (fixChecksum) {
    const size_t body = bytes.size() - kChecksumSize;
    setLE(bytes.data() + body, XXH3_64bits(bytes.data(), body), 8);
  }
}

}  // namespace reference
