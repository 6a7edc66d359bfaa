// The labelled lists of records of tests/data/records/ (made by records-make.js, described in
// its SOURCE.md): person records, publications, products, restaurants and a hand-made contacts
// list, each row with the id of the entity it describes. Two rows are a true pair when their
// entity ids are equal.
//
// Files: records.json, an array of { name, kind, file, source, sides? } (sides: of a list made of
// two source files, [{ side, rows }] of each in order, its rows first to last), and for each list a UTF-8 CSV
// (RFC 4180 quoting, LF line ends) whose header row starts with `entity`, the truth, followed
// by the source's field columns; every further row is one record.
import { readFileSync } from 'node:fs';
import { parseRecords } from '../../js/cli/records.js';

export const RECORDS_DIR = new URL('../data/records/', import.meta.url);

/**
 * Every list, or those named, in records.json's order.
 * @param {{ names?: string[] }} [options] names: only these lists (an unknown name throws)
 * @returns {{ name: string, kind: string, source: string, sides?: { side: string, rows: number }[], fields: string[], rows: Record<string, string>[], entities: string[] }[]}
 *   rows: the field columns only (never `entity`), each value a string, '' when empty
 */
export function loadRecords({ names } = {}) {
  const index = readIndex();
  if (names) {
    const known = new Set(index.map((entry) => entry.name));
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length) throw new Error(`unknown list(s): ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }
  return index
    .filter(({ name }) => !names || names.includes(name))
    .map(({ name, kind, file, source, sides }) => ({ name, kind, source, sides, ...readRecordsCsv(new URL(file, RECORDS_DIR)) }));
}

/** records.json: [{ name, kind, file, source, sides? }]. */
export function readIndex() {
  return JSON.parse(readFileSync(new URL('records.json', RECORDS_DIR), 'utf8'));
}

/**
 * { fields, rows, entities } of a CSV whose first column is `entity`: read with the CLI's
 * parser (js/cli/records.js), which throws on bytes that are not UTF-8 and on broken quoting.
 */
export function readRecordsCsv(url) {
  const { header, records } = parseRecords(readFileSync(url), 'csv');
  const columns = header.fields;
  if (columns[0] !== 'entity') throw new Error(`${url}: the first column must be 'entity', found '${columns[0]}'`);
  const fields = columns.slice(1);
  if (new Set(columns).size !== columns.length) throw new Error(`${url}: a column name repeats in the header`);
  const rows = [];
  const entities = [];
  for (const record of records) {
    if (record.fields.length !== columns.length) {
      throw new Error(`${url}:${record.line}: expected ${columns.length} fields, found ${record.fields.length}`);
    }
    if (record.fields[0] === '') throw new Error(`${url}:${record.line}: empty entity`);
    entities.push(record.fields[0]);
    rows.push(Object.fromEntries(fields.map((field, i) => [field, record.fields[i + 1]])));
  }
  return { fields, rows, entities };
}

/** A CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break, or starts or ends with a space. */
export function csvField(value) {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Lines of CSV (each array a row), LF-terminated. */
export function formatCsv(rows) {
  return rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}
