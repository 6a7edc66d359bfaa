#pragma once
// Internal: the text index's stored texts, UTF-8 end to end in blocks that never move, so
// that growing never copies what is stored (one arena grown by an eighth copied all of it:
// 144 MiB at a million short texts, a 16-18 ms add). A text lies whole in one block; a
// new block holds at least an eighth of what is stored, so blocks stay few (about 65 for
// 144 MiB, at most about 90 in 2 GB of memory) and at() finds a text's block by stepping
// back from the newest. A position is a byte's place in the concatenation of the blocks'
// used bytes.
#include <cstddef>
#include <cstdint>
#include <utility>

namespace simhash {

class TextArena {
 public:
  TextArena() = default;
  TextArena(TextArena&& other) noexcept { *this = std::move(other); }
  TextArena& operator=(TextArena&& other) noexcept;
  ~TextArena() { free(); }

  /// Bytes of the texts appended (and not truncated), removed ones included.
  size_t bytes() const { return bytes_; }
  /// Bytes allocated.
  size_t capacity() const;

  /// Room for texts of `bytes` bytes in all: append() then allocates nothing for them. May
  /// allocate the next block; a failed allocation (an exception) changes nothing.
  void reserve(size_t bytes);
  /// Appends room for n bytes, reserved, and returns where to write them; `position` is
  /// where at() finds them.
  uint8_t* append(size_t n, size_t& position);
  /// The bytes appended at `position`.
  const uint8_t* at(size_t position) const;

  /// Where the next append goes, for truncate().
  struct Mark {
    size_t block, used, bytes;
  };
  Mark mark() const { return {current_, blocks_[current_].used, bytes_}; }
  /// Drops what was appended since `mark`. Allocates nothing.
  void truncate(const Mark& mark);

 private:
  // Past 64 blocks each new one doubles what is stored (never in 2 GB of WASM memory),
  // so 96 always suffice.
  static constexpr size_t kMaxBlocks = 96;
  struct Block {
    uint8_t* data;
    size_t base, size, used;
  };
  size_t room(size_t b) const { return blocks_[b].size - blocks_[b].used; }
  void free();

  Block blocks_[kMaxBlocks] = {};
  size_t count_ = 0, current_ = 0, bytes_ = 0;
};

}  // namespace simhash
