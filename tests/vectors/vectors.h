#pragma once
// Reads and writes tests/vectors/fingerprints.tsv, the golden fingerprints that the native
// (Catch2) and WASM (node:test) builds must both reproduce. Line format, tab-separated:
//   fingerprint (16 hex digits)  options  input bytes (hex)  note
// options: "mode=auto|words|chars word=N char=N fold=0|1 punct=strip|keep weight=tf|binary" for text, or
// "tokens" / "tokens=w1,w2,..." for fingerprintTokens, whose input is the tokens joined
// by the byte 0x1F.
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "simhash/fingerprint.h"

namespace simhash::vectors {

struct Vector {
  std::string options;
  std::string input;  // raw bytes
  std::string note;
  uint64_t fingerprint = 0;
};

inline std::string toHex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

inline std::string fromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

inline std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

/// Computes a vector's fingerprint with the given build of the core.
inline uint64_t compute(const Vector& v) {
  Fingerprinter fingerprinter;
  if (v.options.rfind("tokens", 0) == 0) {
    const std::vector<std::string> tokens = v.input.empty() ? std::vector<std::string>{} : split(v.input, '\x1F');
    std::vector<std::string_view> views(tokens.begin(), tokens.end());
    std::vector<double> weights;
    if (v.options.size() > 7) {
      for (const std::string& w : split(v.options.substr(7), ',')) weights.push_back(std::stod(w));
    }
    return fingerprinter.fingerprintTokens(views.data(), weights.empty() ? nullptr : weights.data(), views.size());
  }
  FingerprintOptions options;
  std::istringstream words(v.options);
  std::string word;
  while (words >> word) {
    const size_t eq = word.find('=');
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "mode") options.tokenizer.mode = value == "auto" ? TokenizerMode::Auto : value == "words" ? TokenizerMode::Words : value == "separated" ? TokenizerMode::Separated : TokenizerMode::Chars;
    if (key == "word") options.tokenizer.wordNgram = static_cast<uint8_t>(std::stoi(value));
    if (key == "char") options.tokenizer.charNgram = static_cast<uint8_t>(std::stoi(value));
    if (key == "fold") options.tokenizer.caseFold = value == "1";
    if (key == "punct") options.tokenizer.stripPunctuation = value == "strip";
    if (key == "weight") options.weighting = value == "tf" ? Weighting::TermFrequency : Weighting::Binary;
  }
  return fingerprinter.fingerprint(v.input, options);
}

}  // namespace simhash::vectors
