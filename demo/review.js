// The "Possible duplicates" list below the groups: dedup's review pairs (engine.js), each two
// groups joined by a pair of their items at a similarity from the measure's REVIEW_OF up, for
// a person to merge or keep apart; above them, the members the person took out of their
// groups (render.js), each with its kept item. The choices live on the result they were made
// for (a new analysis or view starts without any) and decide what counts as kept
// (chosenGroups, the one place of the rule): the groups, the counts and the download follow
// them. Each pair is shown side by side, the second text with its differences from the first
// marked; a pair listed although it reaches the view's similarity says why it is not grouped.
// A pair of records (engine.js analyzeRecords) is a table of its columns: per field the two
// values, the level and the weight in bits, the field that decided marked (the one whose
// weight is largest either way, or the identity fields that kept a probable pair apart).
//
// For the browser tests, each pair is li.review-pair[data-a][data-b][data-choice], with
// data-by="you" when the person took b out of a's group, and buttons
// [data-choose="merge" | "keep"]; a look-alike's note is p.differs, that of a text holding
// the other's words p.contained, the reason a pair at the view's similarity is listed p.apart. A pair of records has table.evidence, a row
// tr[data-field][data-level][data-weight] per compared field (tr.decided for the deciding
// ones), and p.decided[data-field] saying what decided.
import { el } from './elements.js';
import { DEFAULT_RECORD_REVIEW } from '../js/records/records.js';
import { differenceText } from '../js/core/look-alikes.js';
import { REVIEW_OF } from './engine.js';
import { appendMarked, recordRow, recordShape, textRow } from './rows.js';
import { describeView, fmt, lineOf, percent, percentBelow, plural, quote } from './wording.js';

/**
 * The choices made on a result: `pairs`, 'a,b' → 'merge' | 'keep' (items a < b); `takenOut`,
 * the keys of the pairs (kept item, member) the person took apart, in the order taken.
 */
function choicesOf(result) {
  result.choices ??= { pairs: new Map(), takenOut: [] };
  return result.choices;
}

/**
 * Takes `member` out of the group of `kept`, its kept item in result.leader: 'keep' on their
 * pair, which is listed from then on (pressed again, or Merge, puts the member back).
 */
export function takeOut(result, kept, member) {
  const { pairs, takenOut } = choicesOf(result);
  const key = `${kept},${member}`;
  pairs.set(key, 'keep');
  if (!takenOut.includes(key)) takenOut.push(key);
}

/**
 * What the choices made on `result` (whose items' texts are `texts`) make of its groups:
 * `leader`, each item's kept item (result.leader itself when nothing changes it); `takenOut`,
 * how many items left a group; `merged`, how many groups joined another. A choice is on a
 * pair of items a < b. 'keep' on a member b and its kept item a (result.leader[b] === a) takes
 * b out with the members of a's group that have b's text, as dedup keeps copies together:
 * the first of them is kept, the others are its members (b alone when its text is a's).
 * 'merge' then joins the groups of a and b under the earlier kept item. 'keep' on two
 * groups changes nothing: they are apart already.
 */
export function chosenGroups(result, texts) {
  const choices = [...choicesOf(result).pairs].map(([key, choice]) => [...key.split(',').map(Number), choice]);
  const splits = choices.filter(([a, b, choice]) => choice === 'keep' && result.leader[b] === a && a !== b);
  const merges = choices.filter(([, , choice]) => choice === 'merge');
  if (splits.length === 0 && merges.length === 0) return { leader: result.leader, takenOut: 0, merged: 0 };
  const leader = Uint32Array.from(result.leader);
  let takenOut = 0;
  for (const [a, b] of splits) {
    if (leader[b] !== a) continue; // left already, as a copy of a text taken out
    if (texts[b] === texts[a]) {
      leader[b] = b;
      takenOut++;
      continue;
    }
    let first = -1;
    for (let i = a + 1; i < leader.length; i++) { // a group's members come after its kept item
      if (leader[i] !== a || texts[i] !== texts[b]) continue;
      if (first < 0) first = i;
      leader[i] = first;
      takenOut++;
    }
  }
  const root = new Map(); // a kept item → the kept item it merged under
  const find = (g) => {
    while (root.has(g)) g = root.get(g);
    return g;
  };
  let merged = 0;
  for (const [a, b] of merges) {
    const [ga, gb] = [find(leader[a]), find(leader[b])];
    if (ga === gb) continue;
    root.set(Math.max(ga, gb), Math.min(ga, gb));
    merged++;
  }
  return { leader: merged === 0 ? leader : leader.map(find), takenOut, merged };
}

/** Why a look-alike pair was kept apart. */
function differsNote(differs) {
  const p = document.createElement('p');
  p.className = 'differs';
  p.textContent = `Kept apart: ${differenceText(differs)} differ.`;
  return p;
}

/** Why a pair below the review's similarity is listed: one holds the other's words, or spells out its acronym. */
function containedNote() {
  const p = document.createElement('p');
  p.className = 'contained';
  p.textContent = 'Listed: one holds every word of the other, or spells out its acronym.';
  return p;
}

/** A weight in bits, signed: '+12.3 bits', '−4.0 bits'. */
const bits = (weight) => `${weight < 0 ? '−' : '+'}${Math.abs(weight).toFixed(1)} bits`;

/**
 * The fields that decided a review entry of records: the identity fields that kept it apart
 * (apart.field names them, joined by spaces), else the one whose weight is largest either way.
 */
export function decidingFields({ apart, fields }) {
  if (apart) return new Set(fields.filter(({ name }) => ` ${apart.field} `.includes(` ${name} `)).map(({ name }) => name));
  let best = fields[0];
  for (const field of fields) if (Math.abs(field.weight) > Math.abs(best.weight)) best = field;
  return new Set([best.name]);
}

/**
 * A review entry of records (engine.js analyzeRecords): its match probability, a table of every
 * column of the input (per compared field the two values, the second marked against the
 * first unless they agree exactly, the level and the weight; the deciding fields marked), and
 * what decided.
 */
function recordEvidence(entry, { records, rows }, shape) {
  const { a, b, probability, weight, apart, fields } = entry;
  const decided = decidingFields(entry);
  const box = document.createDocumentFragment();
  const head = document.createElement('p');
  head.className = 'match';
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = `${percentBelow(probability, 1)} match`;
  badge.title = `match probability ${probability.toFixed(4)}, weight ${bits(weight)}`;
  head.append(badge, ` ${lineOf(records[a])} and ${lineOf(records[b])}`);
  const wrap = document.createElement('div');
  wrap.className = 'evidence-wrap';
  const table = document.createElement('table');
  table.className = 'evidence';
  const caption = document.createElement('caption');
  caption.className = 'visually-hidden';
  caption.textContent = `The evidence of each field for ${lineOf(records[a])} and ${lineOf(records[b])}`;
  const headRow = document.createElement('tr');
  for (const label of ['Field', lineOf(records[a]), lineOf(records[b]), 'Level', 'Weight']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = label;
    headRow.append(th);
  }
  const thead = document.createElement('thead');
  thead.append(headRow);
  const tbody = document.createElement('tbody');
  const byName = new Map(fields.map((field) => [field.name, field]));
  for (const column of shape.columns) {
    const field = byName.get(column);
    const tr = document.createElement('tr');
    const name = document.createElement('th');
    name.scope = 'row';
    name.textContent = column;
    const first = document.createElement('td');
    const second = document.createElement('td');
    const level = document.createElement('td');
    const weightCell = document.createElement('td');
    weightCell.className = 'weight';
    if (field) {
      tr.dataset.field = column;
      tr.dataset.level = field.level;
      tr.dataset.weight = field.weight.toFixed(1);
      first.textContent = field.a;
      if (field.level === 'exact') second.textContent = field.b; // equal as the kind compares them, however written
      else appendMarked(second, field.a, field.b, 'the first');
      level.textContent = field.level;
      weightCell.textContent = field.level === 'missing' ? '0 bits' : bits(field.weight);
      if (decided.has(column)) tr.className = 'decided';
    } else { // not compared: the values as the input has them
      tr.className = 'unused';
      first.textContent = rows[a][column] ?? '';
      second.textContent = rows[b][column] ?? '';
      level.textContent = 'not compared';
    }
    tr.append(name, first, second, level, weightCell);
    tbody.append(tr);
  }
  table.append(caption, thead, tbody);
  wrap.append(table);
  const why = document.createElement('p');
  why.className = 'decided';
  why.dataset.field = [...decided].join(' ');
  if (apart) {
    why.textContent = `Kept apart by ${apart.field}: ${differenceText(apart.differs)} differ, though the other fields make them ${percentBelow(probability, 1)} likely one.`;
  } else {
    const field = byName.get([...decided][0]);
    why.textContent = `Decided by ${field.name}: ${field.level}, ${bits(field.weight)}${field.weight < 0 ? ' against' : ' for'} a match.`;
  }
  box.append(head, wrap, why);
  return box;
}

/**
 * Why a pair at or above the view's `similarity` is listed, not grouped (engine.js `apart`):
 * one of the two is a member whose kept item the other does not reach (the leader rule), or
 * the candidate search missed a pair.
 */
function apartNote({ a, b, apart }, { records, texts }, similarity) {
  const p = document.createElement('p');
  p.className = 'apart';
  if (apart === null) {
    p.textContent = 'Listed, not grouped: the search for candidates missed a pair that would have joined them.';
    return p;
  }
  const { member, kept } = apart;
  const line = (i) => lineOf(records[i]);
  p.dataset.member = member;
  p.dataset.kept = kept;
  p.textContent = `Listed, not grouped: ${line(member === a ? b : a)} is similar to ${line(member)} but not to ${line(member)}'s kept item, ${line(kept)} ${quote(texts[kept])} (${percentBelow(apart.similarity, similarity)}, below ${percent(similarity)}).`;
  return p;
}

/** What became of a member the person took out: kept on its own, or back in its group. */
function takenOutNote(choice) {
  const p = document.createElement('p');
  p.className = 'taken-out';
  p.textContent = choice === 'keep'
    ? 'You took the second out of the group of the first: it is kept on its own. Merge puts it back.'
    : 'You took the second out of the group of the first, then put it back.';
  return p;
}

/**
 * Renders the members taken out, latest first, and the analysis's review pairs (by
 * similarity only); onChoice() after a person's choice.
 */
export function renderReview(analysis, onChoice) {
  const { result, input } = analysis;
  const { pairs: choices, takenOut } = choicesOf(result);
  const listed = result.view.by !== 'distance'; // by fingerprint distance nothing is listed
  const review = listed ? result.review ?? [] : [];
  const yours = [...takenOut].reverse().map((key) => {
    const [a, b] = key.split(',').map(Number);
    return { a, b, similarity: result.similarity?.[b], distance: result.distance?.[b], byYou: true };
  });
  el.reviewPanel.hidden = !listed && yours.length === 0;
  if (el.reviewPanel.hidden) return;
  const shape = recordShape(input, result);
  const unit = shape ? 'record' : 'item';
  let status = '';
  if (yours.length === 1) status = `The ${unit} you took out of its group comes first. `;
  else if (yours.length > 1) status = `The ${fmt(yours.length)} ${unit}s you took out of their groups come first, the latest on top. `;
  if (shape && result.left !== undefined) {
    const range = `match probability ≥ ${percent(DEFAULT_RECORD_REVIEW)}, not linked`;
    status += review.length === 0
      ? `No other pairs across the two files (${range}).`
      : `${plural(review.length, 'pair')} across the two files that may be one entity (${range}), most probable first, each with the evidence of every field. Merge a pair to link it in the download.`;
  } else if (shape) {
    const range = `match probability ≥ ${percent(DEFAULT_RECORD_REVIEW)} but not grouped at ${describeView(result.view)}`;
    status += review.length === 0
      ? `No possible duplicates (${range}).`
      : `${plural(review.length, 'pair')} of groups that may be one entity (${range}), most probable first, each with the evidence of every field. Merge a pair to join its groups in the unique list and the download.`;
  } else if (listed) {
    const range = `similarity ≥ ${percent(REVIEW_OF[result.measure])} but not grouped at ${describeView(result.view)}`;
    status += review.length === 0
      ? `No possible duplicates (${range}).`
      : `${plural(review.length, 'pair')} of groups that may be duplicates (${range}), ${result.measure === 'short' ? 'those where one holds every word of the other or spells out its acronym first, then ' : ''}most similar first. Merge a pair to join its groups in the unique list and the download.`;
  } else {
    status += 'Possible duplicates are listed by similarity only.';
  }
  el.reviewStatus.textContent = status;
  const records = input.items;
  el.review.replaceChildren(...[...yours, ...review].map((pair) => {
    const { a, b, similarity, distance, differs, contained, byYou } = pair;
    const key = `${a},${b}`;
    const li = document.createElement('li');
    li.className = 'review-pair';
    li.dataset.a = a;
    li.dataset.b = b;
    li.dataset.choice = choices.get(key) ?? 'none';
    if (byYou) li.dataset.by = 'you';
    const sides = document.createElement('ul');
    sides.className = 'members sides';
    if (shape) {
      const { rows } = input.records;
      sides.append(recordRow(records[a], rows[a], { label: 'first' }, shape), recordRow(records[b], rows[b], { label: 'second' }, shape, { row: rows[a], name: 'the first' }));
    } else {
      sides.append(
        textRow(records[a], input.texts[a], { label: 'first' }),
        textRow(records[b], input.texts[b], { similarity, distance }, { text: input.texts[a], name: 'the first' }),
      );
    }
    const buttons = document.createElement('div');
    buttons.className = 'choices';
    for (const [choice, label] of [['merge', 'Merge'], ['keep', 'Keep apart']]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.choose = choice;
      button.textContent = label;
      button.setAttribute('aria-pressed', String(choices.get(key) === choice));
      button.addEventListener('click', () => {
        if (choices.get(key) === choice) choices.delete(key); // pressed again: undecided
        else choices.set(key, choice);
        onChoice();
      });
      buttons.append(button);
    }
    // A pair of records listed by dedup shows its evidence, which holds both records' values.
    li.append(shape && !byYou ? recordEvidence(pair, { records, rows: input.records.rows }, shape) : sides);
    if (byYou) li.append(takenOutNote(choices.get(key)));
    else if (differs) li.append(differsNote(differs));
    else if (contained) li.append(containedNote());
    else if (pair.apart !== undefined && !shape) li.append(apartNote(pair, { records, texts: input.texts }, result.view.similarity));
    li.append(buttons);
    return li;
  }));
  el.reviewMore.hidden = !listed || !result.reviewOmitted;
  el.reviewMore.textContent = `…and ${fmt(result.reviewOmitted ?? 0)} less ${shape ? 'probable' : 'similar'} pairs, not listed.`;
}
