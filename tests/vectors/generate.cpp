// Writes the golden vectors (fingerprints.tsv) to stdout from the native build.
// Run it (npm run vectors) only when the fingerprint format version changes on purpose.
#include <cstdio>
#include <iostream>

#include "simhash/fingerprint.h"
#include "vectors.h"

int main() {
  using simhash::vectors::Vector;
  const std::string defaults = "mode=auto word=1 char=2 fold=1 punct=strip weight=binary";
  const std::string longText =
      "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of "
      "foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the season of Light, "
      "it was the season of Darkness, it was the spring of hope, it was the winter of despair.";
  const std::vector<Vector> cases = {
      {defaults, "", "empty"},
      {defaults, " \t\n...!?", "separators only"},
      {defaults, "hello", "one word"},
      {defaults, "The quick brown fox jumps over the lazy dog", "English"},
      {defaults, "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG", "English, upper case"},
      {defaults, "The quick brown fox jumped over the lazy dog!", "English, edited"},
      {defaults, longText, "English paragraph"},
      {"mode=auto word=3 char=2 fold=1 punct=strip weight=tf", longText, "word 3-grams"},
      {"mode=auto word=1 char=2 fold=1 punct=strip weight=tf", longText, "term-frequency weighting"},
      {"mode=auto word=1 char=2 fold=1 punct=strip weight=tf", "你妈妈喊你回家吃饭哦，回家罗回家罗", "Chinese, term-frequency weighting"},
      {"mode=words word=2 char=2 fold=1 punct=strip weight=tf", longText, "words mode, bigrams"},
      {"mode=chars word=1 char=3 fold=1 punct=strip weight=tf", longText, "chars mode, 3-grams"},
      {"mode=chars word=1 char=5 fold=0 punct=strip weight=tf", "Case Matters Here", "no case folding"},
      {defaults, "你妈妈喊你回家吃饭哦，回家罗回家罗", "Chinese"},
      {defaults, "你妈妈叫你回家吃饭啦，回家罗回家罗", "Chinese, edited"},
      {"mode=auto word=1 char=3 fold=1 punct=strip weight=tf", "你妈妈喊你回家吃饭哦，回家罗回家罗", "Chinese, 3-grams"},
      {"mode=words word=1 char=2 fold=1 punct=strip weight=tf", "你妈妈喊你回家吃饭哦，回家罗回家罗", "Chinese, words mode"},
      {defaults, "吃", "one ideograph"},
      {defaults, "東京は日本の首都です。カタカナもある", "Japanese"},
      {defaults, "안녕하세요 세계", "Korean"},
      {defaults, "iPhone 15 Pro Max 256GB 官方正品 全新未拆封", "mixed English and Chinese"},
      {defaults, "ＦＵＬＬ－ＷＩＤＴＨ　ｔｅｘｔ １２３", "full-width Latin"},
      {defaults, "Ελληνικά ΣΟΦΙΑ σοφίας; Русский ТЕКСТ ёлка", "Greek and Cyrillic"},
      {defaults, "Ünïcödé çåsé FÖLDING Straße", "Latin-1"},
      {defaults, "😀🎉👍", "emoji only"},
      {defaults, "😀", "one emoji"},
      {defaults, "。", "punctuation only, Chinese"},
      {defaults, "!!! ???", "punctuation only, ASCII"},
      {"mode=chars word=1 char=2 fold=1 punct=strip weight=tf", "---", "punctuation only, chars mode"},
      {defaults, " \t\u3000\n", "whitespace only"},
      {"mode=separated word=1 char=2 fold=1 punct=strip weight=tf", "Hello\x1f" "World\x1f" "你好\x1f" "世界", "separated tokens"},
      {"mode=separated word=2 char=2 fold=0 punct=strip weight=binary", "Hello\x1f" "World\x1f" "你好\x1f" "世界", "separated tokens, bigrams"},
      {"mode=separated word=1 char=2 fold=1 punct=strip weight=tf", "a\xff\x1f\x1f" "b c", "separated tokens, invalid byte"},
      {defaults, "great job 👍 see you 🎉", "words and emoji"},
      {defaults, "a\xff" "b\xc0\xafz", "invalid UTF-8 bytes"},
      {defaults, "Don't stop-believing: e-mail me at x@y.org (ASAP)!", "punctuation joins words"},
      {"mode=auto word=1 char=2 fold=1 punct=keep weight=binary", "Don't stop-believing: e-mail me at x@y.org (ASAP)!", "punctuation kept"},
      {defaults, "你妈妈喊你回家吃饭哦回家罗\n回家罗", "Chinese, line break inside a run"},
      {defaults, "你妈妈喊你回家吃饭哦。 「回家罗」回家罗", "Chinese, punctuation and space inside a run"},
      {"mode=auto word=1 char=2 fold=1 punct=keep weight=binary", "你妈妈喊你回家吃饭哦。 「回家罗」回家罗", "Chinese, punctuation kept"},
      {"mode=chars word=1 char=2 fold=1 punct=strip weight=binary", "你好， 世界 + hi, there", "chars mode, punctuation and CJK whitespace stripped"},
      {"mode=words word=2 char=2 fold=1 punct=strip weight=binary", "it's 你好，世界", "words mode, punctuation stripped"},
      {"mode=separated word=1 char=2 fold=1 punct=strip weight=binary", "don't\x1f" "你好，世界", "separated tokens keep their punctuation"},
      {defaults, "abc\xe4\xb8", "truncated UTF-8 at the end"},
      {defaults, "\xed\xa0\x80surrogate\xf4\x90\x80\x80", "encoded surrogate and out-of-range"},
      {"tokens", "alpha\x1f" "beta\x1f" "gamma", "tokens"},
      {"tokens", "", "no tokens"},
      {"tokens=1.5,-2,3.25", "alpha\x1f" "beta\x1f" "gamma", "weighted tokens"},
      {"tokens=0.1,0.2,0.3,0.4", "w\x1fx\x1fy\x1fz", "fractional weights"},
  };
  std::cout << "# simhash-wasm golden fingerprints, fingerprint format version " << simhash::kFingerprintFormatVersion << ".\n"
               "# Columns (tab-separated): fingerprint, options, input bytes in hex, note. See vectors.h.\n"
               "# Both the native and the WASM build must reproduce every line. Regenerate (npm run vectors)\n"
               "# only when the fingerprint format version is bumped and the README changelog says why.\n";
  for (Vector v : cases) {
    const uint64_t fp = simhash::vectors::compute(v);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fp));
    std::cout << hex << '\t' << v.options << '\t' << simhash::vectors::toHex(v.input) << '\t' << v.note << '\n';
  }
}
