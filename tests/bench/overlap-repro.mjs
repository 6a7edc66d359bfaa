import { init } from '../../js/node.js';
import { makeTexts } from './fortune-texts.js';
const sh = await init();
const { texts } = makeTexts(60000);
const A = texts.slice(0, 30000), B = texts.slice(30000);
const groups = (r) => r.groups.length;
const alone = [await sh.dedup(A), await sh.dedup(B)];
console.log('alone', alone.map(groups));
try {
  const both = await Promise.all([sh.dedup(A), sh.dedup(B)]);
  console.log('at once', both.map(groups));
} catch (e) { console.log('at once threw', e); }
try {
  const r = await sh.dedup(A, { onProgress() { sh.similarities(['a b c', 'a b d'], { a: Uint32Array.of(0), b: Uint32Array.of(1) }); sh.similarity('x y', 'x z'); } });
  console.log('onProgress', groups(r));
} catch (e) { console.log('onProgress threw', e); }
