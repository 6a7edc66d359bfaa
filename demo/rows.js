// A row of a list of texts, as the groups (render.js) and the "Find near-duplicates of…" box
// (lookup.js) show them: a badge (kept, or the similarity or fingerprint distance to a
// reference text), the item's line, and its text with its differences from the reference
// marked (diff.js): <ins> for words not in the reference, <del> for words only in it, each
// of class "moved" for words the two hold in different places.
import { diff } from './diff.js';
import { fmt, percent } from './wording.js';

/**
 * A row for the item at record.line whose text is `text`. `to` null: the reference itself
 * (a group's kept item), shown plain; { label }: shown plain under that badge; else
 * { similarity?, distance? } to the reference, `reference` being { text, name }, name as
 * the marks' tooltips say it ('the kept item').
 */
export function textRow(record, text, to, reference) {
  const li = document.createElement('li');
  li.className = to === null ? 'member kept' : 'member';
  const meta = document.createElement('div');
  meta.className = 'meta';
  const badge = document.createElement('span');
  badge.className = to === null ? 'badge kept' : 'badge';
  const plain = to === null || to.label !== undefined;
  if (to === null) badge.textContent = 'kept';
  else if (to.label !== undefined) badge.textContent = to.label;
  else if (to.similarity === undefined) badge.textContent = `distance ${to.distance}`;
  else {
    badge.textContent = `${percent(to.similarity)} similar`;
    badge.title = to.distance === undefined
      ? `similarity ${to.similarity.toFixed(4)}`
      : `similarity ${to.similarity.toFixed(4)}, fingerprint distance ${to.distance}`;
  }
  const where = document.createElement('span');
  where.textContent = `line ${fmt(record.line)}`;
  meta.append(badge, where);
  if (to?.similarity !== undefined && to.distance !== undefined) {
    const bits = document.createElement('span');
    bits.className = 'muted';
    bits.textContent = `distance ${to.distance}`;
    meta.append(bits);
  }
  const body = document.createElement('p');
  body.className = 'text';
  if (plain) {
    body.textContent = text;
  } else {
    const ops = diff(reference.text, text);
    if (ops.every((op) => op.op === '=')) {
      body.append(text, ' ');
      const same = document.createElement('span');
      same.className = 'muted';
      same.textContent = '(identical text)';
      body.append(same);
    } else {
      for (const { op, text: part, moved } of ops) {
        if (op === '=') body.append(part);
        else {
          const mark = document.createElement(op === '+' ? 'ins' : 'del');
          mark.textContent = part;
          if (moved) {
            mark.className = 'moved';
            mark.title = op === '+' ? `moved: ${reference.name} has it elsewhere` : `moved: ${reference.name} has it here, this text elsewhere`;
          } else {
            mark.title = op === '+' ? `not in ${reference.name}` : `only in ${reference.name}`;
          }
          body.append(mark);
        }
      }
    }
  }
  li.append(meta, body);
  return li;
}
