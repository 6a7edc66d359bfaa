// SimHashPool: the API of SimHash run on the pool's workers (pool/scheduler.js), with the
// same results bit for bit and in the same order. The calling thread checks arguments,
// cuts texts into chunks and assembles results; every WASM call runs in a worker.
import { checkText, checkTextArray } from '../core/checks.js';
import { checkDedupArguments, itemText, runDedup } from '../dedup/dedup.js';
import { checkLinkArguments, checkRecordArguments, isRecords } from '../records/records.js';
import { readCell, rowNamer } from '../records/fields.js';
import { isNode } from '../core/environment.js';
import { toFingerprintArray } from '../core/hamming.js';
import { checkMaxDistance, checkOptions, textOptions } from '../bindings/options.js';
import { Job, checkTaskOptions } from './job.js';
import { idfForWorkers } from './scheduler.js';
import { copyTexts, poolLabels, poolPairs } from './search.js';
import { encodeTextsPaced, preparedInJs } from '../core/text.js';
import { trustedWeights } from '../bindings/word-weights.js';

/** At most this many texts per fingerprint task... */
const CHUNK_TEXTS = 2048;
/** ...and at most this many UTF-16 code units: about 10-30 ms of work per task. */
const CHUNK_CHARS = 1 << 19;

/**
 * Whether fingerprint chunks are encoded to UTF-8 on the calling thread before they are
 * posted (docs/search-engine.md "The worker pool", `npm run bench:transfer`): in Node encoding costs the
 * calling thread more than posting strings, but the workers then skip decoding them,
 * which pays overall; in Chromium encoding and posting costs the page's thread about 2x
 * posting strings, for no clear gain.
 */
const ENCODE_CHUNKS = isNode;

/**
 * The texts of a list, checked (or made by `key`) a slice at a time with pauses, and the
 * chunk boundaries of its fingerprint tasks.
 */
async function chunkTexts(items, key, name, pacer) {
  const texts = key ? new Array(items.length) : items;
  const bounds = [0];
  let chars = 0;
  for (let i = 0; i < items.length; i++) {
    let text;
    if (name === 'items') {
      text = itemText(items, key, i);
      if (key) texts[i] = text;
    } else {
      text = items[i];
      checkText(text, `${name}[${i}]`);
    }
    const start = bounds[bounds.length - 1];
    if (i > start && (i - start >= CHUNK_TEXTS || chars + text.length > CHUNK_CHARS)) {
      bounds.push(i);
      chars = 0;
    }
    chars += text.length;
    if ((i & 1023) === 1023) await pacer.pause();
  }
  if (items.length > 0) bounds.push(items.length);
  return { texts, bounds };
}

/**
 * Records as they cross to a worker, a slice at a time with pauses: { columns, cells, count },
 * the columns the rows have as their own enumerable ones (those of `fields` only, when it
 * names them) in order of first appearance, and per column each row's cell as fields.js
 * reads it (readCell of the row's property, its own or not: a cell no text says is dedup's
 * TypeError here too). Columns of strings clone in
 * about half the time of as many objects, on the calling thread and in the worker (a million
 * contacts: 0.6-0.7 s against 1.2-2.1 s to post, 1.6 s against 2.3-2.6 s to arrive, plus
 * 0.6 s to make the rows there: pool-worker.js rowsOfColumns).
 */
async function recordColumns(rows, fields, pacer, rowName) {
  const named = fields && new Set(fields.map(([column]) => column));
  const seen = new Set();
  for (let i = 0; i < rows.length; i++) {
    for (const column of Object.keys(rows[i])) if (!named || named.has(column)) seen.add(column);
    if ((i & 1023) === 1023) await pacer.pause();
  }
  const columns = [...seen];
  const cells = [];
  for (const column of columns) {
    const cellsOf = [];
    for (let i = 0; i < rows.length; i++) {
      cellsOf.push(readCell(rows, i, column, rowName));
      if ((i & 1023) === 1023) await pacer.pause();
    }
    cells.push(cellsOf);
  }
  return { columns, cells, count: rows.length };
}

/**
 * What a call needs of its IDF weights, taken when it is made, so that disposing of them
 * afterwards changes nothing for the call: their bytes for the workers (idfForWorkers), and
 * the options with those they were learned with in place of the weights.
 */
function takeIdf(options) {
  if (!options?.idf) return { idf: undefined, options };
  return { idf: idfForWorkers(options.idf), options: { ...options, ...options.idf.options, idf: null } };
}

export class SimHashPool {
  #scheduler;
  #jobs = new Set();

  constructor(scheduler) {
    this.#scheduler = scheduler;
  }

  /** Number of workers (some may be stopped, and are started again when there is work). */
  get size() {
    return this.#scheduler.size;
  }

  #live() {
    if (this.#scheduler.terminated) throw new Error('this pool has been terminated');
  }

  #job(signal, onProgress) {
    const job = new Job(signal, onProgress, (ended, cancel) => {
      this.#jobs.delete(ended);
      this.#scheduler.dropJob(ended, cancel);
    });
    this.#jobs.add(job);
    return job;
  }

  /** Runs `body(job)` as a job: a failure fails the job (stopping its tasks) and rejects. */
  async #run(signal, onProgress, body) {
    const job = this.#job(signal, onProgress);
    try {
      return await body(job);
    } catch (error) {
      job.fail(error);
      throw job.failed.error;
    } finally {
      job.end();
    }
  }

  /** Fingerprints texts across the workers; progress counts `reportTotal` items for all the texts. */
  async #fingerprint(job, texts, bounds, { options, idf }, reportTotal = texts.length) {
    // IdfWeights live in one WASM instance: each worker gets their bytes once and loads its own.
    const encode = ENCODE_CHUNKS && !preparedInJs(textOptions(options));
    if (options && 'idf' in options) options = { ...options, idf: null };
    const total = texts.length;
    const fingerprints = new BigUint64Array(total);
    let done = 0;
    const chunks = [];
    for (let c = 0; c + 1 < bounds.length; c++) {
      const start = bounds[c];
      const end = bounds[c + 1];
      const message = { op: 'fingerprint', texts: texts.slice(start, end), options };
      chunks.push(this.#scheduler.task(job, message, { idf, encode }).then((fps) => {
        fingerprints.set(fps, start);
        done += end - start;
        job.report('fingerprint', done === total ? reportTotal : Math.floor((done / total) * reportTotal), reportTotal);
      }));
    }
    await job.guard(Promise.all(chunks));
    return fingerprints;
  }

  /** Fingerprints of many texts, identical to SimHash#fingerprintAll, computed across the workers. */
  async fingerprintAll(texts, options, task) {
    this.#live();
    checkTextArray(texts, 'texts');
    checkOptions(options);
    const { onProgress, signal } = checkTaskOptions(task);
    const taken = takeIdf(options);
    return this.#run(signal, onProgress, async (job) => {
      job.report('fingerprint', 0, texts.length);
      const { bounds } = await chunkTexts(texts, undefined, 'texts', job.pacer());
      return this.#fingerprint(job, texts, bounds, taken);
    });
  }

  /** Every pair within maxDistance, identical to SimHash#findPairs, searched across the workers (pool/search.js). */
  async findPairs(fingerprints, maxDistance, task) {
    this.#live();
    let fps = toFingerprintArray(fingerprints, 'fingerprints');
    const k = checkMaxDistance(maxDistance);
    if (fps.length > 0xffffffff) throw new RangeError('fingerprints must hold fewer than 2^32 items');
    const { onProgress, signal } = checkTaskOptions(task);
    if (fps === fingerprints) fps = fps.slice(); // what the caller does with its array meanwhile changes nothing
    return this.#run(signal, onProgress, async (job) => {
      job.report('pairs', 0, 1000);
      const pairs = await poolPairs(this.#scheduler, job, fps, k);
      job.report('pairs', 1000, 1000);
      return pairs;
    });
  }

  /**
   * Near-duplicate groups, identical to SimHash#dedup: dedup.js runDedup, with the items'
   * texts checked here a slice at a time and the distinct texts' fingerprints and search
   * (#group) across the workers.
   */
  async dedup(items, options = {}) {
    this.#live();
    if (isRecords(items, options)) return this.#dedupRecords(items, options);
    const parsed = checkDedupArguments(items, options);
    const taken = takeIdf(parsed.fingerprintOptions);
    return this.#run(parsed.signal, parsed.onProgress, async (job) => {
      const pacer = job.pacer();
      return runDedup(items, parsed, pacer, (phase, done, total) => job.report(phase, done, total), {
        // A bad text still rejects before any work is posted, as in SimHash#dedup.
        texts: async (items, key) => (await chunkTexts(items, key, 'items', pacer)).texts,
        group: (distinct, search) => this.#group(job, pacer, distinct, search, taken, items.length),
      });
    });
  }

  /**
   * Records (README "Records"), identical to SimHash#dedup: the arguments checked here
   * (records.js checkRecordArguments), the rows' cells by column (recordColumns) and the parsed options
   * posted to one worker, which runs records.js dedupRecords and reports its progress, its
   * search of similar names in another where one is idle; `unique` made here of the caller's own rows.
   */
  async #dedupRecords(rows, options) {
    const result = await this.#records(rows, checkRecordArguments(rows, options), options);
    return { unique: result.uniqueIndices.map((i) => rows[i]), ...result };
  }

  /** Two lists of records linked, identical to SimHash#link: as #dedupRecords, the lists' rows in one message. */
  async link(left, right, options = {}) {
    this.#live();
    const { items, parsed } = checkLinkArguments(left, right, options);
    return this.#records(items, parsed, options, left.length);
  }

  /** The worker's answer for records (dedup's without `unique`; link's when `left`, the left list's length, is given). */
  async #records(rows, { fields, probability, review, reviewLimit, onProgress, signal }, options, left) {
    return this.#run(signal, onProgress, async (job) => {
      job.report('fields', 0, 1);
      const columns = await recordColumns(rows, fields, job.pacer(), rowNamer(left));
      // options.fields as given (an array keeps its order, which an object of integer-like names would not).
      const given = Array.isArray(options.fields) ? [...options.fields] : fields && Object.fromEntries(fields);
      const message = { op: 'records', ...columns, left, options: { fields: given, probability, review, reviewLimit } };
      const report = (thousandths, phase) => job.reportFromWorker(phase, thousandths, 1000);
      // The worker's search of similar names, in another worker where one is idle (pool-worker.js 'similarPairs').
      const onAsk = (ask) => (ask.op !== 'similarPairs' ? null : this.#scheduler.taskIfIdle(job, ask, {
        transfer: [ask.texts.utf8.buffer, ask.texts.bounds.buffer], exclusive: true, onProgress: report,
      })?.then((found) => [found, [found.a.buffer, found.b.buffer]]));
      const result = await job.guard(this.#scheduler.task(job, message, { exclusive: true, onProgress: report, onAsk }));
      job.report('groups', 1, 1);
      return result;
    });
  }

  /**
   * runDedup's fingerprints and search of the distinct texts: fingerprints across the
   * workers; the search split across them or in one (pool/search.js poolLabels).
   */
  async #group(job, pacer, distinct, search, taken, itemCount) {
    const { bounds } = await chunkTexts(distinct, undefined, 'texts', pacer);
    let fps;
    let grouped; // dedup.js searchLabels' answer
    if (search.banding) {
      // Banding needs no fingerprints: one worker builds the sets and groups while the
      // others fingerprint (its progress is reported once the fingerprints are done).
      const encoded = await encodeTextsPaced(distinct, pacer);
      const grouping = this.#groupInOneWorker(job, null, encoded, search, () => fps !== undefined);
      grouping.catch(() => {}); // awaited below; a failure meanwhile fails the job
      fps = await this.#fingerprint(job, distinct, bounds, taken, itemCount);
      job.report('pairs', 0, 1000);
      grouped = await grouping;
    } else {
      fps = await this.#fingerprint(job, distinct, bounds, taken, itemCount);
      job.report('pairs', 0, 1000);
      const encoded = search.similarity > 0 ? await encodeTextsPaced(distinct, pacer) : undefined;
      const labels = await poolLabels(this.#scheduler, job, fps, encoded, search, pacer);
      if (!labels) grouped = await this.#groupInOneWorker(job, fps, encoded, search);
      else grouped = { labels, review: search.review > 0 ? await this.#reviewInOneWorker(job, encoded, labels, search) : null };
    }
    // Phases in order: a grouping worker's progress counts only once the fingerprints are
    // done, so its 'pairs' and 'review' may have ended unreported, or reported in full.
    if (job.last?.phase !== 'review') job.report('pairs', 1000, 1000);
    if (search.review > 0) job.report('review', 1000, 1000);
    return { fingerprints: fps, labels: grouped.labels, review: grouped.review, weights: grouped.weights };
  }

  /**
   * dedup's grouping of the distinct texts from dedup.js searchLabels in one worker, with
   * its progress while `reporting()` (`encoded`: encodeTextsPaced's texts when similarity
   * is above 0; `fingerprints` null when banding).
   */
  async #groupInOneWorker(job, fingerprints, encoded, { k, similarity, measure, weights, banding, records, grouping, review, reviewLimit },
    reporting = () => true) {
    const fps = fingerprints?.slice() ?? null; // the calling thread keeps its fingerprints; the copy moves
    const [texts, textBuffers] = copyTexts(encoded, true); // the last use of the texts here
    // Word weights cross as their data (a class does not survive structured cloning).
    const message = { op: 'group', fingerprints: fps, texts, k, similarity, measure, weights: weights && weights.toData(), banding, records,
      grouping, review, reviewLimit };
    const transfer = fps ? [fps.buffer, ...textBuffers] : textBuffers;
    const onProgress = (thousandths, phase) => {
      if (reporting()) job.reportFromWorker(phase, thousandths, 1000);
    };
    const grouped = await job.guard(this.#scheduler.task(job, message, { transfer, exclusive: true, onProgress }));
    return grouped.weights ? { ...grouped, weights: trustedWeights(grouped.weights) } : grouped;
  }

  /** The review pairs (review-pairs.js searchReview) of the groups `labels` of the distinct texts, from one worker. */
  async #reviewInOneWorker(job, encoded, labels, { review, reviewLimit, measure }) {
    const [texts, transfer] = copyTexts(encoded, true); // the last use of the texts here
    const message = { op: 'review', texts, labels: labels.slice(), review, reviewLimit, measure };
    const onProgress = (thousandths, phase) => job.reportFromWorker(phase, thousandths, 1000);
    return job.guard(this.#scheduler.task(job, message, { transfer: [...transfer, message.labels.buffer], exclusive: true, onProgress }));
  }

  /** Stops every worker; pending calls reject, later calls throw. */
  async terminate() {
    if (this.#scheduler.terminated) return;
    const error = new Error('this pool has been terminated');
    for (const job of [...this.#jobs]) job.fail(error);
    await this.#scheduler.terminate(error);
  }
}

if (Symbol.asyncDispose) SimHashPool.prototype[Symbol.asyncDispose] = SimHashPool.prototype.terminate;
