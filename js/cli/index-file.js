// The text index file of dedup --index: read, and replaced whole with --update.
import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { IndexFileError, MemoryError, OUT_OF_MEMORY } from './errors.js';
import { megabytes } from './streams.js';

/**
 * The text index stored in args.index. A file that does not exist gives a new empty index
 * at --similarity (else dedup's default) with --update, and an IndexFileError without it,
 * as does a file that cannot be read or loaded. The file is only read.
 */
export function openIndex(sh, args, progress) {
  let bytes;
  try {
    bytes = readFileSync(args.index);
    progress.show('load', `loading index ${args.index}: ${megabytes(bytes.length)}`, true);
  } catch (error) {
    if (error.code !== 'ENOENT') throw new IndexFileError(`cannot read index file ${args.index}: ${error.message}`);
    if (!args.update) throw new IndexFileError(`index file ${args.index} does not exist (--update creates it)`);
    return sh.createTextIndex(args.similarity === undefined ? {} : { similarity: args.similarity });
  }
  try {
    return sh.loadTextIndex(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  } catch (error) {
    if (OUT_OF_MEMORY.test(error.message)) throw new MemoryError(`loading index file ${args.index} (${megabytes(bytes.length)}) does not fit in memory (${error.message})`);
    throw new IndexFileError(`index file ${args.index} is not a valid text index (${error.message}); it is left as it is`);
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * The replacement of a file that is whole at every moment: the new bytes go to PATH.PID.tmp
 * in the same directory, created by the constructor (so a directory that cannot take it
 * fails before any work) with the old file's permission bits; write() fills and syncs it;
 * commit() renames it over PATH (atomic within a file system: readers see the old file or
 * the new one) and syncs the directory so the rename survives a crash. PATH is untouched
 * until commit(). discard() removes the temporary file, and runs on exit (saying PATH is not
 * updated) and on SIGINT, SIGTERM and SIGHUP; after a SIGKILL or a crash of the machine the
 * temporary file stays behind.
 */
export class FileReplacement {
  #fd;
  #done = false;
  #onExit = () => {
    // An exit before commit() or discard(): a closed output (EPIPE) or an uncaught error.
    process.stderr.write(`simhash-wasm: ${this.path} is not updated (the run ended early)\n`);
    this.discard();
  };
  #onSignal = (signal) => {
    this.discard();
    process.kill(process.pid, signal); // the listeners are gone: the signal's default action
  };

  constructor(path) {
    this.path = path;
    this.temporary = `${path}.${process.pid}.tmp`;
    let mode;
    try {
      mode = statSync(path).mode & 0o7777;
    } catch {
      // A new file: 0o666 less the umask, as any file the user creates.
    }
    try {
      this.#fd = openSync(this.temporary, 'wx', 0o666);
      if (mode !== undefined) fchmodSync(this.#fd, mode);
    } catch (error) {
      if (this.#fd !== undefined) this.discard();
      throw new IndexFileError(`cannot write ${this.temporary}, the new index file before it replaces ${path}: ${error.message}`);
    }
    process.on('exit', this.#onExit);
    for (const signal of SIGNALS) process.on(signal, this.#onSignal);
  }

  /** Writes bytes to the temporary file and syncs it to the disk. */
  write(bytes) {
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(this.#fd, bytes, at);
      fsyncSync(this.#fd);
    } catch (error) {
      throw new IndexFileError(`cannot write ${this.temporary}, the new index file (${error.message}); ${this.path} is left as it was`);
    }
  }

  /** Renames the temporary file over PATH. */
  commit() {
    try {
      closeSync(this.#fd);
      this.#fd = undefined;
      renameSync(this.temporary, this.path);
    } catch (error) {
      throw new IndexFileError(`cannot replace ${this.path} by ${this.temporary} (${error.message}); ${this.path} is left as it was`);
    }
    this.#release();
    try {
      const directory = openSync(dirname(this.path), 'r');
      try {
        fsyncSync(directory);
      } finally {
        closeSync(directory);
      }
    } catch {
      // Some file systems cannot sync a directory; the rename is done either way.
    }
  }

  /** Removes the temporary file unless commit() renamed it; later calls do nothing. */
  discard() {
    if (this.#done) return;
    this.#release();
    try {
      if (this.#fd !== undefined) closeSync(this.#fd);
    } catch {
      // Closing is best effort: the process is ending or has failed already.
    }
    try {
      unlinkSync(this.temporary);
    } catch {
      // Already gone.
    }
  }

  #release() {
    this.#done = true;
    process.off('exit', this.#onExit);
    for (const signal of SIGNALS) process.off(signal, this.#onSignal);
  }
}

