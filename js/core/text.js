// Texts as the core sees them: NFKC and Intl.Segmenter (the options done in JS), and
// UTF-8 encoding into the batches that cross into WASM or to the pool's workers.
import { checkText } from './checks.js';
import { DEFAULT_OPTIONS } from './defaults.js';

/** Token separator of the core's 'separated' tokenizer (U+001F). */
const TOKEN_SEPARATOR = '\x1f';
// Intl.Segmenter is super-linear on long strings in some engines (Node 20: 100k Chinese
// characters take seconds), so long texts are segmented in pieces cut at a space or
// punctuation mark near this length.
const SEGMENT_CHARS = 2000;
const CUT = /[\s\p{P}]/u;

const segmenters = new Map();

/** The word segmenter of a locale; throws when the runtime lacks Intl.Segmenter or the locale is invalid. */
export function wordSegmenter(locale) {
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    if (typeof Intl.Segmenter !== 'function') throw new Error("options.tokenizer 'segmenter' needs Intl.Segmenter, which this runtime lacks");
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  return segmenter;
}

function* segmentPieces(text) {
  let start = 0;
  while (text.length - start > SEGMENT_CHARS) {
    let end = start + SEGMENT_CHARS;
    let cut = end;
    while (cut > end - 200 && !CUT.test(text[cut - 1])) cut--;
    if (cut > end - 200) end = cut;
    else if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--; // never split a surrogate pair
    yield text.slice(start, end);
    start = end;
  }
  yield text.slice(start);
}

/** The word-like segments of a text joined by U+001F; without any, its whitespace-separated pieces. */
function segmentWords(text, segmenter) {
  const tokens = [];
  for (const piece of segmentPieces(text)) {
    for (const { segment, isWordLike } of segmenter.segment(piece)) if (isWordLike) tokens.push(segment);
  }
  if (tokens.length === 0) return text.trim().split(/\s+/u).join(TOKEN_SEPARATOR);
  return tokens.join(TOKEN_SEPARATOR);
}

/** Whether these options (see textOptions) change texts in JS (NFKC, Intl.Segmenter) before the core sees them. */
export function preparedInJs(options) {
  return options?.nfkc === true || options?.tokenizer === 'segmenter';
}

/** Texts as the core sees them: NFKC-normalized and/or segmented when the options ask for it. */
export function coreTexts(texts, options, name) {
  if (!preparedInJs(options)) return texts;
  const nfkc = options.nfkc === true;
  const segmenter = options.tokenizer === 'segmenter' ? wordSegmenter(options.locale ?? DEFAULT_OPTIONS.locale) : undefined;
  return texts.map((text, i) => {
    checkText(text, `${name}[${i}]`);
    const normalized = nfkc ? text.normalize('NFKC') : text;
    return segmenter ? segmentWords(normalized, segmenter) : normalized;
  });
}

const encoder = new TextEncoder();
const ENCODE_CHUNK_BYTES = 1 << 22;

/** Encodes text into dest (3 bytes per UTF-16 unit of room); returns the bytes written. */
export function encodeInto(text, dest) {
  return encoder.encodeInto(text, dest).written;
}

/** A text of ASCII alone. */
export const ASCII = /^[\0-\x7F]*$/;

/** The length of text's UTF-8 (encodeInto's): a lone surrogate takes 3 bytes, as its U+FFFD. */
export function utf8Length(text) {
  if (ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

/** Encodes texts[start ..) back to back into utf8 (3 bytes per UTF-16 unit of room); text i ends at bounds[i + 1]. */
export function writeUtf8(texts, start, utf8, bounds) {
  const count = bounds.length - 1;
  let written = 0;
  for (let i = 0; i < count; i++) {
    bounds[i] = written;
    written += encodeInto(texts[start + i], utf8.subarray(written));
  }
  bounds[count] = written;
}

/**
 * Texts encoded back to back as UTF-8, as the worker pool sends them: text i is
 * utf8[bounds[i] .. bounds[i + 1]); the buffer may be longer.
 */
export function encodeTexts(texts) {
  let chars = 0;
  for (const text of texts) chars += text.length;
  const utf8 = new Uint8Array(chars * 3); // encodeInto writes at most 3 bytes per UTF-16 unit
  const bounds = new Uint32Array(texts.length + 1);
  writeUtf8(texts, 0, utf8, bounds);
  return { utf8, bounds };
}

/**
 * Texts encoded to UTF-8 end to end (encodeTexts' layout, trimmed), with
 * `await pacer.pause()` every 1024 texts: texts that serve more than once, encoded once
 * (dedup's fingerprints and shingle sets; the pool's workers each get a copy of the bytes
 * by transfer, where posting the strings would clone them for each worker in one long
 * task of the calling thread).
 */
export async function encodeTextsPaced(texts, pacer) {
  // Encoded into chunks of at least ENCODE_CHUNK_BYTES, then copied end to end once: a
  // buffer grown as it fills copies what it holds again and again, and sizing it first
  // (utf8Length) costs about as much as encoding.
  const chunks = [];
  const bounds = new Uint32Array(texts.length + 1);
  let chunk = new Uint8Array(0);
  let used = 0;
  let written = 0;
  for (let i = 0; i < texts.length; i++) {
    const room = 3 * texts[i].length; // encodeInto writes at most 3 bytes per UTF-16 unit
    if (used + room > chunk.length) {
      if (used > 0) chunks.push(chunk.subarray(0, used));
      chunk = new Uint8Array(Math.max(ENCODE_CHUNK_BYTES, room));
      used = 0;
    }
    bounds[i] = written;
    const length = encodeInto(texts[i], chunk.subarray(used));
    used += length;
    written += length;
    if ((i & 1023) === 1023) await pacer.pause();
  }
  if (used > 0) chunks.push(chunk.subarray(0, used));
  bounds[texts.length] = written;
  const utf8 = new Uint8Array(written);
  let at = 0;
  for (const part of chunks) {
    utf8.set(part, at);
    at += part.length;
  }
  return { utf8, bounds };
}
