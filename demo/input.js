// The input: pasted text (one item per line), a chosen or dropped file (lines, CSV or JSON
// Lines, read by formats.js), or a sample; for a CSV or JSON Lines, the columns to compare,
// chosen with checkboxes (all at first): one column is a list of texts, two or more make
// each row a record (README "Records"), which a second file of records with those columns
// may be linked with (sh.link). This module holds the current input and shows what was
// read; what a change starts is the caller's (connectInput's handlers).
import { el } from './elements.js';
import { plural } from './wording.js';
import { formatOf, parse, parseLines, recordText, rowsOf, textsOf } from './formats.js';

const TYPING_DEBOUNCE_MS = 300;
const LARGE_SAMPLE_LINES = 100_000;
/** Lines generated between two pauses of the large sample's generation. */
const LARGE_SAMPLE_CHUNK = 5000;

/**
 * The current input: { kind: 'paste' | 'sample' | 'file' | 'generated', name, parsed,
 * columns, field, records, rows?, items, texts, chars, planted?, different? }, or null when there is none.
 * items: the records shown, in order: parsed.records, then the linked file's (each with its
 * `file`). columns: the checked columns of a CSV or JSON Lines
 * (parsed.fields, in their order); field: the one column compared as texts, if so; records:
 * with two or more columns, { rows, fields, columns, left?, second? } for sh.dedup(rows, { fields }) (rows of
 * every column, fields the checked ones, or undefined when all are), or with a linked file for
 * sh.link(rows.slice(0, left), rows.slice(left), { fields }), `second` that file's name; rows: formats.js rowsOf's
 * answer, made once, when records are first asked for; texts: the texts of the
 * field, or of each record (formats.js recordText). planted: a sample's near-duplicate pairs
 * of item indices; different: its pairs of look-alikes of different entities, which must
 * stay apart.
 */
let input = null;
/** The second file of records to link the input's with: { name, parsed }, or null. */
let linked = null;
/** The sample in the text area, while it is unchanged: { text, planted, different? }. */
let loadedSample = null;
/** The bundled samples, once loaded: { en, zh, names }, each { text, planted, different? }. */
let samples = null;
/** connectInput's handlers. */
let handlers = null;

export function currentInput() {
  return input;
}

function showInputError(message) {
  el.inputError.textContent = message;
  el.inputError.hidden = !message;
}

/** Sets the input from parsed records and asks for its analysis. */
function setInput(next) {
  showInputError('');
  input = next;
  setLinked(null);
  const { parsed } = next;
  next.columns = offered(parsed);
  el.fieldRow.hidden = next.columns.length === 0;
  if (next.columns.length) {
    el.fieldLabel.textContent = parsed.format === 'csv' ? 'Columns to compare' : 'Fields to compare';
    el.fields.replaceChildren(...next.columns.map(columnBox));
  }
  el.source.hidden = next.kind !== 'file' && next.kind !== 'generated';
  if (!el.source.hidden) {
    const kind = { lines: 'text, one item per line', csv: 'CSV', jsonl: 'JSON Lines' }[parsed.format];
    el.sourceName.textContent = `${next.name}: ${kind}, ${plural(parsed.records.length, 'record')}`;
  }
  updateTexts();
}

/** The columns a CSV or JSON Lines input offers (formats.js parse's fields); none for lines. */
const offered = (parsed) => (parsed.format === 'lines' ? [] : parsed.fields);

/** A checkbox of a column, checked, whose changes update the columns compared. */
function columnBox(name) {
  const label = document.createElement('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.name = 'column';
  box.value = name;
  box.checked = true;
  box.addEventListener('change', () => {
    input.columns = [...el.fields.querySelectorAll('input:checked')].map((checked) => checked.value);
    updateTexts();
  });
  label.append(box, ` ${name}`);
  return label;
}

/** The texts of the checked field, or the records of the checked columns; notes about what was skipped. */
function updateTexts() {
  const { parsed, columns } = input;
  const notes = [];
  if (parsed.blank) notes.push(`${plural(parsed.blank, 'blank line')} ignored.`);
  const what = parsed.format === 'csv' ? 'column' : 'field';
  input.records = null;
  input.field = undefined;
  input.items = parsed.records;
  el.linkRow.hidden = columns.length < 2;
  if (columns.length >= 2) {
    input.rows ??= rowsOf(parsed, offered(parsed)); // the same rows for any columns checked
    const { rows, lacking } = input.rows;
    input.records = { rows, fields: columns.length === offered(parsed).length ? undefined : columns, columns };
    const absent = linked ? columns.filter((column) => !offered(linked.parsed).includes(column)) : [];
    if (absent.length) notes.push(`${linked.name} lacks ${absent.map((column) => `"${column}"`).join(', ')}: it is not linked. Uncheck ${absent.length === 1 ? 'it' : 'them'}, or choose a file with the same ${what}s.`);
    else if (linked) {
      const right = rowsOf(linked.parsed, columns).rows;
      input.records = { rows: [...rows, ...right], fields: columns, columns, left: rows.length, second: linked.name };
      input.items = [...parsed.records, ...linked.parsed.records.map((record) => ({ ...record, file: linked.name }))];
    }
    input.texts = input.records.rows.map((row) => recordText(row, columns));
    if (lacking) notes.push(`${plural(lacking, 'record')} ${lacking === 1 ? 'lacks' : 'lack'} some ${what}s: a missing ${what} counts as no evidence either way.`);
  } else if (offered(parsed).length && !columns.length) {
    input.texts = [];
    notes.push(`Check a ${what} to compare.`);
  } else {
    input.field = columns[0];
    const { texts, missing } = textsOf(parsed, input.field);
    input.texts = texts;
    if (missing.length) {
      notes.push(`${plural(missing.length, 'record')} without "${input.field}" count as empty (line ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}).`);
    }
  }
  input.chars = input.texts.reduce((sum, t) => sum + t.length, 0);
  el.inputNote.textContent = notes.join(' ');
  handlers.analyzeSoon(0);
}

function clearFile() {
  el.file.value = '';
  el.source.hidden = true;
  el.fieldRow.hidden = true;
  el.linkRow.hidden = true;
  fromTextArea();
}

function fromTextArea() {
  const text = el.input.value;
  const sample = loadedSample?.text === text ? loadedSample : null;
  input = null;
  if (text.trim() === '') {
    el.inputNote.textContent = '';
    showInputError('');
    handlers.analyzeSoon(0);
    return;
  }
  setInput({
    kind: sample ? 'sample' : 'paste', name: 'pasted text', parsed: parseLines(text),
    planted: sample?.planted, different: sample?.different,
  });
}

/** Reads a file, as `name` and the promise of its bytes, in place of the input. */
async function loadBytes(name, bytes) {
  showInputError('');
  el.inputNote.textContent = `Reading ${name}…`;
  try {
    const parsed = parse(new Uint8Array(await bytes), formatOf(name));
    el.input.value = '';
    loadedSample = null;
    setInput({ kind: 'file', name, parsed });
  } catch (error) {
    el.file.value = ''; // so that choosing the file again, fixed, is a change
    el.inputNote.textContent = '';
    showInputError(`${name}: ${error.message}`);
  }
}

function loadFile(file) {
  if (file) loadBytes(file.name, file.arrayBuffer());
}

/** The second file of records (null: none), shown with its name and a Remove button. */
function setLinked(next) {
  linked = next;
  el.linkSource.hidden = !linked;
  el.linkChoose.hidden = Boolean(linked);
  if (linked) el.linkName.textContent = `Linked with ${linked.name}: ${plural(linked.parsed.records.length, 'record')}`;
  else el.linkFile.value = '';
}

/** Reads a second file of records, to link the input's records with. */
async function loadLinked(file) {
  if (!file || !input) return;
  showInputError('');
  try {
    const parsed = parse(new Uint8Array(await file.arrayBuffer()), formatOf(file.name));
    if (parsed.format === 'lines') throw new Error('a file of records to link must be a CSV or JSON Lines file');
    setLinked({ name: file.name, parsed });
    updateTexts();
  } catch (error) {
    el.linkFile.value = '';
    showInputError(`${file.name}: ${error.message}`);
  }
}

/** The Contacts sample: demo/public/contacts.csv, read as a chosen file would be. */
function loadContacts() {
  el.file.value = '';
  loadBytes('contacts.csv', fetch(new URL('contacts.csv', document.baseURI)).then((response) => {
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    return response.arrayBuffer();
  }));
}

/** The bundled sample split into English and Chinese quotes, planted pairs renumbered; the Names sample. */
async function loadSamples() {
  const [{ SAMPLE, SAMPLE_PLANTED }, { NAMES_SAMPLE, NAMES_PLANTED, NAMES_DIFFERENT }] = await Promise.all([
    import('../js/cli/sample.js'), import('../js/cli/names-sample.js'),
  ]);
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
  return {
    en: split((t) => !isChinese(t)),
    zh: split(isChinese),
    names: { text: NAMES_SAMPLE.join('\n'), planted: NAMES_PLANTED, different: NAMES_DIFFERENT },
  };
}

async function loadSample(which) {
  samples ??= await loadSamples();
  loadedSample = samples[which];
  el.file.value = '';
  el.input.value = loadedSample.text;
  el.source.hidden = true;
  el.fieldRow.hidden = true;
  el.linkRow.hidden = true;
  fromTextArea();
}

/** Generates the large sample as a job of its own, so the page keeps responding and Cancel stops it. */
async function loadLargeSample() {
  const { lineMaker } = await import('./generate.js');
  const make = lineMaker(1);
  if (!(await handlers.runInChunks('Generating 100,000 lines…', LARGE_SAMPLE_LINES, LARGE_SAMPLE_CHUNK, make))) return;
  el.input.value = '';
  el.file.value = '';
  loadedSample = null;
  const parsed = parseLines(`${make.lines.join('\n')}\n`);
  setInput({ kind: 'generated', name: 'generated.txt', parsed });
}

/**
 * Wires the input panel's controls, file drops and sample buttons. Handlers (jobs.js):
 * analyzeSoon(delay) after every change of the input; schedule(task, delay) for the typing
 * pause, in the same slot as analyzeSoon's, so that either replaces the other;
 * runInChunks(label, total, chunk, step), resolving to false when stopped, for generating.
 */
export function connectInput(jobHandlers) {
  handlers = jobHandlers;
  el.input.addEventListener('input', () => {
    el.file.value = '';
    el.source.hidden = true;
    el.fieldRow.hidden = true;
    el.linkRow.hidden = true;
    handlers.schedule(fromTextArea, TYPING_DEBOUNCE_MS);
  });
  el.file.addEventListener('change', () => loadFile(el.file.files[0]));
  el.linkFile.addEventListener('change', () => loadLinked(el.linkFile.files[0]));
  el.linkClear.addEventListener('click', () => {
    setLinked(null);
    updateTexts();
  });
  el.sourceClear.addEventListener('click', () => {
    el.input.focus();
    clearFile();
  });
  el.sampleEn.addEventListener('click', () => loadSample('en'));
  el.sampleZh.addEventListener('click', () => loadSample('zh'));
  el.sampleNames.addEventListener('click', () => loadSample('names'));
  el.sampleContacts.addEventListener('click', loadContacts);
  el.sampleLarge.addEventListener('click', loadLargeSample);

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
}
