// The demo's input formats, parsed in the browser from a whole file (the CLI's js/records.js
// reads the same formats from a Node stream). Every record keeps its raw text, written back
// unchanged when it is kept, and the line it starts on.

/** An input error tied to a line of the input. */
export class InputError extends Error {
  constructor(line, message) {
    super(`line ${line}: ${message}`);
    this.name = 'InputError';
    this.line = line;
  }
}

/** The format a file name suggests: .jsonl/.ndjson → jsonl, .csv → csv, otherwise lines. */
export function formatOf(name) {
  if (/\.(jsonl|ndjson)$/i.test(name)) return 'jsonl';
  if (/\.csv$/i.test(name)) return 'csv';
  return 'lines';
}

/** The line ending to write back: the input's own (CRLF if it has any), else LF. */
function lineEnding(text) {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function stripBom(text) {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Calls visit(line, raw) for each line; a final line without an ending counts. */
function forEachLine(text, visit) {
  let line = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    visit(++line, text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end));
    start = end + 1;
  }
}

/** One item per line; blank (whitespace-only) lines are not items. */
export function parseLines(text) {
  text = stripBom(text);
  const records = [];
  let blank = 0;
  forEachLine(text, (line, raw) => {
    if (raw.trim() === '') blank++;
    else records.push({ line, raw, text: raw });
  });
  return { format: 'lines', eol: lineEnding(text), records, fields: [], blank };
}

/** JSON Lines: each non-blank line a JSON string, or an object whose fields are offered. */
export function parseJsonl(text) {
  text = stripBom(text);
  const records = [];
  const fields = new Set();
  forEachLine(text, (line, raw) => {
    if (raw.trim() === '') return;
    let value;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new InputError(line, `not valid JSON (${error.message})`);
    }
    if (records.length < 1000 && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, v] of Object.entries(value)) if (typeof v === 'string') fields.add(key);
    }
    records.push({ line, raw, value });
  });
  return { format: 'jsonl', eol: lineEnding(text), records, fields: [...fields] };
}

/**
 * RFC 4180 CSV: fields separated by commas, optionally quoted; a quoted field may hold
 * commas, line breaks and doubled quotes. The first record is the header.
 */
export function parseCsv(text) {
  text = stripBom(text);
  const rows = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = i;
    const startLine = line;
    const fields = [];
    let end; // end of the record's raw text (before its line ending)
    for (;;) {
      let value;
      if (text[i] === '"') {
        let j = i + 1;
        value = '';
        for (;;) {
          const quote = text.indexOf('"', j);
          if (quote === -1) throw new InputError(startLine, 'a quoted field is never closed');
          value += text.slice(j, quote);
          if (text[quote + 1] === '"') {
            value += '"';
            j = quote + 2;
          } else {
            j = quote + 1;
            break;
          }
        }
        for (let k = i; k < j; k++) if (text[k] === '\n') line++;
        i = j;
        if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && (i + 1 === n || text[i + 1] === '\n'))) {
          throw new InputError(line, 'text after the closing quote of a field');
        }
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && text[j] !== '\n') {
          if (text[j] === '"') throw new InputError(line, 'a quote inside an unquoted field (quote the whole field and double the quote)');
          j++;
        }
        value = text.slice(i, j > i && text[j - 1] === '\r' && (j === n || text[j] === '\n') ? j - 1 : j);
        i = j;
      }
      fields.push(value);
      if (i < n && text[i] === ',') {
        i++;
        if (i === n) { // a trailing comma at the very end: one more, empty field
          fields.push('');
          end = n;
          break;
        }
        continue;
      }
      // The record ends here: at the end of the text, at '\n', or at the '\r' of a CRLF
      // after a closing quote (an unquoted value stops at '\n' and has dropped its '\r').
      if (text[i] === '\r') {
        end = i;
        i++;
      } else {
        end = i > start && text[i - 1] === '\r' ? i - 1 : i;
      }
      if (i < n && text[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    const raw = text.slice(start, end);
    if (fields.length === 1 && fields[0] === '' && raw.trim() === '') continue; // a blank line
    rows.push({ line: startLine, raw, fields });
  }
  if (rows.length === 0) throw new InputError(1, 'no header record');
  const [header, ...records] = rows;
  return { format: 'csv', eol: lineEnding(text), header, records, fields: header.fields };
}

export function parse(text, format) {
  if (format === 'csv') return parseCsv(text);
  if (format === 'jsonl') return parseJsonl(text);
  return parseLines(text);
}

const TEXT_NAMES = ['text', 'body', 'content', 'message', 'title', 'description', 'comment', 'review', 'summary', 'name'];

/** The field to offer first: a usual name for text, else the one with the longest values. */
export function guessField(parsed) {
  const { fields } = parsed;
  if (fields.length === 0) return undefined;
  const byName = TEXT_NAMES.map((name) => fields.find((f) => f.toLowerCase() === name)).find((f) => f !== undefined);
  if (byName !== undefined) return byName;
  const sample = parsed.records.slice(0, 200);
  let best = fields[0];
  let bestLength = -1;
  for (const field of fields) {
    const length = sample.reduce((sum, r) => sum + fieldText(parsed, r, field).length, 0);
    if (length > bestLength) [best, bestLength] = [field, length];
  }
  return best;
}

function fieldText(parsed, record, field) {
  if (parsed.format === 'csv') return record.fields[parsed.fields.indexOf(field)] ?? '';
  if (parsed.format === 'jsonl') {
    const value = typeof record.value === 'string' ? record.value : record.value?.[field];
    return typeof value === 'string' ? value : '';
  }
  return record.text;
}

/**
 * The texts to compare, one per record, and how many records lack the field (they count
 * as empty texts).
 */
export function textsOf(parsed, field) {
  if (parsed.format === 'lines') return { texts: parsed.records.map((r) => r.text), missing: [] };
  const missing = [];
  const column = parsed.fields.indexOf(field);
  const texts = parsed.records.map((record) => {
    let value;
    if (parsed.format === 'csv') value = record.fields[column];
    else value = typeof record.value === 'string' ? record.value : record.value?.[field];
    if (typeof value !== 'string') {
      missing.push(record.line);
      return '';
    }
    return value;
  });
  return { texts, missing };
}

/** The kept records in the input's format: the CSV header first, raw records unchanged. */
export function serialize(parsed, keep) {
  const out = [];
  if (parsed.format === 'csv') out.push(parsed.header.raw);
  parsed.records.forEach((record, i) => {
    if (keep(i)) out.push(record.raw);
  });
  return out.length ? out.join(parsed.eol) + parsed.eol : '';
}
