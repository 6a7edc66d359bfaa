// Types of the `simhash-wasm` package (every entry: browsers, bundlers, Node ESM; the build
// copies them to index.d.cts for CommonJS).

/** How text becomes features. docs/spec.md defines each exactly. */
export interface FingerprintOptions {
  /**
   * 'auto' (default): words, plus character n-grams inside CJK runs; 'words': token n-grams;
   * 'chars': character n-grams; 'separated': the text is already tokens joined by U+001F;
   * 'segmenter': Intl.Segmenter word segmentation (locale below), then as 'separated'.
   * Segmenter fingerprints depend on the runtime's ICU data: stable within one runtime,
   * not guaranteed across browsers or Node versions.
   */
  tokenizer?: 'auto' | 'words' | 'chars' | 'separated' | 'segmenter';
  /** Words per feature, 1..16. Default 1. */
  wordNgram?: number;
  /** Code points per CJK (or 'chars') feature, 1..16. Default 2. */
  charNgram?: number;
  /** Simple Unicode case folding before tokenizing. Default true. */
  caseFold?: boolean;
  /**
   * Remove punctuation (Unicode general category P) before tokenizing, and whitespace between
   * two CJK characters, so edits to punctuation and line breaks move no feature
   * (don't → dont; 你好，\n世界 → 你好世界). Not applied to 'separated'/'segmenter' tokens. Default true.
   */
  stripPunctuation?: boolean;
  /** 'binary' (default): each distinct feature weighs 1; 'tf': a feature seen 3 times weighs 3. */
  weighting?: 'tf' | 'binary';
  /** Unicode NFKC before anything else (full-width → half-width, compatibility forms), done in JS by String.prototype.normalize. Default false. */
  nfkc?: boolean;
  /** Locale of the 'segmenter' tokenizer. Default 'und' (root), so results do not depend on the user's locale. */
  locale?: string;
  /**
   * IDF weights from `sh.learnIdf`/`sh.loadIdf`: each feature weighs its learned weight
   * (per occurrence with 'tf', once with 'binary'). The weights carry the options they were
   * learned with; other options given alongside must equal them.
   */
  idf?: IdfWeights | null;
}

/**
 * The key of `[Symbol.dispose]()` where the TypeScript lib declares `Symbol.dispose`
 * (lib `esnext.disposable` or later, or @types/node), so `using` works there; elsewhere
 * no key, and no lib is required. The method exists at runtime wherever the engine has
 * `Symbol.dispose`.
 */
type DisposeKey = SymbolConstructor extends { readonly dispose: infer K extends symbol } ? K : never;
/** `[Symbol.dispose](): void` where the lib declares `Symbol.dispose` (see DisposeKey). */
type DisposableWhereTyped = { [K in DisposeKey]: () => void };

/** Inverse document frequencies learned from a corpus. Owns WASM memory: dispose() it. */
export interface IdfWeights extends DisposableWhereTyped {
  /** The options the weights were learned with, used whenever they fingerprint. */
  readonly options: Required<Omit<FingerprintOptions, 'idf' | 'locale'>>;
  /** Documents learned from. */
  readonly documents: number;
  /** Distinct features with a learned weight (others weigh as if seen in no document). */
  readonly features: number;
  /** A versioned, checksummed snapshot; `sh.loadIdf` restores it. */
  toBytes(): Uint8Array;
  dispose(): void;
}

export interface InitOptions {
  /** The bytes of `simhash_core.wasm`, when you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where to fetch `simhash_core.wasm` from (browsers), when you host it yourself. A file
   * that cannot be loaded rejects `init()` with an Error naming the URL tried.
   */
  locateFile?: (file: string, scriptDirectory: string) => string;
}

export interface Match {
  id: number;
  distance: number;
}

/** Pairs (a[i], b[i]) with a[i] < b[i] and distance[i] <= maxDistance, sorted by a, then b. */
export interface Pairs {
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
}

export interface GroupLabelsOptions {
  grouping?: 'leader' | 'components';
  /** Pairs beyond this distance are ignored (default 64). */
  maxDistance?: number;
  /**
   * With `similarities` (one value per pair, as sh.similarities returns them): pairs below
   * this similarity are ignored. So groupLabels(n, findPairs(fps, candidateRadius(s)),
   * { similarity: s, similarities }) equals dedup's labels at
   * { similarity: s, maxDistance: candidateRadius(s) }.
   */
  similarity?: number;
  similarities?: Float64Array;
}

export interface Progress {
  /** 'review' only when dedup is given `review`. */
  phase: 'fingerprint' | 'pairs' | 'review' | 'groups';
  done: number;
  total: number;
}

/**
 * How two texts are compared (README "Similarity", "Similarity of short strings"): 'text',
 * the Jaccard similarity of character 3-grams (CJK bigrams); 'short', the weighted Jaccard
 * similarity of the bigrams of the words, diacritics removed, each word framed by spaces and
 * weighing by how few texts of the list hold it (names, addresses, titles, one-line records).
 */
export type Measure = 'text' | 'short';

/**
 * Word weights of the 'short' measure, learned from a list (`sh.learnWeights`): plain data,
 * no WASM memory.
 */
export interface WordWeights {
  /** Texts learned from. */
  readonly texts: number;
  /** Distinct words. */
  readonly words: number;
  /** The weights as plain data (structured-cloneable: IndexedDB, postMessage); `sh.loadWeights` restores them. */
  toData(): WordWeightsData;
}

export interface WordWeightsData {
  /** Texts learned from: an integer from 0 to 2^32 - 1. */
  texts: number;
  /** XXH3-64 of each word's UTF-8, strictly ascending. */
  hashes: BigUint64Array;
  /** How many of the texts hold each word, each within 1..texts; as many as `hashes`. */
  counts: Uint32Array;
}

/** Options of `similarity` and `similarities`. */
export interface SimilarityOptions {
  /** Default 'text'. */
  measure?: Measure;
  /** With measure 'short': the list's word weights (default none: every word weighs 1). */
  weights?: WordWeights | null;
}

export interface DedupOptions<T> {
  /** The text of an item; required unless the items are strings. */
  key?: (item: T, index: number) => string;
  /**
   * Near-duplicates are pairs whose texts' similarity is at least this, in (0, 1]: the exact
   * similarity by `measure` (README "Similarity"). Default the measure's: 0.8 ('text'), 0.6
   * ('short'); none when only maxDistance is given. Candidates only choose the pairs to
   * check: MinHash bands of the shingles for short texts ('text' at 0.5 and above; 'short'
   * always), else the fingerprints within a radius.
   */
  similarity?: number;
  /**
   * 'auto' (default): 'short' when the distinct texts average at most 64 bytes of UTF-8, or
   * 150 with fewer than half ending as sentences, or half are one-line records (lists of
   * names, addresses, titles, records), else 'text'. `result.measure` says which.
   */
  measure?: Measure | 'auto';
  /**
   * By the 'short' measure: the word weights; default those of the distinct texts
   * (`result.weights`); null for none. A TypeError with the 'text' measure.
   */
  weights?: WordWeights | null;
  /**
   * Inclusive Hamming distance, 0..64. With similarity: the candidate radius (without it,
   * dedup chooses: banding, or the radius calibrated for the similarity, 16 at 0.8). Alone: the fingerprint-only
   * mode, where pairs within maxDistance are near-duplicates without any check of the texts
   * (fast, but short texts and large lists get chance pairs: README "Choosing thresholds").
   */
  maxDistance?: number;
  /**
   * Also list possible duplicates for a person to confirm (README "Review"): in [0.5,
   * similarity) by 'text', [0.3, similarity) by 'short'. The groups stay those without it; `result.review` lists each two groups
   * that some pair of their members (one from each) joins with a similarity of at least
   * review, through their most similar such pair. Not with maxDistance alone.
   */
  review?: number;
  /** With `review`: how many review pairs to return, the first in the review's order; a positive integer, default 1,000. */
  reviewLimit?: number;
  /** Fingerprint options for every item. */
  options?: FingerprintOptions;
  /**
   * 'leader' (default): in order, each item joins the earliest kept item it is a
   * near-duplicate of, so every member is a near-duplicate of its group's first item.
   * 'components': connected components of all near-duplicate pairs (may chain A~B~C with A
   * far from C).
   */
  grouping?: 'leader' | 'components';
  /** Called as work proceeds: after each slice of fingerprints and of the search, after groups. */
  onProgress?: (progress: Progress) => void;
  /** Aborting rejects the promise with the signal's reason. */
  signal?: AbortSignal;
}

export interface DedupResult<T> {
  /** The kept items: every item that is not a near-duplicate of an earlier kept one. */
  unique: T[];
  uniqueIndices: number[];
  /** Item indices per group, kept item first; each group has at least two members. */
  groups: number[][];
  /** The fingerprint of every item, in item order. */
  fingerprints: BigUint64Array;
  /**
   * With `review`: pairs of groups for a person to confirm, most similar first, then by
   * (a, b); by the 'short' measure those `contained` come first, in that order among them.
   * A text in no group is a group of one. Each two groups appear once. By the
   * 'short' measure also without `review`: the look-alikes kept apart (README "Look-alikes").
   */
  review?: ReviewPair[];
  /**
   * With `review` (or by 'short'): the pairs of groups past reviewLimit, left out: 0 when
   * `review` holds fewer than reviewLimit (the review is complete), else at least this many
   * (the search stops deciding candidates that cannot enter the list).
   */
  reviewOmitted?: number;
  /** By similarity (not in the fingerprint-only mode): the measure and the threshold used. */
  measure?: Measure;
  similarity?: number;
  /** By the 'short' measure: the word weights used (null when options.weights was null). */
  weights?: WordWeights | null;
}

/**
 * Two groups that may be duplicates: items a < b, one of each, and their exact similarity
 * (as `similarity()`), at least `review`: below `similarity` unless the grouping kept the
 * two apart (the leader rule, or a candidate its search missed). By the 'short' measure,
 * first, two groups where one text holds every word of the other, or spells out an
 * acronym it writes (`IBM` / `International Business Machines`), at any similarity
 * (`contained`).
 */
export interface ReviewPair {
  a: number;
  b: number;
  similarity: number;
  /**
   * By the 'short' measure, when their identifying parts differ (README "Look-alikes"): the
   * numbers and the words, as written, that each of a and b has and the other lacks.
   */
  differs?: LookAlikeDifference;
  /** By the 'short' measure: one of a and b holds every word of the other, or spells out its acronym (README "Review"), listed whatever their similarity. */
  contained?: true;
}

/**
 * How dedup compares a field of records (README "Records"): 'email' (case-insensitive; Gmail's
 * dots and the +tags of providers that ignore them aside), 'phone' (the digits; a country
 * prefix or leading zeros on one side tolerated), 'date' (common written forms), 'exact'
 * (numbers and identifiers, case, spaces and punctuation aside), 'name' (people, organisations,
 * addresses, titles: the 'short' measure, words in any order), 'text' (the 'text' measure).
 */
export type FieldKind = 'email' | 'phone' | 'date' | 'exact' | 'name' | 'text';

/** A comparison level of two values of a field, strongest agreement first; 'missing' when either is empty. */
export type FieldLevel = 'exact' | 'close' | 'similar' | 'different' | 'missing';

export interface RecordDedupOptions<T> {
  /**
   * The columns to compare: their names (kinds inferred from the values), or each name's kind
   * ('auto' infers it). Default: every column with a value, kinds inferred, except one that
   * holds a distinct identifier per row. A name no record has, or one named twice, is a RangeError.
   */
  fields?: (keyof T & string)[] | { [K in keyof T & string]?: FieldKind | 'auto' };
  /** The match probability from which two rows are grouped, in (0, 1). Default 0.99. */
  probability?: number;
  /** The match probability from which rows not grouped are listed in `review`, in (0, probability). Default 0.1 (or probability / 2 when lower). */
  review?: number;
  /** How many review entries to return, the most probable; a positive integer, default 1,000. */
  reviewLimit?: number;
  /** Called as work proceeds. */
  onProgress?: (progress: Progress) => void;
  /** Aborting rejects the promise with the signal's reason. */
  signal?: AbortSignal;
}

export interface RecordDedupResult<T> {
  /** The kept rows: one per group, and every row in none. */
  unique: T[];
  uniqueIndices: number[];
  /** Row indices per group, kept row first (the one that matches most of them); each group has at least two members. */
  groups: number[][];
  /**
   * Why each member was merged: `merged[g][m - 1]` for `groups[g][m]`, its match probability
   * with the kept row and each field's level, in `fields`' order (a row identical to the kept
   * one: probability 1, `exact` wherever it has a value).
   */
  merged: { probability: number; levels: Array<'exact' | 'close' | 'similar' | 'different' | 'missing'> }[][];
  /** The fields compared and the kind of each. */
  fields: { name: string; kind: FieldKind }[];
  /** The model learned from the list: how much each level of each field weighs. */
  model: RecordModel;
  /** Pairs of groups for a person to confirm, most probable first, each explained field by field. */
  review: RecordReviewPair[];
  /** Pairs of groups at the review threshold past reviewLimit, left out. */
  reviewOmitted: number;
  /** How many pairs of distinct rows were compared (the candidates). */
  compared: number;
}

/** `link`'s options: `dedup`'s for records, with a lower threshold, since a wrong link loses no row. */
export interface RecordLinkOptions<T> extends RecordDedupOptions<T> {
  /** The match probability from which two rows are linked, in (0, 1). Default 0.1, the probability from which `dedup` lists a pair for review. */
  probability?: number;
  /** The match probability from which pairs not linked are listed in `review`, in (0, probability). Default probability / 2. */
  review?: number;
}

/** Two lists linked: in every pair, `a` indexes the left list and `b` the right one. */
export interface RecordLinkResult {
  /**
   * Pairs of one row of each list that are each other's most probable match, at `probability`
   * or above, their identities not differing (`apart` is never set); each row in at most one
   * link (one-to-one: each list holds an entity once), in left-row order.
   */
  links: RecordReviewPair[];
  /** The fields compared and the kind of each. */
  fields: { name: string; kind: FieldKind }[];
  /** The model learned from both lists. */
  model: RecordModel;
  /** The other pairs across the lists at `review` or above, most probable first, each explained field by field. */
  review: RecordReviewPair[];
  /** Pairs at the review threshold past reviewLimit, left out. */
  reviewOmitted: number;
  /** How many pairs of distinct rows were compared (the candidates, within each list too). */
  compared: number;
}

/** A Fellegi-Sunter model: per field and level, its probability among matches (m) and among other pairs (u), and its weight log2(m / u). */
export interface RecordModel {
  /** The probability that two rows of the list are one entity, before their fields are compared. */
  prior: number;
  fields: { name: string; kind: FieldKind; levels: { level: Exclude<FieldLevel, 'missing'>; m: number; u: number; weight: number }[] }[];
}

/** Two groups that may be one entity: rows a < b, one of each, with their match probability and every field's evidence. */
export interface RecordReviewPair {
  a: number;
  b: number;
  probability: number;
  /** The match weight in bits: the prior's log-odds plus the fields' weights. */
  weight: number;
  /** Set when the pair reaches `probability` but was kept apart: the identity fields (names, titles) that differ, and how. */
  apart?: { field: string; differs: LookAlikeDifference };
  fields: { name: string; a: string; b: string; level: FieldLevel; weight: number }[];
}

/** What keeps two look-alikes apart: [a's, b's] tokens of each kind that differs. */
export interface LookAlikeDifference {
  numbers?: [string[], string[]];
  words?: [string[], string[]];
}

/** An exact index: query() returns every stored fingerprint within maxDistance. Owns WASM memory: dispose() it. */
export interface SimHashIndex extends DisposableWhereTyped {
  readonly maxDistance: number;
  readonly size: number;
  /** Stores a fingerprint under `id` (0..2^32-1; assigned when omitted) and returns the id. */
  add(fingerprint: bigint, id?: number): number;
  /** Stores all or nothing: a duplicate id throws and leaves the index unchanged. */
  addAll(fingerprints: BigUint64Array | bigint[], ids?: Uint32Array | number[]): Uint32Array;
  /** Every stored item within maxDistance, sorted by distance, then id. */
  query(fingerprint: bigint): Match[];
  /** @returns whether the id was stored. */
  remove(id: number): boolean;
  clear(): void;
  /** A versioned, checksummed snapshot; `loadIndex` restores it. */
  serialize(): Uint8Array;
  /** Frees the WASM memory; later calls throw. Safe to call twice. */
  dispose(): void;
}

/** An answer of `TextIndex.query`. */
export interface TextMatch {
  id: number;
  /** `sh.similarity(query, stored text)`, exactly. */
  similarity: number;
  /**
   * 'duplicate': a banding candidate at the threshold or above, what keeps a text out of
   * the stream. 'review' (only with `review`): any other stored text reaching the review
   * threshold, for a person to confirm: below the threshold, or rarely at or above it but
   * proposed by the review bands alone.
   */
  kind: 'duplicate' | 'review';
}

export interface TextIndexInit {
  /** The threshold in (0, 1]: answers have at least this similarity. Default the measure's, as dedup: 0.8 ('text'), 0.6 ('short'). */
  similarity?: number;
  /** Default 'text'. Texts arrive one at a time, so there is no 'auto'. */
  measure?: Measure;
  /** With measure 'short': word weights (say, `sh.learnWeights` of the list so far); the index stores a copy. Default none. */
  weights?: WordWeights | null;
  /**
   * Also answer stored texts whose similarity reaches this review threshold, in
   * [0.5, similarity), as matches of kind 'review' (as dedup's `review`).
   * Costs a second band table and a 64-byte sketch per text (README "Text index").
   */
  review?: number;
  /**
   * Fingerprint options, checked as dedup's for parity with it. They do not change the
   * answers: the similarity is of the texts themselves, whatever the fingerprint options.
   */
  options?: FingerprintOptions;
}

/**
 * An index of texts that answers by exact similarity (README "Similarity"), as dedup decides
 * near-duplicates. Candidates come from MinHash bands of the texts' shingles, as dedup's for
 * short texts (also for long ones here); every answer is verified exactly, so none is below
 * the threshold, and a pair at the threshold or above is a candidate with probability
 * >= 0.995. Querying texts in order and adding each one that finds nothing keeps exactly
 * `dedup(texts, { similarity }).uniqueIndices` where dedup bands at 0.7 or more (texts
 * averaging <= 2,000 UTF-16 units, no maxDistance); below 0.7 dedup also sets aside
 * candidates that its sketches show far below the threshold (README "Text index"). Stores each text normalized (punctuation
 * removed, whitespace runs as one space), not as given. Owns WASM memory: dispose() it.
 */
export interface TextIndex extends DisposableWhereTyped {
  /** Stored texts. */
  readonly size: number;
  /** The threshold. */
  readonly similarity: number;
  readonly measure: Measure;
  /** The review threshold, undefined without review. */
  readonly review: number | undefined;
  /**
   * Stores a text under `id` (0..2^32-1; when omitted, a fresh id: the smallest id above every
   * id handed out before that no stored text holds, as SimHashIndex) and returns the id. An id
   * already stored throws an Error and stores nothing.
   */
  add(text: string, id?: number): number;
  /** Stores every text, all or nothing: a stored or repeated id throws and leaves the index unchanged. */
  addAll(texts: string[], ids?: Uint32Array | number[]): Uint32Array;
  /**
   * Every stored text whose similarity with `text` reaches the threshold (among the
   * candidates), and with review every other reaching the review threshold (kind
   * 'review'); duplicates first, each kind by similarity descending, then id ascending;
   * the first `options.limit` (a positive integer) of them, all by default. So
   * `query(text, { limit: 1 })` is a duplicate whenever there is one.
   */
  query(text: string, options?: { limit?: number }): TextMatch[];
  /** @returns whether the id was stored. A removed id is never returned by query again. */
  remove(id: number): boolean;
  has(id: number): boolean;
  /** A versioned, checksummed snapshot ("SHTX"); `loadTextIndex` restores it. */
  serialize(): Uint8Array;
  /** Frees the WASM memory; later calls throw. Safe to call twice. */
  dispose(): void;
}

/** The API bound to one loaded WASM module. */
export interface SimHash {
  /** The unsigned 64-bit SimHash of a text. */
  fingerprint(text: string, options?: FingerprintOptions): bigint;
  /** Fingerprints of many texts, one WASM call per 4M characters. */
  fingerprintAll(texts: string[], options?: FingerprintOptions): BigUint64Array;
  /**
   * SimHash of your own features, with optional weights (default 1 each). The tokens cross
   * in one call: more than 4,194,304 (4M) UTF-16 code units in all throw a RangeError.
   */
  fingerprintTokens(tokens: string[], weights?: number[] | Float64Array): bigint;
  /** Number of differing bits, 0..64. */
  distance(a: bigint, b: bigint): number;
  /** 16 lowercase hex digits. */
  toHex(fingerprint: bigint): string;
  fromHex(hex: string): bigint;
  createIndex(options?: { maxDistance?: number }): SimHashIndex;
  /** Restores `index.serialize()` bytes; corrupted or truncated bytes throw an Error. */
  loadIndex(bytes: Uint8Array): SimHashIndex;
  /** An index of texts answering by exact similarity, at dedup's threshold (see TextIndex). */
  createTextIndex(init?: TextIndexInit): TextIndex;
  /** Restores `textIndex.serialize()` bytes; corrupted or truncated bytes throw an Error. */
  loadTextIndex(bytes: Uint8Array): TextIndex;
  /** Every pair within maxDistance (default 3), each once. Identical fingerprints are pairs at distance 0. */
  findPairs(fingerprints: BigUint64Array | bigint[], maxDistance?: number): Pairs;
  /**
   * dedup's grouping of `count` items from their pairs (as findPairs returns them: sorted by
   * (a, b)), ignoring pairs beyond `maxDistance` (default 64). Returns one label per item: the
   * index of the item it is grouped under, itself when kept. 'leader' (default): in index
   * order, each item joins the earliest kept item it is paired with; 'components': connected
   * components, labelled by their smallest index. Pure JS, no WASM memory.
   */
  groupLabels(count: number, pairs: Pairs, options?: GroupLabelsOptions): Uint32Array;
  /**
   * Loads the table by which the short measure folds traditional Han characters to simplified
   * ones (README "Similarity of short strings"), served beside the .wasm. dedup, link and the
   * pool load it themselves, and Node reads it when first needed; in a page, synchronous calls
   * (similarity, similarities, learnWeights, a text index) on Han text by the short measure
   * throw until it is loaded.
   */
  loadHanTable(): Promise<void>;
  /**
   * The exact similarity of two texts (README "Similarity"): the Jaccard similarity of their
   * sets of character shingles after the fingerprint's normalization, with half-width
   * katakana also folded as NFKC does (ｶﾞ = ガ), in [0, 1]; by options.measure 'short', the
   * similarity of short strings (README "Similarity of short strings").
   */
  similarity(a: string, b: string, options?: SimilarityOptions): number;
  /**
   * The exact similarity of texts[pairs.a[i]] and texts[pairs.b[i]] for every pair i, in one
   * call (each text named by a pair is shingled once). With findPairs and groupLabels, this
   * regroups a list at any similarity without searching again: see GroupLabelsOptions.
   */
  similarities(texts: string[], pairs: { a: Uint32Array; b: Uint32Array }, options?: SimilarityOptions): Float64Array;
  /** The word weights of a list, for the 'short' measure's `weights`. */
  learnWeights(texts: string[]): WordWeights;
  /**
   * Word weights from `weights.toData()`, with copies of its arrays. Data that is not of
   * WordWeightsData's types throws a TypeError; data that breaks its contract (hashes not
   * strictly ascending, a count of 0 or above `texts`) throws an Error starting `invalid word
   * weights data:`, as damaged serialized bytes do, and nothing is loaded.
   */
  loadWeights(data: WordWeightsData): WordWeights;
  /** Learns IDF weights from your own texts; pass them as `options.idf`. */
  learnIdf(texts: string[], options?: Omit<FingerprintOptions, 'idf'>): IdfWeights;
  /** Restores `idf.toBytes()`; corrupted or truncated bytes throw an Error. */
  loadIdf(bytes: Uint8Array): IdfWeights;
  /** Near-duplicate groups of a list and the items to keep. */
  dedup(items: string[], options?: DedupOptions<string>): Promise<DedupResult<string>>;
  dedup<T>(items: T[], options: DedupOptions<T> & { key: (item: T, index: number) => string }): Promise<DedupResult<T>>;
  /** Records (plain objects, no `key`): each field compared by its kind, the evidence weighed by a model learned from the list (README "Records"). */
  dedup<T extends object>(rows: T[], options?: RecordDedupOptions<T>): Promise<RecordDedupResult<T>>;
  /**
   * Record linkage of two lists of records (README "Records"): compared and weighed as
   * `dedup` compares a list's rows, the model learned from both; each row linked to at most
   * one of the other list.
   */
  link<L extends object, R extends object>(left: L[], right: R[], options?: RecordLinkOptions<L & R>): Promise<RecordLinkResult>;
  /** Version of the fingerprint definition; stored fingerprints compare only within one version. */
  readonly formatVersion: number;
  /** Bytes of WASM linear memory (it grows, never shrinks). */
  readonly memoryBytes: number;
  /** Bytes of the WASM heap allocated now (indexes and scratch buffers), for leak checks. */
  readonly heapBytesInUse: number;
}

/** Loads the WASM module once; later calls return the same instance, or a new one once a WebAssembly trap has made it unusable. */
export function init(options?: InitOptions): Promise<SimHash>;

export const DEFAULT_OPTIONS: Readonly<Required<Omit<FingerprintOptions, 'idf'>> & { idf: null }>;
export const DEFAULT_MAX_DISTANCE: number;
/** The similarity dedup uses when neither similarity nor maxDistance is given: 0.8. */
export const DEFAULT_SIMILARITY: number;
/**
 * The Hamming radius (of 64 bits) whose pairs dedup takes as candidates for a similarity
 * threshold in (0, 1] where it does not band (README "Choosing thresholds": 16 at 0.8); a
 * RangeError outside it.
 */
export function candidateRadius(similarity: number): number;
export function distance(a: bigint, b: bigint): number;
export function toHex(fingerprint: bigint): string;
export function fromHex(hex: string): bigint;
