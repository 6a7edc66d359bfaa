#pragma once
// Internal: little-endian fields of the serialized formats (index.h, idf.h, text_index.h).
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "simhash/fingerprint.h"

namespace simhash::bytes {

inline void putLE(std::vector<uint8_t>& out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

/// Writes value's low `bytes` bytes at `at`, little-endian. @return the byte after them.
inline uint8_t* storeLE(uint8_t* at, uint64_t value, unsigned bytes) {
  // A loop of at most 8 bytes: vectorized, it took 0.8 KB of the download.
#if defined(__clang__)
#pragma clang loop vectorize(disable) unroll(disable)
#endif
  for (unsigned i = 0; i < bytes; ++i) at[i] = static_cast<uint8_t>(value >> (8 * i));
  return at + bytes;
}

inline uint64_t getLE(const uint8_t* data, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(data[i]) << (8 * i);
  return value;
}

/// XXH3_64bits with seed 0, the feature hash: one copy of xxHash in the binary, not one
/// per file that includes it.
inline uint64_t checksum(const uint8_t* data, size_t size) {
  return hashFeature(std::string_view(reinterpret_cast<const char*>(data), size));
}

/// checksum() of bytes given a piece at a time: update() with each piece in order, then
/// digest(). Defined beside hashFeature, where xxHash is compiled.
class StreamingChecksum {
 public:
  StreamingChecksum();
  ~StreamingChecksum();
  StreamingChecksum(const StreamingChecksum&) = delete;
  StreamingChecksum& operator=(const StreamingChecksum&) = delete;
  void update(const uint8_t* data, size_t size);
  uint64_t digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// `value` in decimal, for messages: std::to_string brings libc++'s digit tables and an
/// overload for each type, 0.8 KB of the WASM download that messages do not need.
inline std::string decimal(uint64_t value) {
  char digits[20];
  size_t at = sizeof digits;
  do {
    digits[--at] = static_cast<char>('0' + value % 10);
  } while ((value /= 10) != 0);
  return std::string(digits + at, sizeof digits - at);
}

/// The layout both formats share: 4-byte magic, u16 version at 4, a header of headerSize
/// bytes holding a u32 entry count at countOffset, count entries of entrySize bytes, and
/// a u64 checksum of everything before it.
struct Envelope {
  const char* magic;
  uint64_t version;
  size_t headerSize, countOffset, entrySize;
  const char* entries;  ///< what the entries are, for messages
};

constexpr size_t kChecksumSize = 8;

/// What every format starts with: at least headerSize + kChecksumSize bytes, the magic,
/// the version. @return "" when they hold, else why not.
inline std::string checkHeader(const uint8_t* data, size_t size, const char* magic, uint64_t version, size_t headerSize) {
  if (size < headerSize + kChecksumSize) {
    return "truncated (" + decimal(size) + " bytes; the smallest has " + decimal(headerSize + kChecksumSize) + ")";
  }
  if (std::memcmp(data, magic, 4) != 0) return std::string("missing the '") + std::string(magic, 4) + "' signature";
  const uint64_t found = getLE(data + 4, 2);
  if (found != version) {
    return "format version " + decimal(found) + " is not supported (this build reads version " + decimal(version) + ")";
  }
  return "";
}

/// Whether the last kChecksumSize bytes are the checksum of the ones before. @pre size >= kChecksumSize.
inline bool checksumHolds(const uint8_t* data, size_t size) {
  const size_t body = size - kChecksumSize;
  return getLE(data + body, 8) == checksum(data, body);
}

/// Checks the length, magic, version and checksum of serialized bytes of fixed-size entries.
/// @return "" when they hold, else why not. On success `count` is the entry count.
inline std::string checkEnvelope(const uint8_t* data, size_t size, const Envelope& e, uint64_t& count) {
  if (std::string damage = checkHeader(data, size, e.magic, e.version, e.headerSize); !damage.empty()) return damage;
  count = getLE(data + e.countOffset, 4);
  const uint64_t expected = e.headerSize + e.entrySize * count + kChecksumSize;
  if (size != expected) {
    return (size < expected ? "truncated (" : "has trailing bytes (") + decimal(size) + " bytes; a header for " +
           decimal(count) + " " + e.entries + " implies " + decimal(expected) + ")";
  }
  if (!checksumHolds(data, size)) return "checksum mismatch (the data is corrupted)";
  return "";
}

}  // namespace simhash::bytes
