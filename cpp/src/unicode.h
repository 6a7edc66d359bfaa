#pragma once
// Internal: UTF-8 decoding, case folding and character classes for the tokenizer.
#include <cstddef>
#include <cstdint>
#include <string>

namespace simhash::unicode {

constexpr char32_t kReplacement = 0xFFFD;

/// Decodes the code point at text[pos], advancing pos. Follows the WHATWG UTF-8 decoder:
/// a maximal invalid subsequence yields one U+FFFD and the next byte is read afresh.
/// @pre pos < size
char32_t decodeNext(const unsigned char* text, size_t size, size_t& pos);

/// Appends the UTF-8 encoding of a valid scalar value.
void appendUtf8(std::string& out, char32_t cp);

/// Simple case folding (Unicode CaseFolding.txt, status C and S) restricted to Basic
/// Latin, Latin-1, Latin Extended-A, Latin Extended Additional, Greek, Cyrillic,
/// Armenian, Georgian and full-width Latin. Other code points are returned unchanged.
char32_t foldCase(char32_t cp);

enum class CharClass : uint8_t { Separator = 0, Word = 1, Cjk = 2 };

/// See tokenizer.h for what each class contains.
CharClass classify(char32_t cp);

}  // namespace simhash::unicode
