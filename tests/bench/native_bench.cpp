// Native half of `npm run bench` (tests/bench/bench.js runs it and prints the table):
//   simhash_bench fingerprint FILE   fingerprint every line of FILE, best of 10 runs
//   simhash_bench pairs N K SEED     findPairs over the planted set bench.js also uses
//   simhash_bench pairs-file FILE K  findPairs over FILE's fingerprints (little-endian u64)
//   simhash_bench leaders N K SEED   leaderLabels over the planted set
//   simhash_bench leaders-file FILE K
//   simhash_bench scan               seconds per pair of a plain scan (findPairs of 1,400 items)
//   simhash_bench text-index FILE S  TextIndex at threshold S over FILE's texts (NUL-separated):
//                                    query each, add it when nothing is found (every text with
//                                    STORE_ALL set in the environment); then serialize and load back
//   simhash_bench candidates FILE S [short] [ROWS BANDS]
//                                    the candidate pairs of FILE's texts (NUL-separated) at
//                                    threshold S, as dedup and the review find them: pairs
//                                    sharing a band key of dedup's banding (bandingFor(S, sets))
//                                    or ROWS x BANDS; of
//                                    those, the pairs the set sketches pass (set_sketch.h), the
//                                    pairs that reach S, and those the sketches set aside (with up
//                                    to 10,000 texts, every pair decided: `recall`, the share of
//                                    the pairs that reach S that are candidates; else -1); then
//                                    the seconds of dedup's leader grouping (SimilarGroups) at
//                                    that banding. `short`: the short measure, with the word
//                                    weights of FILE's texts, as dedup's defaults use it
// Prints one JSON object per line.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "../../cpp/src/hamming/partition.h"
#include "../../cpp/src/similarity/set_sketch.h"
#include "planted.h"
#include "simhash/fingerprint.h"
#include "simhash/pairs.h"
#include "simhash/similar_groups.h"
#include "simhash/similarity.h"
#include "simhash/text_index.h"
#include "simhash/word_weights.h"

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

std::vector<std::string> readTexts(const char* path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<std::string> texts;
  for (std::string text; std::getline(file, text, '\0');) texts.push_back(std::move(text));
  return texts;
}

// `candidates FILE S [short] [ROWS BANDS]` (see the top of the file).
// `banding` 0 x 0: dedup's.
void candidates(const char* path, double threshold, bool shortMeasure, simhash::Banding banding) {
  const std::vector<std::string> texts = readTexts(path);
  std::string utf8;
  std::vector<uint32_t> offsets{0};
  for (const std::string& text : texts) {
    utf8 += text;
    offsets.push_back(static_cast<uint32_t>(utf8.size()));
  }
  const auto count = static_cast<uint32_t>(texts.size());
  simhash::WordWeights weights;
  simhash::ShingleOptions options;
  if (shortMeasure) {
    std::vector<char32_t> cps;
    for (const std::string& text : texts) {
      simhash::normalizeForSimilarity(text, cps, simhash::Normalization::kList);
      weights.count(cps.data(), cps.size());
    }
    weights.finish();
    options = simhash::kShortStringOptions;
    options.weights = &weights;
  }
  simhash::ShingleSets sets;
  sets.build(utf8.data(), offsets.data(), count, options);
  if (banding.rows == 0) banding = simhash::bandingFor(threshold, sets);
  simhash::MinHashBands signer(banding);
  simhash::SetSketch sketcher;
  const simhash::SketchFilter filter(threshold);
  std::vector<uint32_t> keys(size_t{count} * banding.bands);
  std::vector<uint64_t> sketches(size_t{count} * simhash::SetSketch::kWords), codes;
  std::unordered_map<uint32_t, std::vector<uint32_t>> byKey;
  for (uint32_t i = 0; i < count; ++i) {
    codes.resize(std::max<size_t>(sets.size(i), 1));
    sets.canonicalCodes(i, codes.data());
    signer.keys(codes.data(), sets.size(i), keys.data() + size_t{i} * banding.bands);
    sketcher.make(codes.data(), sets.size(i), sketches.data() + size_t{i} * simhash::SetSketch::kWords);
    for (unsigned b = 0; b < banding.bands; ++b) byKey[keys[size_t{i} * banding.bands + b]].push_back(i);
  }
  std::vector<uint32_t> seenBy(count, 0);
  size_t candidatePairs = 0, passed = 0, reaching = 0, setAside = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < count; ++i) {
    for (unsigned b = 0; b < banding.bands; ++b) {
      for (const uint32_t y : byKey[keys[size_t{i} * banding.bands + b]]) {
        if (y >= i) break;
        if (seenBy[y] == i + 1) continue;
        seenBy[y] = i + 1;
        ++candidatePairs;
        const bool pass = filter.mayReach(sketches.data() + size_t{y} * simhash::SetSketch::kWords, sets.size(y),
                                          sketches.data() + size_t{i} * simhash::SetSketch::kWords, sets.size(i));
        const bool reaches = sets.atLeast(y, i, threshold);
        passed += pass;
        reaching += reaches;
        setAside += reaches && !pass;
      }
    }
  }
  const double pairs = 0.5 * count * (count - 1.0);
  const double candidateSeconds = seconds(start);
  // Up to kBruteForceTexts texts, every pair decided exactly: the candidates' recall.
  constexpr uint32_t kBruteForceTexts = 10000;
  size_t allReaching = 0;
  for (uint32_t i = 0; count <= kBruteForceTexts && i < count; ++i) {
    for (uint32_t y = 0; y < i; ++y) allReaching += sets.atLeast(y, i, threshold);
  }
  const auto grouping = std::chrono::steady_clock::now();
  simhash::SimilarGroups groups(sets, threshold, simhash::SimilarGroups::Grouping::Leader, banding);
  while (!groups.run(size_t{1} << 30)) {
  }
  std::printf("{\"texts\":%u,\"measure\":\"%s\",\"threshold\":%.2f,\"rows\":%u,\"bands\":%u,\"candidates\":%zu,\"candidatesPerText\":%.1f,"
              "\"candidatesPerMillionPairs\":%.1f,\"sketchPassed\":%zu,\"passedPerMillionPairs\":%.1f,\"reaching\":%zu,"
              "\"setAsideReaching\":%zu,\"recall\":%.4f,\"seconds\":%.2f,\"leaderGroupingSeconds\":%.2f}\n",
              count, shortMeasure ? "short" : "text", threshold, banding.rows, banding.bands, candidatePairs, 2.0 * candidatePairs / count,
              1e6 * candidatePairs / pairs, passed, 1e6 * passed / pairs, reaching, setAside,
              count <= kBruteForceTexts ? static_cast<double>(reaching) / std::max<size_t>(allReaching, 1) : -1.0, candidateSeconds,
              seconds(grouping));
}

std::vector<uint64_t> readFingerprints(const char* path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<uint64_t> fps;
  unsigned char bytes[8];
  while (file.read(reinterpret_cast<char*>(bytes), 8)) {
    uint64_t fp = 0;
    for (int i = 7; i >= 0; --i) fp = fp << 8 | bytes[i];
    fps.push_back(fp);
  }
  return fps;
}

// The partition findPairs chooses, as width/threshold per probed part ("scan" for none).
std::string describe(const std::vector<uint64_t>& fps, unsigned k, simhash::Partition::Use use) {
  const simhash::Partition p = simhash::Partition::choose(fps.data(), fps.size(), k, use);
  std::string out;
  for (size_t i = 0; i < p.partCount(); ++i) {
    out += (i ? " " : "") + std::to_string(p.part(i).width) + "b<=" + std::to_string(p.part(i).threshold);
  }
  return out.empty() ? "scan" : out;
}

double cpuSeconds(std::clock_t since) { return static_cast<double>(std::clock() - since) / CLOCKS_PER_SEC; }

void pairs(const std::vector<uint64_t>& fps, unsigned k) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  const std::vector<simhash::Pair> found = simhash::findPairs(fps.data(), fps.size(), k);
  const double elapsed = seconds(start), used = cpuSeconds(cpu);
  std::printf("{\"n\":%zu,\"k\":%u,\"pairs\":%zu,\"seconds\":%.6f,\"cpu\":%.6f,\"partition\":\"%s\"}\n", fps.size(), k, found.size(), elapsed, used,
              describe(fps, k, simhash::Partition::Use::Join).c_str());
}

void leaders(const std::vector<uint64_t>& fps, unsigned k) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  simhash::LeaderSearch search(fps.data(), fps.size(), k);
  const bool viaPairs = search.usesPairs();
  while (!search.run(SIZE_MAX)) {
  }
  const std::vector<uint32_t> leaderOf = search.takeLabels();
  const double elapsed = seconds(start), used = cpuSeconds(cpu);
  size_t kept = 0;
  for (size_t i = 0; i < leaderOf.size(); ++i) kept += leaderOf[i] == i;
  std::printf("{\"n\":%zu,\"k\":%u,\"kept\":%zu,\"seconds\":%.6f,\"cpu\":%.6f,\"path\":\"%s\"}\n", fps.size(), k, kept, elapsed, used,
              viaPairs ? "pairs" : "lookups");
}

void textIndex(const char* path, double threshold) {
  const std::vector<std::string> texts = readTexts(path);
  size_t bytes = 0;
  for (const std::string& text : texts) bytes += text.size();
  simhash::TextIndex index(threshold);
  const bool storeAll = std::getenv("STORE_ALL") != nullptr;
  std::vector<simhash::TextMatch> found;
  size_t kept = 0, keptBytes = 0;
  auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  for (const std::string& text : texts) {
    index.query(text, SIZE_MAX, found);
    if (!found.empty() && !storeAll) continue;
    uint32_t id;
    index.addWithNewId(text, id);
    ++kept;
    keptBytes += text.size();
  }
  const double stream = seconds(start), streamCpu = cpuSeconds(cpu);
  start = std::chrono::steady_clock::now();
  const std::vector<uint8_t> bytesOut = index.serialize();
  const double save = seconds(start);
  start = std::chrono::steady_clock::now();
  simhash::TextIndex loaded(0.5);
  std::string error;
  const bool ok = simhash::TextIndex::deserialize(bytesOut.data(), bytesOut.size(), loaded, error) == simhash::Status::Ok;
  const double load = seconds(start);
  std::printf("{\"texts\":%zu,\"bytes\":%zu,\"kept\":%zu,\"keptBytes\":%zu,\"usPerText\":%.3f,\"cpuUsPerText\":%.3f,\"memoryBytes\":%zu,"
              "\"memoryPerKeptUtf8\":%.3f,\"serializedBytes\":%zu,\"serializeSeconds\":%.3f,\"loadSeconds\":%.3f,\"loaded\":%s}\n",
              texts.size(), bytes, kept, keptBytes, 1e6 * stream / static_cast<double>(texts.size()),
              1e6 * streamCpu / static_cast<double>(texts.size()), index.memoryBytes(),
              static_cast<double>(index.memoryBytes()) / static_cast<double>(keptBytes), bytesOut.size(), save, load, ok ? "true" : "false");
}

int usage() {
  std::fprintf(stderr, "usage: simhash_bench fingerprint FILE | pairs N K SEED | pairs-file FILE K | leaders N K SEED | leaders-file FILE K | scan | text-index FILE S | candidates FILE S [short] [ROWS BANDS]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "fingerprint" && argc == 3) {
    std::ifstream file(argv[2], std::ios::binary);
    std::vector<std::string> lines;
    size_t bytes = 0;
    for (std::string line; std::getline(file, line);) {
      bytes += line.size();
      lines.push_back(std::move(line));
    }
    simhash::Fingerprinter fingerprinter;
    simhash::FingerprintOptions options;
    double best = 1e9;
    uint64_t check = 0;
    for (int run = 0; run < 10; ++run) {
      const auto start = std::chrono::steady_clock::now();
      uint64_t runCheck = 0;
      for (const std::string& line : lines) runCheck ^= fingerprinter.fingerprint(line, options);
      check = runCheck;
      best = std::min(best, seconds(start));
    }
    std::printf("{\"texts\":%zu,\"bytes\":%zu,\"seconds\":%.6f,\"xor\":\"%016llx\"}\n", lines.size(), bytes, best,
                static_cast<unsigned long long>(check));
  } else if (mode == "pairs" && argc == 5) {
    const unsigned k = static_cast<unsigned>(std::atoi(argv[3]));
    pairs(simhash::bench::plantedFingerprints(std::strtoull(argv[2], nullptr, 10), k, std::strtoull(argv[4], nullptr, 10)), k);
  } else if (mode == "pairs-file" && argc == 4) {
    pairs(readFingerprints(argv[2]), static_cast<unsigned>(std::atoi(argv[3])));
  } else if (mode == "leaders" && argc == 5) {
    const unsigned k = static_cast<unsigned>(std::atoi(argv[3]));
    leaders(simhash::bench::plantedFingerprints(std::strtoull(argv[2], nullptr, 10), k, std::strtoull(argv[4], nullptr, 10)), k);
  } else if (mode == "leaders-file" && argc == 4) {
    leaders(readFingerprints(argv[2]), static_cast<unsigned>(std::atoi(argv[3])));
  } else if (mode == "scan") {
    // Below 2^20 pairs findPairs scans; the best of 20 runs over 1,400 uniform items.
    const std::vector<uint64_t> fps = simhash::bench::plantedFingerprints(1400, 0, 1);
    double best = 1e9;
    for (int run = 0; run < 20; ++run) {
      const std::clock_t cpu = std::clock();
      simhash::findPairs(fps.data(), fps.size(), 3);
      best = std::min(best, cpuSeconds(cpu));
    }
    std::printf("{\"secondsPerPair\":%.4e}\n", best / (1400.0 * 1399 / 2));
  } else if (mode == "text-index" && argc == 4) {
    textIndex(argv[2], std::strtod(argv[3], nullptr));
  } else if (mode == "candidates" && argc >= 4 && argc <= 7) {
    const double threshold = std::strtod(argv[3], nullptr);
    const bool shortMeasure = argc == 5 || argc == 7;
    if (shortMeasure && std::string(argv[4]) != "short") return usage();
    simhash::Banding banding{0, 0};
    if (argc >= 6) {
      banding = {static_cast<unsigned>(std::atoi(argv[argc - 2])), static_cast<unsigned>(std::atoi(argv[argc - 1]))};
      if (banding.rows < 1 || banding.bands < 1 || banding.rows * banding.bands > simhash::kMaxMinHashes) return usage();
    }
    candidates(argv[2], threshold, shortMeasure, banding);
  } else {
    return usage();
  }
  return 0;
}
