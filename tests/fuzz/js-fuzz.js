// What the JS fuzz targets share (.ci/fuzz.sh runs them beside the libFuzzer ones): their
// arguments, a seeded generator, so that a seed replays a run, and the check that ends a run
// naming the seed and the inputs.
//   node tests/fuzz/TARGET.js [SECONDS=5] [--seed=N]

/**
 * The run of target `name` as its command line asks: { seconds, seed, next (a number in
 * [0, 1)), below(n), pick(list), check(ok, what, ...inputs), running() (whether time is
 * left) }. Without --seed a seed is drawn; a failed check prints the seed and the inputs and
 * exits 1.
 */
export function fuzzRun(name) {
  const args = process.argv.slice(2);
  const seconds = Number(args.find((a) => !a.startsWith('--')) ?? 5);
  const seed = Number(args.find((a) => a.startsWith('--seed='))?.slice(7) ?? Math.floor(Math.random() * 2 ** 32));
  if (!(seconds > 0) || !Number.isInteger(seed)) {
    console.error(`usage: node tests/fuzz/${name}.js [SECONDS] [--seed=N]`);
    process.exit(2);
  }
  // mulberry32: a small PRNG.
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const below = (n) => Math.floor(next() * n);
  const started = performance.now();
  return {
    seconds,
    seed,
    next,
    below,
    pick: (list) => list[below(list.length)],
    check(ok, what, ...inputs) {
      if (ok) return;
      console.error(`${name}: FAILED with --seed=${seed}: ${what}; input(s): ${inputs.map((x) => JSON.stringify(x)).join(', ')}`);
      process.exit(1);
    },
    running: () => performance.now() - started < seconds * 1000,
  };
}
