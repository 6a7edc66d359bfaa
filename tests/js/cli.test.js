// The command line as scripts use it: input formats, outputs, errors and exit codes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { NAMES_SAMPLE } from '../../js/cli/names-sample.js';
import { SAMPLE, SAMPLE_PLANTED } from '../../js/cli/sample.js';
import { DEFAULT_SIMILARITY, usesBanding } from '../../js/core/thresholds.js';
import { sh } from './helpers.js';
import { CLI, cli, cliBytes, dir, file, jsonLines } from './cli-helpers.js';

describe('dedup of lines', () => {
  test('keeps the first of each group, in input order, from stdin, line endings unchanged', () => {
    const run = cli(['dedup'], 'The cat sat.\nthe cat sat!\nSomething else\r\nThe cat sat\n');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'The cat sat.\nSomething else\r\n');
    assert.equal(run.stderr, 'simhash-wasm: compared by the short measure at similarity 0.6\n', 'no progress when stderr is not a terminal');
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

  test('--groups writes JSON lines with line numbers and each member\'s similarity to the kept one (distances with --max-distance alone)', () => {
    const run = cli(['dedup', '-', '--groups'], 'The cat sat.\nSomething else\nthe cat sat!\nJohn Smith\nSmith, Jon\n');
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(jsonLines(run.stdout), [
      { group: [{ line: 1, similarity: 1, text: 'The cat sat.' }, { line: 3, similarity: 1, text: 'the cat sat!' }] },
      { group: [{ line: 4, similarity: 0.75, text: 'John Smith' }, { line: 5, similarity: 0.75, text: 'Smith, Jon' }].map((m, i) => (i ? m : { ...m, similarity: 1 })) },
    ]);
    const text = cli(['dedup', '-', '--groups', '--measure', 'text'], 'John Smith\nSmith, Jon\nJohn Smith!\n');
    assert.deepEqual(jsonLines(text.stdout), [{ group: [{ line: 1, similarity: 1, text: 'John Smith' }, { line: 3, similarity: 1, text: 'John Smith!' }] }]);
    const bits = cli(['dedup', '-', '--groups', '--max-distance', '3'], 'The cat sat.\nthe cat sat!\n');
    assert.deepEqual(jsonLines(bits.stdout), [{ group: [{ line: 1, distance: 0, text: 'The cat sat.' }, { line: 2, distance: 0, text: 'the cat sat!' }] }]);
    assert.equal(cli(['dedup', '-', '--measure', 'names'], 'a\n').status, 2);
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
    for (const option of ['--max-distance', '--format', '--field', '--tokenizer', '--word-ngram', '--char-ngram', '--weighting', '--groups', '--pairs', '--index', '--update', '--progress', '--help']) {
      assert.ok(run.stdout.includes(`  ${option}`), option);
    }
    assert.match(run.stdout, /Exit codes: 0 ok, 1 input error/);
  });
});

describe('dedup --index: incremental runs against a text index file', () => {
  const HAN = /\p{Script=Han}/u;
  /** A typo: two different neighbouring letters of the longest word swapped. */
  const typo = (text) => {
    const words = text.split(' ');
    let longest = 0;
    words.forEach((word, i) => { if (word.length > words[longest].length) longest = i; });
    const word = words[longest];
    let k = word.length >> 1;
    while (k < word.length - 1 && word[k - 1] === word[k]) k++;
    words[longest] = word.slice(0, k - 1) + word[k] + word[k - 1] + word.slice(k + 1);
    return words.join(' ');
  };
  /** A Chinese edit: a character inserted mid-text and half-width commas. */
  const zhEdit = (text) => {
    const chars = Array.from(text);
    const han = chars.flatMap((c, i) => (HAN.test(c) ? [i] : []));
    chars.splice(han[han.length >> 1], 0, '也');
    return chars.join('').replaceAll('，', ',');
  };
  const lightEdit = (text) => (HAN.test(text) ? zhEdit(text) : typo(text));

  // Batch 1: the first half of the sample. Batch 2: the second half (which holds planted
  // near-duplicates of both halves), with light edits of batch 1 texts and of its own
  // earlier records mixed in; some lines end in CRLF.
  const batch1 = SAMPLE.slice(0, 170);
  const ofBatch1 = []; // [edit, source]
  const ofItself = [];
  const batch2 = [];
  const plant = (edits, source) => {
    const edit = lightEdit(source);
    edits.push([edit, source]);
    batch2.push(edit);
  };
  SAMPLE.slice(170).forEach((text, i) => {
    batch2.push(text);
    if (i % 6 === 2) plant(ofBatch1, batch1[(i * 7) % batch1.length]);
    if (i % 8 === 5) plant(ofItself, batch2[batch2.length - 3]);
  });
  const lines = (texts) => texts.map((text, i) => `${text}${i % 5 === 1 ? '\r\n' : '\n'}`);
  const batch1Lines = lines(batch1);
  const batch2Lines = lines(batch2);
  const batch1File = file('batch1.txt', batch1Lines.join(''));
  const batch2File = file('batch2.txt', batch2Lines.join(''));
  const indexDir = mkdtempSync(join(dir, 'index-'));
  let fresh = 0;
  const freshIndex = () => join(indexDir, `seen-${fresh++}.idx`);
  const temporaries = (path) => readdirSync(indexDir).filter((name) => name.startsWith(`${basename(path)}.`) && name.endsWith('.tmp'));

  test('the data: light edits in both languages at the default similarity, and the stream contract applies', () => {
    const zh = ofBatch1.filter(([edit]) => HAN.test(edit)).length;
    assert.ok(zh >= 5 && ofBatch1.length - zh >= 5, `${zh} Chinese and ${ofBatch1.length - zh} English edits of batch 1`);
    assert.ok(ofItself.length >= 10, `${ofItself.length} edits of batch 2's own records`);
    for (const [edit, source] of [...ofBatch1, ...ofItself]) {
      const similarity = sh.similarity(source, edit);
      assert.ok(similarity >= DEFAULT_SIMILARITY && similarity < 1, `${edit}: similarity ${similarity}`);
    }
    assert.ok(usesBanding(DEFAULT_SIMILARITY, [...new Set([...batch1, ...batch2])]), 'dedup bands these texts');
  });

  test('two batches: the second keeps what dedup of both keeps of it; --update adds the kept texts', async (t) => {
    const index = freshIndex();
    const first = cli(['dedup', batch1File, '--index', index, '--update']);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, cli(['dedup', batch1File]).stdout, 'a new index keeps what dedup keeps');
    const seen = readFileSync(index);

    const all = await sh.dedup([...batch1, ...batch2]);
    const expected = all.uniqueIndices.filter((i) => i >= batch1.length).map((i) => batch2Lines[i - batch1.length]).join('');
    const second = cli(['dedup', batch2File, '--index', index]);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, expected);
    assert.deepEqual(readFileSync(index), seen, 'without --update the index file is only read');
    // An edit of a kept record (of batch 1, or earlier in batch 2) is dropped; batch 2 alone
    // keeps the edits of batch 1's.
    const kept = new Set(second.stdout.split(/\r?\n/));
    const keptBefore = new Set([...first.stdout.split(/\r?\n/), ...kept]);
    const alone = new Set(cli(['dedup', batch2File]).stdout.split(/\r?\n/));
    const checked = { zh: 0, en: 0, itself: 0 };
    for (const [edits, kind] of [[ofBatch1, 'batch 1'], [ofItself, 'itself']]) {
      for (const [edit, source] of edits.filter(([, source]) => keptBefore.has(source))) {
        assert.ok(!kept.has(edit), `${edit} (an edit of ${source}) is dropped`);
        if (kind === 'itself') checked.itself++;
        else {
          assert.ok(alone.has(edit), `${edit}: a near-duplicate of batch 1's only`);
          checked[HAN.test(edit) ? 'zh' : 'en']++;
        }
      }
    }
    t.diagnostic(`edits of kept records dropped: ${checked.en} English and ${checked.zh} Chinese of batch 1's, ${checked.itself} of batch 2's own`);
    assert.ok(checked.zh >= 5 && checked.en >= 5 && checked.itself >= 5, JSON.stringify(checked));

    const updated = cliBytes(['dedup', '-', '--index', index, '--update'], readFileSync(batch2File));
    assert.equal(updated.status, 0, updated.stderr);
    assert.equal(updated.stdout.toString(), expected, 'stdin (-) as a file');
    assert.deepEqual(temporaries(index), []);
    for (const batch of [batch1File, batch2File]) {
      const rerun = cli(['dedup', batch, '--index', index]);
      assert.equal(rerun.status, 0, rerun.stderr);
      assert.equal(rerun.stdout, '', 'every record of both batches is in the updated index');
    }
  });

  test('--update replaces the file by a rename: a new file (inode) with the old permission bits, nothing left beside it', () => {
    const index = freshIndex();
    assert.equal(cli(['dedup', batch1File, '--index', index, '--update']).status, 0);
    chmodSync(index, 0o640);
    const before = statSync(index);
    const run = cli(['dedup', batch2File, '--index', index, '--update']);
    assert.equal(run.status, 0, run.stderr);
    const after = statSync(index);
    assert.notEqual(after.ino, before.ino, 'not rewritten in place');
    assert.equal(after.mode & 0o7777, 0o640);
    assert.ok(after.size > before.size);
    assert.deepEqual(temporaries(index), []);
  });

  test('JSON Lines and CSV with --field: records byte for byte, the CSV header once', () => {
    const index = freshIndex();
    const jsonl = file('first.jsonl', '{"id":1,"body":"The cat sat on the mat today"}\n"Bare strings are records too"\n');
    assert.equal(cli(['dedup', jsonl, '--field', 'body', '--index', index, '--update']).status, 0);
    const csv = file('second.csv', 'id,body\r\n2,"the cat sat on the mat, today!"\r\n3,"A new, different text"\r\n4,a new different text\r\n');
    const run = cli(['dedup', csv, '--field', 'body', '--index', index, '--update']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'id,body\r\n3,"A new, different text"\r\n');
    const again = cli(['dedup', '--format', 'jsonl', '--field', 'body', '--index', index], '{"body":"bare strings are records, too"}\n{"body":"something unseen"}\n');
    assert.equal(again.stdout, '{"body":"something unseen"}\n');
  });

  test('--progress reports the index, the reading and the result', () => {
    const index = freshIndex();
    const run = cli(['dedup', '--index', index, '--update', '--progress'], 'a b c d\nA B C D!\nsomething else\n');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'a b c d\nsomething else\n');
    assert.match(run.stderr, new RegExp(`^simhash-wasm: index ${index}: 0 texts, similarity ${DEFAULT_SIMILARITY}$`, 'm'));
    assert.match(run.stderr, /^simhash-wasm: reading: [\d.]+ MB, 3 records, 2 kept$/m);
    assert.match(run.stderr, new RegExp(`^simhash-wasm: writing ${index}: 2 texts$`, 'm'));
    assert.match(run.stderr, new RegExp(`simhash-wasm: 3 records, 2 kept, 1 near-duplicates; ${index}: 2 texts \\(2 added\\)\\n$`));
    const reread = cli(['dedup', '--index', index, '--progress'], 'a b c d\nnew text\n');
    assert.match(reread.stderr, new RegExp(`^simhash-wasm: loading index ${index}: 0\\.0 MB$`, 'm'));
    assert.match(reread.stderr, new RegExp(`simhash-wasm: 2 records, 1 kept, 1 near-duplicates; ${index}: 2 texts \\(not updated\\)\\n$`));
  });

  test('a missing index file: an input error naming it without --update, a new index with it', () => {
    const index = freshIndex();
    const missing = cli(['dedup', batch1File, '--index', index]);
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, `simhash-wasm: index file ${index} does not exist (--update creates it)\n`);
    assert.equal(missing.stdout, '');
    assert.ok(!existsSync(index));
    const created = cli(['dedup', '--index', index, '--update'], 'one text here\n');
    assert.equal(created.status, 0, created.stderr);
    assert.equal(created.stdout, 'one text here\n');
    assert.equal(cli(['dedup', '--index', index], 'One text here!\n').stdout, '');
  });

  test('the index keeps its similarity: a different --similarity is a usage error naming both', () => {
    const index = freshIndex();
    const source = batch1[1];
    const edit = typo(source);
    const similarity = sh.similarity(source, edit);
    assert.ok(similarity >= DEFAULT_SIMILARITY && similarity < 0.9, `similarity ${similarity}`);
    assert.equal(cli(['dedup', '--index', index, '--update', '--similarity', '0.9'], `${source}\n`).status, 0);
    const seen = readFileSync(index);
    for (const other of ['0.8', '0.95', '1']) {
      const run = cli(['dedup', '--index', index, '--similarity', other, '--update'], `${edit}\n`);
      assert.equal(run.status, 2);
      assert.match(run.stderr, new RegExp(`--similarity ${Number(other)} differs from the similarity of index file ${index}, 0\\.9`));
      assert.equal(run.stdout, '');
    }
    assert.deepEqual(readFileSync(index), seen);
    assert.equal(cli(['dedup', '--index', index, '--similarity', '0.90'], `${edit}\n`).stdout, `${edit}\n`, 'at 0.9 the typo is new');
    assert.equal(cli(['dedup', '--index', index], `${edit}\n`).stdout, `${edit}\n`, 'without --similarity, the index\'s');
  });

  describe('a corrupt index file: exit 1 naming it, the file unchanged', () => {
    const cases = [
      ['a flipped byte', (bytes) => { const copy = Buffer.from(bytes); copy[copy.length >> 1] ^= 0x10; return copy; }],
      ['the last byte cut', (bytes) => bytes.subarray(0, bytes.length - 1)],
      ['cut in half', (bytes) => bytes.subarray(0, bytes.length >> 1)],
      ['empty', () => Buffer.alloc(0)],
      ['not an index', () => Buffer.from('The cat sat on the mat.\n')],
    ];
    for (const [name, damage] of cases) {
      test(name, () => {
        const index = freshIndex();
        assert.equal(cli(['dedup', batch1File, '--index', index, '--update']).status, 0);
        const corrupt = damage(readFileSync(index));
        writeFileSync(index, corrupt);
        for (const update of [[], ['--update']]) {
          const run = cli(['dedup', batch2File, '--index', index, ...update]);
          assert.equal(run.status, 1, run.stderr);
          assert.match(run.stderr, new RegExp(`^simhash-wasm: index file ${index} is not a valid text index \\(.+\\); it is left as it is\\n$`));
          assert.equal(run.stdout, '');
          assert.deepEqual(readFileSync(index), corrupt);
          assert.deepEqual(temporaries(index), []);
        }
      });
    }
  });

  const usageErrors = [
    [['--update'], /--update needs --index INDEX/],
    [['--index'], /--index needs a value/],
    [['--index', 'x.idx', '--groups'], /--groups does not apply with --index/],
    [['--index', 'x.idx', '--pairs'], /--pairs does not apply with --index/],
    [['--index', 'x.idx', '--max-distance', '3'], /--max-distance does not apply with --index \(an index verifies every candidate by similarity/],
    [['--index', 'x.idx', '--tokenizer', 'words'], /--tokenizer does not apply with --index \(an index compares texts by similarity, which fingerprint options do not change\)/],
    [['--index', 'x.idx', '--keep-punctuation', '--update'], /--keep-punctuation does not apply with --index/],
  ];
  for (const [args, message] of usageErrors) {
    test(`usage error dedup ${args.join(' ')}: exit 2`, () => {
      const run = cli(['dedup', ...args]);
      assert.equal(run.status, 2);
      assert.match(run.stderr, message);
    });
  }

  describe('an interrupted --update leaves the index file whole', () => {
    // A large input of distinct texts (7 MB, about 2 s of work): sentences of random words
    // of random letters (xorshift32), whose shingles are spread as a language's are.
    let state = 0x9e3779b9;
    const next = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    };
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const vocabulary = Array.from({ length: 20_000 }, () => Array.from({ length: 3 + Math.floor(next() * 6) }, () => letters[Math.floor(next() * 26)]).join(''));
    const big = Array.from({ length: 120_000 }, () => `${Array.from({ length: 9 }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ')}\n`).join('');
    const bigFile = file('big.txt', big);

    /** An index of batch 1, its bytes, and a run of --update on the big input, spawned. */
    function updateRun({ stdout = 'ignore' } = {}) {
      const index = freshIndex();
      assert.equal(cli(['dedup', batch1File, '--index', index, '--update']).status, 0);
      const old = readFileSync(index);
      const child = spawn(process.execPath, [CLI, 'dedup', bigFile, '--index', index, '--update', '--progress'], { stdio: ['ignore', stdout, 'pipe'] });
      const exited = once(child, 'exit');
      return { index, old, child, exited };
    }

    /** The index answers: batch 1 is all seen. */
    function assertLoads(index) {
      const run = cli(['dedup', batch1File, '--index', index]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, '');
    }

    test('SIGKILL while it reads: the old file byte for byte, and it loads', async () => {
      const { index, old, child, exited } = updateRun();
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (data) => {
        stderr += data;
        if (/reading: .*, [1-9][\d,]* kept/.test(stderr)) child.kill('SIGKILL');
      });
      const [code, signal] = await exited;
      assert.equal(signal, 'SIGKILL', `killed while it ran (exit ${code}; ${stderr})`);
      assert.deepEqual(readFileSync(index), old);
      assertLoads(index);
      const left = temporaries(index);
      assert.deepEqual(left, [`${basename(index)}.${child.pid}.tmp`], 'the new index was being made beside it');
      for (const name of left) unlinkSync(join(indexDir, name));
    });

    test('SIGTERM while it reads: the old file, and the temporary file removed', async () => {
      const { index, old, child, exited } = updateRun();
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (data) => {
        stderr += data;
        if (/reading: .*, [1-9][\d,]* kept/.test(stderr)) child.kill('SIGTERM');
      });
      const [code, signal] = await exited;
      assert.equal(signal, 'SIGTERM', `ended by the signal (exit ${code}; ${stderr})`);
      assert.deepEqual(readFileSync(index), old);
      assert.deepEqual(temporaries(index), []);
    });

    test('the output closed early (| head): exit 0, the index not updated, and it says so', async () => {
      const { index, old, child, exited } = updateRun({ stdout: 'pipe' });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (data) => { stderr += data; });
      child.stdout.once('data', () => child.stdout.destroy());
      const [code] = await exited;
      assert.equal(code, 0, stderr);
      assert.match(stderr, new RegExp(`simhash-wasm: ${index} is not updated \\(the run ended early\\)\n$`));
      assert.deepEqual(readFileSync(index), old);
      assert.deepEqual(temporaries(index), []);
    });

    test('SIGKILL once the new index holds bytes: the old file or the whole new one, never a part', async (t) => {
      const { index, old, child, exited } = updateRun();
      const temporary = `${basename(index)}.${child.pid}.tmp`;
      let sawTemporary = false;
      let sawBytes = false;
      const watcher = watch(indexDir, (event, name) => {
        if (name !== temporary || sawBytes) return;
        sawTemporary = true;
        try {
          sawBytes = statSync(join(indexDir, name)).size > 0;
        } catch {
          return; // renamed already
        }
        if (sawBytes) child.kill('SIGKILL');
      });
      const [code, signal] = await exited;
      watcher.close();
      assert.ok(sawTemporary, 'the new index is written beside the old one');
      assert.ok(sawBytes || code === 0, `exit ${code}, signal ${signal}`);
      const now = readFileSync(index);
      t.diagnostic(signal === 'SIGKILL' && now.equals(old) ? 'killed before the rename: the old file' : 'the rename came first: the new file');
      if (!now.equals(old)) assert.ok(now.length > old.length, 'the new index holds more texts');
      assertLoads(index);
      for (const name of temporaries(index)) unlinkSync(join(indexDir, name));
    });
  });
});

describe('review pairs', () => {
  const texts = [...SAMPLE.slice(0, 60), 'How do I reset my password?', 'How can I reset my password?', ...SAMPLE.slice(0, 60).map((t) => t.replace(/^\S+/, 'So').replace(/\S+$/, 'again'))];
  const input = `${texts.join('\n')}\n\n`; // a blank line at the end: not a record

  test('--review R --review-file FILE: the records as without it, and the review pairs of dedup({ review }) with line numbers and texts', async () => {
    const path = join(dir, 'review.jsonl');
    const plain = cli(['dedup'], input);
    const run = cli(['dedup', '--review', '0.5', '--review-file', path], input);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, plain.stdout);
    const { review } = await sh.dedup(texts, { review: 0.5 });
    assert.ok(review.length > 10, `${review.length} review pairs`);
    const expected = review.map(({ a, b, similarity }) => ({ a: { line: a + 1, text: texts[a] }, b: { line: b + 1, text: texts[b] }, similarity }));
    assert.deepEqual(jsonLines(readFileSync(path, 'utf8')), expected);
    const limited = cli(['dedup', '--review', '0.5', '--review-file', path, '--review-limit', '3', '--groups'], input);
    assert.equal(limited.status, 0, limited.stderr);
    assert.deepEqual(jsonLines(readFileSync(path, 'utf8')), expected.slice(0, 3));
  });

  test('look-alikes: kept apart, counted on stderr without a review file, listed with what differs in it', () => {
    const list = 'Deutsche Bank AG\n125 Main Street\nDeutsche Bahn AG\n123 Main Street\nDeutsche Bank AG.\n';
    const run = cli(['dedup'], list);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'Deutsche Bank AG\n125 Main Street\nDeutsche Bahn AG\n123 Main Street\n');
    assert.equal(run.stderr, 'simhash-wasm: compared by the short measure at similarity 0.6; 2 look-alikes kept apart, not merged '
      + '(--review R --review-file FILE lists them)\n');
    const path = join(dir, 'look-alikes.jsonl');
    const reviewed = cli(['dedup', '--review', '0.5', '--review-file', path], list);
    assert.equal(reviewed.status, 0, reviewed.stderr);
    assert.equal(reviewed.stderr, 'simhash-wasm: compared by the short measure at similarity 0.6\n');
    const lines = jsonLines(readFileSync(path, 'utf8'));
    assert.deepEqual(lines.map(({ a, b, differs }) => [a.line, b.line, differs]), [
      [1, 3, { words: [['Bank'], ['Bahn']] }],
      [2, 4, { numbers: [['125'], ['123']] }],
    ]);
  });

  test('a text holding another\'s words: listed in the review file with "contained", as dedup lists it', async () => {
    const list = ['Spago', 'Spago (Los Angeles)', 'Bones', 'Bones Restaurant', 'Chez Panisse', 'Campanile', 'Fenix', 'Jiraffe'];
    const path = join(dir, 'contained.jsonl');
    const run = cli(['dedup', '--review', '0.5', '--review-file', path], `${list.join('\n')}\n`);
    assert.equal(run.status, 0, run.stderr);
    const { review } = await sh.dedup(list, { review: 0.5 });
    assert.ok(review.some((entry) => entry.contained), JSON.stringify(review));
    assert.deepEqual(jsonLines(readFileSync(path, 'utf8')).map(({ a, b, contained }) => [a.line, b.line, contained]),
      review.map(({ a, b, contained }) => [a + 1, b + 1, contained]));
  });

  test('look-alikes past the review limit are counted on stderr too', async () => {
    const models = Array.from({ length: 2000 }, (_, i) => `Acme Stainless Widget Deluxe Model ${1000 + i}`);
    const { review, reviewOmitted } = await sh.dedup(models);
    assert.ok(reviewOmitted > 0, `${reviewOmitted} past the limit`);
    const run = cli(['dedup'], `${models.join('\n')}\n`);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`; ${(review.length + reviewOmitted).toLocaleString('en')} look-alikes kept apart`));
  });

  test('--review mistakes: exit 2 with the reason; a file that cannot be written: exit 1 before any output', () => {
    const path = join(dir, 'unused.jsonl');
    for (const [args, message] of [
      [['--review', '0.5'], /--review needs --review-file FILE/],
      [['--review-file', path], /--review-file needs --review R/],
      [['--review-limit', '5'], /--review-limit needs --review R/],
      [['--review', '0.4', '--review-file', path], /--review must be at least 0.5 and below the similarity 0.8, got 0.4/],
      [['--review', '0.7', '--similarity', '0.7', '--review-file', path], /below the similarity 0.7/],
      [['--review', '0.5', '--max-distance', '3', '--review-file', path], /--review needs dedup by similarity/],
      [['--review', '0.5', '--pairs', '--review-file', path], /--review does not apply with --pairs/],
      [['--review', '0.5', '--index', path, '--review-file', path], /--review does not apply with --index/],
    ]) {
      const run = cli(['dedup', ...args], input);
      assert.equal(run.status, 2, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
    }
    const unwritable = cli(['dedup', '--review', '0.5', '--review-file', join(dir, 'no-such-dir', 'review.jsonl')], input);
    assert.equal(unwritable.status, 1);
    assert.equal(unwritable.stdout, '');
    assert.match(unwritable.stderr, /cannot write --review-file .*no-such-dir.*ENOENT/);
  });
});

test('no arguments: the bundled samples, names then quotes, their groups, the look-alikes kept apart and the time taken', () => {
  const run = cli([]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, new RegExp(`^simhash-wasm: ${NAMES_SAMPLE.length} names, companies, addresses and products, compared by the short measure at similarity 0.6 \\(the defaults\\)`));
  assert.match(run.stdout, /\nkept apart, for review:\n(?: .*\n)*? {2}0\.\d\d {2}123 Main Street, Springfield {2}\/ {2}125 Main Street, Springfield {2}\(numbers 123 \/ 125 differ\)\n/);
  assert.match(run.stdout, new RegExp(`\\nsimhash-wasm: ${SAMPLE.length} sample texts`));
  assert.match(run.stdout, new RegExp(`compared by the text measure at similarity ${DEFAULT_SIMILARITY} \\(the defaults\\)`));
  assert.match(run.stdout, /group of \d+:\n {2}kept {3}\S.*\n {3}[01]\.\d\d {2}\S/);
  assert.match(run.stdout, /\d+ unique of \d+; \d+ groups of near-duplicates; 2 look-alikes kept apart\.\n\n[^]*\d+ unique of \d+; \d+ groups of near-duplicates\.\n\nWASM loaded in [\d.]+ ms; dedup took [\d.]+ ms\.\n$/);
});

