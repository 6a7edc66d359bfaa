// dedup --index: incremental dedup of the input against a text index file.
import { MemoryError, OUT_OF_MEMORY, UsageError } from './errors.js';
import { FileReplacement, openIndex } from './index-file.js';
import { Output, count, progressReporter, readInput } from './streams.js';
import { init } from '../node.js';

/** A MemoryError for an index that ran out of memory while `doing`; other errors unchanged. */
function indexOutOfMemory(error, index, doing) {
  if (!OUT_OF_MEMORY.test(error.message)) return error;
  return new MemoryError(`the text index (${count(index.size)} texts) does not fit in memory ${doing} (${error.message})`);
}


/**
 * dedup --index: each record is kept when its text's query finds nothing in the index,
 * then added to it, so later records are compared with it too; kept records are written as
 * they are decided, so only the index grows with the input. With --update the index is
 * written beside the old file and renamed over it once all output is written.
 */
export async function indexCommand(args) {
  const progress = progressReporter(args.progress);
  const sh = await init();
  const index = openIndex(sh, args, progress);
  let replacement = null;
  try {
    if (args.similarity !== undefined && args.similarity !== index.similarity) {
      throw new UsageError(`--similarity ${args.similarity} differs from the similarity of index file ${args.index}, ${index.similarity}; an index keeps the similarity it was made with (leave --similarity out, or use a new index file)`);
    }
    progress.show('index', `index ${args.index}: ${count(index.size)} texts, similarity ${index.similarity}`, true);
    if (args.update) replacement = new FileReplacement(args.index);
    const out = new Output();
    let records = 0;
    let kept = 0;
    await readInput(args, progress, {
      header: (record) => out.write(record.raw),
      record(record, text) {
        records++;
        try {
          if (index.query(text, { limit: 1 }).length > 0) return undefined;
          index.add(text);
        } catch (error) {
          throw indexOutOfMemory(error, index, `at line ${record.line}`);
        }
        kept++;
        return out.write(record.raw);
      },
      status: () => `${count(records)} records, ${count(kept)} kept`,
    });
    await out.flush();
    if (replacement) {
      progress.show('write', `writing ${args.index}: ${count(index.size)} texts`, true);
      let bytes;
      try {
        bytes = index.serialize();
      } catch (error) {
        throw indexOutOfMemory(error, index, 'to write');
      }
      replacement.write(bytes);
      replacement.commit();
    }
    const stored = replacement ? `${count(index.size)} texts (${count(kept)} added)` : `${count(index.size - kept)} texts (not updated)`;
    progress.end(`${count(records)} records, ${count(kept)} kept, ${count(records - kept)} near-duplicates; ${args.index}: ${stored}`);
  } finally {
    replacement?.discard();
    index.dispose();
  }
}
