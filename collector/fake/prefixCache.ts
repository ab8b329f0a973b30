import {createHash} from "node:crypto";

/**
 * The fake server's emulated prefix cache (option `prefixCacheTokens`): an LRU cache of whole blocks of
 * prompt tokens (the fake's token is a word), keyed by chain hashes — block k's key hashes block k − 1's key
 * and the words of block k, so a block is found only behind the very prefix it was computed after.
 *
 * The same rules as the analyzer's bound (src/analysis/workload/bound.ts), so a test can hold the two side by
 * side: a lookup takes the longest run of leading blocks present (touching them as recently used) and never
 * serves the whole prompt (at least its last token is computed); a request's blocks enter the cache only once
 * its prefill is done — when its first token is due — so requests arriving before that moment compute the
 * prefix themselves (two requests sent together both miss); an insert touches all the request's blocks in
 * order, then the least recently used blocks are evicted while more than the capacity is held.
 *
 * Pure: times are the caller's milliseconds; inserts are queued with their due time and applied, in time
 * order, by the next lookup that comes strictly after it (at equal times the lookup goes first).
 */
export class PrefixCache {
  /** Block key → its tokens; Map order is recency, least recently used first. */
  readonly #blocks = new Map<string, number>();
  #held = 0;
  #pending: PendingInsert[] = [];
  #seq = 0;

  /** Tokens the cache holds now (after the inserts settled so far). */
  get heldTokens(): number {
    return this.#held;
  }

  /**
   * Prompt tokens of `words` served from the cache at `nowMs`: the leading full blocks of `block` words found,
   * capped at words.length − 1 (0 below one block). Touches the blocks found.
   */
  lookup(words: readonly string[], block: number, nowMs: number): number {
    this.settle(nowMs);
    const size = blockSize(block);
    let found = 0;
    let key = "";
    for (let k = 0; (k + 1) * size <= words.length; k++) {
      key = chainKey(key, words, k, size);
      if (!this.#blocks.has(key)) break;
      this.#touch(key, size);
      found++;
    }
    return Math.max(0, Math.min(found * size, words.length - 1));
  }

  /**
   * Queues the full blocks of `words` to enter the cache at `atMs` (when the request's first token is due),
   * evicting least recently used blocks beyond `capacity` tokens then. The handle can cancel it before then.
   */
  insertAt(words: readonly string[], block: number, atMs: number, capacity: number): PendingInsert {
    const size = blockSize(block);
    const keys: string[] = [];
    let key = "";
    for (let k = 0; (k + 1) * size <= words.length; k++) keys.push((key = chainKey(key, words, k, size)));
    const p: PendingInsert = {atMs, seq: this.#seq++, keys, size, capacity, state: "pending"};
    this.#pending.push(p);
    return p;
  }

  /** Drops a queued insert that is not yet due at `nowMs` (a request gone before its prefill was done). */
  cancel(p: PendingInsert, nowMs: number): void {
    const i = this.#pending.indexOf(p);
    if (i < 0 || p.atMs < nowMs) return;
    this.#pending.splice(i, 1);
    p.state = "cancelled";
  }

  /** Applies the queued inserts due strictly before `nowMs`, in due-time order (ties: queue order). */
  settle(nowMs: number): void {
    const due = this.#pending.filter((p) => p.atMs < nowMs);
    if (due.length === 0) return;
    due.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
    for (const p of due) {
      for (const k of p.keys) this.#touch(k, p.size);
      this.#evict(p.capacity);
      p.state = "done";
    }
    this.#pending = this.#pending.filter((p) => p.state === "pending");
  }

  #touch(key: string, tokens: number): void {
    if (this.#blocks.delete(key)) this.#held -= tokens;
    this.#blocks.set(key, tokens);
    this.#held += tokens;
  }

  #evict(capacity: number): void {
    for (const [k, n] of this.#blocks) {
      if (this.#held <= capacity) break;
      this.#blocks.delete(k);
      this.#held -= n;
    }
  }
}

/** What one request puts in the cache once its prefill is done: its prompt words, block size and capacity. */
export interface PrefixInsert {
  words: readonly string[];
  block: number;
  capacity: number;
}

/** A queued insert (PrefixCache.insertAt): its due time, its blocks' chain keys, the capacity it evicts to. */
export interface PendingInsert {
  readonly atMs: number;
  readonly seq: number;
  readonly keys: readonly string[];
  readonly size: number;
  readonly capacity: number;
  state: "pending" | "done" | "cancelled";
}

const blockSize = (block: number): number => Math.max(1, Math.floor(block));

/** Key of block k (words k·size … (k+1)·size − 1) after the block whose key is `prev` ("" before block 0). */
function chainKey(prev: string, words: readonly string[], k: number, size: number): string {
  const h = createHash("sha256").update(prev).update("\n");
  // words hold no whitespace, so a space-joined block is unambiguous
  h.update(words.slice(k * size, (k + 1) * size).join(" "));
  return h.digest("base64");
}
