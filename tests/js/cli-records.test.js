// The command line on records (README "Records"): dedup of two or more --field columns and
// link of two files, their outputs (whole rows, why a member was merged, the review file) and
// mistakes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sh } from './helpers.js';
import { cli, dir, file, jsonLines } from './cli-helpers.js';
import { loadRecords } from '../bench/records-data.js';

describe('link: two files of records', () => {
  const [fodorsZagat] = loadRecords({ names: ['fodors-zagat'] });
  const n = fodorsZagat.sides[0].rows;
  const columns = ['name', 'addr', 'city', 'phone', 'type'];
  const csvOf = (rows) => [columns.join(','), ...rows.map((row) => columns.map((c) => `"${row[c].replaceAll('"', '""')}"`).join(','))].join('\n') + '\n';
  const [left, right] = [fodorsZagat.rows.slice(0, n), fodorsZagat.rows.slice(n)].map((rows) => rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]]))));

  test('CSV files: each link of sh.link as a JSON line with line numbers and records; the review file; JSON Lines from standard input', async () => {
    const [leftPath, rightPath] = [file('fodors.csv', csvOf(left)), file('zagat.csv', csvOf(right))];
    const reviewPath = join(dir, 'link-review.jsonl');
    const run = cli(['link', leftPath, rightPath, '--field', columns.join(','), '--review', '0.01', '--review-file', reviewPath]);
    assert.equal(run.status, 0, run.stderr);
    const expected = await sh.link(left, right, { review: 0.01, reviewLimit: 0xffffffff });
    const entry = ({ a, b, probability, apart, fields }) => ({
      a: { line: a + 2, record: left[a] }, b: { line: b + 2, record: right[b] }, probability, ...(apart && { apart }), fields,
    });
    assert.ok(expected.links.length > 100);
    assert.deepEqual(jsonLines(run.stdout), expected.links.map(entry));
    assert.deepEqual(jsonLines(readFileSync(reviewPath, 'utf8')), expected.review.map(entry));
    assert.equal(run.stderr, 'simhash-wasm: compared records by name (name), addr (name), city (name), phone (phone), type (name), linked at probability 0.1\n');
    const jsonl = right.map((row) => JSON.stringify(row)).join('\n') + '\n';
    const piped = cli(['link', leftPath, '-', '--field', 'name,phone', '--probability', '0.5', '--progress'], jsonl);
    assert.equal(piped.status, 0, piped.stderr);
    const strict = await sh.link(left, right, { fields: ['name', 'phone'], probability: 0.5 });
    assert.deepEqual(jsonLines(piped.stdout).map(({ a, b }) => [a.line - 2, b.line - 1]), strict.links.map(({ a, b }) => [a, b]));
    assert.match(piped.stderr, new RegExp(`simhash-wasm: ${n} and ${right.length} records, ${strict.links.length} links\n$`));
  });

  test('mistakes: one input or three, no --field, options of dedup or texts, a review above the probability, a bad column: exit 2 or 1', () => {
    const [leftPath, rightPath] = [file('l.csv', csvOf(left.slice(0, 5))), file('r.csv', csvOf(right.slice(0, 5)))];
    for (const [args, status, message] of [
      [[leftPath, '--field', 'name'], 2, /link takes two inputs, LEFT and RIGHT, got 1/],
      [[leftPath, rightPath, leftPath, '--field', 'name'], 2, /got 3/],
      [['-', '-', '--field', 'name'], 2, /one input at most from standard input/],
      [[leftPath, rightPath], 2, /link needs --field/],
      [[leftPath, rightPath, '--field', 'name', '--groups'], 2, /--groups does not apply to link/],
      [[leftPath, rightPath, '--field', 'name', '--similarity', '0.8'], 2, /--similarity does not apply to link/],
      [[leftPath, rightPath, '--field', 'name', '--review', '0.2', '--review-file', join(dir, 'x.jsonl')], 2, /--review must be below the probability 0.1/],
      [[leftPath, file('r.txt', 'a\n'), '--field', 'name'], 2, /give --format csv or jsonl/],
      [[leftPath, rightPath, '--field', 'name,nope'], 1, /l\.csv, line 1: the header has no column "nope"/],
    ]) {
      const run = cli(['link', ...args]);
      assert.equal(run.status, status, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
  });
});

describe('records: two or more columns with --field', () => {
  const contacts = readFileSync(new URL('../data/records/contacts.csv', import.meta.url), 'utf8');
  const columns = ['name', 'email', 'phone', 'city', 'company', 'birthday'];
  const rowsOf = (csv) => csv.trim().split('\n').slice(1);

  test('CSV: the rows sh.dedup(rows) keeps, header first; the review file with whole records and each field\'s reasons', async () => {
    const path = file('contacts.csv', contacts);
    const reviewPath = join(dir, 'contacts-review.jsonl');
    const run = cli(['dedup', path, '--field', columns.join(','), '--review', '0.1', '--review-file', reviewPath]);
    assert.equal(run.status, 0, run.stderr);
    const { parseRecords } = await import('../../js/cli/records.js');
    const { header, records } = parseRecords(contacts, 'csv');
    const rows = records.map((r) => Object.fromEntries(columns.map((c, i) => [c, r.fields[i + 1]])));
    // A person reads the rows whole: every column of the file, not only those compared.
    const whole = records.map((r) => Object.fromEntries(header.fields.map((c, i) => [c, r.fields[i]])));
    assert.ok(header.fields.length > columns.length);
    const expected = await sh.dedup(rows, { fields: Object.fromEntries(columns.map((c) => [c, 'auto'])), review: 0.1 });
    assert.deepEqual(run.stdout.trim().split('\n'), [contacts.split('\n')[0], ...expected.uniqueIndices.map((i) => rowsOf(contacts)[i])]);
    assert.equal(run.stderr, 'simhash-wasm: compared records by name (name), email (email), phone (phone), city (name), company (name), birthday (date), merged at probability 0.99\n');
    const review = jsonLines(readFileSync(reviewPath, 'utf8'));
    assert.equal(review.length, expected.review.length);
    for (const [entry, { a, b, probability, fields }] of review.map((e, k) => [e, expected.review[k]])) {
      assert.deepEqual([entry.a.line, entry.b.line, entry.a.record, entry.b.record, entry.probability, entry.fields], [a + 2, b + 2, whole[a], whole[b], probability, fields]);
    }
    const groups = cli(['dedup', path, '--field', 'name', '--field', 'email', '--groups']);
    assert.equal(groups.status, 0, groups.stderr);
    const grouped = jsonLines(groups.stdout);
    const byTwo = await sh.dedup(rows.map(({ name, email }) => ({ name, email })), { fields: { name: 'auto', email: 'auto' } });
    assert.deepEqual(grouped.map(({ group }) => group.map(({ line }) => line - 2)), byTwo.groups);
    grouped.forEach(({ group }, g) => group.forEach(({ line, record, probability, levels }, m) => {
      assert.deepEqual(record, whole[line - 2]);
      // Why a member was merged: its probability and each field's level; the kept row has none.
      assert.deepEqual(m ? { probability, levels } : { probability, levels }, m
        ? { probability: byTwo.merged[g][m - 1].probability, levels: { name: byTwo.merged[g][m - 1].levels[0], email: byTwo.merged[g][m - 1].levels[1] } }
        : { probability: undefined, levels: undefined });
    }));
    assert.match(groups.stderr, /compared records by name \(name\), email \(email\), merged at probability 0\.99; \d+ uncertain pairs not merged/);
  });

  test('JSON lines: the properties named, kinds and the probability given', () => {
    const lines = ['{"n":"Ada Lovelace","mail":"ada@example.com","id":"A-100"}', '{"n":"Lovelace, Ada","mail":"ADA@example.com","id":"A-100"}',
      '{"n":"Charles Babbage","mail":"cb@example.com"}'];
    const run = cli(['dedup', '--format', 'jsonl', '--field', 'n,mail,id', '--kind', 'id=exact', '--probability', '0.9'], `${lines.join('\n')}\n`);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${lines[0]}\n${lines[2]}\n`);
    assert.match(run.stderr, /by n \(name\), mail \(email\), id \(exact\), merged at probability 0\.9/);
    // A value no text says, in a column named: an input error naming the line; in one not named, nothing.
    const nested = [...lines, '{"n":"Ada Lovelace","mail":{"home":"ada@example.com"}}'];
    const bad = cli(['dedup', '--format', 'jsonl', '--field', 'n,mail'], `${nested.join('\n')}\n`);
    assert.equal(bad.status, 1, bad.stderr);
    assert.equal(bad.stderr, 'simhash-wasm: line 4: "mail" holds an object: a record\'s values are text, numbers, booleans or null\n');
    assert.equal(cli(['dedup', '--format', 'jsonl', '--field', 'n,id'], `${nested.join('\n')}\n`).status, 0);
  });

  test('mistakes: a column named twice or missing, options of texts, kinds or a probability without records: exit 2 or 1 with the reason', () => {
    const path = file('contacts-2.csv', contacts);
    for (const [args, status, message] of [
      [['--field', 'name', '--field', 'name'], 2, /--field names the column "name" twice/],
      [['--field', 'name,,email'], 2, /an empty one/],
      [['--field', 'name,nope'], 1, /the header has no column "nope"/],
      [['--field', 'name,email', '--similarity', '0.5'], 2, /--similarity does not apply to records/],
      [['--field', 'name,email', '--index', 'x'], 2, /--index does not apply to records/],
      [['--field', 'name,email', '--kind', 'email=mail'], 2, /--kind takes NAME=KIND/],
      [['--field', 'name,email', '--kind', 'city=name'], 2, /--kind names the column "city", which --field does not/],
      [['--field', 'name', '--kind', 'name=name'], 2, /--kind needs records/],
      [['--field', 'name', '--probability', '0.9'], 2, /--probability needs records/],
      [['--field', 'name,email', '--probability', '1'], 2, /--probability takes a number above 0 and below 1/],
      [['--field', 'name,email', '--review', '0.995', '--review-file', join(dir, 'r.jsonl')], 2, /--review must be below the probability 0.99/],
      [['--field', 'name,email', '--format', 'lines'], 2, /need --format csv or jsonl/],
    ]) {
      const run = cli(['dedup', path, ...args]);
      assert.equal(run.status, status, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
    const json = cli(['dedup', '--format', 'jsonl', '--field', 'a,b'], '{"a":"x"}\n{"a":"y"}\n');
    assert.equal(json.status, 2, json.stderr);
    assert.match(json.stderr, /--field names the column 'b', which no record has/);
  });
});
