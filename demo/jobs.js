// The page's jobs: analysing the input (on this page for small inputs, in the worker for
// large ones: runners.js), regrouping it for a new view, and generating the large sample.
// At most one runs; a newer one, or Cancel, makes an older one's results be ignored. The
// progress bar appears only for jobs that last longer than PROGRESS_DELAY_MS (no flicker
// on small inputs), at once for the worker's.
import { sameView, viewRadius } from './engine.js';
import { currentView, measureAnalysed, readSettings, showView } from './controls.js';
import { el, setState } from './elements.js';
import { currentInput } from './input.js';
import { render, renderEmpty, showStopped } from './render.js';
import { pageRunner, workerRunner } from './runners.js';
import { describeView, fmt, plural } from './wording.js';

/** Inputs up to these sizes are analysed on the page; larger ones in the worker. */
const PAGE_MAX_ITEMS = 5000;
const PAGE_MAX_CHARS = 1_000_000;
const PROGRESS_DELAY_MS = 150;
const CANCELLED = 'Cancelled. Change a setting or press “Run again” to start over.';

/** The number of the latest job; a job whose number is older stops or drops its result. */
let job = 0;
/** What runs now: null, or { kind: 'analyze' | 'group' | 'generate', runner (null: generate) }. */
let running = null;
/** The analysis on screen (render.js), or null. */
let analysis = null;
let regrouping = false;
let progressTimer = 0;
/** The one pending task of schedule(). */
let taskTimer = 0;

export function currentAnalysis() {
  return analysis;
}

export function isRunning() {
  return running !== null;
}

/** Runs task after delay ms, in place of the task pending, if any. */
export function schedule(task, delay) {
  clearTimeout(taskTimer);
  taskTimer = setTimeout(task, delay);
}

export function analyzeSoon(delay) {
  schedule(analyzeNow, delay);
}

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

/** Shows the progress bar: fraction 0..1, or null for a job of unknown length. */
function showProgress(label, fraction) {
  el.progressBox.hidden = false;
  el.progressLabel.textContent = label;
  if (fraction === null) el.progress.removeAttribute('value');
  else el.progress.value = fraction;
}

/** A label and a fraction (null: unknown) for a progress report of Engine.analyze or Engine.analyzeRecords. */
function describeProgress({ phase, done, total, measure, radius }) {
  if (measure === 'records') {
    if (phase === 'fields') return ['Reading the fields…', null];
    if (phase === 'candidates') return ['Finding rows that may be one entity…', total ? done / total : null];
    return ['Weighing the fields and grouping…', null];
  }
  if (phase === 'fingerprint') return [`Fingerprinting: ${fmt(done)} of ${plural(total, 'distinct text')}`, total ? done / total : 0];
  if (phase === 'pairs' && measure === 'short') return ['Finding similar pairs…', null];
  if (phase === 'pairs') return [`Finding every pair within ${radius} bits…`, null];
  if (phase === 'similarities') return ['Checking the similarity of each pair…', null];
  if (phase === 'review') return ['Listing possible duplicates…', null];
  return ['Grouping…', null];
}

/** Analyses the current input with the controls' settings, in place of any running job. */
export async function analyzeNow() {
  clearTimeout(taskTimer);
  const my = startJob();
  const input = currentInput();
  if (!input || input.texts.length === 0) {
    analysis = null;
    renderEmpty();
    return;
  }
  const settings = readSettings();
  const large = input.texts.length > PAGE_MAX_ITEMS || input.chars > PAGE_MAX_CHARS;
  const runner = large ? workerRunner : pageRunner;
  if (!large) workerRunner.cancel(); // frees the memory of an earlier large input
  running = { kind: 'analyze', runner };
  setState('busy');
  el.run.hidden = true;
  let latest = [large ? 'Starting the worker…' : 'Working…', 0];
  progressTimer = setTimeout(() => showProgress(...latest), large ? 0 : PROGRESS_DELAY_MS);
  el.status.textContent = `Analysing ${plural(input.texts.length, input.records ? 'record' : 'item')} ${runner.where}…`;
  try {
    const onProgress = (progress) => {
      if (my !== job) return;
      latest = describeProgress(progress);
      if (!el.progressBox.hidden) showProgress(...latest);
    };
    const result = input.records ? await runner.analyzeRecords(input.records, onProgress) : await runner.analyze(input.texts, settings, onProgress);
    if (my !== job) return;
    running = null;
    clearTimeout(progressTimer);
    el.progressBox.hidden = true;
    analysis = { input, settings, runner, result, timings: result.timings, total: result.total, regrouped: null };
    measureAnalysed(input.texts, result);
    render(analysis);
    if (!sameView(currentView(), result.view)) regroup();
  } catch (error) {
    if (my !== job) return;
    running = null;
    clearTimeout(progressTimer);
    el.progressBox.hidden = true;
    analysis = null;
    if (error.name === 'AbortError') showStopped(CANCELLED);
    else showStopped(`Something went wrong: ${error.message}`, true);
  }
}

/** Regroups the analysis on screen for the controls' view; coalesces fast moves. */
export async function regroup() {
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
  // By the short measure every regrouping searches again; by the text measure only beyond the pairs computed.
  const short = analysis.result.measure === 'short';
  const k = viewRadius(view);
  const slow = runner === workerRunner && (short || k > analysis.result.histogramMax);
  const label = short ? 'Grouping again…' : `Finding every pair within ${k} bits…`;
  progressTimer = setTimeout(() => showProgress(label, null), slow ? 0 : PROGRESS_DELAY_MS);
  try {
    const result = await runner.group(view);
    if (my !== job) return; // cancelled (cancel() has restored the page) or replaced
    analysis.result = result;
    analysis.regrouped = result;
    render(analysis);
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

/** Stops the running job: a cancelled regrouping shows the analysis as it was, anything else no results. */
export function cancel() {
  const wasGroup = running?.kind === 'group';
  if (!running) return;
  job++;
  stopRunning();
  if (wasGroup && analysis) {
    showView(analysis.result.view);
    render(analysis);
    el.status.textContent = `Cancelled; showing ${describeView(analysis.result.view)}.`;
    return;
  }
  analysis = null;
  showStopped(CANCELLED);
}

/**
 * A job of `total` units done by step(size) calls of at most `chunk` units, with a pause
 * for the page between them and progress under `label`. Resolves to true when all are
 * done, false when a newer job or Cancel stopped it.
 */
export async function runInChunks(label, total, chunk, step) {
  const my = startJob();
  running = { kind: 'generate', runner: null };
  showProgress(label, 0);
  for (let done = 0; done < total;) {
    const size = Math.min(chunk, total - done);
    step(size);
    done += size;
    showProgress(label, done / total);
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (my !== job) return false;
  }
  running = null;
  el.progressBox.hidden = true;
  return true;
}
