#include "text_index/text_arena.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using namespace simhash;

namespace {

struct Stored {
  size_t position;
  std::string text;
};

std::string randomArenaText(std::mt19937& rng, size_t length) {
  std::string text(length, '\0');
  for (char& c : text) c = static_cast<char>('a' + rng() % 26);
  return text;
}

void append(TextArena& arena, std::vector<Stored>& stored, const std::string& text) {
  size_t position = 0;
  uint8_t* out = arena.append(text.size(), position);
  std::copy(text.begin(), text.end(), out);
  stored.push_back({position, text});
}

void checkAll(const TextArena& arena, const std::vector<Stored>& stored) {
  size_t bytes = 0;
  for (const Stored& s : stored) {
    REQUIRE(std::string(reinterpret_cast<const char*>(arena.at(s.position)), s.text.size()) == s.text);
    bytes += s.text.size();
  }
  REQUIRE(arena.bytes() == bytes);
}

}  // namespace

TEST_CASE("text arena: every text appended reads back, through blocks, batches and truncations", "[text_arena]") {
  std::mt19937 rng(7);
  TextArena arena;
  std::vector<Stored> stored;
  for (int round = 0; round < 400; ++round) {
    // A batch: room for all of it first, then its texts (short ones, and now and then one
    // longer than any block so far).
    const size_t count = 1 + rng() % 40;
    std::vector<std::string> batch;
    size_t bytes = 0;
    for (size_t i = 0; i < count; ++i) {
      const size_t length = rng() % 50 == 0 ? 70000 + rng() % 200000 : rng() % 300;
      batch.push_back(randomArenaText(rng, length));
      bytes += length;
    }
    const TextArena::Mark mark = arena.mark();
    const size_t storedBefore = stored.size();
    arena.reserve(bytes);
    const size_t capacity = arena.capacity();
    for (const std::string& text : batch) append(arena, stored, text);
    REQUIRE(arena.capacity() == capacity);  // the batch's room was reserved: no allocation
    if (rng() % 5 == 0) {  // the batch undone
      arena.truncate(mark);
      stored.resize(storedBefore);
    }
    if (round % 50 == 0) checkAll(arena, stored);
  }
  checkAll(arena, stored);
  // Positions increase with the order of appends, and a text never straddles two blocks.
  for (size_t i = 1; i < stored.size(); ++i) REQUIRE(stored[i].position >= stored[i - 1].position + stored[i - 1].text.size());
}

TEST_CASE("text arena: growth allocates blocks of an eighth of what is stored, never moving a text", "[text_arena]") {
  std::mt19937 rng(11);
  TextArena arena;
  std::vector<Stored> stored;
  std::vector<const uint8_t*> where;
  for (int i = 0; i < 200000; ++i) {
    const std::string text = randomArenaText(rng, 20 + rng() % 200);
    arena.reserve(text.size());
    append(arena, stored, text);
    where.push_back(arena.at(stored.back().position));
  }
  checkAll(arena, stored);
  for (size_t i = 0; i < stored.size(); ++i) REQUIRE(arena.at(stored[i].position) == where[i]);
  // Blocks of at least an eighth: capacity stays within about 1.25x the bytes stored.
  CHECK(arena.capacity() < arena.bytes() + arena.bytes() / 4 + (size_t{1} << 16));
}
