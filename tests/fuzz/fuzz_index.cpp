// libFuzzer target: the exact index and the pair search against brute force.
//
// Byte 0 picks the mode:
//   bit 0 clear: LOAD. The rest is handed to Index::deserialize, after two optional repairs
//         that let the fuzzer get past the integrity checks to what lies behind them:
//         bit 1 rewrites the item count to fit the length (dropping a partial item),
//         bit 2 rewrites the checksum. A rejected input must leave the target index
//         unchanged and explain itself; an accepted one must serialize back to the very
//         same bytes, and answer every query like a brute-force scan of its items.
//   bits 0-1 = 01: OPS. The rest drives a sequence of add / addWithNewId / remove /
//         query / clear / serialize+reload / query-then-add stream operations
//         (FuzzedDataProvider) on an Index and on a plain list of items; sizes, query
//         results and serialized bytes must agree.
//   bits 0-1 = 11: PAIRS. findPairs over fingerprints from the rest, with the partition
//         it chooses or one forced (Partition::withThresholds, part count and thresholds
//         from the input), in slices and shards, must equal the brute-force pairs;
//         findPairs with maxPairs must count them; componentLabels must give the
//         components of those pairs and leaderLabels (both of its paths) the leader rule
//         applied to them. Forcing partitions reaches what choose() never picks at these
//         small sizes (it scans).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "hamming/partition.h"
#include "reference.h"
#include "simhash/hamming.h"
#include "simhash/index.h"
#include "simhash/pairs.h"

namespace {

using reference::getLE;
using reference::putLE;
using simhash::Index;
using simhash::Match;
using simhash::Status;

// docs/formats.md "Serialized index format (version 1)".
constexpr size_t kHeaderSize = 20, kItemSize = 12, kChecksumSize = 8;
// Bound one input's work to tens of milliseconds under the sanitizers; a serialize and
// reload round trip costs a few hundred instrumented operations per item, so it is rationed.
constexpr size_t kMaxModelItems = 1200;
constexpr size_t kMaxBatch = 400;
constexpr int kMaxOps = 200;
constexpr int kMaxReloads = 3;
constexpr size_t kMaxPairsItems = 120;

struct Item {
  uint32_t id;
  uint64_t fingerprint;
};

// What an index of these items (in insertion order) must serialize to, written from the
// README rather than from index.cpp.
std::vector<uint8_t> expectedBytes(unsigned maxDistance, uint64_t nextId, const std::vector<Item>& items) {
  std::vector<uint8_t> out = {'S', 'H', 'I', 'X'};
  putLE(out, 1, 2);
  putLE(out, maxDistance, 1);
  putLE(out, 0, 1);
  putLE(out, items.size(), 4);
  putLE(out, nextId, 8);
  for (const Item& item : items) {
    putLE(out, item.fingerprint, 8);
    putLE(out, item.id, 4);
  }
  putLE(out, XXH3_64bits(out.data(), out.size()), 8);
  return out;
}

std::vector<Match> bruteForce(const std::vector<Item>& items, uint64_t query, unsigned maxDistance) {
  std::vector<Match> out;
  for (const Item& item : items) {
    const unsigned distance = simhash::hammingDistance(query, item.fingerprint);
    if (distance <= maxDistance) out.push_back({item.id, distance});
  }
  std::sort(out.begin(), out.end(), [](const Match& x, const Match& y) {
    return x.distance != y.distance ? x.distance < y.distance : x.id < y.id;
  });
  return out;
}

void checkQuery(Index& index, const std::vector<Item>& items, uint64_t query) {
  std::vector<Match> got;
  index.query(query, got);
  FUZZ_CHECK(got == bruteForce(items, query, index.maxDistance()));
}

// fp with `count` pseudo-random bits (derived from seed) flipped; a bit drawn twice flips
// back, so the distance is at most count. Used to make neighbours near maxDistance.
uint64_t flipSome(uint64_t fp, unsigned count, uint64_t seed) {
  for (unsigned i = 0; i < count; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    fp ^= uint64_t{1} << (seed >> 58);
  }
  return fp;
}

void runLoad(const uint8_t* data, size_t size, uint8_t mode) {
  std::vector<uint8_t> bytes(data, data + size);
  reference::repairSerialized(bytes, kHeaderSize, kItemSize, 8, mode & 2, mode & 4);

  // Loading replaces an index that already holds something, which must survive a rejection.
  Index index(7);
  FUZZ_CHECK(index.add(0x0123456789ABCDEFull, 42) == Status::Ok);
  const std::vector<uint8_t> before = index.serialize();
  std::string error;
  const Status status = Index::deserialize(bytes.data(), bytes.size(), index, error);
  if (status != Status::Ok) {
    FUZZ_CHECK(status == Status::CorruptData);
    FUZZ_CHECK(error.rfind("invalid serialized index: ", 0) == 0);
    FUZZ_CHECK(index.serialize() == before);
    return;
  }

  // Accepted: the header and items are what the bytes say.
  FUZZ_CHECK(bytes.size() >= kHeaderSize + kChecksumSize);
  const size_t count = getLE(bytes.data() + 8, 4);
  FUZZ_CHECK(bytes.size() == kHeaderSize + kItemSize * count + kChecksumSize);
  std::vector<Item> items(count);
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* item = bytes.data() + kHeaderSize + kItemSize * i;
    items[i] = {static_cast<uint32_t>(getLE(item + 8, 4)), getLE(item, 8)};
  }
  FUZZ_CHECK(index.size() == count);
  FUZZ_CHECK(index.maxDistance() == bytes[6]);
  FUZZ_CHECK(index.serialize() == bytes);

  for (size_t i = 0; i < items.size() && i < 32; ++i) {
    checkQuery(index, items, items[i].fingerprint);
    checkQuery(index, items, flipSome(items[i].fingerprint, index.maxDistance() % 8 + 1, i));
    checkQuery(index, items, ~items[i].fingerprint);
  }
  checkQuery(index, items, 0);
  FUZZ_CHECK(index.serialize() == bytes);  // queries may reorganise the tables, never the items

  Index reloaded(0);
  FUZZ_CHECK(Index::deserialize(bytes.data(), bytes.size(), reloaded, error) == Status::Ok);
  FUZZ_CHECK(reloaded.serialize() == bytes);
}

// The index and a list of the items it should hold, in insertion order.
class OpsRun {
 public:
  explicit OpsRun(unsigned maxDistance) : maxDistance_(maxDistance), index_(maxDistance) {}

  void run(FuzzedDataProvider& input) {
    for (int op = 0; op < kMaxOps && input.remaining_bytes() > 0; ++op) {
      switch (input.ConsumeIntegralInRange<int>(0, 9)) {
        case 0: add(fingerprintFrom(input), idFrom(input)); break;
        case 1: addWithNewId(fingerprintFrom(input)); break;
        case 2: addBatch(input); break;
        case 3: remove(idFrom(input)); break;
        case 4: checkQuery(index_, items_, fingerprintFrom(input)); break;
        case 5: checkQuery(index_, items_, flipSome(fingerprintFrom(input), maxDistance_ + 1, op)); break;
        case 6: clear(); break;
        case 7: if (reloads_++ < kMaxReloads) reload(); break;
        case 8: FUZZ_CHECK(index_.partCount() <= 16); break;
        case 9: stream(input); break;
      }
      FUZZ_CHECK(index_.size() == items_.size());
    }
    for (size_t i = 0; i < items_.size() && i < 32; ++i) checkQuery(index_, items_, items_[i].fingerprint);
    reload();
  }

 private:
  // Mostly fingerprints near stored ones, so that queries find something.
  uint64_t fingerprintFrom(FuzzedDataProvider& input) {
    const uint8_t how = input.ConsumeIntegral<uint8_t>();
    if (items_.empty() || how < 64) return input.ConsumeIntegral<uint64_t>();
    const uint64_t base = items_[how % items_.size()].fingerprint;
    return flipSome(base, how % (maxDistance_ + 3), input.ConsumeIntegral<uint16_t>());
  }

  // Mostly small ids, so that duplicates and re-adds after remove are common; also ids at
  // the top of the range, where the next fresh id runs out.
  static uint32_t idFrom(FuzzedDataProvider& input) {
    switch (input.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: return input.ConsumeIntegralInRange<uint32_t>(0, 15);
      case 1: return UINT32_MAX - input.ConsumeIntegralInRange<uint32_t>(0, 15);
      default: return input.ConsumeIntegral<uint32_t>();
    }
  }

  void add(uint64_t fingerprint, uint32_t id) {
    if (items_.size() >= kMaxModelItems) return;
    const Status status = index_.add(fingerprint, id);
    if (!ids_.insert(id).second) {
      FUZZ_CHECK(status == Status::DuplicateId);
      return;
    }
    FUZZ_CHECK(status == Status::Ok);
    items_.push_back({id, fingerprint});  // a caller's id does not move the counter
  }

  void addWithNewId(uint64_t fingerprint) {
    if (items_.size() >= kMaxModelItems) return;
    uint32_t id = 0;
    const Status status = index_.addWithNewId(fingerprint, id);
    // The smallest id not stored at or above the counter.
    uint64_t next = nextId_;
    while (next <= UINT32_MAX && ids_.count(static_cast<uint32_t>(next))) ++next;
    if (next > UINT32_MAX) {
      FUZZ_CHECK(status == Status::DuplicateId);
      return;
    }
    FUZZ_CHECK(status == Status::Ok);
    FUZZ_CHECK(id == next);
    FUZZ_CHECK(ids_.insert(id).second);
    items_.push_back({id, fingerprint});
    nextId_ = uint64_t{id} + 1;
  }

  // Many items at once, clustered around a few centres, so that the index outgrows its
  // pending list and builds tables, and the tables hold near neighbours.
  void addBatch(FuzzedDataProvider& input) {
    const size_t count = input.ConsumeIntegralInRange<size_t>(1, kMaxBatch);
    const uint64_t centres[4] = {input.ConsumeIntegral<uint64_t>(), input.ConsumeIntegral<uint64_t>(),
                                 input.ConsumeIntegral<uint64_t>(), input.ConsumeIntegral<uint64_t>()};
    const bool freshIds = input.ConsumeBool();
    uint64_t seed = input.ConsumeIntegral<uint64_t>();
    for (size_t i = 0; i < count; ++i) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t fingerprint = flipSome(centres[i % 4], (seed >> 32) % (maxDistance_ + 3), seed);
      if (freshIds) {
        addWithNewId(fingerprint);
      } else {
        add(fingerprint, static_cast<uint32_t>(seed >> 40));  // 24-bit ids: occasional duplicates
      }
    }
  }

  // The streaming use: query, then add, item by item, so that items pass through the
  // delta chains and the queries' reads of them bring on rebuilds.
  void stream(FuzzedDataProvider& input) {
    const size_t count = input.ConsumeIntegralInRange<size_t>(1, kMaxBatch);
    uint64_t seed = input.ConsumeIntegral<uint64_t>();
    for (size_t i = 0; i < count; ++i) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t fingerprint = items_.empty() ? seed : flipSome(items_[(seed >> 33) % items_.size()].fingerprint, (seed >> 20) % (maxDistance_ + 3), seed);
      checkQuery(index_, items_, fingerprint);
      addWithNewId(fingerprint);
    }
  }

  void remove(uint32_t id) {
    const bool stored = ids_.erase(id) == 1;
    FUZZ_CHECK(index_.remove(id) == stored);
    if (stored) items_.erase(std::find_if(items_.begin(), items_.end(), [&](const Item& item) { return item.id == id; }));
  }

  void clear() {
    index_.clear();
    items_.clear();
    ids_.clear();  // the counter stays
  }

  // Serializes, checks the bytes against the format, and continues with the reloaded index.
  void reload() {
    const std::vector<uint8_t> bytes = index_.serialize();
    FUZZ_CHECK(bytes == expectedBytes(maxDistance_, nextId_, items_));
    Index reloaded(0);
    std::string error;
    FUZZ_CHECK(Index::deserialize(bytes.data(), bytes.size(), reloaded, error) == Status::Ok);
    FUZZ_CHECK(reloaded.serialize() == bytes);
    index_ = std::move(reloaded);
  }

  unsigned maxDistance_;
  Index index_;
  std::vector<Item> items_;
  std::unordered_set<uint32_t> ids_;  // the ids of items_
  uint64_t nextId_ = 0;
  int reloads_ = 0;
};

// Mostly the distances people use, where layouts have tables; any up to 64 as well.
unsigned distanceFrom(FuzzedDataProvider& input) {
  const uint8_t byte = input.ConsumeIntegral<uint8_t>();
  return byte < 192 ? byte % 17 : byte % (simhash::kMaxDistance + 1);
}

// A partition of m parts (4..16) with thresholds from the input, each at most 3 (so probe
// lists stay short), summing to at least k + 1. @pre k < 64.
simhash::Partition forcedPartition(FuzzedDataProvider& input, unsigned k) {
  const unsigned m = input.ConsumeIntegralInRange<unsigned>(std::max(4u, (k + 4) / 4), 16);
  std::vector<int> thresholds(m, -1);
  unsigned budget = 0;
  for (unsigned j = 0; j < m; ++j) {
    thresholds[j] = input.ConsumeIntegralInRange<int>(-1, 3);
    budget += static_cast<unsigned>(thresholds[j] + 1);
  }
  for (unsigned j = 0; budget < k + 1; j = (j + 1) % m) {  // top up round-robin
    if (thresholds[j] < 3) {
      ++thresholds[j];
      ++budget;
    }
  }
  return simhash::Partition::withThresholds(k, m, thresholds);
}

void runPairs(FuzzedDataProvider& input) {
  const unsigned k = distanceFrom(input);
  // Clustered fingerprints, so that many pairs lie near the distance limit.
  std::vector<uint64_t> fps;
  const size_t count = input.ConsumeIntegralInRange<size_t>(0, kMaxPairsItems);
  const uint64_t centres[3] = {input.ConsumeIntegral<uint64_t>(), input.ConsumeIntegral<uint64_t>(),
                               input.ConsumeIntegral<uint64_t>()};
  uint64_t seed = input.ConsumeIntegral<uint64_t>();
  for (size_t i = 0; i < count; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    fps.push_back(flipSome(centres[i % 3], (seed >> 32) % (k + 3), seed));
  }
  while (input.remaining_bytes() >= 8 && fps.size() < kMaxPairsItems) fps.push_back(input.ConsumeIntegral<uint64_t>());

  std::vector<simhash::Pair> expected;
  for (uint32_t a = 0; a < fps.size(); ++a) {
    for (uint32_t b = a + 1; b < fps.size(); ++b) {
      const unsigned distance = simhash::hammingDistance(fps[a], fps[b]);
      if (distance <= k) expected.push_back({a, b, distance});
    }
  }
  FUZZ_CHECK(simhash::findPairs(fps.data(), fps.size(), k) == expected);
  std::vector<simhash::Pair> bounded;
  const size_t maxPairs = input.ConsumeIntegralInRange<size_t>(0, expected.size() + 1);
  FUZZ_CHECK(simhash::findPairs(fps.data(), fps.size(), k, maxPairs, bounded) == expected.size());
  FUZZ_CHECK(expected.size() <= maxPairs ? bounded == expected : bounded.empty());
  // Any partition finds the same pairs, in any slices, split into any shards (up to
  // k = 63: thresholds of at most 3 in 16 parts cover 64).
  const bool forcible = k < 64;
  for (int forced = 0; forced < 2 && forcible; ++forced) {
    const simhash::Partition partition = forcedPartition(input, k);
    const unsigned shards = input.ConsumeIntegralInRange<unsigned>(1, 4);
    const size_t budget = input.ConsumeIntegralInRange<size_t>(1, 2000);
    std::vector<simhash::Pair> found;
    for (unsigned shard = 0; shard < shards; ++shard) {
      simhash::PairSearch search(fps.data(), fps.size(), partition, shard, shards);
      while (!search.run(budget, &found)) {
      }
    }
    simhash::sortPairs(found);
    FUZZ_CHECK(found == expected);
  }

  // Components by graph search from each unlabelled item in increasing order, so the
  // label is the smallest index in the component.
  std::vector<std::vector<uint32_t>> neighbours(fps.size());
  for (const simhash::Pair& p : expected) {
    neighbours[p.a].push_back(p.b);
    neighbours[p.b].push_back(p.a);
  }
  constexpr uint32_t kUnlabelled = UINT32_MAX;
  std::vector<uint32_t> labels(fps.size(), kUnlabelled);
  for (uint32_t first = 0; first < fps.size(); ++first) {
    if (labels[first] != kUnlabelled) continue;
    std::vector<uint32_t> pending = {first};
    labels[first] = first;
    while (!pending.empty()) {
      const uint32_t item = pending.back();
      pending.pop_back();
      for (uint32_t next : neighbours[item]) {
        if (labels[next] == kUnlabelled) {
          labels[next] = first;
          pending.push_back(next);
        }
      }
    }
  }
  FUZZ_CHECK(simhash::componentLabels(fps.size(), expected) == labels);

  // Leaders: in index order, each item joins the earliest leader among its pairs' partners.
  std::vector<uint32_t> leaderOf(fps.size());
  for (uint32_t j = 0; j < fps.size(); ++j) leaderOf[j] = j;
  for (const simhash::Pair& p : expected) {  // sorted by (a, b): each b sees its partners a ascending
    if (leaderOf[p.b] == p.b && leaderOf[p.a] == p.a && p.a < p.b) leaderOf[p.b] = p.a;
  }
  FUZZ_CHECK(simhash::leaderLabels(fps.data(), fps.size(), k) == leaderOf);
  for (auto path : {simhash::LeaderSearch::Path::Pairs, simhash::LeaderSearch::Path::Lookups}) {
    const simhash::Partition partition = forcible ? forcedPartition(input, k) : simhash::Partition::choose(nullptr, 0, k, simhash::Partition::Use::Leaders);
    simhash::LeaderSearch search(fps.data(), fps.size(), k, path, forcible && input.ConsumeBool() ? &partition : nullptr);
    const size_t budget = input.ConsumeIntegralInRange<size_t>(1, 2000);
    while (!search.run(budget)) {
    }
    FUZZ_CHECK(search.takeLabels() == leaderOf);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  if ((data[0] & 1) == 0) {
    runLoad(data + 1, size - 1, data[0]);
    return 0;
  }
  FuzzedDataProvider input(data + 1, size - 1);
  if (data[0] & 2) {
    runPairs(input);
    return 0;
  }
  OpsRun ops(distanceFrom(input));
  ops.run(input);
  return 0;
}
