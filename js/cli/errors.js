// The CLI's errors, each an exit status (cli/main.js).

/** A command line that makes no sense: exit 2. */
export class UsageError extends Error {}

/** Thrown when the work does not fit in memory: exit 3. */
export class MemoryError extends Error {}

/** A --review-file that cannot be written: exit 1. */
export class ReviewFileError extends Error {}

/** An index file that cannot serve (missing without --update, unreadable, corrupt, not writable): exit 1. */
export class IndexFileError extends Error {}

/** What the module, V8 or findPairs say when memory runs out. */
export const OUT_OF_MEMORY = /out of WebAssembly memory|Array buffer allocation failed|Invalid (typed )?array length|would produce \d+ pairs/;
