// The pool test page without a bundler: the repository's ES modules as they are published.
import { createPool } from '../../../js/worker.js';
import { init } from '../../../js/index.js';
import { run } from './scenario.js';

const count = Number(new URLSearchParams(location.search).get('count') ?? 200000);
run({ createPool, init, count }).then(
  (report) => { document.getElementById('out').textContent = JSON.stringify(report); },
  (error) => { document.getElementById('out').textContent = JSON.stringify({ error: String(error?.stack ?? error) }); },
);
