// `using` and `await using` type-check where the lib declares Symbol.dispose (this
// configuration has lib esnext.disposable); the package test checks a lib without it.
import { init } from 'simhash-wasm';
import { createPool } from 'simhash-wasm/worker';

export async function disposing(): Promise<number> {
  const sh = await init();
  using index = sh.createIndex();
  using idf = sh.learnIdf(['a b', 'b c']);
  using texts = sh.createTextIndex();
  await using pool = await createPool({ size: 1 });
  index.add(sh.fingerprint('a b', { idf }));
  texts.add('a b');
  return index.size + pool.size + texts.size;
}
