#pragma once
// The exact similarity of two texts, and its verification over batches of candidate pairs.
//
// Definition (README, "Similarity"):
//   1. Normalize as the fingerprint does: decode UTF-8 as WHATWG's TextDecoder does (an
//      invalid subsequence is one U+FFFD); remove every code point of general category P;
//      fold case (unicode.h: simple folding of the alphabetic scripts, full-width letters
//      and digits to ASCII) and half-width katakana as NFKC does (unicode.h
//      decodeNextFoldingHalfwidthKana: ｶﾞ -> ガ; the fingerprint's tokenizer does not fold
//      them); then every run of whitespace (White_Space) that lies between
//      two CJK characters is removed, every other run becomes one U+0020, and leading and
//      trailing whitespace is dropped.
//   2. Shingles of the normalized code points c[0..L): position i starts a window of
//      n(i) code points, n(i) = ShingleOptions::cjk when c[i] is CJK (Han, kana, Hangul,
//      bopomofo: the tokenizer's class) and ShingleOptions::alphabetic otherwise (letters,
//      digits, spaces, symbols). Every window that fits is a shingle. When no shingle ends
//      at the last code point, one more is added: from the first position whose window
//      does not fit to the end. So a text shorter than its window sizes is one shingle,
//      itself, every code point is in some shingle, and the empty text has none.
//   3. similarity(a, b) = |A ∩ B| / |A ∪ B| of the two SETS of shingles (as strings),
//      computed as the double nearest that quotient; 1 when both sets are empty.
// Exact: shingles are compared as code point strings (no hashing, no estimate).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace simhash {

/// Window sizes in code points, by the script of the window's first code point.
/// Defaults chosen by tests/bench/shingles.js (README, "Similarity"): character 3-grams
/// for alphabetic text, bigrams in CJK text, where a replaced character then breaks two
/// shingles instead of three.
/// How step 1 normalizes a text.
enum class Normalization : uint8_t {
  kText = 0,  ///< step 1 as above
  /// Step 1, then every Latin letter with diacritics becomes its base letter and combining
  /// marks U+0300..U+036F are removed (unicode.h withoutDiacritic: José -> jose), and a
  /// normalized text that is not empty is framed by one U+0020 on each side, so that with
  /// bigrams a word's first and last letters are shingles of their own and the set of a
  /// text is the union of its words' sets, whatever their order (README "Similarity of
  /// short strings").
  kList = 1,
};

/// kList also folds traditional Han characters to simplified ones (學 -> 学), by a table that
/// is not built in, so that a module can leave it to the lists that need it: this installs
/// it from the bytes of cpp/src/text/han_variants.bin and returns it (its traditional
/// characters, ascending, then the simplified form of each, as UTF-16 code units, as many as
/// the bytes' first 16 bits count), or nullptr, installing nothing, for any other bytes.
/// Until it is installed, kList leaves Han characters as they are: whoever compares Han
/// text by kList installs it first.
const char16_t* installHanVariants(const unsigned char* bytes, size_t size);

/// The words kList writes short, as `written=short|` entries (ASCII, NUL-terminated):
/// legal forms written out and their abbreviations (`incorporated=inc|`), conjunctions,
/// which it drops between two words (`and=|`), then legal forms of several words, spelled as
/// kList writes them once the single words are short (`ltd liability co=llc|`). The
/// look-alike rule of js/core/look-alikes.js reads it, so that both know one table.
const char* listForms();

/// The CJK legal forms kList drops at either end of a word, `|`-ended, longest first, as its
/// Han fold writes them (UTF-16, NUL-terminated): the look-alike rule sets them aside too.
const char16_t* cjkLegalForms();

class WordWeights;

struct ShingleOptions {
  uint8_t alphabetic = 3;  ///< 1..kMaxShingle
  uint8_t cjk = 2;         ///< 1..kMaxShingle
  Normalization normalization = Normalization::kText;
  /// With kList and bigrams only: each bigram of a word counts weight(word) times
  /// (word_weights.h), as shingles (bigram, copy c) for c < weight, so the similarity is
  /// the weighted Jaccard similarity Σ min / Σ max of the two texts' bigram weights (a
  /// bigram held by several words of a text weighs as the heaviest). Null: each counts once.
  /// ShingleSets and TextIndex keep a copy; other calls read it while they run.
  const WordWeights* weights = nullptr;
};

/// The similarity of short strings (names, addresses, titles, one-line records): bigrams of
/// the list normalization, in every script.
constexpr ShingleOptions kShortStringOptions{2, 2, Normalization::kList};

/// Windows of at most 3 code points (21 bits each) have exact 63-bit codes.
constexpr unsigned kMaxShingle = 3;

/// The most shingles (copies included) n normalized code points can have: n + 1, times
/// the heaviest weight with weights.
size_t shingleRoom(size_t n, const ShingleOptions& options);

/// @return true when both sizes are within 1..kMaxShingle and the normalization is known.
bool isValid(const ShingleOptions& options);

/// Step 1 of the definition: the normalized text as code points, written to out
/// (cleared first). Cost O(bytes).
void normalizeForSimilarity(std::string_view utf8, std::vector<char32_t>& out,
                            Normalization normalization = Normalization::kText);

/// The canonical code of a shingle: its code points c0, c1, c2 (0 past its end) as
/// (c0 + 1) + 2^21 (c1 + 1) + 2^42 (c2 + 1), exact and below 2^63; copy c of a weighted
/// bigram (ShingleOptions::weights) as (c0 + 1) + 2^21 (c1 + 1) + 2^42 c. It depends on the
/// shingle alone, never on a batch, so min-hashes of these codes (similar_groups.h) agree
/// between a batch and an index built one text at a time.
constexpr unsigned kCanonicalBits = 21;

/// The canonical codes of the distinct shingles of normalized code points cps[0, n) (as
/// normalizeForSimilarity writes them), ascending, written to out (cleared first).
/// Cost O(n log n).
void canonicalShingles(const char32_t* cps, size_t n, const ShingleOptions& options, std::vector<uint64_t>& out);

/// The canonical codes of every shingle of normalized code points cps[0, n), in text
/// order, repeats included (with weights, a bigram's copies in a row), written to out.
/// @return how many (at most shingleRoom(n, options); 0 when n = 0).
/// @pre out has room for shingleRoom(n, options) codes. Cost O(n) (weights: O(n) hashing
/// and a lookup a word, and the copies).
size_t canonicalShingleCodes(const char32_t* cps, size_t n, const ShingleOptions& options, uint64_t* out);

/// The least intersection t of two sets of sizes na and nb with t / (na + nb - t) >=
/// threshold as doubles compare (the quotient similarity() computes); min(na, nb) + 1
/// when none reaches it. @pre na + nb > 0.
uint32_t leastShared(uint32_t na, uint32_t nb, double threshold);

/// The similarity of two texts, building both shingle sets. For one pair; batches use
/// ShingleSets. Cost O(L log L) in the texts' lengths. @pre isValid(options)
double similarity(std::string_view a, std::string_view b, const ShingleOptions& options = {});

/// What similarity() allocates: kept by a caller that makes many single calls, it stops
/// allocating once it has grown to their texts.
struct SimilarityScratch {
  std::vector<char32_t> cps;
  std::vector<uint64_t> sets[2];
};
/// similarity(a, b, options) in the caller's scratch.
double similarity(std::string_view a, std::string_view b, const ShingleOptions& options, SimilarityScratch& scratch);

/// Shingle sets of a batch of texts, each built once and kept compact, for many exact
/// comparisons. Storage: the shingles of each text as a sorted list of dense codes
/// (code points renumbered within the batch, most frequent first), delta-encoded in
/// LEB128 bytes: about 2 bytes per shingle for alphabetic text (2 per UTF-8 byte), 3 per
/// CJK bigram (1 per UTF-8 byte), plus 13 bytes per text (9 in WASM); while building, also
/// a 256 KB code point table and one text's scratch; and 4 bytes per distinct code point
/// (the numbering, for canonicalCodes).
class ShingleSets {
 public:
  ShingleSets();
  ~ShingleSets();
  ShingleSets(const ShingleSets&) = delete;
  ShingleSets& operator=(const ShingleSets&) = delete;

  /// Builds the sets of texts [0, count): text i is utf8[offsets[i], offsets[i + 1]).
  /// Only the texts with needed[i] != 0 are built (all when needed is null); others are
  /// empty sets, not to be compared. The buffer need not outlive the call.
  /// Cost O(total bytes + Σ L log L). @pre isValid(options), offsets non-decreasing.
  void build(const char* utf8, const uint32_t* offsets, uint32_t count, const ShingleOptions& options = {},
             const uint8_t* needed = nullptr);

  /// The same sets built a slice of texts at a time, so that only one slice of text need be
  /// in memory: countTexts for every slice (it numbers the code points by frequency), then
  /// addTexts for the same slices in the same order; the sets are numbered 0, 1, ... in the
  /// order their texts were added, and equal those build() makes of all the texts at once.
  /// Between the passes the sets also hold a 256 KB code point table (until clear()).
  /// @pre for countTexts: clear() since the last addTexts; isValid(options) (the first
  /// call's options hold for all). @pre for addTexts: each added text (needed[i] != 0, or
  /// all when needed is null) was counted.
  void countTexts(const char* utf8, const uint32_t* offsets, uint32_t count, const ShingleOptions& options = {},
                  const uint8_t* needed = nullptr);
  /// Receives each set as addTexts builds it, while its codes are at hand: a consumer of
  /// every set (SimilarGroups' signatures) then need not decode them again.
  class Observer {
   public:
    virtual ~Observer() = default;
    /// Set i (its number in these sets) was built: codes[0, size) are its shingles'
    /// canonical codes (kCanonicalBits), each distinct shingle at least once, in no
    /// particular order. The codes are valid during the call only.
    virtual void added(uint32_t i, const uint64_t* codes, uint32_t size) = 0;
  };
  /// `observer`, when not null, gets added() for each set built, in order.
  void addTexts(const char* utf8, const uint32_t* offsets, uint32_t count, const uint8_t* needed = nullptr,
                Observer* observer = nullptr);
  /// The texts counted since clear(): how many sets the added texts will make, once all
  /// are added (when every counted text is added once).
  uint32_t counted() const;
  /// The most shingles (copies included) the texts counted since clear() can have in all:
  /// shingleRoom of their UTF-8 bytes (a code point takes one byte or more), per text.
  size_t countedRoom() const;
  /// Whether the counted texts' sets weigh their shingles (ShingleOptions::weights).
  bool weighted() const;

  /// As build, for the texts that pairs (a[p], b[p]) name. @pre a[p], b[p] < count.
  void buildForPairs(const char* utf8, const uint32_t* offsets, uint32_t count, const uint32_t* a, const uint32_t* b,
                     size_t pairCount, const ShingleOptions& options = {});

  /// Frees every byte held, scratch of an interrupted build included.
  void clear();

  uint32_t count() const;
  /// Number of distinct shingles of text i.
  uint32_t size(uint32_t i) const;
  /// The shingles of text i as codes (injective within these sets), ascending, written to
  /// out[0, size(i)). @pre i < count(), built; out has room for size(i) codes.
  void codes(uint32_t i, uint64_t* out) const;

  /// The canonical codes (kCanonicalBits) of text i's shingles, in no particular order (in
  /// the order of its dense numbers, which follow frequency: its users, band keys and
  /// summaries, depend on the set alone, and sorting took a tenth of a review's signing),
  /// written to out[0, size(i)). @pre i < count(), built; out has room for size(i) codes.
  void canonicalCodes(uint32_t i, uint64_t* out) const;

  /// similarity(text a, text b) >= threshold, exactly as the double quotient compares.
  /// Stops as soon as the answer is known: a size filter first (J >= s needs
  /// min(|A|, |B|) >= the least intersection reaching s), then a merge that ends once the
  /// intersection reaches that count or can no longer reach it.
  /// Cost O(|A| + |B|) at most. @pre a, b < count(), both built.
  bool atLeast(uint32_t a, uint32_t b, double threshold) const;

  /// The similarity of texts a and b (a full merge). @pre a, b < count(), both built.
  double similarity(uint32_t a, uint32_t b) const;

  /// Every pair i < j of built texts with similarity >= threshold (an exact similarity
  /// join), as i, j appended to out, sorted by (i, j). Prefix filtering (PPJoin) finds the
  /// candidates, atLeast decides them: the same answer as testing all pairs. Cost: an
  /// inverted index of every set's rarest shingles (about (1 - s) of each set), 4 bytes per
  /// shingle of every set decoded, and a merge per candidate; O(N²) merges at worst (sets
  /// that share rare shingles). For benchmarks and small collections. @pre threshold > 0.
  void pairsAtLeast(double threshold, std::vector<uint32_t>& out) const;

  /// Bytes held now (the sets and the per-text entries), for the memory budget.
  size_t memoryBytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One call for a batch: builds the sets of the texts named by the pairs (each once), then
/// out[p] = 1 if similarity(a[p], b[p]) >= threshold, else 0. Texts as in ShingleSets::build.
/// Cost: building the needed sets, plus at most O(|A| + |B|) per pair (usually far less).
/// Extra memory: the needed texts' sets (see ShingleSets), plus count bytes.
/// @pre isValid(options), a[p], b[p] < count.
void verifyPairs(const char* utf8, const uint32_t* offsets, uint32_t count, const uint32_t* a, const uint32_t* b,
                 size_t pairCount, double threshold, uint8_t* out, const ShingleOptions& options = {});

/// As verifyPairs, with out[p] = similarity(a[p], b[p]) (a full merge per pair).
void pairSimilarities(const char* utf8, const uint32_t* offsets, uint32_t count, const uint32_t* a, const uint32_t* b,
                      size_t pairCount, double* out, const ShingleOptions& options = {});

}  // namespace simhash
