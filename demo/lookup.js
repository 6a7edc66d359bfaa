// The "Find near-duplicates of…" box: the text typed in it is looked up, after a pause in the
// typing, in the text index of the loaded list (list-index.js). The lookup uses the measure
// and the similarity that the settings panel shows, also when the groups are by fingerprint
// distance. The matching items are listed best first, with their similarity and their
// differences from the typed text; below them, apart, the possible duplicates (the index's
// review matches). The index is built once the box is used (focused, or holding text), and
// built again when the list, the measure or the similarity changes, so a box nobody uses
// costs nothing.
//
// For the browser tests, #lookup-panel announces data-state: idle (no text to look up),
// indexing, done (data-query, data-similarity, data-measure and data-items: the text, the
// threshold, the measure and the length of the list that the results answer) or error.
import { init } from 'simhash-wasm';
import { currentMeasure } from './controls.js';
import { el } from './elements.js';
import { currentInput } from './input.js';
import { ListIndex } from './list-index.js';
import { textRow } from './rows.js';
import { describeView, ms, plural } from './wording.js';

const TYPING_DEBOUNCE_MS = 150;
const SLIDER_DEBOUNCE_MS = 250;
const MATCHES_SHOWN = 20;

/** The list's index, once the WebAssembly module has loaded. */
const listIndex = init().then((sh) => new ListIndex(sh, { onProgress: showIndexingProgress }));
/** The number of the latest refresh; an older one drops its result. */
let job = 0;
let timer = 0;

const threshold = () => Number(el.similarity.value);
const atThreshold = (similarity) => describeView({ by: 'similarity', similarity });
const inUse = () => document.activeElement === el.lookupQuery || el.lookupQuery.value.trim() !== '';

function setState(state, answered = null) {
  el.lookupPanel.dataset.state = state;
  for (const name of ['query', 'similarity', 'measure', 'items']) {
    if (answered) el.lookupPanel.dataset[name] = String(answered[name]);
    else delete el.lookupPanel.dataset[name];
  }
}

function show(state, status, rows = [], answered = null, reviewRows = []) {
  el.lookupProgress.hidden = true;
  el.lookupStatus.textContent = status;
  el.lookupResults.replaceChildren(...rows);
  el.lookupReview.replaceChildren(...reviewRows);
  el.lookupReviewHeading.hidden = reviewRows.length === 0;
  setState(state, answered);
}

function showIndexingProgress(done, total) {
  el.lookupProgress.value = done / total;
}

/** Looks the box's text up in the current list at the current threshold, building the index first if needed. */
async function refresh() {
  clearTimeout(timer);
  const my = ++job;
  const input = currentInput();
  const text = el.lookupQuery.value;
  const similarity = threshold();
  const measure = currentMeasure();
  if (!input || input.texts.length === 0) {
    (await listIndex).release();
    if (my === job) show('idle', 'Load some texts first: the box looks a text up among them.');
    return;
  }
  const holder = await listIndex;
  if (my !== job) return;
  let built = holder.built(input.texts, similarity, measure);
  if (!built) {
    el.lookupResults.replaceChildren();
    el.lookupReview.replaceChildren();
    el.lookupReviewHeading.hidden = true;
    el.lookupStatus.textContent = `Indexing ${plural(input.texts.length, 'text')} at ${atThreshold(similarity)}…`;
    el.lookupProgress.hidden = false;
    setState('indexing');
    try {
      built = await holder.indexOf(input.texts, similarity, measure);
    } catch (error) {
      if (my !== job) return; // replaced by a newer list, threshold or text
      show('error', `The list could not be indexed: ${error.message}`);
      console.error(error);
      return;
    }
    if (my !== job) return;
  }
  const count = plural(input.texts.length, 'text');
  if (text.trim() === '') {
    show('idle', `${count} indexed at ${atThreshold(similarity)} in ${ms(built.ms)}. Type a text to find its near-duplicates among them.`);
    return;
  }
  let matches;
  const started = performance.now();
  try {
    matches = built.index.query(text);
  } catch (error) {
    show('error', `The text could not be looked up: ${error.message}`);
    console.error(error);
    return;
  }
  const took = performance.now() - started;
  const reference = { text, name: 'your text' };
  const rowsOf = (kind) => {
    const ofKind = matches.filter((m) => m.kind === kind);
    const rows = ofKind.slice(0, MATCHES_SHOWN).map(({ id, similarity: s }) => {
      const row = textRow(input.items[id], input.texts[id], { similarity: s }, reference);
      row.dataset.item = id;
      return row;
    });
    if (ofKind.length > MATCHES_SHOWN) {
      const more = document.createElement('li');
      more.className = 'more-members';
      more.textContent = `…and ${plural(ofKind.length - MATCHES_SHOWN, 'more item')}.`;
      rows.push(more);
    }
    return rows;
  };
  const reviewRows = rowsOf('review');
  matches = matches.filter((m) => m.kind === 'duplicate');
  const rows = rowsOf('duplicate');
  const found = matches.length === 0
    ? `No near-duplicates at ${atThreshold(similarity)}`
    : `${plural(matches.length, 'near-duplicate')} at ${atThreshold(similarity)}, most similar first`;
  show('done', `${found} (looked up in ${ms(took)} among ${count}, indexed in ${ms(built.ms)}).`, rows, { query: text, similarity, measure, items: input.texts.length }, reviewRows);
}

function refreshSoon(delay) {
  clearTimeout(timer);
  timer = setTimeout(refresh, delay);
}

/**
 * Tells the box the loaded list changed (input.js, after every change of the input): it
 * looks its text up in the new list, or frees the old list's index when it is not in use.
 */
export function lookupListChanged() {
  if (inUse()) {
    refreshSoon(0);
    return;
  }
  clearTimeout(timer);
  job++;
  listIndex.then((holder) => holder.release());
  show('idle', currentInput() ? 'Type a text to find its near-duplicates in the list.' : 'Load some texts first: the box looks a text up among them.');
}

/** Tells the box the measure the page compares by changed (controls.js): it looks its text up by the new one. */
export function lookupMeasureChanged() {
  if (inUse()) refreshSoon(0);
}

/** Wires the box: typing looks up, focusing it builds the index, the similarity slider rebuilds it. */
export function connectLookup() {
  el.lookupQuery.addEventListener('input', () => refreshSoon(TYPING_DEBOUNCE_MS));
  el.lookupQuery.addEventListener('focus', () => {
    if (currentInput()) refreshSoon(0);
  });
  el.similarity.addEventListener('input', () => {
    if (inUse()) refreshSoon(SLIDER_DEBOUNCE_MS);
  });
  show('idle', 'Load some texts first: the box looks a text up among them.');
}
