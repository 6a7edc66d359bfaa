// The CLI's streams: records read from the input as they are parsed, kept records written
// to stdout in large pieces, and progress on stderr.
import { createReadStream, statSync } from 'node:fs';
import { once } from 'node:events';
import { InputError, RecordParser, textPicker } from './records.js';
import { cellText } from '../records/fields.js';

/**
 * Progress on stderr: on a terminal, one line rewritten at most every 100 ms; elsewhere,
 * with --progress, a line at most every second and at each new phase; otherwise nothing.
 */
export function progressReporter(forced) {
  const tty = Boolean(process.stderr.isTTY);
  const enabled = tty || forced;
  let last = -Infinity;
  let lastPhase;
  /** A report; one that ends a phase (`final`) is always shown. */
  const show = (phase, message, final = false) => {
    if (!enabled) return;
    const now = performance.now();
    if (!final && phase === lastPhase && now - last < (tty ? 100 : 1000)) return;
    last = now;
    lastPhase = phase;
    process.stderr.write(tty ? `\r\x1b[K${message}` : `simhash-wasm: ${message}\n`);
  };
  return {
    enabled,
    show,
    /** The onProgress of a call of the API: each report shown as `phase: done of total`. */
    onProgress: ({ phase, done, total }) => show(phase, `${phase}: ${count(done)} of ${count(total)}`, done === total),
    /** A final line, which stays. */
    end(message) {
      if (enabled) process.stderr.write(tty ? `\r\x1b[K${message}\n` : `simhash-wasm: ${message}\n`);
    },
  };
}

export const count = (n) => n.toLocaleString('en');
export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * Writes text to a stream (stdout unless given) in pieces of about 1 MB, honouring
 * backpressure: write() returns a promise (to await) only when it flushed a piece, so a
 * caller writing record by record does not wait a turn per record.
 */
export class Output {
  #parts = [];
  #length = 0;
  #stream;

  constructor(stream = process.stdout) {
    this.#stream = stream;
  }

  write(text) {
    this.#parts.push(text);
    this.#length += text.length;
    return this.#length >= 1 << 20 ? this.flush() : undefined;
  }

  async flush() {
    if (this.#length === 0) return;
    const text = this.#parts.join('');
    this.#parts = [];
    this.#length = 0;
    if (!this.#stream.write(text)) await once(this.#stream, 'drain');
  }
}

/** The row of the columns `fields` of a CSV record (header `header`), or undefined when it is short of one. */
function csvRecordPicker(fields, header) {
  const columns = fields.map((field) => header.fields.indexOf(field));
  return (record) => {
    if (record.fields.length <= Math.max(...columns)) return undefined;
    return Object.fromEntries(fields.map((field, i) => [field, record.fields[columns[i]]]));
  };
}

/**
 * The row of the properties `fields` of a JSON object (those it has), or undefined when it is
 * no object; a property no text says (an object, an array: records/fields.js cellText) is an
 * InputError naming it.
 */
function jsonRecordPicker(fields) {
  return ({ value, line }) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const present = fields.filter((field) => Object.hasOwn(value, field));
    for (const field of present) {
      if (cellText(value[field]) === undefined) {
        throw new InputError(line, `"${field}" holds ${Array.isArray(value[field]) ? 'an array' : 'an object'}: a record's values are text, numbers, booleans or null`);
      }
    }
    return Object.fromEntries(present.map((field) => [field, value[field]]));
  };
}

/**
 * Reads the input, handing the CSV header record to sink.header(record) and each other
 * record, in order, to sink.record(record, text) (awaited when it returns a promise), as
 * they are parsed; it keeps none of them. `text` is the record's text, or with two or more
 * args.fields (or args.records) its row: an object of those columns. Progress reports sink.status().
 */
export async function readInput(args, progress, sink) {
  const stdin = args.file === '-';
  let size;
  if (!stdin) {
    try {
      size = statSync(args.file).size;
    } catch {
      // The stream below reports why the file cannot be read.
    }
  }
  const parser = new RecordParser(args.format);
  const fields = args.fields ?? [args.field];
  const records = args.records ?? fields.length > 1;
  let pick = args.format === 'csv' ? undefined : records ? jsonRecordPicker(fields) : textPicker(args.format, args.field);
  const take = async (batch) => {
    for (const record of batch) {
      if (record.header) {
        const missing = fields.filter((field) => !record.fields.includes(field));
        if (missing.length) {
          throw new InputError(record.line, `the header has no column "${missing[0]}" (columns: ${record.fields.join(', ')}); pick one with --field`);
        }
        pick = records ? csvRecordPicker(fields, record) : textPicker('csv', args.field, record);
        const pending = sink.header(record);
        if (pending) await pending;
        continue;
      }
      const text = pick(record);
      if (text === undefined) {
        throw new InputError(record.line, args.format === 'csv'
          ? `the record has ${record.fields.length} fields, no "${records ? fields.at(-1) : args.field}"`
          : records ? 'expected a JSON object' : `expected a JSON string or an object whose "${args.field}" is a string`);
      }
      const pending = sink.record(record, text);
      if (pending) await pending;
    }
  };
  const input = stdin ? process.stdin : createReadStream(args.file, { highWaterMark: 1 << 20 });
  let bytes = 0;
  for await (const chunk of input) {
    bytes += chunk.length;
    await take(parser.push(chunk));
    progress.show('read', `reading: ${megabytes(bytes)}${size ? ` of ${megabytes(size)}` : ''}, ${sink.status()}`);
  }
  await take(parser.end());
  progress.show('read', `read ${megabytes(bytes)}, ${sink.status()}`, true);
}

/** Writes the values to the opened stream as JSON, one a line, and closes it. */
export async function writeLines(stream, values) {
  const out = new Output(stream);
  for (const value of values) await out.write(`${JSON.stringify(value)}\n`);
  await out.flush();
  stream.end();
  await once(stream, 'finish');
}
