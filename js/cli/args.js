// The command line's words: the usage text, and the arguments parsed and checked (each
// mistake a UsageError, exit 2) before any input is read.
import { DEFAULT_MAX_DISTANCE } from '../node.js';
import { DEFAULT_SIMILARITY_OF, MAX_REVIEW_LIMIT, MEASURES, RECORD_FIELDS, RECORD_MAX_BYTES, SHORT_MAX_MEAN_BYTES, checkReview } from '../core/thresholds.js';
import { FORMATS, formatOf } from './records.js';
import { UsageError } from './errors.js';
import { checkRecordArgs } from './record-dedup.js';
import { checkLinkArgs } from './record-link.js';
import { KINDS } from '../records/fields.js';
import { DEFAULT_LINK_PROBABILITY, DEFAULT_PROBABILITY } from '../records/records.js';

export const USAGE = `Usage: simhash-wasm dedup [FILE|-] [options]
       simhash-wasm dedup [FILE|-] --index INDEX [--update] [options]
       simhash-wasm link LEFT RIGHT --field NAME[,NAME...] [records' options]
       simhash-wasm            (no arguments: dedup the bundled samples, names and quotes, and show the groups)

Reads UTF-8 records from FILE, or from standard input with - or no FILE, and writes the
records that are not near-duplicates of an earlier one, byte for byte as they came (line
endings included), in the input's order. A UTF-8 byte order mark is dropped; blank lines
are not records.

Options:
  --similarity S     records whose texts' similarity is at least S are near-duplicates
                     (0 < S <= 1; default ${DEFAULT_SIMILARITY_OF.text} by the text measure, ${DEFAULT_SIMILARITY_OF.short} by the short one)
  --measure M        auto (default), text or short: how texts are compared (README
                     "Similarity", "Similarity of short strings"); auto takes short when
                     the distinct texts average at most ${SHORT_MAX_MEAN_BYTES} bytes (names, addresses, titles),
                     or ${RECORD_MAX_BYTES} with fewer than half ending as sentences (long titles),
                     or half of them are one-line records (${RECORD_FIELDS}+ fields, up to ${RECORD_MAX_BYTES} bytes)
  --max-distance K   the candidate radius: fingerprints within K of 64 bits are compared
                     (0-64; default calibrated for S). Alone, without --similarity:
                     records within K bits are near-duplicates, texts unchecked (fast)
  --format F         lines (default), jsonl or csv; guessed from FILE's extension
                     (.jsonl/.ndjson, .csv) when not given
  --field NAME       the JSON field or CSV column holding the text (default "text");
                     a JSON line may also be a bare string. Repeated, or as A,B,C:
                     records compared field by field (README "Records"), kinds inferred
  --kind NAME=KIND   with records: compare field NAME as KIND (email, phone, date, exact,
                     name or text)
  --probability P    with records: rows whose match probability is at least P are
                     duplicates (0 < P < 1; default ${DEFAULT_PROBABILITY})
  --tokenizer T      auto (default), words or chars
  --word-ngram N     words per feature, 1-16 (default 1)
  --char-ngram N     characters per CJK (or chars) feature, 1-16 (default 2)
  --weighting W      binary (default) or tf
  --keep-punctuation punctuation separates words instead of being removed
  --groups           write the groups of near-duplicates instead, one JSON object per
                     line: {"group":[{"line":L,"similarity":S,"text":T},...]}, kept record
                     first, S its similarity to the kept record ("distance":D, the
                     fingerprints' bits, with --max-distance alone)
  --pairs            write every pair of records whose fingerprints are within
                     --max-distance (default ${DEFAULT_MAX_DISTANCE}) instead, one JSON object per line:
                     {"a":{"line":L,"text":T},"b":{"line":L,"text":T},"distance":D}
  --review R         also write the pairs of groups that are possibly near-duplicates
                     (with records: whose match probability is at least R, below P),
                     for a person to confirm: each two groups that some pair of their
                     records joins with a similarity of at least R, once, through their
                     most similar pair (R < S, from 0.5 by the text measure, 0.3 by the
                     short one; README "Review"), to --review-file
  --review-file FILE with --review: the file to write them to, one JSON object per line,
                     most similar first: {"a":{"line":L,"text":T},"b":{"line":L,"text":T},
                     "similarity":S} (replaced if it exists), with "differs":{"numbers":
                     [A,B],"words":[A,B]} where their identifying parts differ (README
                     "Look-alikes"), "contained":true where one holds the other's words
                     or spells out its acronym (those first)
  --review-limit N   with --review: write the first N pairs only (default: all)
  --index INDEX      incremental dedup: write the records that are near-duplicates neither
                     of a text stored in the text index file INDEX nor of an earlier
                     record, as above. INDEX keeps the similarity it was made with; a
                     different --similarity is a usage error. Not with --max-distance,
                     --groups, --pairs, --review or the fingerprint options
                     INDEX may be redis://HOST:PORT/DB#NAME: the text index NAME shared
                     through Redis (needs the npm package redis; docs/redis.md)
  --update           with --index: add the kept records' texts to INDEX, creating it when
                     missing (at --similarity). The new index is written to INDEX.PID.tmp
                     beside it, synced, and renamed over INDEX after all output is written,
                     so an interrupted run leaves INDEX as it was. With redis://, each kept
                     record is added as it is decided (addIfNew: runs at once keep no two
                     near-duplicates)
  --progress         report progress on standard error even when it is not a terminal
                     (one line per second; on a terminal, one line updated in place)
  --help             show this help

link reads two files of records (CSV or JSON Lines, by --format or their extensions; one
may be - for standard input, as JSON Lines unless --format says) and writes each link, a
row of LEFT and its match in RIGHT (each row in one link at most; README "Records"), as
one JSON object per line: {"a":{"line":L,"record":R},"b":{"line":L,"record":R},
"probability":P,"fields":[{"name":N,"a":A,"b":B,"level":V,"weight":W},...]}. It takes
--field, --kind, --probability (default ${DEFAULT_LINK_PROBABILITY}), --review with --review-file and
--review-limit (the other pairs across, as links are written), --format and --progress.

Exit codes: 0 ok, 1 input error (with the line of the bad record; an index file that is
missing without --update, unreadable or corrupt, named), 2 usage error, 3 the work does not
fit in memory (e.g. --pairs with more pairs than memory holds).`;


const INTEGER = /^\d+$/;

/**
 * Options that mean nothing to a text index, and why: it takes its candidates by banding,
 * verifies them by the texts' similarity (which fingerprint options do not change) and
 * writes the kept records.
 */
const NOT_WITH_INDEX = {
  '--max-distance': 'an index verifies every candidate by similarity; it has no fingerprint radius',
  '--groups': 'an incremental run writes the records it keeps',
  '--pairs': 'an incremental run writes the records it keeps',
  '--review': 'an incremental run writes the records it keeps',
  '--measure': 'an index keeps the measure it was made with (the text measure)',
  '--tokenizer': 'an index compares texts by similarity, which fingerprint options do not change',
  '--word-ngram': 'an index compares texts by similarity, which fingerprint options do not change',
  '--char-ngram': 'an index compares texts by similarity, which fingerprint options do not change',
  '--weighting': 'an index compares texts by similarity, which fingerprint options do not change',
  '--keep-punctuation': 'an index compares texts by similarity, which fingerprint options do not change',
};

/** The parsed command line: { command, file or inputs, fields, options, … }; a mistake throws a UsageError. */
export function parseArgs(argv) {
  const args = { file: '-', similarity: undefined, measure: undefined, maxDistance: undefined, format: undefined, field: 'text', fields: [], kinds: {},
    probability: undefined, options: {}, output: 'unique', progress: false, index: undefined, update: false, review: undefined, reviewFile: undefined,
    reviewLimit: undefined };
  const [command, ...rest] = argv;
  if (command !== 'dedup' && command !== 'link') throw new UsageError(`unknown command "${command}"`);
  args.command = command;
  const inputs = [];
  const given = new Set();
  const takeValue = (i, name) => {
    if (i >= rest.length) throw new UsageError(`${name} needs a value`);
    return rest[i];
  };
  const takeInteger = (i, name, min, max) => {
    const value = takeValue(i, name);
    if (!INTEGER.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${name} takes an integer from ${min} to ${max}, got "${value}"`);
    return Number(value);
  };
  const takeSimilarity = (i, name) => {
    const value = takeValue(i, name);
    if (!/^(0?\.\d+|1(\.0*)?)$/.test(value) || !(Number(value) > 0)) throw new UsageError(`${name} takes a number above 0 and at most 1, got "${value}"`);
    return Number(value);
  };
  const takeChoice = (i, name, choices) => {
    const value = takeValue(i, name);
    if (!choices.includes(value)) throw new UsageError(`${name} takes one of ${choices.join(', ')}, got "${value}"`);
    return value;
  };
  let files = 0;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg.startsWith('--')) given.add(arg);
    switch (arg) {
      case '--max-distance': args.maxDistance = takeInteger(++i, arg, 0, 64); break;
      case '--similarity': args.similarity = takeSimilarity(++i, arg); break;
      case '--measure': args.measure = takeChoice(++i, arg, ['auto', ...MEASURES]); break;
      case '--format': args.format = takeChoice(++i, arg, FORMATS); break;
      case '--field':
        for (const field of takeValue(++i, arg).split(',')) {
          if (field === '') throw new UsageError('--field takes column names, got an empty one');
          if (args.fields.includes(field)) throw new UsageError(`--field names the column "${field}" twice`);
          args.fields.push(field);
        }
        break;
      case '--kind': {
        const value = takeValue(++i, arg);
        const at = value.lastIndexOf('=');
        const [name, kind] = [value.slice(0, at), value.slice(at + 1)];
        if (at <= 0 || !KINDS.includes(kind)) throw new UsageError(`--kind takes NAME=KIND, KIND one of ${KINDS.join(', ')}, got "${value}"`);
        if (name in args.kinds) throw new UsageError(`--kind names the column "${name}" twice`);
        args.kinds[name] = kind;
        break;
      }
      case '--probability': {
        const value = takeValue(++i, arg);
        if (!/^0?\.\d+$/.test(value) || !(Number(value) > 0)) throw new UsageError(`--probability takes a number above 0 and below 1, got "${value}"`);
        args.probability = Number(value);
        break;
      }
      case '--tokenizer': args.options.tokenizer = takeChoice(++i, arg, ['auto', 'words', 'chars']); break;
      case '--word-ngram': args.options.wordNgram = takeInteger(++i, arg, 1, 16); break;
      case '--char-ngram': args.options.charNgram = takeInteger(++i, arg, 1, 16); break;
      case '--weighting': args.options.weighting = takeChoice(++i, arg, ['tf', 'binary']); break;
      case '--keep-punctuation': args.options.stripPunctuation = false; break;
      case '--progress': args.progress = true; break;
      case '--index': args.index = takeValue(++i, arg); break;
      case '--update': args.update = true; break;
      case '--review': args.review = takeSimilarity(++i, arg); break;
      case '--review-file': args.reviewFile = takeValue(++i, arg); break;
      case '--review-limit': args.reviewLimit = takeInteger(++i, arg, 1, MAX_REVIEW_LIMIT); break;
      case '--groups':
      case '--pairs': {
        const output = arg.slice(2);
        if (args.output !== 'unique' && args.output !== output) throw new UsageError('--groups and --pairs exclude each other');
        args.output = output;
        break;
      }
      default:
        if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
        inputs.push(arg);
        if (command === 'link') break;
        if (++files > 1) throw new UsageError(`one input at most, got "${args.file}" and "${arg}"`);
        args.file = arg;
    }
  }
  if (command === 'link') {
    checkLinkArgs(args, given, inputs);
    return args;
  }
  if (args.update && args.index === undefined) throw new UsageError('--update needs --index INDEX: the index file to update');
  if (args.fields.length === 1) args.field = args.fields[0];
  args.records = args.fields.length > 1;
  args.format ??= args.file === '-' ? 'lines' : formatOf(args.file);
  if (args.records) {
    checkRecordArgs(args, given);
    return args;
  }
  for (const option of ['--kind', '--probability']) if (given.has(option)) throw new UsageError(`${option} needs records: two or more columns with --field`);
  checkReviewArgs(args, given);
  if (args.index !== undefined) {
    for (const [option, reason] of Object.entries(NOT_WITH_INDEX)) {
      if (given.has(option)) throw new UsageError(`${option} does not apply with --index (${reason})`);
    }
  }
  return args;
}

/** --review and its companions: each needs the others it names, and none goes with --pairs or --max-distance alone. */
function checkReviewArgs(args, given) {
  if (args.review === undefined) {
    for (const option of ['--review-file', '--review-limit']) if (given.has(option)) throw new UsageError(`${option} needs --review R`);
    return;
  }
  if (args.reviewFile === undefined) throw new UsageError('--review needs --review-file FILE: the file to write the pairs to');
  if (args.output === 'pairs') throw new UsageError('--review does not apply with --pairs (which lists fingerprint pairs, not groups)');
  if (args.similarity === undefined && args.maxDistance !== undefined) {
    throw new UsageError('--review needs dedup by similarity: give --similarity with --max-distance, or neither');
  }
  // With 'auto' the measure, and so the least review threshold, depends on the texts: dedup checks that.
  const measure = args.measure === 'text' ? 'text' : 'short';
  const chosen = args.measure === 'text' || args.measure === 'short';
  try {
    checkReview(args.review, args.similarity ?? (chosen ? DEFAULT_SIMILARITY_OF[measure] : 1), '--review', measure);
  } catch (error) {
    throw new UsageError(error.message);
  }
}
