// The results panel: the counts, the status and timing lines, the sample check, the
// histogram (histogram.js), the groups with each member's differences from its group's kept
// item and a button to take it out, the possible duplicates (review.js), and the download of
// the kept records; the groups, counts and download follow the person's choices (review.js
// chosenGroups). Records show each member's columns (rows.js recordRow), marked against the
// kept record. Each render counts on body[data-runs], which the browser tests wait on.
// A member's button is .member button[data-take-out].
//
// An analysis (jobs.js) is { input (input.js), settings, runner (runners.js), result (of
// Engine.analyze or Engine.group), timings, total, regrouped (the last Engine.group
// result, or null) }.
import { flatGroups } from '../js/dedup/grouping.js';
import { currentView, updateCode } from './controls.js';
import { el, setState } from './elements.js';
import { serialize } from './formats.js';
import { drawHistogram } from './histogram.js';
import { chosenGroups, renderReview, takeOut } from './review.js';
import { recordRow, recordShape, textRow } from './rows.js';
import { describeView, fmt, lineOf, measureName, ms, plural } from './wording.js';

const GROUPS_PER_PAGE = 50;
const MEMBERS_SHOWN = 20;

/** Renders so far. */
let runs = 0;
/** The shown analysis's groups (item indices, kept item first), in the chosen order. */
let groupList = [];
/** How many of groupList are on the page. */
let shownGroups = 0;

function setStats(items, unique, groups) {
  el.items.textContent = items === null ? '–' : fmt(items);
  el.unique.textContent = unique === null ? '–' : fmt(unique);
  el.duplicates.textContent = items === null ? '–' : fmt(items - unique);
  el.groupCount.textContent = groups === null ? '–' : fmt(groups);
}

/** No input, or an empty one. */
export function renderEmpty() {
  setStats(null, null, null);
  el.status.textContent = 'Paste some texts, choose or drop a file, or load a sample.';
  el.timing.textContent = '';
  el.sampleCheck.hidden = true;
  el.download.disabled = true;
  el.groups.replaceChildren();
  el.more.hidden = true;
  el.reviewPanel.hidden = true;
  drawHistogram(null, -1, currentView());
  updateCode();
  setState('idle');
  document.body.dataset.runs = ++runs;
}

/** No results: the analysis was cancelled, or failed (isError; also logged). */
export function showStopped(message, isError = false) {
  setStats(null, null, null);
  el.status.textContent = message;
  el.timing.textContent = '';
  el.sampleCheck.hidden = true;
  el.download.disabled = true;
  el.groups.replaceChildren();
  el.more.hidden = true;
  el.reviewPanel.hidden = true;
  el.run.hidden = false;
  drawHistogram(null, -1, currentView());
  setState(isError ? 'error' : 'cancelled');
  if (isError) console.error(message);
  document.body.dataset.runs = ++runs;
}

/** What a field kind compares, as the page says it. */
const KIND_NAMES = { email: 'e-mail', phone: 'phone', date: 'date', exact: 'number', name: 'name', text: 'text' };

/**
 * A group member's row: item `item` under the badge `to` (textRow's), marked against the
 * group's kept item `kept` ({ item, text, name }) unless null.
 */
function memberRow(input, result, item, to, kept) {
  const records = input.items;
  const shape = recordShape(input, result);
  if (shape) {
    const { rows } = input.records;
    const grouped = result.left === undefined ? { label: 'duplicate', title: `grouped with the kept record at ${describeView(result.view)}` }
      : { label: 'linked', title: `linked with the first file's record at ${describeView(result.view)}` };
    const badge = to === null || to.label !== undefined ? to : grouped;
    // Why it was merged, while it stays with the row it was merged into.
    const why = result.why?.[item];
    return recordRow(records[item], rows[item], badge, shape, kept && { row: rows[kept.item], name: kept.name }, why?.kept === kept?.item ? why : undefined);
  }
  return textRow(records[item], input.texts[item], to, kept);
}

/** Groups as lists of item indices, kept item first, from each item's leader, in the order the sort control asks. */
function collectGroups(leader) {
  const { groupStarts, groupItems } = flatGroups(leader); // ordered by kept item
  const groups = Array.from({ length: groupStarts.length - 1 }, (_, g) => groupItems.subarray(groupStarts[g], groupStarts[g + 1]));
  if (el.sort.value === 'size') groups.sort((a, b) => b.length - a.length || a[0] - b[0]);
  return groups;
}

/**
 * Renders the analysis. `again`: after a person's choice on the same result, showing at least
 * as many groups as before (the page stays where the person is).
 */
export function render(analysis, again = false) {
  const { result, input, runner } = analysis;
  const { leader, takenOut, merged } = chosenGroups(result, input.texts);
  let unique = 0;
  for (let i = 0; i < leader.length; i++) unique += leader[i] === i;
  groupList = collectGroups(leader);
  setStats(result.count, unique, groupList.length);
  const duplicates = result.count - unique;
  const links = result.left === undefined ? 0 : chosenLinks(result, leader).length;
  const changes = [takenOut && `${plural(takenOut, result.measure === 'records' ? 'record' : 'item')} taken out`, merged && `${plural(merged, 'group')} merged`].filter(Boolean);
  const byYou = changes.length ? ` (${changes.join(', ')} by you)` : '';
  if (result.measure === 'records') {
    const fields = result.fields.map(({ name, kind }) => `${name} (${KIND_NAMES[kind]})`).join(', ');
    el.status.textContent = result.left === undefined
      ? `${plural(result.count, 'record')}: ${fmt(unique)} unique, ${plural(duplicates, 'duplicate')} in ${plural(groupList.length, 'group')} at ${describeView(result.view)}, compared field by field: ${fields}${byYou}.`
      : `${plural(result.left, 'record')} of ${input.name} and ${plural(result.count - result.left, 'record')} of ${input.records.second}: ${plural(links, 'link')} at ${describeView(result.view)} (each row in one at most), compared field by field: ${fields}${byYou}.`;
  } else {
    const measure = result.view.by === 'similarity' ? `, compared as ${measureName(result.measure)}` : '';
    el.status.textContent = `${plural(result.count, 'item')}: ${fmt(unique)} unique, ${plural(duplicates, 'near-duplicate')} in ${plural(groupList.length, 'group')} at ${describeView(result.view)}${measure}${byYou}.`;
  }
  const parts = analysis.timings.map(([label, t]) => `${label} ${ms(t)}`).join(', ');
  let timing = `Analysed in ${ms(analysis.total)} ${runner.where} (${parts}).`;
  if (analysis.regrouped) {
    timing += ` Regrouped for ${describeView(result.view)} in ${ms(analysis.regrouped.total)}.`;
  }
  el.timing.textContent = timing;
  renderSampleCheck(input, result);
  drawHistogram(result.histogram, result.histogramMax, result.view, result.measure);
  el.download.disabled = false;
  el.download.textContent = result.left === undefined ? `Download ${plural(unique, 'kept record')} (.${extensionOf(input)})` : `Download ${plural(links, 'link')} (.jsonl)`;
  const shownBefore = again ? shownGroups : 0;
  el.groups.replaceChildren();
  shownGroups = 0;
  showMoreGroups(analysis, shownBefore);
  if (groupList.length === 0) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = `No near-duplicates at ${describeView(result.view)}.`;
    el.groups.append(li);
  }
  renderReview(analysis, () => render(analysis, true));
  el.run.hidden = true;
  updateCode();
  setState('done');
  document.body.dataset.runs = ++runs;
}

/**
 * For the samples: how many planted near-duplicates were grouped, and how many of the others
 * the possible duplicates list; how many items were merged with an unrelated one; for a sample
 * with look-alikes of different entities (input.different), which of them were grouped.
 */
function renderSampleCheck(input, result) {
  if (!input.planted) {
    el.sampleCheck.hidden = true;
    return;
  }
  const { leader } = result;
  const original = new Map(input.planted.map(([a, b]) => [b, a]));
  const root = (i) => original.get(i) ?? i;
  const together = ([a, b]) => leader[a] === leader[b];
  const found = input.planted.filter(together).length;
  const reviewed = new Set((result.review ?? []).map(({ a, b }) => `${leader[a]},${leader[b]}`));
  const listed = input.planted.filter(([a, b]) => !together([a, b]) && (reviewed.has(`${leader[a]},${leader[b]}`) || reviewed.has(`${leader[b]},${leader[a]}`))).length;
  let wrong = 0;
  for (let i = 0; i < leader.length; i++) if (leader[i] !== i && root(leader[i]) !== root(i)) wrong++;
  let text = `Sample check: ${found} of ${input.planted.length} planted near-duplicates found`;
  if (result.review) text += ` (${fmt(listed)} more listed as possible duplicates)`;
  text += `; ${plural(wrong, 'unrelated item')} merged`;
  if (input.different) {
    const grouped = input.different.filter(together);
    text += `; ${grouped.length} of ${input.different.length} look-alikes of different entities grouped`;
    if (grouped.length) text += ` (${grouped.map(([a, b]) => `“${input.texts[a]}” with “${input.texts[b]}”`).join(', ')})`;
  }
  el.sampleCheck.textContent = `${text}.`;
  el.sampleCheck.hidden = false;
}

/**
 * The next GROUPS_PER_PAGE groups of the rendered analysis, or up to the first `atLeast`.
 * A member that dedup grouped under the group's kept item has a button that takes it out
 * (review.js takeOut); the others, there by the person's choices, are undone where they
 * were made, in the possible duplicates.
 */
export function showMoreGroups(analysis, atLeast = 0) {
  const { result, input } = analysis;
  const records = input.items;
  const unit = result.measure === 'records' ? 'record' : 'item';
  const end = Math.min(groupList.length, Math.max(atLeast, shownGroups + GROUPS_PER_PAGE));
  const fragment = document.createDocumentFragment();
  for (let g = shownGroups; g < end; g++) {
    const group = groupList[g];
    const li = document.createElement('li');
    li.className = 'group';
    const title = document.createElement('h3');
    title.append(`Group ${fmt(g + 1)} `);
    const size = document.createElement('span');
    size.className = 'muted';
    size.textContent = `· ${plural(group.length, unit)}`;
    title.append(size);
    const members = document.createElement('ul');
    members.className = 'members';
    const kept = { item: group[0], text: input.texts[group[0]], name: `the kept ${unit}` };
    group.slice(0, MEMBERS_SHOWN).forEach((item, position) => {
      let row;
      if (position === 0) row = memberRow(input, result, item, null, null);
      else if (result.leader[item] === group[0]) {
        row = memberRow(input, result, item, { distance: result.distance?.[item], similarity: result.similarity?.[item] }, kept);
        row.querySelector('.meta').append(takeOutButton(analysis, group[0], item, records[item]));
      } else if (input.texts[item] === kept.text) { // a copy of a text taken out with it
        row = memberRow(input, result, item, { distance: result.distance ? 0 : undefined, similarity: result.similarity ? 1 : undefined }, kept);
      } else row = memberRow(input, result, item, { label: 'merged by you' }, null);
      row.dataset.item = item;
      members.append(row);
    });
    li.append(title, members);
    if (group.length > MEMBERS_SHOWN) {
      const more = document.createElement('p');
      more.className = 'more-members';
      more.textContent = `…and ${plural(group.length - MEMBERS_SHOWN, `more ${unit}`)}.`;
      li.append(more);
    }
    fragment.append(li);
  }
  el.groups.append(fragment);
  shownGroups = end;
  el.more.hidden = shownGroups >= groupList.length;
  el.more.textContent = `Show more groups (${fmt(groupList.length - shownGroups)} left)`;
}

/** The button that takes `item` out of the group of `kept` (review.js takeOut) and renders again. */
function takeOutButton(analysis, kept, item, record) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'link take-out';
  button.dataset.takeOut = item;
  button.textContent = 'Take out';
  button.title = 'Not a duplicate: keep it on its own (listed under Possible duplicates, where Merge puts it back)';
  button.setAttribute('aria-label', `Take ${lineOf(record)} out of its group`);
  button.addEventListener('click', () => {
    takeOut(analysis.result, kept, item);
    render(analysis, true);
  });
  return button;
}

function extensionOf(input) {
  if (input.parsed.format === 'csv') return 'csv';
  if (input.parsed.format === 'jsonl') return 'jsonl';
  return 'txt';
}

/** Two files' links after the person's choices (`leader`, chosenGroups'): [a, b] for each second-file row b whose kept row a is in the first. */
function chosenLinks(result, leader) {
  const links = [];
  for (let b = result.left; b < leader.length; b++) if (leader[b] < result.left) links.push([leader[b], b]);
  return links;
}

/**
 * Two files' links as JSON Lines, as the CLI's `link` writes them: per link (chosenLinks) each
 * side's line and row, and the probability and fields of link's link or of the possible
 * duplicate merged.
 */
function linksText({ input, result }, leader) {
  const { items, records } = input;
  const explained = new Map([...result.links, ...result.review].map((entry) => [`${entry.a},${entry.b}`, entry]));
  const side = (i) => ({ line: items[i].line, record: records.rows[i] });
  return chosenLinks(result, leader).map(([a, b]) => {
    const { probability, apart, fields } = explained.get(`${a},${b}`) ?? {};
    return `${JSON.stringify({ a: side(a), b: side(b), probability, ...(apart && { apart }), fields })}\n`;
  }).join('');
}

/** Downloads the analysis's kept records as the input had them (formats.js serialize), or two files' links. */
export function download(analysis) {
  const { input, result } = analysis;
  const { leader } = chosenGroups(result, input.texts);
  const links = result.left !== undefined;
  const text = links ? linksText(analysis, leader) : serialize(input.parsed, (i) => leader[i] === i);
  const extension = links ? 'jsonl' : extensionOf(input);
  const type = { csv: 'text/csv', jsonl: 'application/x-ndjson', txt: 'text/plain' }[extension];
  const base = input.kind === 'file' || input.kind === 'generated' ? input.name.replace(/\.[^.]*$/, '') : 'texts';
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${base}.${links ? 'links' : 'dedup'}.${extension}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
