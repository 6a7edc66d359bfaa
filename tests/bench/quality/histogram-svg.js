// An SVG of distance histograms: per panel, the share of duplicate and of non-duplicate
// pairs at each Hamming distance, and the chosen k as a dashed line. Plain SVG 1.1, no
// scripts or fonts beyond sans-serif, so it renders on GitHub and in any browser.

const PANEL = { width: 460, height: 230, left: 52, right: 14, top: 30, bottom: 40 };
const COLORS = { duplicate: '#1f77b4', other: '#ff7f0e' };

const escape = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function normalized(counts) {
  const total = counts.reduce((s, x) => s + x, 0) || 1;
  return Array.from(counts, (x) => x / total);
}

/** panel: { title, duplicate: counts by distance, other: counts by distance, k }. */
function panelSvg(panel, x0, y0, maxDistance) {
  const plotW = PANEL.width - PANEL.left - PANEL.right;
  const plotH = PANEL.height - PANEL.top - PANEL.bottom;
  const series = { duplicate: normalized(panel.duplicate), other: normalized(panel.other) };
  const top = Math.max(...series.duplicate, ...series.other) * 1.1 || 1;
  const bin = plotW / (maxDistance + 1);
  const px = (d) => x0 + PANEL.left + d * bin;
  const py = (share) => y0 + PANEL.top + plotH - (share / top) * plotH;
  const out = [`<text x="${x0 + PANEL.left}" y="${y0 + 18}" font-size="13" font-weight="bold">${escape(panel.title)}</text>`];
  for (const name of ['other', 'duplicate']) {
    series[name].forEach((share, d) => {
      if (d > maxDistance || share === 0) return;
      out.push(`<rect x="${px(d).toFixed(1)}" y="${py(share).toFixed(1)}" width="${(bin - 0.6).toFixed(1)}" height="${(py(0) - py(share)).toFixed(1)}" fill="${COLORS[name]}" fill-opacity="0.65"/>`);
    });
  }
  const axisY = py(0);
  out.push(`<line x1="${px(0)}" y1="${axisY}" x2="${px(maxDistance + 1)}" y2="${axisY}" stroke="#333"/>`);
  out.push(`<line x1="${px(0)}" y1="${py(top)}" x2="${px(0)}" y2="${axisY}" stroke="#333"/>`);
  for (let d = 0; d <= maxDistance; d += 8) {
    out.push(`<text x="${(px(d) + bin / 2).toFixed(1)}" y="${axisY + 14}" font-size="10" text-anchor="middle">${d}</text>`);
  }
  for (const f of [0, 0.5, 1]) {
    const share = (top / 1.1) * f;
    out.push(`<text x="${px(0) - 4}" y="${(py(share) + 3).toFixed(1)}" font-size="10" text-anchor="end">${(100 * share).toFixed(0)}%</text>`);
  }
  out.push(`<text x="${px(maxDistance / 2)}" y="${axisY + 30}" font-size="11" text-anchor="middle">Hamming distance (64 bits)</text>`);
  const kx = px(panel.k + 1).toFixed(1);
  out.push(`<line x1="${kx}" y1="${py(top)}" x2="${kx}" y2="${axisY}" stroke="#000" stroke-dasharray="4 3"/>`);
  out.push(`<text x="${Number(kx) + 3}" y="${py(top) + 10}" font-size="11">k = ${panel.k}</text>`);
  return out.join('\n');
}

/** rows: arrays of panels; returns the SVG document. */
export function histogramSvg(title, rows, maxDistance = 48) {
  const columns = Math.max(...rows.map((r) => r.length));
  const width = columns * PANEL.width;
  const height = 50 + rows.length * PANEL.height;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`,
    `<rect x="10" y="30" width="12" height="10" fill="${COLORS.duplicate}" fill-opacity="0.65"/>`,
    `<text x="26" y="39" font-size="11">near-duplicate pairs (Jaccard ≥ 0.5), share per distance</text>`,
    `<rect x="330" y="30" width="12" height="10" fill="${COLORS.other}" fill-opacity="0.65"/>`,
    `<text x="346" y="39" font-size="11">other pairs (natural neighbours, random, heavy edits)</text>`,
  ];
  rows.forEach((row, r) => row.forEach((panel, c) => parts.push(panelSvg(panel, c * PANEL.width, 50 + r * PANEL.height, maxDistance))));
  parts.push('</svg>');
  return parts.join('\n');
}
