// Writes the seed corpora checked in under tests/fuzz/corpus/ (built with -DSIMHASH_FUZZ=ON):
//   build/fuzz/fuzz_write_seeds tests/fuzz/corpus
// Seeds only need to be valid starting points; the fuzzer mutates them from there. The
// input layouts are described at the top of each fuzz_*.cpp and in reference.h.
// The text index seeds named *_format1 were written by 3cdfcf7's build in format 1, before
// half-width katakana folded, and are kept as they are: format 1 bytes must still load. So
// are the short measure's seeds named *_revision0, written before legal forms were written
// short (the list normalization's revision 0): their texts are normalized again.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "simhash/idf.h"
#include "simhash/index.h"
#include "simhash/similarity.h"
#include "simhash/text_index.h"
#include "simhash/word_weights.h"
#include "../cpp/list_weights.h"

namespace {

void write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) std::fprintf(stderr, "cannot write %s\n", path.c_str());
}

// fuzz_fingerprint input: two option bytes, then the text.
void writeText(const std::string& dir, const std::string& name, uint8_t options0, uint8_t options1,
               const std::string& text) {
  std::vector<uint8_t> bytes = {options0, options1};
  bytes.insert(bytes.end(), text.begin(), text.end());
  write(dir + "/" + name, bytes);
}

// fuzz_index LOAD input: an even mode byte without repairs, then the serialized index.
void writeIndex(const std::string& dir, const std::string& name, const simhash::Index& index) {
  std::vector<uint8_t> bytes = {0};
  const std::vector<uint8_t> serialized = index.serialize();
  bytes.insert(bytes.end(), serialized.begin(), serialized.end());
  write(dir + "/" + name, bytes);
}

// fuzz_text_index LOAD input: an even mode byte without repairs, then the serialized index.
void writeTextIndex(const std::string& dir, const std::string& name, const simhash::TextIndex& index) {
  std::vector<uint8_t> bytes = {0};
  const std::vector<uint8_t> serialized = index.serialize();
  bytes.insert(bytes.end(), serialized.begin(), serialized.end());
  write(dir + "/" + name, bytes);
}

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR (with a directory per fuzz target inside)\n", argv[0]);
    return 2;
  }
  const std::string text = std::string(argv[1]) + "/fuzz_fingerprint";
  // Option byte 0: mode | caseFold << 2 | binary << 3 | (wordNgram - 1) << 4;
  // byte 1: (charNgram - 1) | weight scale << 4 | raw hashes << 7.
  writeText(text, "english_auto", 0x04, 0x01, "The quick brown fox jumps over the lazy dog. The DOG sleeps!");
  writeText(text, "chinese_auto_bigrams", 0x04, 0x21, "你妈妈喊你回家吃饭哦，回家罗回家罗");
  writeText(text, "mixed_words_trigrams", 0x25, 0x02, "東京タワーは333m、Tokyo Tower ist 333 m hoch; 서울 타워 ΣΊΣΥΦΟΣ ς");
  writeText(text, "mixed_chars_binary", 0x0E, 0x32, "Ａｂｃ ẞtraße 123 — 日本語のテキスト 😀 Ωmega");
  writeText(text, "separated_bigrams", 0x17, 0x51, "Hello\x1F, \x1Fworld\x1F\x1F東京\x1F😀 \x1F\xFF");
  writeText(text, "symbols_fallback", 0x04, 0x61, " 。 👍👍 ... !!!\u3000?? ");
  writeText(text, "invalid_utf8", 0x04, 0x01,
            "ok \xC0\xAF \xE0\x80\x80 \xED\xA0\x80 \xF4\x90\x80\x80 \xE4\xB8 中\xFF文 end");
  writeText(text, "raw_hashes", 0x00, 0x80, std::string(300, '\x01') + std::string(300, '\x00'));
  {
    // One code point from every 3-byte BMP page (surrogates excepted), with an ASCII word
    // every 16 pages: each page's class, folding and punctuation flags, the CJK copy path
    // and the transitions between words and CJK runs.
    std::string pages;
    for (unsigned page = 0x08; page <= 0xFF; ++page) {
      if (page >= 0xD8 && page <= 0xDF) continue;
      const unsigned cp = page << 8 | 0x41;
      pages += {static_cast<char>(0xE0 | cp >> 12), static_cast<char>(0x80 | (cp >> 6 & 0x3F)),
                static_cast<char>(0x80 | (cp & 0x3F))};
      if (page % 16 == 15) pages += " Ab ";
    }
    writeText(text, "bmp_pages_auto", 0x04, 0x01, pages);
  }

  // fuzz_idf LEARN: an even mode byte, the option header, '\n'-separated documents.
  const std::string idf = std::string(argv[1]) + "/fuzz_idf";
  const std::string documents = "the cat sat\nthe dog sat\nthe bird flew\n回家吃饭\n回家罗\n\n!!!";
  writeText(idf, "learn_auto", 0x00, 0x04, std::string("\x01") + documents);
  writeText(idf, "learn_chars_binary", 0x00, 0x0E, std::string("\x12") + documents);
  {
    // fuzz_idf LOAD: an odd mode byte, the table's length (2 bytes), the table, a text.
    simhash::FingerprintOptions options;
    options.tokenizer.wordNgram = 2;
    simhash::IdfLearner learner(options, 1);
    for (const char* document : {"the cat sat", "the dog sat", "the cat ran", "回家吃饭"}) learner.addDocument(document);
    const std::vector<uint8_t> table = learner.table().serialize();
    std::vector<uint8_t> bytes = {1, static_cast<uint8_t>(table.size()), static_cast<uint8_t>(table.size() >> 8)};
    bytes.insert(bytes.end(), table.begin(), table.end());
    const std::string query = "the cat sat on the dog";
    bytes.insert(bytes.end(), query.begin(), query.end());
    write(idf + "/load_word_bigrams", bytes);
  }

  const std::string index = std::string(argv[1]) + "/fuzz_index";
  writeIndex(index, "empty_k3", simhash::Index(3));
  {
    // A few items, ids not in order, a removed one so that the next id is above every stored id.
    simhash::Index small(3);
    small.add(0xFFFF0000FFFF0000ull, 7);
    small.add(0xFFFF0000FFFF0007ull, 2);
    small.add(0x0123456789ABCDEFull, 100);
    small.add(0x0123456789ABCDEEull, 101);
    small.remove(101);
    small.add(0, 5);
    writeIndex(index, "small_k3", small);
  }
  {
    // More items than the index keeps pending, so that loading and querying builds tables.
    simhash::Index clustered(6);
    uint64_t state = 6;
    const uint64_t centre = splitmix64(state);
    for (uint32_t id = 0; id < 300; ++id) {
      const uint64_t noise = splitmix64(state) & splitmix64(state) & splitmix64(state) & splitmix64(state);
      clustered.add(centre ^ noise, id * 3);
    }
    writeIndex(index, "clustered_k6", clustered);
  }
  // OPS (mode byte 1) and PAIRS (mode byte 3) inputs: bytes that FuzzedDataProvider turns
  // into operations, or into fingerprints and layouts.
  for (const auto& [name, mode] : {std::pair<const char*, uint8_t>{"ops_", 1}, {"pairs_", 3}}) {
    for (unsigned length : {64u, 1024u}) {
      uint64_t state = length + mode;
      std::vector<uint8_t> bytes = {mode};
      while (bytes.size() < length) bytes.push_back(static_cast<uint8_t>(splitmix64(state)));
      write(index + "/" + name + std::to_string(length), bytes);
    }
  }

  const std::string textIndex = std::string(argv[1]) + "/fuzz_text_index";
  writeTextIndex(textIndex, "empty_08", simhash::TextIndex(0.8));
  {
    // Near-duplicates in ASCII, CJK and kana, caller-chosen ids out of order, a removed
    // text, and fresh ids after them.
    simhash::TextIndex small(0.8);
    small.add("The cat sat on the mat.", 7);
    small.add("the cat sat on a mat", 3);
    small.add("東京の天気は晴れ", 100);
    small.add("東京の天気は雨", 101);
    small.add("ねこのカメラ", 5);
    small.remove(101);
    uint32_t id = 0;
    small.addWithNewId("the dog sat on the mat", id);
    small.addWithNewId("日本語 the cat ＡＢ é", id);
    writeTextIndex(textIndex, "small_08", small);
  }
  {
    // Another threshold and shingle sizes: 0.5 bands 3 rows, unigrams in CJK.
    simhash::TextIndex wide(0.5, simhash::ShingleOptions{2, 1});
    wide.add("the cat sat", 0);
    wide.add("the cat sat on", 1);
    wide.add("猫は猫", 2);
    wide.add("猫の猫", 3);
    writeTextIndex(textIndex, "wide_05_sizes_2_1", wide);
  }
  {
    // Format 3: review at 0.5 (sketches, the review band table), a removed text.
    simhash::TextIndex review(0.8, 0.5);
    review.add("How do I reset my password?", 0);
    review.add("How can I reset my password?", 1);
    review.add("这家餐厅的菜很好吃", 2);
    review.add("这家餐厅的菜非常好吃", 3);
    review.add("a dog ran", 4);
    review.remove(4);
    writeTextIndex(textIndex, "review_08_05", review);
  }
  {
    // The short measure at 0.6 (the list normalization's flag), without word weights and
    // with those of its list (the weights' flag, their section after the header).
    const std::vector<std::string> list = {"John Smith", "Smith, John", "Jon Smith", "José García", "Acme Inc.", "ACME Corp",
                                           "北京大学", "Müller GmbH"};
    const simhash::WordWeights weights = list_weights::learnWeights(list);
    simhash::ShingleOptions options = simhash::kShortStringOptions;
    simhash::TextIndex plain(0.6, options);
    options.weights = &weights;
    simhash::TextIndex weighted(0.6, options);
    for (uint32_t id = 0; id < list.size(); ++id) {
      plain.add(list[id], id);
      weighted.add(list[id], id);
    }
    writeTextIndex(textIndex, "short_06", plain);
    writeTextIndex(textIndex, "short_weighted_06", weighted);
  }
  // OPS inputs (odd mode byte): bytes that FuzzedDataProvider turns into a threshold,
  // shingle sizes and operations.
  for (unsigned length : {64u, 1024u, 4096u}) {
    uint64_t state = length + 1;
    std::vector<uint8_t> bytes = {1};
    while (bytes.size() < length) bytes.push_back(static_cast<uint8_t>(splitmix64(state)));
    write(textIndex + "/ops_" + std::to_string(length), bytes);
  }

  // fuzz_short: bytes that FuzzedDataProvider turns into a list, its weights, pairs and an
  // index.
  const std::string shortMeasure = std::string(argv[1]) + "/fuzz_short";
  for (unsigned length : {64u, 512u, 2048u}) {
    uint64_t state = length + 5;
    std::vector<uint8_t> bytes;
    while (bytes.size() < length) bytes.push_back(static_cast<uint8_t>(splitmix64(state)));
    write(shortMeasure + "/list_" + std::to_string(length), bytes);
  }
  return 0;
}
