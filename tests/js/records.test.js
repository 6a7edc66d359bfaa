// The record parser shared by the CLI (streaming) and the demo (whole file): js/cli/records.js.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { InputError, RecordParser, formatOf, parseRecords, textPicker } from '../../js/cli/records.js';

const utf8 = (text) => new TextEncoder().encode(text);

/** The records of `input` pushed in the given chunk sizes (cycled), header included. */
function chunked(input, format, sizes) {
  const bytes = typeof input === 'string' ? utf8(input) : input;
  const parser = new RecordParser(format);
  const records = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = sizes[k % sizes.length];
    records.push(...parser.push(bytes.subarray(at, at + size)));
    at += size;
  }
  records.push(...parser.end());
  return { records, blank: parser.blank };
}

const lines = (input) => parseRecords(input, 'lines').records.map(({ line, raw, text }) => [line, raw, text]);
const csv = (input) => {
  const { header, records } = parseRecords(input, 'csv');
  return [header.fields, ...records.map((r) => [r.line, ...r.fields])];
};

function throwsAt(run, line, message) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof InputError, `an InputError, got ${error}`);
    assert.equal(error.line, line);
    assert.match(error.message, message);
    return true;
  });
}

describe('lines', () => {
  test('raw keeps the line ending, text drops it; line numbers count blank lines', () => {
    assert.deepEqual(lines('a\r\nb\n\n  \t\r\nc'), [[1, 'a\r\n', 'a'], [2, 'b\n', 'b'], [5, 'c', 'c']]);
    assert.equal(parseRecords('a\n\n \n', 'lines').blank, 2);
  });

  test('a BOM at the start is dropped; one later on is text', () => {
    assert.deepEqual(lines('\uFEFFa\n\uFEFFb\n'), [[1, 'a\n', 'a'], [2, '\uFEFFb\n', '\uFEFFb']]);
    assert.deepEqual(chunked('\uFEFFa\n', 'lines', [1]).records.map((r) => r.raw), ['a\n'], 'a BOM split across chunks');
    assert.deepEqual(lines('\uFEFF'), []);
    assert.deepEqual(lines('x'), [[1, 'x', 'x']], 'an input shorter than a BOM');
  });

  test('a CR is part of the ending only before LF or at the end', () => {
    assert.deepEqual(lines('a\rb\nc\r'), [[1, 'a\rb\n', 'a\rb'], [2, 'c\r', 'c']]);
  });

  test('the raw texts of the records are the input, byte for byte, BOM and blank lines aside', () => {
    const input = 'one\r\ntwo\nthree 三\r\n\nfour';
    assert.equal(parseRecords(`\uFEFF${input}`, 'lines').records.map((r) => r.raw).join(''), input.replace('\n\n', '\n'));
  });
});

describe('CSV (RFC 4180)', () => {
  test('quoted fields with commas, doubled quotes, line breaks (counted), empty fields', () => {
    const input = 'id,text,n\r\n1,"a, b",x\r\n2,"say ""hi""",\r\n3,"multi\r\nline\nfield",z\r\n4,,\r\n5,"",""\n';
    assert.deepEqual(csv(input), [
      ['id', 'text', 'n'],
      [2, '1', 'a, b', 'x'],
      [3, '2', 'say "hi"', ''],
      [4, '3', 'multi\r\nline\nfield', 'z'],
      [7, '4', '', ''],
      [8, '5', '', ''],
    ]);
    const { records, header } = parseRecords(input, 'csv');
    assert.equal(header.raw + records.map((r) => r.raw).join(''), input);
    assert.equal(header.header, true);
  });

  test('the end of the input: a last record without an ending, a final comma, a final CR', () => {
    assert.deepEqual(csv('a,b\n1,2'), [['a', 'b'], [2, '1', '2']]);
    assert.deepEqual(csv('a,b\n1,'), [['a', 'b'], [2, '1', '']]);
    assert.deepEqual(csv('a,b\n1,"2"\r'), [['a', 'b'], [2, '1', '2']]);
    assert.deepEqual(csv('a,b\n1,2\r'), [['a', 'b'], [2, '1', '2']]);
  });

  test('BOM, blank lines, a header alone', () => {
    assert.deepEqual(csv('\uFEFFbody,id\n\n  \nx,1\n'), [['body', 'id'], [4, 'x', '1']]);
    assert.deepEqual(csv('text'), [['text']]);
  });

  test('malformed quoting is an input error naming its line', () => {
    throwsAt(() => parseRecords('text\n"x"\r"y"\n', 'csv'), 2, /text after the closing quote/);
    throwsAt(() => parseRecords('text\n"x"y\n', 'csv'), 2, /text after the closing quote/);
    throwsAt(() => parseRecords('text\nok\nab"c\n', 'csv'), 3, /a quote inside an unquoted field/);
    throwsAt(() => parseRecords('text\n"a\nb\nc"d\n', 'csv'), 4, /text after the closing quote/);
    throwsAt(() => parseRecords('text\nok\n"never\nclosed\n', 'csv'), 3, /a quoted field is never closed/);
    throwsAt(() => parseRecords('', 'csv'), 1, /no header record/);
    throwsAt(() => parseRecords('\n\n', 'csv'), 1, /no header record/);
  });
});

describe('JSON Lines', () => {
  test('values, CRLF, blank lines; malformed JSON names its line', () => {
    const { records, blank } = parseRecords('\uFEFF{"text":"a"}\r\n\r\n"b"\n[1]', 'jsonl');
    assert.deepEqual(records.map(({ line, raw, value }) => [line, raw, value]), [[1, '{"text":"a"}\r\n', { text: 'a' }], [3, '"b"\n', 'b'], [4, '[1]', [1]]]);
    assert.equal(blank, 1);
    throwsAt(() => parseRecords('{"text":"ok"}\n{"text":\n', 'jsonl'), 2, /not valid JSON/);
  });
});

describe('textPicker', () => {
  test('lines, a JSON string or an own string property, a CSV column', () => {
    assert.equal(textPicker('lines', 'text')({ text: 'x' }), 'x');
    const json = textPicker('jsonl', 'body');
    assert.deepEqual([{ body: 'b' }, 'bare', { body: 1 }, null, [1], { text: 'x' }, {}].map((value) => json({ value })), ['b', 'bare', undefined, undefined, undefined, undefined, undefined]);
    assert.equal(textPicker('jsonl', 'constructor')({ value: {} }), undefined, 'inherited properties are not fields');
    const { header, records } = parseRecords('id,body\n1,hello\n2\n', 'csv');
    const column = textPicker('csv', 'body', header);
    assert.deepEqual(records.map(column), ['hello', undefined]);
    assert.equal(textPicker('csv', 'missing', header)(records[0]), undefined);
  });
});

describe('UTF-8', () => {
  const cases = [
    ['a Latin-1 byte', [0x63, 0x61, 0x66, 0xe9, 0x0a], 1, /byte 0xE9 at byte 4 of the line/],
    ['an overlong encoding', [0xc0, 0x80], 1, /byte 0xC0 at byte 1/],
    ['a surrogate', [0x61, 0xed, 0xa0, 0x80], 1, /byte 0xED at byte 2/],
    ['a sequence cut by a line break', [0x22, 0x61, 0x22, 0x0a, 0xe4, 0xb8, 0x0a], 2, /byte 0xE4 at byte 1/],
    ['a sequence cut by the end', [0x22, 0x61, 0x22, 0x0a, 0x62, 0xf0, 0x9f], 2, /byte 0xF0 at byte 2/],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 1, /byte 0xF4/],
  ];
  for (const [name, bytes, line, message] of cases) {
    test(`${name}: an input error naming the line, never a replacement character`, () => {
      for (const format of ['lines', 'jsonl']) throwsAt(() => parseRecords(new Uint8Array(bytes), format), line, message);
      throwsAt(() => chunked(new Uint8Array(bytes), 'lines', [1]), line, message);
    });
  }

  test('in a quoted CSV field spanning lines, the line of the bad byte', () => {
    const bytes = new Uint8Array([...utf8('text\n"one\ntwo '), 0xff, ...utf8('"\n')]);
    throwsAt(() => parseRecords(bytes, 'csv'), 3, /byte 0xFF at byte 5 of the line/);
    throwsAt(() => chunked(bytes, 'csv', [1]), 3, /byte 0xFF at byte 5 of the line/);
  });

  test('a well-formed sequence split across chunks is read whole', () => {
    const input = 'a 漢字 😀\nb é\n';
    for (const size of [1, 2, 3, 5]) {
      assert.deepEqual(chunked(input, 'lines', [size]).records.map((r) => r.text), ['a 漢字 😀', 'b é']);
    }
  });
});

test('chunk boundaries never change the records', () => {
  const inputs = {
    lines: '\uFEFFone\r\ntwo\n\nthree 漢字\r\nfour',
    jsonl: '\uFEFF{"text":"a\\nb"}\r\n\n"c"\n{"text":"é"}',
    csv: '\uFEFFid,text\r\n1,"a,\r\n""b"""\r\n\r\n2,c\n3,"d"\r\n4,',
  };
  for (const [format, input] of Object.entries(inputs)) {
    const whole = chunked(input, format, [1 << 20]);
    for (const sizes of [[1], [2], [3], [7], [1, 4, 2], [16]]) {
      assert.deepEqual(chunked(input, format, sizes), whole, `${format} in chunks of ${sizes}`);
    }
  }
});

test('formatOf', () => {
  assert.deepEqual(['a.jsonl', 'b.NDJSON', 'c.csv', 'd.txt', 'e'].map(formatOf), ['jsonl', 'jsonl', 'csv', 'lines', 'lines']);
  assert.throws(() => new RecordParser('xml'), /format must be one of lines, jsonl, csv, got xml/);
});

// Reading is linear in the input whatever the length of a line or field; the figures
// (MB/s) are printed, not asserted: see the README for the benchmark.
test('a 64 MB line and a 64 MB quoted field, streamed in 64 KB chunks', (t) => {
  const size = 64 << 20;
  const body = new Uint8Array(size).fill(0x61);
  for (const [format, head, tail, check] of [
    ['lines', '', '\n', (r) => r[0].text.length === size],
    ['csv', 'id,text\n1,"', '"\r\n', (r) => r[1].fields[1].length === size && r[1].raw.endsWith('"\r\n')],
  ]) {
    const bytes = new Uint8Array(head.length + size + tail.length);
    bytes.set(utf8(head));
    bytes.set(body, head.length);
    bytes.set(utf8(tail), head.length + size);
    const started = performance.now();
    const { records } = chunked(bytes, format, [1 << 16]);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(check(records), format);
    t.diagnostic(`${format}: ${(size / 1e6 / seconds).toFixed(0)} MB/s`);
  }
});
