#include <catch2/catch.hpp>
#include <fstream>

#include "../vectors/vectors.h"
#include "simhash/fingerprint.h"

TEST_CASE("the native build reproduces every golden vector", "[vectors]") {
  std::ifstream file(SIMHASH_VECTORS);
  REQUIRE(file.good());
  std::string line;
  REQUIRE(std::getline(file, line));
  // The file was generated for the current format: bumping the version means regenerating.
  CHECK(line.find("fingerprint format version " + std::to_string(simhash::kFingerprintFormatVersion) + ".") != std::string::npos);
  size_t checked = 0;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = simhash::vectors::split(line, '\t');
    REQUIRE(fields.size() == 4);
    simhash::vectors::Vector v{fields[1], simhash::vectors::fromHex(fields[2]), fields[3]};
    const uint64_t expected = std::stoull(fields[0], nullptr, 16);
    INFO("vector: " << v.note << " (" << v.options << ")\n"
         "If the fingerprint definition changed on purpose, bump the format version, regenerate with\n"
         "`npm run vectors` and document it in the README changelog; otherwise this is a regression.");
    CHECK(simhash::vectors::compute(v) == expected);
    ++checked;
  }
  CHECK(checked >= 30);
}
