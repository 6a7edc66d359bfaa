// The "Possible duplicates" list below the groups: dedup's review pairs (engine.js), each two
// groups joined by a pair of their items at a similarity from the measure's REVIEW_OF up, for
// a person to merge or keep apart. The choices live on the result they were made for (a new analysis or
// view starts without any), and decide what counts as kept: the groups, the counts and the
// download follow them (keptLeaders). Each pair is shown side by side, the second text with
// its differences from the first marked.
//
// For the browser tests, each pair is li.review-pair[data-a][data-b][data-choice] with
// buttons [data-choose="merge" | "keep"].
import { el } from './elements.js';
import { REVIEW_OF } from './engine.js';
import { textRow } from './rows.js';
import { describeView, fmt, percent, plural } from './wording.js';

/** The choices made on a result: 'a,b' → 'merge' | 'keep'. */
function choicesOf(result) {
  result.choices ??= new Map();
  return result.choices;
}

/**
 * Each item's kept item once the merges chosen on `result` are applied: merged groups are
 * one, kept under the earlier of their kept items. result.leader when nothing is merged.
 */
export function keptLeaders(result) {
  const merges = [...choicesOf(result)].filter(([, choice]) => choice === 'merge');
  if (merges.length === 0) return result.leader;
  const root = new Map(); // a kept item → the kept item it merged under
  const find = (g) => {
    while (root.has(g)) g = root.get(g);
    return g;
  };
  for (const [key] of merges) {
    const [a, b] = key.split(',').map(Number);
    const [ga, gb] = [find(result.leader[a]), find(result.leader[b])];
    if (ga !== gb) root.set(Math.max(ga, gb), Math.min(ga, gb));
  }
  return result.leader.map((g) => find(g));
}

/** Why a look-alike pair was kept apart (README "Look-alikes"): what differs, first's / the other's. */
function differsNote({ numbers, words }) {
  const p = document.createElement('p');
  p.className = 'differs';
  const sides = ([first, other]) => `${first.join(' ')} / ${other.join(' ')}`;
  p.textContent = `Kept apart: ${[numbers && `numbers ${sides(numbers)}`, words && `words ${sides(words)}`].filter(Boolean).join('; ')} differ.`;
  return p;
}

/** Renders the list of the analysis's review pairs; onChoice() after a person's choice. */
export function renderReview(analysis, onChoice) {
  const { result, input } = analysis;
  const pairs = result.review ?? [];
  el.reviewPanel.hidden = result.view.by !== 'similarity';
  if (el.reviewPanel.hidden) return;
  const choices = choicesOf(result);
  const range = `similarity ≥ ${percent(REVIEW_OF[result.measure])} but not grouped at ${describeView(result.view)}`;
  el.reviewStatus.textContent = pairs.length === 0
    ? `No possible duplicates (${range}).`
    : `${plural(pairs.length, 'pair')} of groups that may be duplicates (${range}), most similar first. Merge a pair to join its groups in the unique list and the download.`;
  const { records } = input.parsed;
  el.review.replaceChildren(...pairs.map(({ a, b, similarity, differs }) => {
    const key = `${a},${b}`;
    const li = document.createElement('li');
    li.className = 'review-pair';
    li.dataset.a = a;
    li.dataset.b = b;
    li.dataset.choice = choices.get(key) ?? 'none';
    const sides = document.createElement('ul');
    sides.className = 'members sides';
    sides.append(
      textRow(records[a], input.texts[a], { label: 'first' }),
      textRow(records[b], input.texts[b], { similarity }, { text: input.texts[a], name: 'the first' }),
    );
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
    li.append(sides);
    if (differs) li.append(differsNote(differs));
    li.append(buttons);
    return li;
  }));
  el.reviewMore.hidden = !result.reviewOmitted;
  el.reviewMore.textContent = `…and ${fmt(result.reviewOmitted ?? 0)} less similar pairs, not listed.`;
}
