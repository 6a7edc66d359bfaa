// `node tests/bench/candidates.js [N]`: the candidate scheme of dedup's banding and review
// at each threshold s from 0.5, on short texts: every record of Debian's fortunes, then
// copies with 1-3 word edits up to N (fortune-texts.js; 100k by default), distinct texts
// only. For each s (the native `simhash_bench candidates`, tests/bench/native_bench.cpp):
// the rows × bands of bandingFor(s); the pairs sharing a band key (candidates) per million
// pairs of texts; those the sets' sketches pass to the exact test (set_sketch.h: what is
// verified) per million pairs; the pairs that reach s, and how many of them the sketches
// set aside. Needs the native build (bash .ci/build.sh --native).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTexts } from './fortune-texts.js';

const N = Number(process.argv[2] ?? 100_000);
const BENCH = new URL('../../build/native/simhash_bench', import.meta.url).pathname;
const texts = [...new Set(makeTexts(N).texts)];
const dir = mkdtempSync(join(tmpdir(), 'simhash-candidates-'));
try {
  const file = join(dir, 'texts.bin');
  writeFileSync(file, texts.join('\0'));
  console.log(`${texts.length.toLocaleString('en')} distinct short texts (fortunes and edited copies, N = ${N.toLocaleString('en')})\n`);
  console.log('| s | rows × bands | candidates per 1M pairs | verified per 1M pairs (sketch passed) | pairs reaching s | set aside by the sketch |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const s of [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]) {
    const r = JSON.parse(execFileSync(BENCH, ['candidates', file, String(s)], { encoding: 'utf8' }));
    console.log(`| ${s} | ${r.rows} × ${r.bands} | ${r.candidatesPerMillionPairs.toLocaleString('en')} | ${r.passedPerMillionPairs.toLocaleString('en')} | ${r.reaching.toLocaleString('en')} | ${r.setAsideReaching} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
