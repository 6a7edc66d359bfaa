#include "simhash/index.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <unordered_map>

#include "base/bytes.h"
#include "random_data.h"
#include "simhash/hamming.h"

using namespace simhash;

namespace {

std::vector<Match> bruteForce(const std::vector<uint64_t>& fps, const std::vector<uint32_t>& ids,
                              const std::vector<uint8_t>& removed, uint64_t query, unsigned k) {
  std::vector<Match> out;
  for (size_t i = 0; i < fps.size(); ++i) {
    const unsigned d = hammingDistance(query, fps[i]);
    if (!removed[i] && d <= k) out.push_back({ids[i], d});
  }
  std::sort(out.begin(), out.end(), [](const Match& x, const Match& y) {
    return x.distance != y.distance ? x.distance < y.distance : x.id < y.id;
  });
  return out;
}

}  // namespace

TEST_CASE("index queries equal brute force on planted neighbours", "[index]") {
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u);
  const size_t bases = GENERATE(size_t{3}, size_t{200}, size_t{3000});
  CAPTURE(k, bases);
  std::mt19937_64 rng(k * 1000 + bases);
  std::vector<uint64_t> fps = testing::plantedSet(bases, k + 2, rng);
  std::vector<uint32_t> ids(fps.size());
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<uint32_t>(rng() % 4000000000u);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  testing::shuffle(ids, rng);
  const size_t n = ids.size();
  fps.resize(n);  // random ids can collide: the index holds one item per distinct id

  Index index(k);
  std::vector<Match> got;
  std::vector<uint8_t> removed(n, false);
  // Interleave adds and queries so pending items, partial tables and rebuilds all serve queries.
  for (size_t i = 0; i < n; ++i) {
    REQUIRE(index.add(fps[i], ids[i]) == Status::Ok);
    if (i % 97 == 0) {
      index.query(fps[i], got);
      std::vector<uint64_t> seen(fps.begin(), fps.begin() + i + 1);
      std::vector<uint32_t> seenIds(ids.begin(), ids.begin() + i + 1);
      CHECK(got == bruteForce(seen, seenIds, std::vector<uint8_t>(i + 1, false), fps[i], k));
    }
  }
  REQUIRE(index.size() == n);
  if (bases >= 3000 && k <= 6) CHECK(index.partCount() > 0);  // large enough for buckets, not a scan

  // Each check scans all n items, and n reaches 39,000: about 1,000 queries per phase
  // prove what n / 3 did. The step is odd (exact and flipped queries alternate) and prime
  // to 3 (the removal phase queries removed and kept items alike).
  size_t step = std::max<size_t>(1, n / 3000);
  while (step % 2 == 0 || step % 3 == 0) ++step;
  size_t queries = 0;
  for (size_t i = 0; i < n; i += 3 * step) {
    const uint64_t q = i % 2 ? fps[i] : testing::flipBits(fps[i], static_cast<unsigned>(rng() % (k + 3)), rng);
    index.query(q, got);
    REQUIRE(got == bruteForce(fps, ids, removed, q, k));
    ++queries;
  }
  CHECK(queries > 0);

  // Remove a third; they must never come back.
  for (size_t i = 0; i < n; i += 3) {
    CHECK(index.remove(ids[i]));
    removed[i] = true;
  }
  CHECK_FALSE(index.remove(ids[0]));
  CHECK(index.size() == n - (n + 2) / 3);
  for (size_t i = 0; i < n; i += 2 * step) {
    index.query(fps[i], got);
    REQUIRE(got == bruteForce(fps, ids, removed, fps[i], k));
  }
}

TEST_CASE("ids: duplicates are refused, fresh ids follow those handed out", "[index][ids]") {
  Index index(3);
  CHECK(index.add(1, 10) == Status::Ok);
  CHECK(index.add(2, 10) == Status::DuplicateId);
  CHECK(index.size() == 1);
  uint32_t id = 99;
  CHECK(index.addWithNewId(3, id) == Status::Ok);
  CHECK(id == 0);  // a caller's id does not move the counter
  CHECK(index.addWithNewId(3, id) == Status::Ok);
  CHECK(id == 1);
  CHECK(index.remove(1));
  CHECK(index.addWithNewId(3, id) == Status::Ok);
  CHECK(id == 2);  // a removed id is not handed out again
  CHECK(index.add(4, 3) == Status::Ok);
  CHECK(index.add(4, 4) == Status::Ok);
  CHECK(index.addWithNewId(5, id) == Status::Ok);
  CHECK(id == 5);  // ids a caller stored at the counter are stepped over
  CHECK(index.add(4, UINT32_MAX) == Status::Ok);
  CHECK(index.addWithNewId(5, id) == Status::Ok);
  CHECK(id == 6);
  CHECK(index.remove(UINT32_MAX));
  CHECK(index.addWithNewId(5, id) == Status::Ok);
  CHECK(id == 7);
}

TEST_CASE("ids: clear() keeps the counter", "[index][ids]") {
  Index index(3);
  uint32_t id = 0;
  for (int i = 0; i < 3; ++i) REQUIRE(index.addWithNewId(1, id) == Status::Ok);
  index.clear();
  CHECK(index.size() == 0);
  CHECK(index.addWithNewId(5, id) == Status::Ok);
  CHECK(id == 3);
}

TEST_CASE("ids: the last id can be handed out, then they are used up", "[index][ids]") {
  Index index(3);
  CHECK(index.add(1, UINT32_MAX - 1) == Status::Ok);
  std::vector<uint8_t> bytes = index.serialize();
  // A counter of 2^32 - 2, written by hand with the checksum recomputed.
  for (unsigned i = 0; i < 8; ++i) bytes[12 + i] = static_cast<uint8_t>((uint64_t{UINT32_MAX} - 1) >> (8 * i));
  const uint64_t sum = bytes::checksum(bytes.data(), bytes.size() - 8);
  for (unsigned i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<uint8_t>(sum >> (8 * i));
  std::string error;
  REQUIRE(Index::deserialize(bytes.data(), bytes.size(), index, error) == Status::Ok);
  uint32_t id = 0;
  CHECK(index.addWithNewId(2, id) == Status::Ok);
  CHECK(id == UINT32_MAX);  // UINT32_MAX - 1 is stored, so it is stepped over
  CHECK(index.addWithNewId(3, id) == Status::DuplicateId);
  CHECK(index.size() == 2);
  index.remove(UINT32_MAX);
  CHECK(index.addWithNewId(3, id) == Status::DuplicateId);  // handed out once already
  CHECK(index.add(3, 7) == Status::Ok);  // caller ids still work
}

TEST_CASE("ids: a failed addAll changes nothing, the counter included", "[index][ids]") {
  Index index(3);
  uint32_t id = 0;
  REQUIRE(index.add(5, 7) == Status::Ok);
  const uint32_t fresh[2] = {};
  uint32_t out[3] = {};
  const uint64_t fps[3] = {1, 2, 3};
  const uint32_t clash[2] = {4000000000u, 7};
  CHECK(index.addAll(fps, clash, 2, out) == 1);
  const uint32_t twice[3] = {20, 21, 20};
  CHECK(index.addAll(fps, twice, 3, out) == 2);  // a duplicate within the batch
  CHECK(index.size() == 1);
  CHECK(index.addWithNewId(3, id) == Status::Ok);
  CHECK(id == 0);
  CHECK(index.addAll(fps, fresh, 2, out) == 0);  // id 0 is stored
  CHECK(index.addAll(fps, nullptr, 3, out) == 3);
  CHECK(std::vector<uint32_t>(out, out + 3) == std::vector<uint32_t>{1, 2, 3});
  CHECK(index.size() == 5);
  std::vector<Match> got;
  index.query(1, got);
  CHECK(got == std::vector<Match>{{1, 0}, {0, 1}, {3, 1}, {7, 1}, {2, 2}});
  CHECK(index.serialize() == [&] {
    Index same(3);
    uint32_t ignored = 0;
    same.add(5, 7);
    for (uint64_t fp : {3, 1, 2, 3}) same.addWithNewId(fp, ignored);
    return same.serialize();
  }());
}

TEST_CASE("ids: the counter survives serialize and deserialize", "[index][ids][serialize]") {
  Index index(3);
  uint32_t id = 0;
  index.add(1, UINT32_MAX);  // a caller id at the top does not use the ids up
  index.addWithNewId(2, id);
  index.addWithNewId(2, id);
  index.clear();
  index.add(1, 100);
  const std::vector<uint8_t> bytes = index.serialize();
  Index restored(0);
  std::string error;
  REQUIRE(Index::deserialize(bytes.data(), bytes.size(), restored, error) == Status::Ok);
  CHECK(restored.addWithNewId(3, id) == Status::Ok);
  CHECK(id == 2);
}

TEST_CASE("ids: files whose next id is above every stored id load as before", "[index][ids][serialize]") {
  // Before the counter ignored caller ids, files held one more than the largest id ever
  // stored; a fresh id after loading is that number, as it was.
  Index index(3);
  index.add(1, 41);
  std::vector<uint8_t> bytes = index.serialize();
  for (unsigned i = 0; i < 8; ++i) bytes[12 + i] = static_cast<uint8_t>(uint64_t{42} >> (8 * i));
  const uint64_t sum = bytes::checksum(bytes.data(), bytes.size() - 8);
  for (unsigned i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<uint8_t>(sum >> (8 * i));
  Index restored(0);
  std::string error;
  REQUIRE(Index::deserialize(bytes.data(), bytes.size(), restored, error) == Status::Ok);
  uint32_t id = 0;
  CHECK(restored.addWithNewId(3, id) == Status::Ok);
  CHECK(id == 42);
  // A next id past 2^32 says so.
  for (unsigned i = 0; i < 8; ++i) bytes[12 + i] = static_cast<uint8_t>((uint64_t{UINT32_MAX} + 2) >> (8 * i));
  const uint64_t sum2 = bytes::checksum(bytes.data(), bytes.size() - 8);
  for (unsigned i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<uint8_t>(sum2 >> (8 * i));
  CHECK(Index::deserialize(bytes.data(), bytes.size(), restored, error) == Status::CorruptData);
  CHECK(error == "invalid serialized index: next id 4294967297 exceeds 2^32");
}

TEST_CASE("every stored item is found by its own fingerprint, duplicates included", "[index]") {
  Index index(0);
  for (uint32_t i = 0; i < 1000; ++i) REQUIRE(index.add(i % 10, i) == Status::Ok);
  std::vector<Match> got;
  index.query(7, got);
  REQUIRE(got.size() == 100);
  for (size_t j = 0; j < got.size(); ++j) CHECK(got[j] == Match{static_cast<uint32_t>(7 + 10 * j), 0});
}

TEST_CASE("serialization round-trips", "[index][serialize]") {
  std::mt19937_64 rng(9);
  const std::vector<uint64_t> fps = testing::plantedSet(500, 5, rng);
  Index index(3);
  for (uint32_t i = 0; i < fps.size(); ++i) REQUIRE(index.add(fps[i], i * 7) == Status::Ok);
  for (uint32_t i = 0; i < fps.size(); i += 5) index.remove(i * 7);
  const std::vector<uint8_t> bytes = index.serialize();

  Index restored(0);
  std::string error;
  REQUIRE(Index::deserialize(bytes.data(), bytes.size(), restored, error) == Status::Ok);
  CHECK(error.empty());
  CHECK(restored.maxDistance() == 3);
  CHECK(restored.size() == index.size());
  CHECK(restored.serialize() == bytes);
  std::vector<Match> expected, got;
  for (uint64_t fp : fps) {
    index.query(fp, expected);
    restored.query(fp, got);
    REQUIRE(got == expected);
  }
  uint32_t a = 0, b = 0;
  index.addWithNewId(1, a);
  restored.addWithNewId(1, b);
  CHECK(a == b);
}

TEST_CASE("every truncation and every single-byte corruption is rejected", "[index][serialize]") {
  std::mt19937_64 rng(13);
  Index index(3);
  for (uint32_t i = 0; i < 40; ++i) REQUIRE(index.add(rng(), i) == Status::Ok);
  const std::vector<uint8_t> bytes = index.serialize();
  Index target(5);
  REQUIRE(target.add(42, 1) == Status::Ok);
  std::string error;

  for (size_t length = 0; length < bytes.size(); ++length) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + length);  // exact size: ASan sees over-reads
    CAPTURE(length);
    REQUIRE(Index::deserialize(cut.data(), cut.size(), target, error) == Status::CorruptData);
    CHECK(error.find("truncated") != std::string::npos);
  }
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  CHECK(Index::deserialize(longer.data(), longer.size(), target, error) == Status::CorruptData);
  for (size_t pos = 0; pos < bytes.size(); ++pos) {
    for (unsigned flip : {0x01u, 0x80u, 0xFFu}) {
      std::vector<uint8_t> bad = bytes;
      bad[pos] ^= static_cast<uint8_t>(flip);
      CAPTURE(pos, flip);
      REQUIRE(Index::deserialize(bad.data(), bad.size(), target, error) == Status::CorruptData);
      CHECK_FALSE(error.empty());
    }
  }
  // The target was left as it was.
  CHECK(target.size() == 1);
  CHECK(target.maxDistance() == 5);
}

TEST_CASE("bytes::decimal writes a number as std::to_string does, as the messages of damaged bytes give it", "[index][serialize]") {
  std::mt19937_64 rng(29);
  std::vector<uint64_t> values = {0, 1, 9, 10, 99, 100, 4294967295u, 4294967296u, UINT64_MAX};
  for (int i = 0; i < 200; ++i) values.push_back(rng() >> (rng() % 64));
  for (const uint64_t value : values) CHECK(bytes::decimal(value) == std::to_string(value));
  std::string error;
  Index target(3);
  const std::vector<uint8_t> bytes = Index(3).serialize();
  CHECK(Index::deserialize(bytes.data(), 5, target, error) == Status::CorruptData);
  CHECK(error == "invalid serialized index: truncated (5 bytes; the smallest has " + std::to_string(bytes.size()) + ")");
}

TEST_CASE("the id map agrees with std::unordered_map under random inserts and erases", "[index]") {
  // Backward-shift deletion is easy to get subtly wrong; a small id range forces long
  // probe runs, collisions and wrap-around.
  std::mt19937_64 rng(99);
  simhash::detail::SlotOfId map;
  std::unordered_map<uint32_t, uint32_t> model;
  for (uint32_t step = 0; step < 200000; ++step) {
    const uint32_t id = static_cast<uint32_t>(rng() % 3000) * 64;  // same low bits: clustered homes
    switch (rng() % 3) {
      case 0:
        REQUIRE(map.insert(id, step) == model.emplace(id, step).second);
        break;
      case 1:
        REQUIRE(map.erase(id) == (model.erase(id) == 1));
        break;
      default: {
        const uint32_t* slot = map.find(id);
        const auto it = model.find(id);
        REQUIRE((slot != nullptr) == (it != model.end()));
        if (slot) REQUIRE(*slot == it->second);
      }
    }
    REQUIRE(map.size() == model.size());
  }
  for (const auto& [id, slot] : model) REQUIRE(*map.find(id) == slot);
}

namespace {

// Item by item, query then add (the streaming use), with removals and a batch now and
// then: items pass through the delta chains into rebuilt tables (removed ones dropped),
// and every query must still see every stored item once, wherever it lives.
void checkStreaming(unsigned k, testing::Data data) {
  CAPTURE(k, testing::nameOf(data));
  std::mt19937_64 rng(k * 104729 + static_cast<unsigned>(data));
  const std::vector<uint64_t> fps = testing::makeSet(data, 2400 / (k < 2 ? 3 : 5) / (data == testing::Data::Duplicates ? 2 : 1), k, rng);
  std::vector<uint64_t> stored;
  std::vector<uint32_t> ids;
  std::vector<uint8_t> removed;
  size_t live = 0;
  Index index(k);
  std::vector<Match> got;
  size_t queries = 0;
  auto check = [&](uint64_t q) {
    index.query(q, got);
    REQUIRE(got == bruteForce(stored, ids, removed, q, k));
    ++queries;
  };
  for (size_t i = 0; i < fps.size();) {
    const uint64_t q = i % 2 ? fps[i] : testing::flipBits(fps[i], static_cast<unsigned>(rng() % (k + 3)), rng);
    check(q);
    if (rng() % 500 == 0) {  // a batch: up to 600 items at once, past a rebuild's threshold
      const size_t count = std::min<size_t>(1 + rng() % 600, fps.size() - i);
      std::vector<uint32_t> out(count);
      REQUIRE(index.addAll(fps.data() + i, nullptr, count, out.data()) == count);
      for (size_t j = 0; j < count; ++j) {
        stored.push_back(fps[i + j]);
        ids.push_back(out[j]);
        removed.push_back(false);
      }
      live += count;
      i += count;
    } else {
      uint32_t id = 0;
      REQUIRE(index.addWithNewId(fps[i], id) == Status::Ok);
      stored.push_back(fps[i]);
      ids.push_back(id);
      removed.push_back(false);
      ++live;
      ++i;
    }
    if (rng() % 4 == 0) {  // remove a random stored item, in any level or the buffer
      const size_t victim = rng() % stored.size();
      CHECK(index.remove(ids[victim]) == !removed[victim]);
      live -= !removed[victim];
      removed[victim] = true;
    }
    REQUIRE(index.size() == live);
  }
  for (size_t i = 0; i < stored.size(); i += 7) check(stored[i]);
  CHECK(queries > fps.size() / 3);

  // The bytes are those of the stored items in insertion order, whatever the levels did.
  Index fresh(k);
  for (size_t i = 0; i < stored.size(); ++i) {
    if (!removed[i]) REQUIRE(fresh.add(stored[i], ids[i]) == Status::Ok);
  }
  const std::vector<uint8_t> bytes = index.serialize();
  std::vector<uint8_t> freshBytes = fresh.serialize();
  // The fresh index has handed out no id; the counters are the one difference.
  std::copy(bytes.begin() + 12, bytes.begin() + 20, freshBytes.begin() + 12);
  const uint64_t sum = bytes::checksum(freshBytes.data(), freshBytes.size() - 8);
  for (unsigned i = 0; i < 8; ++i) freshBytes[freshBytes.size() - 8 + i] = static_cast<uint8_t>(sum >> (8 * i));
  CHECK(bytes == freshBytes);
  Index restored(0);
  std::string error;
  REQUIRE(Index::deserialize(bytes.data(), bytes.size(), restored, error) == Status::Ok);
  for (size_t i = 0; i < stored.size(); i += 11) {
    restored.query(stored[i], got);
    REQUIRE(got == bruteForce(stored, ids, removed, stored[i], k));
  }
  // Removing most items forces a rebuild; the rest are still found.
  for (size_t i = 0; i < stored.size(); ++i) {
    if (i % 5 != 0 && !removed[i]) {
      REQUIRE(index.remove(ids[i]));
      removed[i] = true;
    }
  }
  for (size_t i = 0; i < stored.size(); i += 3) check(stored[i]);
}

}  // namespace

TEST_CASE("streaming: interleaved adds, queries and removes equal brute force across rebuilds", "[index][streaming]") {
  // Every kind of data at k spread over 0..24 (each its own partitions and rebuild sizes).
  const unsigned k = GENERATE(0u, 1u, 3u, 6u, 10u, 16u, 24u);
  checkStreaming(k, GENERATE(testing::Data::Uniform, testing::Data::BiasedBits, testing::Data::Clustered, testing::Data::Duplicates));
}

// The same at every k the index's partitions change at, the long suite's (npm run test:long).
TEST_CASE("streaming: interleaved adds, queries and removes equal brute force across rebuilds, at 13 k", "[index][streaming][.full]") {
  const unsigned k = GENERATE(0u, 1u, 2u, 3u, 4u, 5u, 6u, 8u, 10u, 12u, 16u, 20u, 24u);
  checkStreaming(k, GENERATE(testing::Data::Uniform, testing::Data::BiasedBits, testing::Data::Clustered, testing::Data::Duplicates));
}
