// The settings panel: the measure to compare by, the view (by similarity or by fingerprint
// distance, engine.js) with its slider, the fingerprint options, and the code that gives the
// same groups as the page. This module reads and shows the controls; what a change starts is
// the caller's (connectControls's handlers).
//
// The measure shown is the one the page compares by: the setting, or for 'auto' dedup's
// choice for the input's distinct texts, which the analysis makes (engine.js analysisView)
// and reports (measureAnalysed). Each measure keeps its own similarity on the slider, from its
// default (dedup's) until a person moves it; the controls that apply to the text measure only
// (fingerprint distance, the fingerprint options) are disabled by the short one. Records (two
// or more columns checked) have none of these settings: they are disabled, with a note of how
// records are compared.
import { DEFAULT_OPTIONS } from 'simhash-wasm';
import { DEFAULT_SIMILARITY_OF, RECORD_FIELDS, RECORD_MAX_BYTES, SHORT_MAX_MEAN_BYTES } from '../js/core/thresholds.js';
import { DEFAULT_RECORD_REVIEW } from '../js/records/records.js';
import { LINK_VIEW, RECORDS_VIEW, REVIEW_OF, SLIDER_MAX, SIMILARITY_MIN_OF, fingerprintOptions, segmenterAvailable } from './engine.js';
import { el } from './elements.js';
import { currentInput } from './input.js';
import { measureName, percent } from './wording.js';

const SETTINGS_DEBOUNCE_MS = 150;

const SIMILARITY_HELP = {
  text: 'Texts whose character shingles overlap at least this much (Jaccard similarity after folding case and dropping punctuation) are near-duplicates. Fingerprints within the candidate radius choose which pairs to check.',
  short: 'Entries whose words’ letter pairs overlap at least this much (weighted Jaccard similarity, after folding case and dropping punctuation and accents; word order does not count) are near-duplicates. A word weighs more the fewer entries of the list hold it: a shared “Ltd” counts for little, a shared surname for much.',
};

/** The similarity on the slider per measure: dedup's default until a person moves it. */
const chosenSimilarity = { ...DEFAULT_SIMILARITY_OF };
/** Whether the person chose fingerprint distance (kept while the short measure disables it). */
let distanceChosen = false;
/** The measure the controls are set for (applyMeasure). */
let shownMeasure = 'text';
/** The texts array last analysed, and the measure 'auto' takes for it. */
let autoFor = { texts: null, measure: null };
/** connectControls's handlers. */
let handlers = null;

const TOKENIZER_HELP = {
  auto: 'Words of alphabetic scripts, plus character n-grams inside Chinese, Japanese and Korean runs.',
  words: 'Every word, and every Chinese, Japanese or Korean character, is a token; features are token n-grams.',
  chars: 'Character n-grams of the text, with runs of spaces and punctuation as one space.',
  segmenter: 'The browser’s Intl.Segmenter finds the words, also in Chinese, Japanese and Thai (by dictionary). Its results depend on the browser’s ICU data.',
};

/**
 * The measure the page compares by: the setting, or for 'auto' what dedup's 'auto' takes for
 * the input's distinct texts once an analysis of them has said it (until then, the measure
 * shown).
 */
export function currentMeasure() {
  if (el.measure.value !== 'auto') return el.measure.value;
  return autoKnown() ? autoFor.measure : shownMeasure;
}

const autoKnown = () => currentInput() !== null && autoFor.texts === currentInput().texts;

/** Tells the controls the measure an analysis of `texts` found for 'auto' (result.autoMeasure), and follows it. */
export function measureAnalysed(texts, { autoMeasure }) {
  autoFor = { texts, measure: autoMeasure };
  applyMeasure();
}

/**
 * Sets the controls for currentMeasure(): the slider's range and its similarity for the
 * measure, the text measure's controls enabled or not, the help; tells the
 * measureChanged handler when the measure changes. Call it after a change of the input or
 * the measure setting.
 */
export function applyMeasure() {
  const measure = currentMeasure();
  const changed = measure !== shownMeasure;
  if (changed) {
    el.similarity.min = String(SIMILARITY_MIN_OF[measure]); // before the value, which the range clamps
    el.similarity.value = String(chosenSimilarity[measure]);
    shownMeasure = measure;
  }
  const short = measure === 'short';
  el.byDistance.disabled = short;
  el.byHelp.hidden = !short;
  el.byDistance.checked = distanceChosen && !short;
  el.bySimilarity.checked = !el.byDistance.checked;
  el.fingerprintOptions.disabled = short;
  el.fingerprintOptionsHelp.hidden = !short;
  el.similarityHelp.textContent = SIMILARITY_HELP[measure];
  const rule = `names and short lists when its distinct entries average at most ${SHORT_MAX_MEAN_BYTES} bytes of UTF-8, or ${RECORD_MAX_BYTES} with fewer than half ending as sentences (long titles), or half of them are one-line records (${RECORD_FIELDS} or more fields, up to ${RECORD_MAX_BYTES} bytes), else texts`;
  const known = autoKnown();
  el.measure.options[0].textContent = known ? `auto (${measureName(autoFor.measure)})` : 'auto';
  if (el.measure.value !== 'auto') el.measureHelp.textContent = `Compared as ${measureName(measure)}.`;
  else if (known) el.measureHelp.textContent = `Auto: this list is compared as ${measureName(measure)}, as sh.dedup's measure 'auto' chooses (${rule}).`;
  else el.measureHelp.textContent = `Auto: a list is compared as sh.dedup's measure 'auto' chooses: ${rule}.`;
  el.measureHelp.dataset.measure = measure;
  const records = currentInput()?.records;
  el.textSettings.disabled = Boolean(records);
  el.recordsHelp.hidden = !records;
  const grouped = records?.left === undefined
    ? `Rows are grouped from a match probability of ${percent(RECORDS_VIEW.probability)}; pairs from ${percent(DEFAULT_RECORD_REVIEW)} are listed as possible duplicates.`
    : `Each row is linked to the other file’s row that is its most probable match, when it is that row’s too, from a match probability of ${percent(LINK_VIEW.probability)}; the other pairs from ${percent(DEFAULT_RECORD_REVIEW)} are listed.`;
  el.recordsHelp.textContent = `Compared as records: each column by its kind (e-mail, phone, date, number, name or text), weighed by how well it tells these rows apart. ${grouped} The settings below are for one column of texts.`;
  updateViewControls();
  if (changed) handlers?.measureChanged();
}

/** The view the controls ask for: by similarity or by fingerprint distance; records have their own. */
export function currentView() {
  const records = currentInput()?.records;
  if (records) return records.left === undefined ? RECORDS_VIEW : LINK_VIEW;
  return el.byDistance.checked
    ? { by: 'distance', maxDistance: Number(el.maxDistance.value) }
    : { by: 'similarity', similarity: Number(el.similarity.value) };
}

/** Sets the controls to a view (after a cancelled regrouping). */
export function showView(view) {
  distanceChosen = view.by === 'distance';
  el.byDistance.checked = view.by === 'distance';
  el.bySimilarity.checked = view.by === 'similarity';
  if (view.by === 'distance') {
    el.maxDistance.value = String(view.maxDistance);
  } else {
    chosenSimilarity[shownMeasure] = view.similarity;
    el.similarity.value = String(view.similarity);
  }
  updateViewControls();
}

/** The settings of an analysis (engine.js): the measure setting, the view, each measure's similarity and the fingerprint options. */
export function readSettings() {
  // Within the input's min and max (index.html: the range the package accepts).
  const integer = (control, fallback) => {
    const value = Number.parseInt(control.value, 10);
    return Number.isInteger(value) ? Math.min(Number(control.max), Math.max(Number(control.min), value)) : fallback;
  };
  return {
    measure: el.measure.value,
    view: currentView(),
    similarityOf: { ...chosenSimilarity },
    tokenizer: el.tokenizer.value,
    wordNgram: integer(el.wordNgram, DEFAULT_OPTIONS.wordNgram),
    charNgram: integer(el.charNgram, DEFAULT_OPTIONS.charNgram),
    caseFold: el.caseFold.checked,
    stripPunctuation: el.stripPunctuation.checked,
    weighting: el.weighting.value,
    nfkc: el.nfkc.checked,
  };
}

/** The slider of the chosen view shown, and its value written out. */
function updateViewControls() {
  el.maxDistanceValue.value = el.maxDistance.value;
  el.maxDistanceValue.textContent = el.maxDistance.value;
  el.similarityValue.value = percent(Number(el.similarity.value));
  el.similarityValue.textContent = percent(Number(el.similarity.value));
  el.similaritySlider.hidden = el.byDistance.checked;
  el.distanceSlider.hidden = !el.byDistance.checked;
}

function updateTokenizerControls() {
  const t = el.tokenizer.value;
  el.wordNgram.disabled = t === 'chars';
  el.charNgram.disabled = t === 'words' || t === 'segmenter';
  el.tokenizerHelp.textContent = TOKENIZER_HELP[t];
}

/** The code that gives the same groups as the page, for the current settings and input. */
export function updateCode() {
  const input = currentInput();
  if (input?.records) {
    el.code.textContent = input.records.left === undefined ? recordsCode(input.records.fields) : linkCode(input.records.fields);
    return;
  }
  const s = { ...readSettings(), measure: currentMeasure() };
  const records = input && input.parsed.format !== 'lines';
  const field = records && input.field !== undefined ? `record${/^[A-Za-z_$][\w$]*$/.test(input.field) ? `.${input.field}` : `[${JSON.stringify(input.field)}]`}` : null;
  // The short measure's groups do not depend on the fingerprint options.
  const options = s.measure === 'short' ? [] : Object.entries(fingerprintOptions(s))
    .filter(([name, value]) => value !== DEFAULT_OPTIONS[name])
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? `'${value}'` : value}`);
  const bySimilarity = s.view.by === 'similarity';
  const names = bySimilarity ? 'unique, groups, review' : 'unique, groups';
  const lines = ["import { init } from 'simhash-wasm';", '', 'const sh = await init();', `const { ${names} } = await sh.dedup(${records ? 'records' : 'texts'}, {`];
  if (field) lines.push(`  key: (record) => ${field},`);
  if (bySimilarity) lines.push(`  similarity: ${s.view.similarity},`, `  measure: '${s.measure}',`, `  review: ${REVIEW_OF[s.measure]},`);
  else lines.push(`  maxDistance: ${s.view.maxDistance},`);
  if (options.length) lines.push(`  options: { ${options.join(', ')} },`);
  lines.push('});', '// unique: the kept items; groups: item indices, kept item first');
  if (bySimilarity) lines.push('// review: pairs of groups from the review similarity up, for a person to confirm');
  if (s.measure === 'short') lines.push("// result.weights: the list's word weights, learned from its distinct texts");
  el.code.textContent = lines.join('\n');
}

/** Column names as a JS array's items: 'name', 'e-mail'. */
const quoted = (fields) => fields.map((name) => `'${name.replace(/['\\]/g, '\\$&')}'`).join(', ');

/** The code that gives the page's groups of records compared by `fields` (undefined: every column). */
function recordsCode(fields) {
  const call = fields ? `sh.dedup(records, {\n  fields: [${quoted(fields)}],\n})` : 'sh.dedup(records)';
  return ["import { init } from 'simhash-wasm';", '', 'const sh = await init();', `const { unique, groups, review } = await ${call};`,
    '// records: the rows as objects, column name → text; each column is compared by its kind',
    '// unique: the kept rows; groups: row indices, kept row first',
    '// review: pairs of groups that may be one entity, each explained field by field'].join('\n');
}

/** The code that gives the page's links of two files of records compared by `fields`. */
function linkCode(fields) {
  return ["import { init } from 'simhash-wasm';", '', 'const sh = await init();', `const { links, review } = await sh.link(first, second, {\n  fields: [${quoted(fields)}],\n});`,
    '// first, second: the two files\' rows as objects, column name → text; each column is compared by its kind',
    '// links: [{ a, b, probability, fields }], a in first, b in second, each row in one link at most',
    '// review: the other pairs across that may be one entity, each explained field by field'].join('\n');
}

/** Groups by fingerprint distance at `distance` (at most the slider's maximum), as moving the slider would. */
export function pickMaxDistance(distance) {
  distanceChosen = true;
  el.byDistance.checked = true;
  el.maxDistance.value = String(Math.min(SLIDER_MAX, distance));
  el.maxDistance.dispatchEvent(new Event('input'));
}

/**
 * Wires the settings panel and shows its initial state. Handlers: regroup() after a change
 * of the view; analyzeSoon(delay) after a change of the measure setting or a fingerprint
 * option, when there is an input (jobs.js); measureChanged() after a change of the measure
 * the page compares by (the lookup box follows it).
 */
export function connectControls(controlHandlers) {
  handlers = controlHandlers;
  const { regroup, analyzeSoon } = controlHandlers;
  const viewChanged = () => {
    distanceChosen = el.byDistance.checked;
    chosenSimilarity[shownMeasure] = Number(el.similarity.value);
    updateViewControls();
    updateCode();
    regroup();
  };
  const settingsChanged = () => {
    updateTokenizerControls();
    updateCode();
    if (currentInput()) analyzeSoon(SETTINGS_DEBOUNCE_MS);
  };
  el.maxDistance.max = String(SLIDER_MAX);
  el.similarity.min = String(SIMILARITY_MIN_OF.text);
  el.measure.addEventListener('change', () => {
    applyMeasure();
    updateCode();
    if (currentInput()) analyzeSoon(0);
  });
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
  applyMeasure();
  updateTokenizerControls();
}
