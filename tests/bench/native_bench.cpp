// Native half of `npm run bench` (tests/bench/bench.js runs it and prints the table):
//   simhash_bench fingerprint FILE   fingerprint every line of FILE, best of 10 runs
//   simhash_bench pairs N K SEED [B] findPairs over the planted set bench.js also uses,
//                                    with the chosen block layout or with B blocks
//   simhash_bench layout             the block layout chosen for each N and k
// Prints one JSON object per line.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "planted.h"
#include "simhash/fingerprint.h"
#include "simhash/pairs.h"

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
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
    const size_t n = std::strtoull(argv[2], nullptr, 10);
    const unsigned k = static_cast<unsigned>(std::atoi(argv[3]));
    const std::vector<uint64_t> fps = simhash::bench::plantedFingerprints(n, k, std::strtoull(argv[4], nullptr, 10));
    const auto start = std::chrono::steady_clock::now();
    const std::vector<simhash::Pair> pairs = simhash::findPairs(fps.data(), fps.size(), k);
    const double elapsed = seconds(start);
    std::printf("{\"n\":%zu,\"k\":%u,\"pairs\":%zu,\"seconds\":%.6f}\n", n, k, pairs.size(), elapsed);
  } else if (mode == "leaders" && argc == 5) {
    const size_t n = std::strtoull(argv[2], nullptr, 10);
    const unsigned k = static_cast<unsigned>(std::atoi(argv[3]));
    const std::vector<uint64_t> fps = simhash::bench::plantedFingerprints(n, k, std::strtoull(argv[4], nullptr, 10));
    const auto start = std::chrono::steady_clock::now();
    const std::vector<uint32_t> leaderOf = simhash::leaderLabels(fps.data(), fps.size(), k);
    const double elapsed = seconds(start);
    size_t kept = 0;
    for (size_t i = 0; i < n; ++i) kept += leaderOf[i] == i;
    std::printf("{\"n\":%zu,\"k\":%u,\"kept\":%zu,\"seconds\":%.6f}\n", n, k, kept, elapsed);
  } else {
    std::fprintf(stderr, "usage: simhash_bench fingerprint FILE | pairs N K SEED [B] | leaders N K SEED | layout\n");
    return 2;
  }
  return 0;
}
