// WASM memory: scratch allocations freed on every exit path, errors of allocations inside
// the core, copies out of the result buffer (at once or in pieces), and texts encoded
// into WASM in bounded slices.
import { checkText } from '../core/checks.js';
import { NO_FRESH_ID } from '../core/ids.js';
import { utf8Length, writeUtf8 } from '../core/text.js';

/** Characters encoded per slice, so the scratch buffer stays bounded. */
export const BATCH_CHARS = 1 << 22;

/** Owns WASM allocations and frees them all at once. */
class Allocations {
  constructor(core) {
    this.core = core;
    this.addresses = [];
  }

  alloc(bytes) {
    const address = this.core._malloc(Math.max(bytes, 8));
    if (!address) throw new Error(`out of WebAssembly memory allocating ${bytes} bytes`);
    this.addresses.push(address);
    return address;
  }

  /** Copies a typed array into WASM memory and returns its address. */
  copyIn(array) {
    const address = this.alloc(array.byteLength);
    this.core.HEAPU8.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), address);
    return address;
  }

  free() {
    for (const address of this.addresses) this.core._free(address);
    this.addresses.length = 0;
  }
}

/**
 * What the core throws when an allocation inside it fails (out_of_memory.cpp throws an
 * Error; growing the memory past its maximum is a RangeError) becomes an Error that says
 * so; the module stays usable. Other errors pass unchanged.
 */
export function asError(error) {
  if (error instanceof Error && !(error instanceof RangeError && /memory/i.test(error.message))) return error;
  return new Error('out of WebAssembly memory: the operation was abandoned');
}

/**
 * The id an index's add_one returned (helpers.h: -1 when the id given is taken, -2 when no
 * fresh id is left), or the error it stands for.
 */
export function addedId(added, id) {
  if (added === -1) throw new Error(`id ${id} is already stored in this index`);
  if (added === -2) throw new Error(NO_FRESH_ID);
  return added;
}

/**
 * The ids an index's batch add of `count` items wrote at `out`, when it stored them all
 * (`added`, its answer, is `count`); else the error it stopped at item `added` for, having
 * undone the batch, id counter included: ids[added] already stored, or, without `ids`, no
 * fresh id left.
 */
export function addedIds(core, added, count, out, ids) {
  if (added === count) return copyOut(core, Uint32Array, out, count);
  if (!ids) throw new Error(NO_FRESH_ID);
  throw new Error(`ids[${added}] = ${ids[added]} is already stored in this index`);
}

/** The fingerprint definition's version, the WASM heap's bytes in use, and the linear memory's size (it grows, never shrinks). */
export const formatVersion = (core) => core._formatVersion();
/**
 * The short measure's words it writes short (similarity.h listForms: `written=short|`
 * entries), then, after a `#`, the CJK legal forms it drops (cjkLegalForms: `|`-ended).
 */
export function listForms(core) {
  const bytes = core.HEAPU8;
  const ascii = core._listForms();
  let forms = `${String.fromCharCode(...bytes.subarray(ascii, bytes.indexOf(0, ascii)))}#`;
  for (let at = core._cjkLegalForms(); bytes[at] | bytes[at + 1]; at += 2) forms += String.fromCharCode(bytes[at] | bytes[at + 1] << 8);
  return forms;
}
export const heapInUse = (core) => core._heapInUse();
export const memoryBytes = (core) => core.HEAPU8.length;

/** Runs a call into the core that allocates inside it. */
export function coreCall(call) {
  try {
    return call();
  } catch (error) {
    throw asError(error);
  }
}

/** Runs a call into the core with its scratch allocations, freeing them afterwards. */
export function withAllocations(core, body) {
  const allocations = new Allocations(core);
  try {
    return body(allocations);
  } catch (error) {
    throw asError(error);
  } finally {
    allocations.free();
  }
}

// One scratch buffer per module instance for single calls (fingerprint, index.add), kept
// between calls: allocating per call would cost more than the call's work. Single calls
// use it only up to SINGLE_CALL_BYTES, so it never holds more. A call writes it and the
// core reads it before the call returns, with no JS of anyone else's in between, so calls
// that overlap (from a dedup's onProgress, or between its slices) never share it; the
// result buffer is copied out the same way (resultArray, resultColumns).
export const SINGLE_CALL_BYTES = 1 << 16;
const scratches = new WeakMap(); // core -> address of SINGLE_CALL_BYTES bytes

/** The single-call scratch buffer's address (SINGLE_CALL_BYTES bytes). */
export function singleCallScratch(core) {
  let address = scratches.get(core);
  if (!address) {
    address = core._malloc(SINGLE_CALL_BYTES);
    if (!address) throw new Error(`out of WebAssembly memory allocating ${SINGLE_CALL_BYTES} bytes`);
    scratches.set(core, address);
  }
  return address;
}

/**
 * A handle made by create() and filled by fill(handle, allocations), which returns 0 or the
 * length of why the bytes were rejected, in the result buffer (bindings.cpp).
 */
function loadInto(core, create, fill, remove) {
  const handle = coreCall(create);
  let rejected;
  try {
    rejected = withAllocations(core, (mem) => fill(handle, mem));
  } catch (failure) {
    remove(handle);
    throw failure;
  }
  if (rejected) {
    const why = new TextDecoder().decode(resultArray(core, Uint8Array, rejected));
    remove(handle);
    throw new Error(why);
  }
  return handle;
}

/**
 * A handle made by create() and filled by load(handle, bytes address, length), which
 * returns 0 or the length of why the bytes were rejected (loadInto): the handle, or an
 * Error after deleting it (also when loading fails for want of memory).
 */
export function loadHandle(core, bytes, create, load, remove) {
  return loadInto(core, create, (handle, mem) => load(handle, mem.copyIn(bytes), bytes.length), remove);
}

/**
 * Serialized bytes cross between JS and WASM memory PIECE_BYTES at a time where they may
 * be large (the text index): WASM memory, which never shrinks, then holds one piece of
 * them rather than all.
 */
export const PIECE_BYTES = 1 << 18;

/**
 * As loadHandle, with the bytes given to the core a piece at a time: begin(handle, length),
 * next(handle, piece address, piece length) for each, then end(handle) returns 0 or the
 * length of why they were rejected (loadInto).
 */
export function loadHandleInPieces(core, bytes, create, { begin, next, end }, remove) {
  return loadInto(core, create, (handle, mem) => {
    const piece = mem.alloc(Math.min(bytes.length, PIECE_BYTES));
    begin(handle, bytes.length);
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
      const part = bytes.subarray(at, at + PIECE_BYTES);
      core.HEAPU8.set(part, piece);
      next(handle, piece, part.length);
    }
    return end(handle);
  }, remove);
}

/**
 * Columns of `count` values each, end to end in the result buffer in the order of `Types`
 * (typed array constructors; each column's start must suit its type), copied out; a large
 * buffer is then freed.
 */
export function resultColumns(core, count, Types) {
  let at = core._resultAddress();
  const { buffer } = core.HEAPU8;
  const columns = Types.map((Type) => {
    const column = new Type(buffer, at, count).slice();
    at += Type.BYTES_PER_ELEMENT * count;
    return column;
  });
  core._resultRelease();
  return columns;
}

/** The first `count` values of `Type` in the result buffer (findPairs, serialize), copied out; a large buffer is then freed. */
export const resultArray = (core, Type, count) => resultColumns(core, count, [Type])[0];

/**
 * Bytes the core writes a piece at a time to the result buffer, copied into one Uint8Array
 * as they come: begin() returns their length, each next(PIECE_BYTES) writes the next piece
 * and returns its length, end() frees what the pieces were written from.
 */
export function resultBytesInPieces(core, begin, next, end) {
  try {
    const length = coreCall(begin);
    const bytes = new Uint8Array(length);
    for (let at = 0; at < length;) {
      const count = coreCall(() => next(PIECE_BYTES));
      if (count === 0) throw new Error(`the core stopped after ${at} of ${length} bytes`);
      bytes.set(new Uint8Array(core.HEAPU8.buffer, core._resultAddress(), count), at);
      at += count;
    }
    return bytes;
  } finally {
    end();
    core._resultRelease();
  }
}

/** `count` values of a typed array type at a WASM address, copied out. */
export function copyOut(core, Type, address, count) {
  return new Type(core.HEAPU8.buffer, address, count).slice();
}

/** Encodes every text into one UTF-8 buffer in WASM memory for use(utf8, offsets, count, mem), whatever their size; frees it after. */
export function withEncodedTexts(core, texts, use) {
  let bytes = 0;
  for (const text of texts) bytes += utf8Length(text);
  return withAllocations(core, (mem) => {
    const utf8 = mem.alloc(bytes);
    const offsets = mem.alloc((texts.length + 1) * 4);
    const heap = core.HEAPU8;
    writeUtf8(texts, 0, heap.subarray(utf8, utf8 + bytes), new Uint32Array(heap.buffer, offsets, texts.length + 1));
    return use(utf8, offsets, texts.length, mem);
  });
}

/** The slices [start, end) of texts, of at most sliceChars UTF-16 units (or one text), and their units; checks each text. */
function* textSlices(texts, name, sliceChars) {
  let start = 0;
  while (start < texts.length) {
    let chars = 0;
    let end = start;
    for (; end < texts.length; end++) {
      const text = texts[end];
      checkText(text, `${name}[${end}]`);
      if (end > start && chars + text.length > sliceChars) break;
      chars += text.length;
    }
    yield [start, end, chars];
    start = end;
  }
}

/** Encodes texts[start, end) (chars UTF-16 units) into WASM memory for use(utf8, offsets, count, start, mem). */
function withEncodedSlice(core, texts, [start, end, chars], use) {
  withAllocations(core, (mem) => {
    const count = end - start;
    const utf8 = mem.alloc(chars * 3); // encodeInto writes at most 3 bytes per UTF-16 unit
    const offsets = mem.alloc((count + 1) * 4);
    const heap = core.HEAPU8;
    writeUtf8(texts, start, heap.subarray(utf8, utf8 + chars * 3), new Uint32Array(heap.buffer, offsets, count + 1));
    use(utf8, offsets, count, start, mem);
  });
}

/**
 * Encodes strings into one UTF-8 buffer in WASM memory, at most sliceChars characters
 * (or one text) at a time; calls use(utf8, offsets, count, start, mem) per slice.
 */
export function forEachEncodedSlice(core, texts, name, use, sliceChars = BATCH_CHARS) {
  for (const slice of textSlices(texts, name, sliceChars)) withEncodedSlice(core, texts, slice, use);
}

/**
 * The texts of { utf8, bounds } (text.js encodeTexts' layout: text i is utf8[bounds[i] ..
 * bounds[i + 1])) copied into WASM memory at most sliceBytes (or one text) and sliceTexts
 * texts at a time, for use(utf8, offsets, count, start, mem) per slice, awaiting
 * between(end) after each.
 */
export async function forEachByteSliceAsync(core, { utf8, bounds }, use, between, sliceBytes, sliceTexts = Infinity) {
  const count = bounds.length - 1;
  for (let start = 0, end; start < count; start = end) {
    for (end = start + 1; end < count && end - start < sliceTexts && bounds[end + 1] - bounds[start] <= sliceBytes; end++);
    withAllocations(core, (mem) => {
      const offsets = bounds.subarray(start, end + 1).map((b) => b - bounds[start]);
      use(mem.copyIn(utf8.subarray(bounds[start], bounds[end])), mem.copyIn(offsets), end - start, start, mem);
    });
    await between(end);
  }
}

/** As forEachEncodedSlice, awaiting between(end) after each slice (a pacer's pause, with progress). */
export async function forEachEncodedSliceAsync(core, texts, name, use, between, sliceChars = BATCH_CHARS) {
  for (const slice of textSlices(texts, name, sliceChars)) {
    withEncodedSlice(core, texts, slice, use);
    await between(slice[1]);
  }
}
