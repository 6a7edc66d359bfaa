// The command line as scripts use it: input formats, outputs, errors and exit codes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE, SAMPLE_PLANTED } from '../../js/sample.js';

const CLI = new URL('../../js/cli.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'simhash-cli-'));

function cli(args, input = '') {
  const { status, stdout, stderr } = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8' });
  return { status, stdout, stderr };
}

/** The CLI with its output as bytes. */
function cliBytes(args, input) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [CLI, ...args], { input });
  return { status, stdout, stderr: stderr.toString() };
}

function file(name, content) {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const jsonLines = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));

describe('dedup of lines', () => {
  test('keeps the first of each group, in input order, from stdin, line endings unchanged', () => {
    const run = cli(['dedup'], 'The cat sat.\nthe cat sat!\nSomething else\r\nThe cat sat\n');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'The cat sat.\nSomething else\r\n');
    assert.equal(run.stderr, '', 'no progress when stderr is not a terminal');
  });

  test('kept records are written byte for byte: BOM dropped, blank lines skipped, no ending added', () => {
    const input = Buffer.from('\uFEFFThe cat sat.\r\n\n   \nthe cat sat!\r\n漢字 text \u2028 here\r\nlast line');
    const run = cliBytes(['dedup'], input);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout, Buffer.from('The cat sat.\r\n漢字 text \u2028 here\r\nlast line'));
    const groups = jsonLines(cli(['dedup', '--groups'], input).stdout);
    assert.deepEqual(groups[0].group.map((m) => m.line), [1, 4], 'line numbers count blank lines');
  });

  test('--progress reports on stderr when it is not a terminal', () => {
    const run = cli(['dedup', '--progress'], 'a b\nc d\na b\n');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'a b\nc d\n');
    assert.match(run.stderr, /^simhash-wasm: reading: /m);
    assert.match(run.stderr, /^simhash-wasm: fingerprint: 3 of 3$/m);
    assert.match(run.stderr, /^simhash-wasm: 3 records, 2 unique, 1 groups\n$/m);
    const pairs = cli(['dedup', '--pairs', '--progress'], 'a b\nc d\na b\n');
    assert.match(pairs.stderr, /^simhash-wasm: pairs within 3 bits of 3 records$/m);
    assert.match(pairs.stderr, /^simhash-wasm: 3 records, 1 pairs\n$/m);
  });

  test('--groups writes JSON lines with line numbers and distances', () => {
    const run = cli(['dedup', '-', '--groups'], 'The cat sat.\nSomething else\nthe cat sat!\n');
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(jsonLines(run.stdout), [{ group: [{ line: 1, distance: 0, text: 'The cat sat.' }, { line: 3, distance: 0, text: 'the cat sat!' }] }]);
  });

  test('--pairs writes every pair within --max-distance', () => {
    const run = cli(['dedup', '--pairs', '--max-distance', '0'], 'a b\nc d\na b\nA B\n');
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(jsonLines(run.stdout).map((p) => [p.a.line, p.b.line, p.distance]), [[1, 3, 0], [1, 4, 0], [3, 4, 0]]);
  });

  test('fingerprint options change the answer', () => {
    const input = 'abcdef\nabcdeg\n';
    assert.equal(cli(['dedup', '--max-distance', '0'], input).stdout, input);
    const chars = cli(['dedup', '--tokenizer', 'chars', '--char-ngram', '1', '--weighting', 'binary', '--max-distance', '12'], input);
    assert.equal(chars.stdout, 'abcdef\n');
  });

  test('finds the planted near-duplicates of the bundled sample', () => {
    const run = cli(['dedup', '--pairs', '--max-distance', '12'], `${SAMPLE.join('\n')}\n`);
    const found = new Set(jsonLines(run.stdout).map((p) => `${p.a.line - 1},${p.b.line - 1}`));
    const planted = SAMPLE_PLANTED.filter(([a, b]) => found.has(`${a},${b}`));
    assert.ok(planted.length >= SAMPLE_PLANTED.length * 0.85, `${planted.length} of ${SAMPLE_PLANTED.length} planted pairs found`);
  });
});

describe('dedup of JSON Lines and CSV', () => {
  test('jsonl: whole records kept verbatim, text from --field or a bare string, blank lines skipped', () => {
    const path = file('posts.jsonl', '{"id":1,"body":"Near duplicate text here"}\n\n{"id":2,"body":"near duplicate text here!"}\n"a bare string"\n');
    const run = cli(['dedup', path, '--field', 'body']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '{"id":1,"body":"Near duplicate text here"}\n"a bare string"\n');
  });

  test('csv: quoted fields with commas, newlines and quotes; header kept; CRLF', () => {
    const path = file('tickets.csv', 'id,text,n\r\n1,"The cat sat, on the mat",3\r\n2,"the cat sat on the mat!",4\r\n3,"multi\nline ""quoted"" text",5\r\n');
    const run = cli(['dedup', path]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'id,text,n\r\n1,"The cat sat, on the mat",3\r\n3,"multi\nline ""quoted"" text",5\r\n');
    const groups = jsonLines(cli(['dedup', path, '--groups']).stdout);
    assert.deepEqual(groups[0].group.map((m) => m.line), [2, 3]);
    const lines = jsonLines(cli(['dedup', '--format', 'csv', '--field', 'text', '--groups', '--max-distance', '64'], 'text\n"a\nb"\nc\n').stdout);
    assert.deepEqual(lines[0].group.map((m) => [m.line, m.text]), [[2, 'a\nb'], [4, 'c']], 'line numbers count newlines inside quotes');
  });

  test('a UTF-8 byte order mark (as Excel writes) is not part of the first field', () => {
    const csv = file('bom.csv', '\uFEFFbody,id\r\nSame words here,1\r\nsame words here!,2\r\n');
    const run = cli(['dedup', csv, '--field', 'body']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'body,id\r\nSame words here,1\r\n');
    const jsonl = file('bom.jsonl', '\uFEFF{"text":"Same words here"}\n{"text":"same words here!"}\n');
    assert.equal(cli(['dedup', jsonl]).stdout, '{"text":"Same words here"}\n');
  });

  test('--format overrides the extension', () => {
    const records = '{"text":"x","note":"alpha beta gamma delta"}\n{"text":"x","note":"some entirely unrelated words follow"}\n';
    const path = file('data.txt', records);
    assert.equal(cli(['dedup', path]).stdout, records, 'as lines, the two differ');
    assert.equal(cli(['dedup', path, '--format', 'jsonl']).stdout, records.split('\n')[0] + '\n', 'as JSON, their texts are equal');
  });
});

describe('errors and exit codes', () => {
  const inputErrors = [
    ['malformed JSON', ['--format', 'jsonl'], '{"text":"ok"}\n{"text":\n', /line 2: not valid JSON/],
    ['a JSON record without the field', ['--format', 'jsonl'], '{"text":"ok"}\n\n{"body":"x"}\n', /line 3: expected a JSON string or an object whose "text" is a string/],
    ['an unclosed CSV quote', ['--format', 'csv'], 'text\nok\n"never closed\n', /line 3: a quoted field is never closed/],
    ['a stray CSV quote', ['--format', 'csv'], 'text\nab"c\n', /line 2: a quote inside an unquoted field/],
    ['a CSV header without the column', ['--format', 'csv', '--field', 'body'], 'id,text\n1,x\n', /line 1: the header has no column "body" \(columns: id, text\)/],
    ['a short CSV record', ['--format', 'csv'], 'id,text\n1,x\n2\n', /line 3: the record has 1 fields, no "text"/],
    ['a CR between two quoted fields', ['--format', 'csv'], 'text\n"x"\r"y"\n', /line 2: text after the closing quote of a field/],
    ['Latin-1 text', [], Buffer.from('caf\u00e9\nna\u00efve\n', 'latin1'), /line 1: not valid UTF-8 \(byte 0xE9 at byte 4 of the line\)/],
    ['Latin-1 in a CSV field', ['--format', 'csv'], Buffer.concat([Buffer.from('text\n"one\ntwo'), Buffer.from([0xe9]), Buffer.from('"\n')]), /line 3: not valid UTF-8/],
    ['a binary file', [process.execPath], '', /line \d+: not valid UTF-8/],
  ];
  for (const [name, args, input, message] of inputErrors) {
    test(`${name}: exit 1 with the line`, () => {
      const run = cli(['dedup', ...args], input);
      assert.equal(run.status, 1);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    });
  }

  test('more pairs than memory holds: one line, exit 3', () => {
    const run = cli(['dedup', '--pairs', '--max-distance', '0'], 'same text\n'.repeat(100_000));
    assert.equal(run.status, 3);
    assert.match(run.stderr, /^simhash-wasm: the pairs within 0 bits of 100,000 records do not fit in memory \(.*\); lower --max-distance, or use --groups, which needs no list of pairs\n$/);
    assert.equal(run.stdout, '');
  });

  test('a missing file: exit 1', () => {
    const run = cli(['dedup', join(dir, 'missing.txt')]);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /cannot read input: ENOENT/);
  });

  const usageErrors = [
    [['dedupe'], /unknown command "dedupe"/],
    [['dedup', '--max-distance', '65'], /--max-distance takes an integer from 0 to 64, got "65"/],
    [['dedup', '--max-distance', '2.5'], /--max-distance takes an integer/],
    [['dedup', '--max-distance'], /--max-distance needs a value/],
    [['dedup', '--format', 'xml'], /--format takes one of lines, jsonl, csv/],
    [['dedup', '--tokenizer', 'x'], /--tokenizer takes one of auto, words, chars/],
    [['dedup', '--groups', '--pairs'], /exclude each other/],
    [['dedup', 'a.txt', 'b.txt'], /one input at most/],
    [['dedup', '--verbose'], /unknown option --verbose/],
  ];
  for (const [args, message] of usageErrors) {
    test(`usage error ${args.join(' ')}: exit 2`, () => {
      const run = cli(args);
      assert.equal(run.status, 2);
      assert.match(run.stderr, message);
    });
  }

  test('--help documents every option', () => {
    const run = cli(['dedup', '--help']);
    assert.equal(run.status, 0);
    for (const option of ['--max-distance', '--format', '--field', '--tokenizer', '--word-ngram', '--char-ngram', '--weighting', '--groups', '--pairs', '--progress', '--help']) {
      assert.ok(run.stdout.includes(`  ${option}`), option);
    }
    assert.match(run.stdout, /Exit codes: 0 ok, 1 input error/);
  });
});

test('no arguments: the bundled sample, its groups and the time taken', () => {
  const run = cli([]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, new RegExp(`^simhash-wasm: ${SAMPLE.length} sample texts`));
  assert.match(run.stdout, /group of \d+:\n {2}kept {5}\S/);
  assert.match(run.stdout, /\d+ unique of \d+; \d+ groups of near-duplicates\.\nWASM loaded in [\d.]+ ms; dedup took [\d.]+ ms\.\n$/);
});
