// A row of a list of texts, as the groups (render.js) and the "Find near-duplicates of…" box
// (lookup.js) show them: a badge (kept, or the similarity or fingerprint distance to a
// reference text), the item's line, and its text with its differences from the reference
// marked (diff.js): <ins> for words not in the reference, <del> for words only in it, each
// of class "moved" for words the two hold in different places. A row of records (render.js,
// review.js) shows the record's columns instead, each value marked against the reference
// record's value of that column.
import { diff } from './diff.js';
import { lineOf, percent, percentBelow } from './wording.js';

/** The list item of a row, with its badge and line (see textRow's `to`), and its .meta box. */
function memberItem(record, to) {
  const li = document.createElement('li');
  li.className = to === null ? 'member kept' : 'member';
  const meta = document.createElement('div');
  meta.className = 'meta';
  const badge = document.createElement('span');
  badge.className = to === null ? 'badge kept' : 'badge';
  if (to === null) badge.textContent = 'kept';
  else if (to.label !== undefined) badge.textContent = to.label;
  else if (to.similarity === undefined) badge.textContent = `distance ${to.distance}`;
  else {
    badge.textContent = `${percent(to.similarity)} similar`;
    badge.title = to.distance === undefined
      ? `similarity ${to.similarity.toFixed(4)}`
      : `similarity ${to.similarity.toFixed(4)}, fingerprint distance ${to.distance}`;
  }
  if (to?.title) badge.title = to.title;
  const where = document.createElement('span');
  where.textContent = lineOf(record);
  meta.append(badge, where);
  if (to?.similarity !== undefined && to.distance !== undefined) {
    const bits = document.createElement('span');
    bits.className = 'muted';
    bits.textContent = `distance ${to.distance}`;
    meta.append(bits);
  }
  li.append(meta);
  return li;
}

/**
 * Appends `text` to `node` with its differences from `reference` marked, `name` being the
 * reference as the marks' tooltips say it; returns whether the two are the same words.
 */
export function appendMarked(node, reference, text, name) {
  const ops = diff(reference, text);
  for (const { op, text: part, moved } of ops) {
    if (op === '=') node.append(part);
    else {
      const mark = document.createElement(op === '+' ? 'ins' : 'del');
      mark.textContent = part;
      if (moved) {
        mark.className = 'moved';
        mark.title = op === '+' ? `moved: ${name} has it elsewhere` : `moved: ${name} has it here, this text elsewhere`;
      } else {
        mark.title = op === '+' ? `not in ${name}` : `only in ${name}`;
      }
      node.append(mark);
    }
  }
  return ops.every((op) => op.op === '=');
}

/**
 * A row for the item at record.line whose text is `text`. `to` null: the reference itself
 * (a group's kept item), shown plain; { label, title? }: shown plain under that badge; else
 * { similarity?, distance? } to the reference, `reference` being { text, name }, name as
 * the marks' tooltips say it ('the kept item').
 */
export function textRow(record, text, to, reference) {
  const li = memberItem(record, to);
  const body = document.createElement('p');
  body.className = 'text';
  if (to === null || to.label !== undefined) {
    body.textContent = text;
  } else {
    const copy = document.createDocumentFragment();
    if (appendMarked(copy, reference.text, text, reference.name)) {
      body.append(text, ' ');
      const same = document.createElement('span');
      same.className = 'muted';
      same.textContent = '(identical text)';
      body.append(same);
    } else body.append(copy);
  }
  li.append(body);
  return li;
}

/**
 * How the records of an analysis (jobs.js: input.js's input, engine.js's result) show, as
 * recordRow takes it: every column of the input, and the Set of those dedup compared
 * (result.fields); null for a list of texts.
 */
export function recordShape(input, result) {
  if (!input.records || !result.fields) return null;
  return { columns: input.parsed.fields, compared: new Set(result.fields.map((field) => field.name)) };
}

/**
 * A row for the record at record.line whose values are `row` (column → text): a badge as
 * textRow's `to` ({ label, title? } or null), then each of `columns` with its value; those not
 * in `compared` (a Set) muted as not compared. With `reference` ({ row, name }), each compared
 * value has its differences from the reference record's value marked; with `why` ({ probability,
 * levels: [{ name, level }] }, engine.js), why the record was merged into the reference: each
 * field its level (`data-level`), and a line saying them.
 */
export function recordRow(record, row, to, { columns, compared }, reference, why) {
  const li = memberItem(record, to);
  li.classList.add('record');
  const levelOf = new Map(why?.levels.map(({ name, level }) => [name, level]));
  const list = document.createElement('dl');
  list.className = 'fields';
  for (const column of columns) {
    const entry = document.createElement('div');
    entry.dataset.field = column;
    if (levelOf.has(column)) entry.dataset.level = levelOf.get(column);
    const name = document.createElement('dt');
    name.textContent = column;
    const value = document.createElement('dd');
    const text = row[column] ?? '';
    if (!compared.has(column)) {
      entry.className = 'unused';
      entry.title = 'not compared';
      value.textContent = text;
    } else if (reference) appendMarked(value, reference.row[column] ?? '', text, reference.name);
    else value.textContent = text;
    entry.append(name, value);
    list.append(entry);
  }
  li.append(list);
  if (why) {
    const note = document.createElement('p');
    note.className = 'why';
    note.textContent = `${percentBelow(why.probability, 1)} match: ${why.levels.map(({ name, level }) => `${name} ${level}`).join(', ')}`;
    li.append(note);
  }
  return li;
}
