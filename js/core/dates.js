// Dates written in common forms, read as one key 'YYYYMMDD': the records' date kind
// (records/fields.js) and the dates one-line records share (dedup/dedup.js).

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const NUMERIC_DATE = /^(\d{1,4})[-/. ](\d{1,2})[-/. ](\d{1,4})$/;
export const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const WORDED_DATE = /^(?:(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})|([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))$/i;

/**
 * The ways a date column writes day and month in numeric dates with the year last: 'dmy' or
 * 'mdy', whichever its values allow (a part above 12 is a day); 'dmy' when both do.
 */
export function dayOrder(texts) {
  let dmy = true;
  let mdy = true;
  for (const text of texts) {
    const m = NUMERIC_DATE.exec(text);
    if (!m || m[1].length === 4) continue;
    if (+m[1] > 12) mdy = false;
    if (+m[2] > 12) dmy = false;
  }
  return !dmy && mdy ? 'mdy' : 'dmy';
}

/** A date as 'YYYYMMDD' (order: dayOrder's answer for numeric dates with the year last), or '' when it is none. */
export function dateKey(text, order = 'dmy') {
  let y;
  let mo;
  let d;
  let m = COMPACT_DATE.exec(text);
  if (m) [, y, mo, d] = m;
  else if ((m = NUMERIC_DATE.exec(text))) {
    if (m[1].length === 4) [, y, mo, d] = m;
    else if (m[3].length === 4 || m[3].length === 2) {
      [d, mo] = order === 'mdy' ? [m[2], m[1]] : [m[1], m[2]];
      y = m[3].length === 4 ? m[3] : String((+m[3] > 30 ? 1900 : 2000) + +m[3]);
    } else return '';
  } else if ((m = WORDED_DATE.exec(text))) {
    const month = MONTHS.indexOf((m[2] ?? m[4]).slice(0, 3).toLowerCase()) + 1;
    if (!month) return '';
    [d, mo, y] = [m[1] ?? m[5], String(month), m[3] ?? m[6]];
  } else return '';
  if (!(+mo >= 1 && +mo <= 12 && +d >= 1 && +d <= 31 && +y >= 1000 && +y <= 2999)) return '';
  // Leading zeros read as the number (`010 5.1999`, `1999-05-0010`): a key has eight digits.
  return `${+y}${String(+mo).padStart(2, '0')}${String(+d).padStart(2, '0')}`;
}
