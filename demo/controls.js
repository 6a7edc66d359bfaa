// The settings panel: the view (by similarity or by fingerprint distance, engine.js) with
// its slider, the fingerprint options, and the code that gives the same groups as the page.
// This module reads and shows the controls; what a change starts is the caller's
// (connectControls's handlers).
import { DEFAULT_OPTIONS } from 'simhash-wasm';
import { MEASURE, SLIDER_MAX, SIMILARITY_MIN, fingerprintOptions, segmenterAvailable } from './engine.js';
import { el } from './elements.js';
import { currentInput } from './input.js';
import { percent } from './wording.js';

const SETTINGS_DEBOUNCE_MS = 150;

const TOKENIZER_HELP = {
  auto: 'Words of alphabetic scripts, plus character n-grams inside Chinese, Japanese and Korean runs.',
  words: 'Every word, and every Chinese, Japanese or Korean character, is a token; features are token n-grams.',
  chars: 'Character n-grams of the text, with runs of spaces and punctuation as one space.',
  segmenter: 'The browser’s Intl.Segmenter finds the words, also in Chinese, Japanese and Thai (by dictionary). Its results depend on the browser’s ICU data.',
};

/** The view the controls ask for: by similarity or by fingerprint distance. */
export function currentView() {
  return el.byDistance.checked
    ? { by: 'distance', maxDistance: Number(el.maxDistance.value) }
    : { by: 'similarity', similarity: Number(el.similarity.value) };
}

/** Sets the controls to a view (after a cancelled regrouping). */
export function showView(view) {
  el.byDistance.checked = view.by === 'distance';
  el.bySimilarity.checked = view.by === 'similarity';
  if (view.by === 'distance') el.maxDistance.value = String(view.maxDistance);
  else el.similarity.value = String(view.similarity);
  updateViewControls();
}

/** The settings of an analysis (engine.js): the view and the fingerprint options. */
export function readSettings() {
  // Within the input's min and max (index.html: the range the package accepts).
  const integer = (control, fallback) => {
    const value = Number.parseInt(control.value, 10);
    return Number.isInteger(value) ? Math.min(Number(control.max), Math.max(Number(control.min), value)) : fallback;
  };
  return {
    view: currentView(),
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
  const s = readSettings();
  const input = currentInput();
  const records = input && input.parsed.format !== 'lines';
  const field = records && input.field !== undefined ? `record${/^[A-Za-z_$][\w$]*$/.test(input.field) ? `.${input.field}` : `[${JSON.stringify(input.field)}]`}` : null;
  const options = Object.entries(fingerprintOptions(s))
    .filter(([name, value]) => value !== DEFAULT_OPTIONS[name])
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? `'${value}'` : value}`);
  const lines = ["import { init } from 'simhash-wasm';", '', 'const sh = await init();', `const { unique, groups } = await sh.dedup(${records ? 'records' : 'texts'}, {`];
  if (field) lines.push(`  key: (record) => ${field},`);
  if (s.view.by === 'similarity') lines.push(`  similarity: ${s.view.similarity},`, `  measure: '${MEASURE}',`);
  else lines.push(`  maxDistance: ${s.view.maxDistance},`);
  if (options.length) lines.push(`  options: { ${options.join(', ')} },`);
  lines.push('});', '// unique: the kept items; groups: item indices, kept item first');
  el.code.textContent = lines.join('\n');
}

/** Groups by fingerprint distance at `distance` (at most the slider's maximum), as moving the slider would. */
export function pickMaxDistance(distance) {
  el.byDistance.checked = true;
  el.maxDistance.value = String(Math.min(SLIDER_MAX, distance));
  el.maxDistance.dispatchEvent(new Event('input'));
}

/**
 * Wires the settings panel and shows its initial state. Handlers (jobs.js): regroup() after
 * a change of the view; analyzeSoon(delay) after a change of a fingerprint option, when
 * there is an input.
 */
export function connectControls({ regroup, analyzeSoon }) {
  const viewChanged = () => {
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
  updateViewControls();
  updateTokenizerControls();
}
