// The record formats of the CLI and the demo, read from UTF-8 bytes by one parser: the CLI
// feeds it a stream chunk by chunk, the demo a whole file or pasted text.
//
//   lines  one record per line.
//   jsonl  JSON Lines: each line a JSON value (a bare string, or an object holding the text).
//   csv    RFC 4180: fields separated by commas, optionally quoted; a quoted field may hold
//          commas, line breaks and doubled quotes. The first record is the header.
//
// Contracts, the same for every format:
// - Every record keeps `raw`, its exact text with its line ending, so writing the raw texts
//   of some records one after another reproduces their bytes exactly. `line` is the
//   (1-based) line it starts on.
// - Lines end at LF; a CR before it belongs to the ending (CRLF). A UTF-8 byte order mark
//   at the very start of the input is not part of any record.
// - Blank lines (empty or whitespace only) are not records; `blank` counts them.
// - Bytes that are not UTF-8, malformed quoting and malformed JSON throw an InputError
//   naming the line. Nothing is ever replaced silently.
// - Cost: linear in the input whatever the length of a line or field. A record in progress
//   is held as the pieces of the chunks it spans, joined once when it ends; then its bytes
//   and its text are both in memory until it is returned (CSV fields are slices of the text
//   where every character is one byte, else decoded again: up to twice the text).
// - After an InputError the parser is spent: the input is not valid past that line.

/** An input error tied to a line of the input (the CLI exits with status 1). */
export class InputError extends Error {
  constructor(line, message) {
    super(`line ${line}: ${message}`);
    this.name = 'InputError';
    this.line = line;
  }
}

export const FORMATS = ['lines', 'jsonl', 'csv'];

/** The format a file name suggests: .jsonl/.ndjson → jsonl, .csv → csv, otherwise lines. */
export function formatOf(name) {
  if (/\.(jsonl|ndjson)$/i.test(name)) return 'jsonl';
  if (/\.csv$/i.test(name)) return 'csv';
  return 'lines';
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;

// CSV scanner states.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_SEEN = 3; // a quote inside a quoted field: its end, or the first of a doubled pair
const CR_AFTER_QUOTE = 4; // a CR after a closing quote: only LF (or the end) may follow

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Offset of the first byte that does not start a well-formed UTF-8 sequence (the WHATWG
 * decoder's rules: no overlongs, no surrogates, nothing above U+10FFFF), or -1.
 */
function invalidUtf8Offset(bytes) {
  const n = bytes.length;
  for (let i = 0; i < n;) {
    const b = bytes[i];
    if (b < 0x80) { i++; continue; }
    let length;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > n) return i;
    if (bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (let j = 2; j < length; j++) if (bytes[i + j] < 0x80 || bytes[i + j] > 0xbf) return i;
    i += length;
  }
  return -1;
}

/** The text of a record's bytes; an InputError names the line of a byte that is not UTF-8. */
function decode(bytes, line) {
  try {
    return decoder.decode(bytes);
  } catch (error) {
    const at = invalidUtf8Offset(bytes);
    if (at < 0) {
      throw new InputError(line, `a record of ${bytes.length} bytes is longer than this JavaScript engine's longest string (${error.message})`);
    }
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === LF) {
        line++;
        lineStart = i + 1;
      }
    }
    const hex = bytes[at].toString(16).toUpperCase().padStart(2, '0');
    throw new InputError(line, `not valid UTF-8 (byte 0x${hex} at byte ${at - lineStart + 1} of the line); the input must be UTF-8: convert it first (e.g. iconv -f latin1 -t utf-8)`);
  }
}

function concat(pieces, length) {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** Blank records (whitespace only, as String.prototype.trim defines it) fail this test. */
const NOT_BLANK = /\S/;

/** A record of the lines format; its text is raw without the line ending, made when asked. */
class LineRecord {
  constructor(line, raw) {
    this.line = line;
    this.raw = raw;
  }

  /** raw without its line ending (LF, CRLF, or a CR that ends the input). */
  get text() {
    const { raw } = this;
    let end = raw.length;
    if (raw.charCodeAt(end - 1) === LF) end--;
    if (raw.charCodeAt(end - 1) === CR) end--;
    return end === raw.length ? raw : raw.slice(0, end);
  }
}

/**
 * Parses a byte stream of one format, chunk by chunk. Records come back from push() and
 * end() in input order:
 *   lines: { line, raw, text }
 *   jsonl: { line, raw, value }           (value: what JSON.parse returns)
 *   csv:   { line, raw, fields: string[] } (the first one, the header, also has header: true)
 */
export class RecordParser {
  #format;
  #pieces = []; // the chunks' pieces of the record in progress
  #pendingBytes = 0;
  #line = 1; // the line the record in progress starts on
  #cursorLine = 1; // the line of the scan position
  #head = null; // the first bytes, held until the BOM check can be made
  #started = false;
  #headerSeen = false;
  // CSV scan state; field bounds are byte offsets from the start of the record.
  #state = FIELD_START;
  #fieldStart = 0;
  #quoteAt = 0;
  #escaped = false; // the quoted field in progress holds doubled quotes
  #bounds = []; // start, end, escaped (0/1) per finished field
  /** Blank lines skipped so far. */
  blank = 0;

  constructor(format) {
    if (!FORMATS.includes(format)) throw new RangeError(`format must be one of ${FORMATS.join(', ')}, got ${String(format)}`);
    this.#format = format;
  }

  get format() {
    return this.#format;
  }

  /** Parses the next chunk of the input; returns the records it completes. */
  push(chunk) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError(`chunk must be a Uint8Array, got ${chunk === null ? 'null' : typeof chunk}`);
    const out = [];
    if (!this.#started) {
      this.#head = this.#head ? concat([this.#head, chunk], this.#head.length + chunk.length) : chunk;
      if (this.#head.length < 3) return out;
      chunk = this.#takeHead();
    }
    this.#scan(chunk, out);
    return out;
  }

  /** Ends the input; returns the last records. */
  end() {
    const out = [];
    if (!this.#started) this.#scan(this.#takeHead(), out);
    if (this.#format === 'csv') {
      if (this.#pendingBytes > 0) {
        const at = this.#pendingBytes;
        switch (this.#state) {
          case QUOTED: throw new InputError(this.#line, 'a quoted field is never closed');
          case UNQUOTED: {
            const last = this.#pieces.at(-1);
            this.#bounds.push(this.#fieldStart, last[last.length - 1] === CR ? at - 1 : at, 0);
            break;
          }
          case FIELD_START: this.#bounds.push(at, at, 0); break; // after a final comma
          default: this.#bounds.push(this.#fieldStart, this.#quoteAt, this.#escaped ? 1 : 0);
        }
        this.#finish(new Uint8Array(0), out);
      }
      if (!this.#headerSeen) throw new InputError(1, 'no header record');
    } else if (this.#pendingBytes > 0) {
      this.#finish(new Uint8Array(0), out);
    }
    return out;
  }

  #scan(chunk, out) {
    if (this.#format === 'csv') this.#scanCsv(chunk, out);
    else this.#scanLines(chunk, out);
  }

  /** The held first bytes without a BOM; marks the check done. */
  #takeHead() {
    this.#started = true;
    const head = this.#head ?? new Uint8Array(0);
    this.#head = null;
    return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  }

  #scanLines(chunk, out) {
    let start = 0;
    const first = chunk.indexOf(LF);
    if (first !== -1 && this.#pendingBytes > 0) { // the record in progress ends here
      this.#finish(chunk.subarray(0, first + 1), out);
      start = first + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      // The whole lines of the chunk are decoded at once and cut in the text: a typed-array
      // view and a decoder call per line cost several times more. Bytes that are not UTF-8
      // take the line-by-line path, which names the line.
      let text = null;
      try {
        text = decoder.decode(chunk.subarray(start, last + 1));
      } catch {
        for (let lf; (lf = chunk.indexOf(LF, start)) !== -1; start = lf + 1) this.#finish(chunk.subarray(start, lf + 1), out);
      }
      if (text !== null) {
        for (let from = 0, lf; (lf = text.indexOf('\n', from)) !== -1; from = lf + 1) this.#lineRecord(text.slice(from, lf + 1), out);
        start = last + 1;
      }
    }
    this.#hold(chunk.subarray(start));
  }

  #scanCsv(chunk, out) {
    const n = chunk.length;
    let start = 0; // where the record in progress starts in this chunk
    let state = this.#state;
    let base = this.#pendingBytes; // record offset of chunk[start]
    let nextLf = -1; // the first LF at or after the scan position in a quoted field (n: none)
    for (let i = 0; i < n; i++) {
      const c = chunk[i];
      if (state === QUOTED) {
        // Jump to the next quote, counting the line breaks on the way; each indexOf starts
        // where the previous one stopped, so the chunk is searched once.
        let q = chunk.indexOf(QUOTE, i);
        if (q === -1) q = n;
        if (nextLf < i) nextLf = chunk.indexOf(LF, i);
        if (nextLf === -1) nextLf = n;
        while (nextLf < q) {
          this.#cursorLine++;
          nextLf = chunk.indexOf(LF, nextLf + 1);
          if (nextLf === -1) nextLf = n;
        }
        i = q;
        if (q < n) {
          this.#quoteAt = base + q - start;
          state = QUOTE_SEEN;
        }
        continue;
      }
      if (c === LF) {
        this.#cursorLine++;
        const at = base + i - start; // the LF's offset in the record
        if (state === UNQUOTED) {
          const cr = i > start ? chunk[i - 1] === CR : this.#pieces.at(-1)?.at(-1) === CR;
          this.#bounds.push(this.#fieldStart, cr ? at - 1 : at, 0);
        } else if (state === FIELD_START) {
          this.#bounds.push(at, at, 0);
        } else {
          this.#bounds.push(this.#fieldStart, this.#quoteAt, this.#escaped ? 1 : 0);
        }
        this.#finish(chunk.subarray(start, i + 1), out);
        start = i + 1;
        base = 0;
        state = FIELD_START;
        continue;
      }
      switch (state) {
        case FIELD_START:
          if (c === QUOTE) {
            this.#fieldStart = base + i - start + 1;
            this.#escaped = false;
            state = QUOTED;
          } else if (c === COMMA) {
            const at = base + i - start;
            this.#bounds.push(at, at, 0);
          } else {
            this.#fieldStart = base + i - start;
            state = UNQUOTED;
          }
          break;
        case UNQUOTED:
          if (c === COMMA) {
            this.#bounds.push(this.#fieldStart, base + i - start, 0);
            state = FIELD_START;
          } else if (c === QUOTE) {
            throw new InputError(this.#cursorLine, 'a quote inside an unquoted field (quote the whole field and double the quote)');
          }
          break;
        case QUOTE_SEEN:
          if (c === QUOTE) {
            this.#escaped = true;
            state = QUOTED;
          } else if (c === COMMA) {
            this.#bounds.push(this.#fieldStart, this.#quoteAt, this.#escaped ? 1 : 0);
            state = FIELD_START;
          } else if (c === CR) {
            state = CR_AFTER_QUOTE;
          } else {
            throw new InputError(this.#cursorLine, 'text after the closing quote of a field');
          }
          break;
        default: // CR_AFTER_QUOTE, and c is not LF
          throw new InputError(this.#cursorLine, 'text after the closing quote of a field (a CR that does not end the line)');
      }
    }
    this.#state = state;
    this.#hold(chunk.subarray(start));
  }

  #hold(piece) {
    if (piece.length === 0) return;
    this.#pieces.push(piece);
    this.#pendingBytes += piece.length;
  }

  /** Ends the record in progress with its last piece (which holds its line ending, if any). */
  #finish(last, out) {
    if (last.length) this.#pieces.push(last);
    const bytes = concat(this.#pieces, this.#pendingBytes + last.length);
    this.#pieces = [];
    this.#pendingBytes = 0;
    const raw = decode(bytes, this.#line);
    if (this.#format !== 'csv') {
      this.#lineRecord(raw, out);
      return;
    }
    const line = this.#line;
    this.#line = this.#cursorLine;
    const bounds = this.#bounds;
    this.#bounds = [];
    this.#state = FIELD_START;
    if (!NOT_BLANK.test(raw)) {
      this.blank++;
      return;
    }
    // Where every character is one byte, byte offsets are string offsets: a field is a
    // slice of raw (sharing its memory) instead of a second decoding.
    const oneByte = raw.length === bytes.length;
    const fields = new Array(bounds.length / 3);
    for (let f = 0; f < fields.length; f++) {
      const [start, end] = [bounds[3 * f], bounds[3 * f + 1]];
      const value = oneByte ? raw.slice(start, end) : decoder.decode(bytes.subarray(start, end));
      fields[f] = bounds[3 * f + 2] ? value.replaceAll('""', '"') : value;
    }
    if (this.#headerSeen) {
      out.push({ line, raw, fields });
    } else {
      this.#headerSeen = true;
      out.push({ line, raw, fields, header: true });
    }
  }

  /** A record of the lines or jsonl format: one decoded line, with its ending. */
  #lineRecord(raw, out) {
    const line = this.#line;
    this.#line = ++this.#cursorLine;
    if (!NOT_BLANK.test(raw)) {
      this.blank++;
    } else if (this.#format === 'lines') {
      out.push(new LineRecord(line, raw));
    } else {
      let value;
      try {
        value = JSON.parse(raw);
      } catch (error) {
        throw new InputError(line, `not valid JSON (${error.message})`);
      }
      out.push({ line, raw, value });
    }
  }
}

/**
 * The function giving a record its text to compare: the line itself (lines); a bare JSON
 * string, or an object's string property `field` (jsonl); the column named `field` of
 * the header record `header` (csv). It returns undefined for a record without that text.
 */
export function textPicker(format, field, header) {
  if (format === 'lines') return (record) => record.text;
  if (format === 'jsonl') {
    return ({ value }) => {
      if (typeof value === 'string') return value;
      const text = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, field) ? value[field] : undefined;
      return typeof text === 'string' ? text : undefined;
    };
  }
  const column = header.fields.indexOf(field);
  return column < 0 ? () => undefined : (record) => record.fields[column];
}

/**
 * A whole input at once (a file's bytes, or text, which is read as its UTF-8 encoding):
 * { format, header (csv: the header record, else null), records (header excluded), blank }.
 */
export function parseRecords(input, format) {
  const parser = new RecordParser(format);
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const records = parser.push(bytes);
  for (const record of parser.end()) records.push(record);
  const header = format === 'csv' ? records.shift() : null;
  return { format, header, records, blank: parser.blank };
}
