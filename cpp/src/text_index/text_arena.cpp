#include "text_index/text_arena.h"

#include <algorithm>

namespace simhash {

namespace {
constexpr size_t kSmallestBlock = size_t{1} << 16;
}  // namespace

TextArena& TextArena::operator=(TextArena&& other) noexcept {
  if (this == &other) return *this;
  free();
  std::copy(other.blocks_, other.blocks_ + kMaxBlocks, blocks_);
  count_ = other.count_;
  current_ = other.current_;
  bytes_ = other.bytes_;
  other.count_ = other.current_ = other.bytes_ = 0;
  std::fill(other.blocks_, other.blocks_ + kMaxBlocks, Block{});
  return *this;
}

void TextArena::free() {
  for (size_t b = 0; b < count_; ++b) delete[] blocks_[b].data;
}

size_t TextArena::capacity() const {
  size_t total = 0;
  for (size_t b = 0; b < count_; ++b) total += blocks_[b].size;
  return total;
}

void TextArena::reserve(size_t bytes) {
  if (count_ != 0 && room(current_) >= bytes) return;
  const size_t next = count_ == 0 ? 0 : current_ + 1;
  if (next < count_ && blocks_[next].size >= bytes) return;
  const size_t size = std::max(bytes, std::max(next < 64 ? bytes_ / 8 : bytes_, kSmallestBlock));
  uint8_t* data = new uint8_t[size];
  if (next < count_) {
    delete[] blocks_[next].data;
  } else {
    count_ = next + 1;
  }
  blocks_[next] = {data, 0, size, 0};
}

uint8_t* TextArena::append(size_t n, size_t& position) {
  if (room(current_) < n) ++current_;  // reserve() made it
  Block& block = blocks_[current_];
  // A block starts after the previous one's used bytes, which no longer change.
  if (block.used == 0) block.base = current_ == 0 ? 0 : blocks_[current_ - 1].base + blocks_[current_ - 1].used;
  position = block.base + block.used;
  uint8_t* out = block.data + block.used;
  block.used += n;
  bytes_ += n;
  return out;
}

const uint8_t* TextArena::at(size_t position) const {
  size_t b = current_;
  while (position < blocks_[b].base) --b;  // the blocks are few, and most reads are of recent texts
  return blocks_[b].data + (position - blocks_[b].base);
}

void TextArena::truncate(const Mark& mark) {
  for (size_t b = mark.block + 1; b < count_; ++b) blocks_[b].used = 0;
  current_ = mark.block;
  blocks_[current_].used = mark.used;
  bytes_ = mark.bytes;
}

}  // namespace simhash
