// The demo page: input (paste, file, samples), settings, and the results of the analysis,
// which runs on this page for small inputs and in a Web Worker (worker.js) for large ones.
import { init } from 'simhash-wasm';
import { Engine, SLIDER_MAX, SIMILARITY_MIN, HISTOGRAM_MAX, sameView, segmenterAvailable, viewRadius } from './engine.js';
import { formatOf, parse, parseLines, guessField, textsOf, serialize } from './formats.js';
import { diff } from './diff.js';
import './style.css';

/** Inputs up to these sizes are analysed on the page; larger ones in the worker. */
const PAGE_MAX_ITEMS = 5000;
const PAGE_MAX_CHARS = 1_000_000;
const GROUPS_PER_PAGE = 50;
const MEMBERS_SHOWN = 20;
const TYPING_DEBOUNCE_MS = 300;
const SETTINGS_DEBOUNCE_MS = 150;
/** Progress appears only for jobs that last longer than this (no flicker on small inputs). */
const PROGRESS_DELAY_MS = 150;
const LARGE_SAMPLE_LINES = 100_000;

const $ = (id) => document.getElementById(id);
const el = {
  input: $('input'), file: $('file'), dropZone: $('drop-zone'), inputPanel: $('input-panel'),
  source: $('source'), sourceName: $('source-name'), sourceClear: $('source-clear'),
  fieldRow: $('field-row'), fieldLabel: $('field-label'), field: $('field'),
  inputNote: $('input-note'), inputError: $('input-error'),
  bySimilarity: $('by-similarity'), byDistance: $('by-distance'),
  similarity: $('similarity'), similarityValue: $('similarity-value'), similaritySlider: $('similarity-slider'),
  maxDistance: $('max-distance'), maxDistanceValue: $('max-distance-value'), distanceSlider: $('distance-slider'),
  tokenizer: $('tokenizer'), tokenizerHelp: $('tokenizer-help'), wordNgram: $('word-ngram'), charNgram: $('char-ngram'),
  weighting: $('weighting'), caseFold: $('case-fold'), stripPunctuation: $('strip-punctuation'), nfkc: $('nfkc'), code: $('code'),
  progressBox: $('progress-box'), progressLabel: $('progress-label'), progress: $('progress'), cancel: $('cancel'),
  items: $('stat-items'), unique: $('stat-unique'), duplicates: $('stat-duplicates'), groupCount: $('stat-groups'),
  status: $('status'), timing: $('timing'), sampleCheck: $('sample-check'), run: $('run'),
  histogram: $('histogram'), histogramSummary: $('histogram-summary'), histogramNote: $('histogram-note'),
  download: $('download'), sort: $('sort'), groups: $('groups'), more: $('more'),
};

const number = new Intl.NumberFormat('en');
const fmt = (n) => number.format(n);
const ms = (t) => (t >= 1000 ? `${(t / 1000).toFixed(2)} s` : `${Math.max(t, 0.1).toFixed(t < 10 ? 1 : 0)} ms`);
const plural = (n, one, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;
const percent = (s) => `${Math.round(s * 100)}%`;
/** What a view groups by, in words: 'similarity ≥ 80%', 'max distance 9'. */
const describeView = (view) => (view.by === 'similarity' ? `similarity ≥ ${percent(view.similarity)}` : `max distance ${view.maxDistance}`);

function setState(state) {
  document.body.dataset.state = state;
}

// ---------------------------------------------------------------------------------------
// Runners: the same Engine on this page or in the worker, behind one asynchronous interface.

const pageEngine = init().then((sh) => new Engine(sh));

class PageRunner {
  #controller = null;
  where = 'on this page';

  async analyze(texts, settings, onProgress) {
    this.#controller = new AbortController();
    return (await pageEngine).analyze(texts, settings, { onProgress, signal: this.#controller.signal });
  }

  async group(view) {
    return (await pageEngine).group(view);
  }

  cancel() {
    this.#controller?.abort(new DOMException('Cancelled', 'AbortError'));
  }
}

class WorkerRunner {
  #worker = null;
  #pending = new Map();
  #next = 1;
  where = 'in a Web Worker';

  /** Whether the worker still holds the last analysis (cancelling terminates it). */
  get alive() {
    return this.#worker !== null;
  }

  #start() {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'simhash-demo' });
    worker.onmessage = ({ data }) => {
      const call = this.#pending.get(data.id);
      if (!call) return;
      if (data.type === 'progress') {
        call.onProgress?.(data.progress);
        return;
      }
      this.#pending.delete(data.id);
      if (data.type === 'done') call.resolve(data.result);
      else call.reject(Object.assign(new Error(data.error.message), { name: data.error.name }));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.#fail(new Error(`the worker failed: ${event.message || 'it could not start'}`));
    };
    worker.onmessageerror = () => this.#fail(new Error('the worker sent a message that could not be read'));
    this.#worker = worker;
  }

  #call(message, onProgress) {
    if (!this.#worker) this.#start();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#worker.postMessage({ id, ...message });
    });
  }

  analyze(texts, settings, onProgress) {
    return this.#call({ type: 'analyze', texts, settings }, onProgress);
  }

  group(view) {
    if (!this.#worker) return Promise.reject(new Error('the worker was stopped'));
    return this.#call({ type: 'group', view });
  }

  #fail(error) {
    this.#worker?.terminate();
    this.#worker = null;
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
  }

  /** Stops at once, even inside a long WebAssembly call; the next job starts a new worker. */
  cancel() {
    this.#fail(new DOMException('Cancelled', 'AbortError'));
  }
}

const pageRunner = new PageRunner();
const workerRunner = new WorkerRunner();

// ---------------------------------------------------------------------------------------
// Input

/**
 * The current input: { kind: 'paste' | 'sample' | 'file' | 'generated', name, parsed,
 * field, texts, chars, planted? }. Items are parsed.records, in order.
 */
let input = null;
/** The sample in the text area, while it is unchanged: { text, planted }. */
let loadedSample = null;

/** The view the controls ask for (engine.js): by similarity or by fingerprint distance. */
function currentView() {
  return el.byDistance.checked
    ? { by: 'distance', maxDistance: Number(el.maxDistance.value) }
    : { by: 'similarity', similarity: Number(el.similarity.value) };
}

/** Sets the controls to a view (after a cancelled regrouping). */
function showView(view) {
  el.byDistance.checked = view.by === 'distance';
  el.bySimilarity.checked = view.by === 'similarity';
  if (view.by === 'distance') el.maxDistance.value = String(view.maxDistance);
  else el.similarity.value = String(view.similarity);
  updateViewControls();
}

function readSettings() {
  const integer = (control, fallback) => {
    const value = Number.parseInt(control.value, 10);
    return Number.isInteger(value) ? Math.min(16, Math.max(1, value)) : fallback;
  };
  return {
    view: currentView(),
    tokenizer: el.tokenizer.value,
    wordNgram: integer(el.wordNgram, 1),
    charNgram: integer(el.charNgram, 2),
    caseFold: el.caseFold.checked,
    stripPunctuation: el.stripPunctuation.checked,
    weighting: el.weighting.value,
    nfkc: el.nfkc.checked,
  };
}

function showInputError(message) {
  el.inputError.textContent = message;
  el.inputError.hidden = !message;
}

/** Sets the input from parsed records and starts the analysis. */
function setInput(next) {
  showInputError('');
  input = next;
  const { parsed } = next;
  const hasFields = parsed.format !== 'lines' && parsed.fields.length > 0;
  el.fieldRow.hidden = !hasFields;
  if (hasFields) {
    el.fieldLabel.textContent = parsed.format === 'csv' ? 'Column to compare' : 'Field to compare';
    el.field.replaceChildren(...parsed.fields.map((name) => new Option(name, name, false, name === next.field)));
  }
  el.source.hidden = next.kind !== 'file' && next.kind !== 'generated';
  if (!el.source.hidden) {
    const kind = { lines: 'text, one item per line', csv: 'CSV', jsonl: 'JSON Lines' }[parsed.format];
    el.sourceName.textContent = `${next.name}: ${kind}, ${plural(parsed.records.length, 'record')}`;
  }
  updateTexts();
}

/** Texts of the chosen field; notes about what was skipped. */
function updateTexts() {
  const { parsed } = input;
  const { texts, missing } = textsOf(parsed, input.field);
  input.texts = texts;
  input.chars = texts.reduce((sum, t) => sum + t.length, 0);
  const notes = [];
  if (parsed.blank) notes.push(`${plural(parsed.blank, 'blank line')} ignored.`);
  if (missing.length) {
    notes.push(`${plural(missing.length, 'record')} without "${input.field}" count as empty (line ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}).`);
  }
  el.inputNote.textContent = notes.join(' ');
  analyzeSoon(0);
}

function clearFile() {
  el.file.value = '';
  el.source.hidden = true;
  el.fieldRow.hidden = true;
  fromTextArea();
}

function fromTextArea() {
  const text = el.input.value;
  const sample = loadedSample?.text === text ? loadedSample : null;
  input = null;
  if (text.trim() === '') {
    el.inputNote.textContent = '';
    showInputError('');
    analyzeSoon(0);
    return;
  }
  setInput({ kind: sample ? 'sample' : 'paste', name: 'pasted text', parsed: parseLines(text), field: undefined, planted: sample?.planted });
}

async function loadFile(file) {
  if (!file) return;
  showInputError('');
  el.inputNote.textContent = `Reading ${file.name}…`;
  try {
    const parsed = parse(new Uint8Array(await file.arrayBuffer()), formatOf(file.name));
    el.input.value = '';
    loadedSample = null;
    setInput({ kind: 'file', name: file.name, parsed, field: guessField(parsed) });
  } catch (error) {
    el.file.value = ''; // so that choosing the file again, fixed, is a change
    el.inputNote.textContent = '';
    showInputError(`${file.name}: ${error.message}`);
  }
}

let samples = null;

/** The bundled sample split into English and Chinese quotes, planted pairs renumbered. */
async function loadSamples() {
  const { SAMPLE, SAMPLE_PLANTED } = await import('../js/sample.js');
  const isChinese = (text) => /\p{Script=Han}/u.test(text);
  const split = (keep) => {
    const index = new Map();
    const texts = [];
    SAMPLE.forEach((text, i) => {
      if (keep(text)) {
        index.set(i, texts.length);
        texts.push(text);
      }
    });
    const planted = SAMPLE_PLANTED.filter(([a, b]) => index.has(a) && index.has(b)).map(([a, b]) => [index.get(a), index.get(b)]);
    return { text: texts.join('\n'), planted };
  };
  return { en: split((t) => !isChinese(t)), zh: split(isChinese) };
}

async function loadSample(which) {
  samples ??= await loadSamples();
  loadedSample = samples[which];
  el.file.value = '';
  el.input.value = loadedSample.text;
  el.source.hidden = true;
  el.fieldRow.hidden = true;
  fromTextArea();
}

/** Generates the large sample a chunk at a time, so the page keeps responding. */
async function loadLargeSample() {
  const { lineMaker } = await import('./generate.js');
  const make = lineMaker(1);
  const my = startJob();
  running = { kind: 'generate', runner: null };
  showProgress('Generating 100,000 lines…', 0);
  for (let done = 0; done < LARGE_SAMPLE_LINES;) {
    const chunk = Math.min(5000, LARGE_SAMPLE_LINES - done);
    make(chunk);
    done += chunk;
    showProgress('Generating 100,000 lines…', done / LARGE_SAMPLE_LINES);
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (my !== job) return;
  }
  running = null;
  el.progressBox.hidden = true;
  el.input.value = '';
  el.file.value = '';
  loadedSample = null;
  const lines = make.lines;
  const parsed = parseLines(`${lines.join('\n')}\n`);
  setInput({ kind: 'generated', name: 'generated.txt', parsed, field: undefined });
}

// ---------------------------------------------------------------------------------------
// Jobs: at most one runs; a newer one (or Cancel) makes older results be ignored.

let job = 0;
/** What runs now: null, or { kind: 'analyze' | 'group', runner }. */
let running = null;
/** The analysis on screen: { input, settings, runner, result, timings, total }. */
let analysis = null;
let progressTimer = 0;
let analyzeTimer = 0;

function startJob() {
  stopRunning();
  return ++job;
}

function stopRunning() {
  if (running) running.runner?.cancel();
  running = null;
  clearTimeout(progressTimer);
  el.progressBox.hidden = true;
}

function showProgress(label, fraction) {
  el.progressBox.hidden = false;
  el.progressLabel.textContent = label;
  if (fraction === null) el.progress.removeAttribute('value');
  else el.progress.value = fraction;
}

function describeProgress({ phase, done, total }, settings) {
  if (phase === 'fingerprint') return [`Fingerprinting: ${fmt(done)} of ${plural(total, 'distinct text')}`, total ? done / total : 0];
  if (phase === 'pairs') return [`Finding every pair within ${viewRadius(settings.view)} bits…`, null];
  if (phase === 'similarities') return ['Checking the similarity of each pair…', null];
  return ['Grouping…', null];
}

function analyzeSoon(delay) {
  clearTimeout(analyzeTimer);
  analyzeTimer = setTimeout(analyzeNow, delay);
}

async function analyzeNow() {
  clearTimeout(analyzeTimer);
  const my = startJob();
  if (!input || input.texts.length === 0) {
    analysis = null;
    renderEmpty();
    return;
  }
  const settings = readSettings();
  const current = input;
  const large = current.texts.length > PAGE_MAX_ITEMS || current.chars > PAGE_MAX_CHARS;
  const runner = large ? workerRunner : pageRunner;
  if (!large) workerRunner.cancel(); // frees the memory of an earlier large input
  running = { kind: 'analyze', runner };
  setState('busy');
  el.run.hidden = true;
  let latest = [large ? 'Starting the worker…' : 'Working…', 0];
  progressTimer = setTimeout(() => showProgress(...latest), large ? 0 : PROGRESS_DELAY_MS);
  el.status.textContent = `Analysing ${plural(current.texts.length, 'item')} ${runner.where}…`;
  try {
    const result = await runner.analyze(current.texts, settings, (progress) => {
      if (my !== job) return;
      latest = describeProgress(progress, settings);
      if (!el.progressBox.hidden) showProgress(...latest);
    });
    if (my !== job) return;
    running = null;
    clearTimeout(progressTimer);
    el.progressBox.hidden = true;
    analysis = { input: current, settings, runner, result, timings: result.timings, total: result.total, regrouped: null };
    render();
    if (!sameView(currentView(), result.view)) regroup();
  } catch (error) {
    if (my !== job) return;
    running = null;
    clearTimeout(progressTimer);
    el.progressBox.hidden = true;
    analysis = null;
    if (error.name === 'AbortError') showStopped('Cancelled. Change a setting or press “Run again” to start over.');
    else showStopped(`Something went wrong: ${error.message}`, true);
  }
}

let regrouping = false;

/** Regroups the current analysis for the controls' view; coalesces fast moves. */
async function regroup() {
  const view = currentView();
  if (!analysis || running?.kind === 'analyze' || regrouping) return;
  if (sameView(view, analysis.result.view)) return;
  const { runner } = analysis;
  if (runner === workerRunner && !workerRunner.alive) { // the worker was cancelled: start over
    analyzeNow();
    return;
  }
  regrouping = true;
  const my = ++job;
  running = { kind: 'group', runner };
  setState('busy');
  const k = viewRadius(view);
  const slow = runner === workerRunner && k > analysis.result.histogramMax;
  progressTimer = setTimeout(() => showProgress(`Finding every pair within ${k} bits…`, null), slow ? 0 : PROGRESS_DELAY_MS);
  try {
    const result = await runner.group(view);
    if (my !== job) return; // cancelled (cancel() has restored the page) or replaced
    analysis.result = result;
    analysis.regrouped = result;
    render();
  } catch (error) {
    if (my !== job) return;
    analysis = null;
    showStopped(`Something went wrong: ${error.message}`, true);
  } finally {
    regrouping = false;
    if (my === job) {
      running = null;
      clearTimeout(progressTimer);
      el.progressBox.hidden = true;
      if (analysis && !sameView(currentView(), analysis.result.view)) regroup(); // the controls moved meanwhile
    }
  }
}

function cancel() {
  const wasGroup = running?.kind === 'group';
  if (!running) return;
  job++;
  stopRunning();
  if (wasGroup && analysis) {
    showView(analysis.result.view);
    render();
    el.status.textContent = `Cancelled; showing ${describeView(analysis.result.view)}.`;
    return;
  }
  analysis = null;
  showStopped('Cancelled. Change a setting or press “Run again” to start over.');
}

// ---------------------------------------------------------------------------------------
// Output

let runs = 0;
let shownGroups = 0;
let groupList = [];

function setStats(items, unique, groups) {
  el.items.textContent = items === null ? '–' : fmt(items);
  el.unique.textContent = unique === null ? '–' : fmt(unique);
  el.duplicates.textContent = items === null ? '–' : fmt(items - unique);
  el.groupCount.textContent = groups === null ? '–' : fmt(groups);
}

function renderEmpty() {
  setStats(null, null, null);
  el.status.textContent = 'Paste some texts, choose or drop a file, or load a sample.';
  el.timing.textContent = '';
  el.sampleCheck.hidden = true;
  el.download.disabled = true;
  el.groups.replaceChildren();
  el.more.hidden = true;
  drawHistogram(null, -1, currentView());
  updateCode();
  setState('idle');
  document.body.dataset.runs = ++runs;
}

function showStopped(message, isError = false) {
  setStats(null, null, null);
  el.status.textContent = message;
  el.timing.textContent = '';
  el.sampleCheck.hidden = true;
  el.download.disabled = true;
  el.groups.replaceChildren();
  el.more.hidden = true;
  el.run.hidden = false;
  drawHistogram(null, -1, currentView());
  setState(isError ? 'error' : 'cancelled');
  if (isError) console.error(message);
  document.body.dataset.runs = ++runs;
}

/** Groups as lists of item indices, kept item first, from each item's leader. */
function collectGroups(leader) {
  const byLeader = new Map();
  for (let i = 0; i < leader.length; i++) {
    if (leader[i] === i) continue;
    let group = byLeader.get(leader[i]);
    if (!group) byLeader.set(leader[i], (group = [leader[i]]));
    group.push(i);
  }
  const groups = [...byLeader.values()];
  if (el.sort.value === 'size') groups.sort((a, b) => b.length - a.length || a[0] - b[0]);
  else groups.sort((a, b) => a[0] - b[0]);
  return groups;
}

function render() {
  const { result, input: current, runner } = analysis;
  groupList = collectGroups(result.leader);
  setStats(result.count, result.unique, groupList.length);
  const duplicates = result.count - result.unique;
  el.status.textContent = `${plural(result.count, 'item')}: ${fmt(result.unique)} unique, ${plural(duplicates, 'near-duplicate')} in ${plural(groupList.length, 'group')} at ${describeView(result.view)}.`;
  const parts = analysis.timings.map(([label, t]) => `${label} ${ms(t)}`).join(', ');
  let timing = `Analysed in ${ms(analysis.total)} ${runner.where} (${parts}).`;
  if (analysis.regrouped) {
    timing += ` Regrouped for ${describeView(result.view)} in ${ms(analysis.regrouped.total)}.`;
  }
  el.timing.textContent = timing;
  renderSampleCheck(current, result);
  drawHistogram(result.histogram, result.histogramMax, result.view);
  el.download.disabled = false;
  el.download.textContent = `Download ${plural(result.unique, 'kept record')} (.${extensionOf(current)})`;
  el.groups.replaceChildren();
  shownGroups = 0;
  showMoreGroups();
  if (groupList.length === 0) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = `No near-duplicates at ${describeView(result.view)}.`;
    el.groups.append(li);
  }
  el.run.hidden = true;
  updateCode();
  setState('done');
  document.body.dataset.runs = ++runs;
}

/** For the samples: how many planted near-duplicates were found, and how many items were merged wrongly. */
function renderSampleCheck(current, result) {
  if (!current.planted) {
    el.sampleCheck.hidden = true;
    return;
  }
  const original = new Map(current.planted.map(([a, b]) => [b, a]));
  const root = (i) => original.get(i) ?? i;
  const found = current.planted.filter(([a, b]) => result.leader[a] === result.leader[b]).length;
  let wrong = 0;
  for (let i = 0; i < result.leader.length; i++) if (result.leader[i] !== i && root(result.leader[i]) !== root(i)) wrong++;
  el.sampleCheck.textContent = `Sample check: ${found} of ${current.planted.length} planted near-duplicates found; ${plural(wrong, 'unrelated item')} merged.`;
  el.sampleCheck.hidden = false;
}

function showMoreGroups() {
  const { result, input: current } = analysis;
  const { records } = current.parsed;
  const end = Math.min(groupList.length, shownGroups + GROUPS_PER_PAGE);
  const fragment = document.createDocumentFragment();
  for (let g = shownGroups; g < end; g++) {
    const group = groupList[g];
    const li = document.createElement('li');
    li.className = 'group';
    const title = document.createElement('h3');
    title.append(`Group ${fmt(g + 1)} `);
    const size = document.createElement('span');
    size.className = 'muted';
    size.textContent = `· ${plural(group.length, 'item')}`;
    title.append(size);
    const members = document.createElement('ul');
    members.className = 'members';
    const keptText = current.texts[group[0]];
    group.slice(0, MEMBERS_SHOWN).forEach((item, position) => {
      const row = position === 0
        ? memberRow(records[item], current.texts[item], null, keptText)
        : memberRow(records[item], current.texts[item], { distance: result.distance[item], similarity: result.similarity?.[item] }, keptText);
      row.dataset.item = item;
      members.append(row);
    });
    li.append(title, members);
    if (group.length > MEMBERS_SHOWN) {
      const more = document.createElement('p');
      more.className = 'more-members';
      more.textContent = `…and ${plural(group.length - MEMBERS_SHOWN, 'more item')}.`;
      li.append(more);
    }
    fragment.append(li);
  }
  el.groups.append(fragment);
  shownGroups = end;
  el.more.hidden = shownGroups >= groupList.length;
  el.more.textContent = `Show more groups (${fmt(groupList.length - shownGroups)} left)`;
}

/** A group's row: the kept item (`to` null), or a member with its distance and similarity `to` the kept item. */
function memberRow(record, text, to, keptText) {
  const li = document.createElement('li');
  li.className = to === null ? 'member kept' : 'member';
  const meta = document.createElement('div');
  meta.className = 'meta';
  const badge = document.createElement('span');
  badge.className = to === null ? 'badge kept' : 'badge';
  if (to === null) badge.textContent = 'kept';
  else if (to.similarity === undefined) badge.textContent = `distance ${to.distance}`;
  else {
    badge.textContent = `${percent(to.similarity)} similar`;
    badge.title = `similarity ${to.similarity.toFixed(4)}, fingerprint distance ${to.distance}`;
  }
  const where = document.createElement('span');
  where.textContent = `line ${fmt(record.line)}`;
  meta.append(badge, where);
  if (to?.similarity !== undefined) {
    const bits = document.createElement('span');
    bits.className = 'muted';
    bits.textContent = `distance ${to.distance}`;
    meta.append(bits);
  }
  const body = document.createElement('p');
  body.className = 'text';
  if (to === null) {
    body.textContent = text;
  } else {
    const ops = diff(keptText, text);
    if (ops.every((op) => op.op === '=')) {
      body.append(text, ' ');
      const same = document.createElement('span');
      same.className = 'muted';
      same.textContent = '(identical text)';
      body.append(same);
    } else {
      for (const { op, text: part } of ops) {
        if (op === '=') body.append(part);
        else {
          const mark = document.createElement(op === '+' ? 'ins' : 'del');
          mark.textContent = part;
          mark.title = op === '+' ? 'not in the kept item' : 'only in the kept item';
          body.append(mark);
        }
      }
    }
  }
  li.append(meta, body);
  return li;
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function compact(n, room) {
  if (n < (room < 36 ? 1000 : 10000)) return fmt(n);
  return new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

let lastHistogram = [null, -1, { by: 'distance', maxDistance: 9 }];

/**
 * Bars of pair counts per distance 0..HISTOGRAM_MAX, split at the view's radius (its max
 * distance, or the candidate radius of its similarity); one SVG unit is one CSS pixel.
 */
function drawHistogram(histogram, histogramMax, view) {
  lastHistogram = [histogram, histogramMax, view];
  const k = viewRadius(view);
  const bySimilarity = view.by === 'similarity';
  const width = Math.max(280, Math.round(el.histogram.getBoundingClientRect().width) || 600);
  const height = 190;
  const top = 22;
  const bottom = 26;
  const left = 6;
  const bins = HISTOGRAM_MAX + 1;
  const step = (width - 2 * left) / bins;
  const barWidth = step * 0.72;
  const plot = height - top - bottom;
  const nodes = [];
  const defs = svg('defs');
  const pattern = svg('pattern', { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(svg('line', { x1: 0, y1: 0, x2: 0, y2: 8, class: 'hatch-line' }));
  defs.append(pattern);
  nodes.push(defs);
  const counts = histogram ? Array.from(histogram) : [];
  const peak = Math.sqrt(Math.max(1, ...counts.slice(0, histogramMax + 1)));
  const summary = [];
  for (let d = 0; d < bins; d++) {
    const x = left + d * step + (step - barWidth) / 2;
    const known = histogram && d <= histogramMax;
    const count = known ? counts[d] : 0;
    const barHeight = known ? (count > 0 ? Math.max(2, (Math.sqrt(count) / peak) * plot) : 0) : plot * 0.35;
    const g = svg('g', { class: 'bin', 'data-distance': d });
    const label = known ? `distance ${d}: ${plural(count, 'pair')}` : `distance ${d}: not computed`;
    g.append(svg('title', {}, histogram ? label : `distance ${d}`));
    if (histogram) {
      g.append(svg('rect', {
        class: `bar${known ? (d <= k ? ' within' : '') : ' unknown'}`,
        x: x.toFixed(1), y: (top + plot - barHeight).toFixed(1), width: barWidth.toFixed(1), height: barHeight.toFixed(1), rx: 2,
      }));
      g.append(svg('text', { x: (x + barWidth / 2).toFixed(1), y: (top + plot - barHeight - 4).toFixed(1) }, known ? (count > 0 ? compact(count, step) : '') : '?'));
      summary.push(known ? `${d}: ${fmt(count)}` : `${d}: not computed`);
    }
    g.append(svg('text', { class: step < 24 ? 'axis tight' : 'axis', x: (left + d * step + step / 2).toFixed(1), y: height - 8 }, d));
    g.append(svg('rect', { class: 'hit', x: left + d * step, y: top - 18, width: step, height: plot + 18 + bottom })); // on top: takes the clicks
    nodes.push(g);
  }
  nodes.push(svg('line', { class: 'baseline', x1: left, x2: width - left, y1: top + plot + 0.5, y2: top + plot + 0.5 }));
  const split = left + (Math.min(k, HISTOGRAM_MAX) + 1) * step;
  nodes.push(svg('line', { class: 'threshold', x1: split, x2: split, y1: 4, y2: top + plot }));
  const thresholdLabel = bySimilarity ? `candidate radius ${k}` : `max distance ${k}`;
  const labelX = split + 130 > width ? split - 126 : split + 4;
  nodes.push(svg('text', { class: 'threshold-label', x: labelX.toFixed(1), y: 14 }, thresholdLabel));
  el.histogram.setAttribute('viewBox', `0 0 ${width} ${height}`);
  el.histogram.replaceChildren(...nodes);
  el.histogramSummary.textContent = histogram
    ? `Pairs per distance in bits: ${summary.join(', ')}. ${bySimilarity
      ? `Pairs at distance ${k} or less are candidates; those at ${describeView(view)} are near-duplicates.`
      : `Pairs at distance ${k} or less are near-duplicates.`}`
    : 'No pairs yet.';
  el.histogramNote.textContent = histogram && histogramMax < HISTOGRAM_MAX
    ? `Hatched: distances above ${histogramMax} are not computed yet for an input this large (finding every pair within 12 bits of 100,000 texts takes seconds); moving the slider up computes them.`
    : '';
}

function extensionOf(current) {
  if (current.parsed.format === 'csv') return 'csv';
  if (current.parsed.format === 'jsonl') return 'jsonl';
  return 'txt';
}

function download() {
  if (!analysis) return;
  const { input: current, result } = analysis;
  const text = serialize(current.parsed, (i) => result.leader[i] === i);
  const extension = extensionOf(current);
  const type = { csv: 'text/csv', jsonl: 'application/x-ndjson', txt: 'text/plain' }[extension];
  const base = current.kind === 'file' || current.kind === 'generated' ? current.name.replace(/\.[^.]*$/, '') : 'texts';
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${base}.dedup.${extension}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The code that gives the same groups as the page, for the current settings and input. */
function updateCode() {
  const s = readSettings();
  const records = input && input.parsed.format !== 'lines';
  const field = records && input.field !== undefined ? `record${/^[A-Za-z_$][\w$]*$/.test(input.field) ? `.${input.field}` : `[${JSON.stringify(input.field)}]`}` : null;
  const options = [];
  if (s.tokenizer !== 'auto') options.push(`tokenizer: '${s.tokenizer}'`);
  if (s.wordNgram !== 1) options.push(`wordNgram: ${s.wordNgram}`);
  if (s.charNgram !== 2) options.push(`charNgram: ${s.charNgram}`);
  if (!s.caseFold) options.push('caseFold: false');
  if (!s.stripPunctuation) options.push('stripPunctuation: false');
  if (s.weighting !== 'binary') options.push(`weighting: '${s.weighting}'`);
  if (s.nfkc) options.push('nfkc: true');
  const lines = ["import { init } from 'simhash-wasm';", '', 'const sh = await init();', `const { unique, groups } = await sh.dedup(${records ? 'records' : 'texts'}, {`];
  if (field) lines.push(`  key: (record) => ${field},`);
  if (s.view.by === 'similarity') lines.push(`  similarity: ${s.view.similarity},`);
  else lines.push(`  maxDistance: ${s.view.maxDistance},`);
  if (options.length) lines.push(`  options: { ${options.join(', ')} },`);
  lines.push('});', '// unique: the kept items; groups: item indices, kept item first');
  el.code.textContent = lines.join('\n');
}

// ---------------------------------------------------------------------------------------
// Controls

/** The slider of the chosen view shown, and its value written out. */
function updateViewControls() {
  el.maxDistanceValue.value = el.maxDistance.value;
  el.maxDistanceValue.textContent = el.maxDistance.value;
  el.similarityValue.value = percent(Number(el.similarity.value));
  el.similarityValue.textContent = percent(Number(el.similarity.value));
  el.similaritySlider.hidden = el.byDistance.checked;
  el.distanceSlider.hidden = !el.byDistance.checked;
}

function viewChanged() {
  updateViewControls();
  updateCode();
  regroup();
}

const TOKENIZER_HELP = {
  auto: 'Words of alphabetic scripts, plus character n-grams inside Chinese, Japanese and Korean runs.',
  words: 'Every word, and every Chinese, Japanese or Korean character, is a token; features are token n-grams.',
  chars: 'Character n-grams of the text, with runs of spaces and punctuation as one space.',
  segmenter: 'The browser’s Intl.Segmenter finds the words, also in Chinese, Japanese and Thai (by dictionary). Its results depend on the browser’s ICU data.',
};

function updateTokenizerControls() {
  const t = el.tokenizer.value;
  el.wordNgram.disabled = t === 'chars';
  el.charNgram.disabled = t === 'words' || t === 'segmenter';
  el.tokenizerHelp.textContent = TOKENIZER_HELP[t];
}

function settingsChanged() {
  updateTokenizerControls();
  updateCode();
  if (input) analyzeSoon(SETTINGS_DEBOUNCE_MS);
}

el.maxDistance.max = String(SLIDER_MAX);
el.similarity.min = String(SIMILARITY_MIN);
for (const control of [el.maxDistance, el.similarity]) control.addEventListener('input', viewChanged);
for (const control of [el.bySimilarity, el.byDistance]) control.addEventListener('change', viewChanged);
for (const control of [el.tokenizer, el.weighting, el.caseFold, el.stripPunctuation, el.nfkc]) control.addEventListener('change', settingsChanged);
for (const control of [el.wordNgram, el.charNgram]) {
  control.addEventListener('input', () => {
    if (control.checkValidity() && control.value !== '') settingsChanged();
  });
}
if (!segmenterAvailable()) {
  const option = el.tokenizer.querySelector('option[value="segmenter"]');
  option.disabled = true;
  option.textContent += ' (not in this browser)';
}

el.input.addEventListener('input', () => {
  el.file.value = '';
  el.source.hidden = true;
  el.fieldRow.hidden = true;
  clearTimeout(analyzeTimer);
  analyzeTimer = setTimeout(fromTextArea, TYPING_DEBOUNCE_MS);
});
el.file.addEventListener('change', () => loadFile(el.file.files[0]));
el.sourceClear.addEventListener('click', () => {
  el.input.focus();
  clearFile();
});
el.field.addEventListener('change', () => {
  input.field = el.field.value;
  updateTexts();
});
$('sample-en').addEventListener('click', () => loadSample('en'));
$('sample-zh').addEventListener('click', () => loadSample('zh'));
$('sample-large').addEventListener('click', loadLargeSample);
el.cancel.addEventListener('click', cancel);
el.run.addEventListener('click', () => analyzeNow());
el.download.addEventListener('click', download);
el.more.addEventListener('click', showMoreGroups);
el.sort.addEventListener('change', () => {
  if (analysis) render();
});
el.histogram.addEventListener('click', (event) => {
  const bin = event.target.closest?.('[data-distance]');
  if (!bin) return;
  el.byDistance.checked = true;
  el.maxDistance.value = String(Math.min(SLIDER_MAX, Number(bin.dataset.distance)));
  el.maxDistance.dispatchEvent(new Event('input'));
});

// Drop a file anywhere on the input panel; elsewhere, dropping must not open the file.
let dragDepth = 0;
el.inputPanel.addEventListener('dragenter', (event) => {
  if (!event.dataTransfer?.types.includes('Files')) return;
  dragDepth++;
  el.dropZone.classList.add('dragging');
});
el.inputPanel.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    el.dropZone.classList.remove('dragging');
  }
});
window.addEventListener('dragover', (event) => event.preventDefault());
window.addEventListener('drop', (event) => {
  event.preventDefault();
  dragDepth = 0;
  el.dropZone.classList.remove('dragging');
  if (el.inputPanel.contains(event.target)) loadFile(event.dataTransfer?.files[0]);
});

// The histogram is drawn at the size it is shown, so its text stays legible on a phone.
let resizeFrame = 0;
new ResizeObserver(() => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => drawHistogram(...lastHistogram));
}).observe(el.histogram);

updateViewControls();
updateTokenizerControls();
pageEngine.then(
  () => {
    document.body.dataset.ready = 'true';
    if (!input && !running) renderEmpty();
  },
  (error) => showStopped(`The WebAssembly module did not load: ${error.message}`, true),
);
