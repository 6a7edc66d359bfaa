// simhash-wasm/redis: a text index shared by processes through Redis (Node only).
import type { TextIndex, TextMatch } from './index.js';

/**
 * A connected client of the npm package `redis` (node-redis: a client or a Cluster) or of
 * `ioredis` (a client or a Cluster); the library opens no connection.
 */
export type RedisClient =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>; getSlotRandomNode(slot: number): unknown }
  | { call(command: string, ...args: string[]): Promise<unknown> };

export interface SharedTextIndexInit {
  /** The index's name: its keys are `simhash:{name}:…`, all under one hash tag (so one Cluster slot). No braces. */
  name: string;
  /** The threshold in (0, 1], default 0.8 as `createTextIndex`'s. An index made with another is refused at open. */
  similarity?: number;
}

export interface AddIfNewResult {
  added: boolean;
  /** With added: the id stored. */
  id?: number;
  /** Without: the stored texts that reach the threshold, as `query` answers. */
  matches?: TextMatch[];
}

/**
 * `TextIndex` (of `simhash-wasm`) kept in Redis for several processes: the same candidates
 * and exact answers, the same fresh ids in the same order. Every call is asynchronous.
 */
export interface SharedTextIndex {
  readonly similarity: number;
  /** Stores text under id (0..2^32-1) or a fresh id; a stored id rejects, storing nothing. */
  add(text: string, id?: number): Promise<number>;
  /** Stores text unless a stored text reaches the threshold, atomically across processes; retried with its id, stores it once. */
  addIfNew(text: string, id?: number): Promise<AddIfNewResult>;
  /** Every stored text reaching the threshold, most similar first, then by id; the first `limit`. */
  query(text: string, options?: { limit?: number }): Promise<TextMatch[]>;
  remove(id: number): Promise<boolean>;
  has(id: number): Promise<boolean>;
  size(): Promise<number>;
  /**
   * Stores the texts, ids and fresh-id counter of an in-memory TextIndex (or its serialized
   * bytes) into this index, which must be empty and of the same similarity. Not atomic:
   * import before other processes use it. Review is dropped.
   */
  importFrom(source: TextIndex | Uint8Array): Promise<void>;
  /** A new in-memory TextIndex with this index's texts, ids and fresh-id counter (dispose() it). */
  exportTo(): Promise<TextIndex>;
  /** Frees this process's WASM side; the client stays open and the index stays in Redis. */
  close(): Promise<void>;
}

/** Opens the index `name`, creating it when its key is free; other parameters, or a key that is not an index, reject. */
export function createSharedTextIndex(client: RedisClient, init: SharedTextIndexInit): Promise<SharedTextIndex>;
