// simhash-wasm/redis: a text index shared by processes through Redis (Node only).
import type { FingerprintOptions, Measure, TextIndex, TextMatch, WordWeights } from './index.js';

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
  /**
   * The threshold in (0, 1], default the measure's as `createTextIndex`'s: 0.8 ('text'), 0.6
   * ('short'). An index made with another is refused at open.
   */
  similarity?: number;
  /** 'text' (the default) or 'short', as `createTextIndex`'s. An index made with the other is refused at open. */
  measure?: Measure;
  /**
   * With measure 'short': the word weights (null for none), stored beside the index when this
   * call creates it. Left out, the call takes the stored ones (none for a new index); given,
   * they must be the stored ones, else the open rejects. Missing or damaged stored weights
   * reject every open. A TypeError with the 'text' measure.
   */
  weights?: WordWeights | null;
  /**
   * Also answer stored texts reaching this review threshold, in [0.5, similarity) ([0.3,
   * similarity) by 'short'), as matches of kind 'review', as `createTextIndex`'s `review`.
   * A stored parameter: an index made with another review, or without when given one (or
   * with when not), is refused at open. Costs a second band table and a sketch per text in
   * Redis (docs/redis.md).
   */
  review?: number;
  /** Fingerprint options, checked as `createTextIndex`'s; they do not change the answers. */
  options?: FingerprintOptions;
}

export interface AddIfNewResult {
  added: boolean;
  /** With added: the id stored. */
  id?: number;
  /** Without: what `query` answers for the text (its duplicates, and with review its review matches). */
  matches?: TextMatch[];
}

/**
 * `TextIndex` (of `simhash-wasm`) kept in Redis for several processes: the same candidates
 * and exact answers, the same fresh ids in the same order. Every call is asynchronous.
 */
export interface SharedTextIndex {
  readonly similarity: number;
  readonly measure: Measure;
  /** By the 'short' measure, the word weights stored beside the index (null for none); null by 'text'. */
  readonly weights: WordWeights | null;
  /** The review threshold, undefined without review. */
  readonly review: number | undefined;
  /** Stores text under id (0..2^32-1) or a fresh id; a stored id rejects, storing nothing. */
  add(text: string, id?: number): Promise<number>;
  /**
   * Stores text unless a stored text is a duplicate of it (review matches do not stop it),
   * atomically across processes; retried with its id, stores it once.
   */
  addIfNew(text: string, id?: number): Promise<AddIfNewResult>;
  /**
   * Every stored text reaching the threshold (kind 'duplicate'), and with review every other
   * reaching the review threshold (kind 'review'), as `TextIndex.query`: duplicates first,
   * each kind most similar first, then by id; the first `limit`.
   */
  query(text: string, options?: { limit?: number }): Promise<TextMatch[]>;
  remove(id: number): Promise<boolean>;
  has(id: number): Promise<boolean>;
  size(): Promise<number>;
  /**
   * Stores the texts, ids and fresh-id counter of an in-memory TextIndex (or its serialized
   * bytes) into this index, which must be empty, of the same similarity and measure, and by
   * 'short' of the same word weights (else an Error). Not atomic: import before other
   * processes use it. Review matches come from this index's review.
   */
  importFrom(source: TextIndex | Uint8Array): Promise<void>;
  /** A new in-memory TextIndex with this index's texts, ids, fresh-id counter, measure, weights and review (dispose() it). */
  exportTo(): Promise<TextIndex>;
  /** Frees this process's WASM side; the client stays open and the index stays in Redis. */
  close(): Promise<void>;
}

/** Opens the index `name`, creating it when its key is free; other parameters, or a key that is not an index, reject. */
export function createSharedTextIndex(client: RedisClient, init: SharedTextIndexInit): Promise<SharedTextIndex>;
