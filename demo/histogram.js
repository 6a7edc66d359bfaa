// The histogram of item pairs per fingerprint distance: an SVG drawn at the size it is shown
// (one SVG unit is one CSS pixel, so its text stays legible on a phone), split at the view's
// radius, with a text summary for screen readers. A click on a bar picks its distance. By the
// short measure, and for records, it is hidden, with a note saying why: their pairs have no
// fingerprint distance.
import { HISTOGRAM_MAX, viewRadius } from './engine.js';
import { el } from './elements.js';
import { describeView, fmt, plural } from './wording.js';

const SVG = 'http://www.w3.org/2000/svg';

/** What the histogram shows, to draw it again at a new size: drawHistogram's arguments. */
let shown = [null, -1, { by: 'distance', maxDistance: 9 }, 'text'];

const NOTES = {
  short: 'No fingerprint histogram for names and short lists: their candidate pairs come from MinHash bands of their words’ letter pairs, not from fingerprint distances.',
  records: 'No fingerprint histogram for records: their candidate pairs are rows that share an e-mail, a phone, a date or a number, or whose names are alike.',
};

function svg(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A bar's count in the room a bar has: '9,999', else '12.3K' where it is narrow. */
function compact(n, room) {
  if (n < (room < 36 ? 1000 : 10000)) return fmt(n);
  return new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/**
 * Bars of pair counts per distance 0..HISTOGRAM_MAX, split at the view's radius (its max
 * distance, or the candidate radius of its similarity). histogram: the counts, or null
 * for none yet; distances above histogramMax were not computed and show hatched. By the
 * measure 'short', and for 'records', a note in place of the bars.
 */
export function drawHistogram(histogram, histogramMax, view, measure = 'text') {
  shown = [histogram, histogramMax, view, measure];
  const note = NOTES[view.by === 'probability' ? 'records' : measure];
  el.histogramFigure.classList.toggle('short-measure', note !== undefined); // style.css hides the caption and the bars
  if (note) {
    el.histogram.replaceChildren();
    el.histogramSummary.textContent = '';
    el.histogramNote.textContent = note;
    return;
  }
  const k = viewRadius(view);
  const bySimilarity = view.by === 'similarity';
  const width = Math.max(280, Math.round(el.histogram.getBoundingClientRect().width) || 600);
  const height = 190;
  const top = 22;
  const bottom = 26;
  const left = 6;
  const bins = HISTOGRAM_MAX + 1;
  const step = (width - 2 * left) / bins;
  const barWidth = step * 0.72;
  const plot = height - top - bottom;
  const nodes = [];
  const defs = svg('defs');
  const pattern = svg('pattern', { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(svg('line', { x1: 0, y1: 0, x2: 0, y2: 8, class: 'hatch-line' }));
  defs.append(pattern);
  nodes.push(defs);
  const counts = histogram ? Array.from(histogram) : [];
  const peak = Math.sqrt(Math.max(1, ...counts.slice(0, histogramMax + 1)));
  const summary = [];
  for (let d = 0; d < bins; d++) {
    const x = left + d * step + (step - barWidth) / 2;
    const known = histogram && d <= histogramMax;
    const count = known ? counts[d] : 0;
    const barHeight = known ? (count > 0 ? Math.max(2, (Math.sqrt(count) / peak) * plot) : 0) : plot * 0.35;
    const g = svg('g', { class: 'bin', 'data-distance': d });
    const label = known ? `distance ${d}: ${plural(count, 'pair')}` : `distance ${d}: not computed`;
    g.append(svg('title', {}, histogram ? label : `distance ${d}`));
    if (histogram) {
      g.append(svg('rect', {
        class: `bar${known ? (d <= k ? ' within' : '') : ' unknown'}`,
        x: x.toFixed(1), y: (top + plot - barHeight).toFixed(1), width: barWidth.toFixed(1), height: barHeight.toFixed(1), rx: 2,
      }));
      g.append(svg('text', { x: (x + barWidth / 2).toFixed(1), y: (top + plot - barHeight - 4).toFixed(1) }, known ? (count > 0 ? compact(count, step) : '') : '?'));
      summary.push(known ? `${d}: ${fmt(count)}` : `${d}: not computed`);
    }
    g.append(svg('text', { class: step < 24 ? 'axis tight' : 'axis', x: (left + d * step + step / 2).toFixed(1), y: height - 8 }, d));
    g.append(svg('rect', { class: 'hit', x: left + d * step, y: top - 18, width: step, height: plot + 18 + bottom })); // on top: takes the clicks
    nodes.push(g);
  }
  nodes.push(svg('line', { class: 'baseline', x1: left, x2: width - left, y1: top + plot + 0.5, y2: top + plot + 0.5 }));
  const split = left + (Math.min(k, HISTOGRAM_MAX) + 1) * step;
  nodes.push(svg('line', { class: 'threshold', x1: split, x2: split, y1: 4, y2: top + plot }));
  const thresholdLabel = bySimilarity ? `candidate radius ${k}` : `max distance ${k}`;
  const labelX = split + 130 > width ? split - 126 : split + 4;
  nodes.push(svg('text', { class: 'threshold-label', x: labelX.toFixed(1), y: 14 }, thresholdLabel));
  el.histogram.setAttribute('viewBox', `0 0 ${width} ${height}`);
  el.histogram.replaceChildren(...nodes);
  el.histogramSummary.textContent = histogram
    ? `Pairs per distance in bits: ${summary.join(', ')}. ${bySimilarity
      ? `Pairs at distance ${k} or less are candidates; those at ${describeView(view)} are near-duplicates.`
      : `Pairs at distance ${k} or less are near-duplicates.`}`
    : 'No pairs yet.';
  el.histogramNote.textContent = histogram && histogramMax < HISTOGRAM_MAX
    ? `Hatched: distances above ${histogramMax} are not computed yet for an input this large (finding every pair within 12 bits of 100,000 texts takes seconds); moving the slider up computes them.`
    : '';
}

/** Redraws the histogram when its size changes; pick(distance) on a click on a bar. */
export function connectHistogram(pick) {
  el.histogram.addEventListener('click', (event) => {
    const bin = event.target.closest?.('[data-distance]');
    if (bin) pick(Number(bin.dataset.distance));
  });
  let resizeFrame = 0;
  new ResizeObserver(() => {
    cancelAnimationFrame(resizeFrame);
    resizeFrame = requestAnimationFrame(() => drawHistogram(...shown));
  }).observe(el.histogram);
}
