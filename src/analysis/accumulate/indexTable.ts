/** Entries below this index are always kept in the dense arrays (no map lookups for ordinary plans). */
const DENSE_FLOOR = 65_536;

/**
 * A count (and optionally one number) per non-negative integer index, for the indexes of a plan. Dense
 * typed arrays hold the indexes near 0…n, a map holds the rest, so memory follows the number of entries
 * added — never the largest index a (hostile) record names.
 */
export class IndexTable {
  #counts = new Uint8Array(0);
  #values: Float64Array | null;
  #sparse = new Map<number, {count: number; value: number}>();
  #entries = 0;
  #distinct = 0;

  constructor(withValues: boolean) {
    this.#values = withValues ? new Float64Array(0) : null;
  }

  /** Number of distinct indexes added. */
  get distinct(): number {
    return this.#distinct;
  }

  /** Adds one occurrence of `index` (with its value, kept from the first occurrence); returns how often it has now been added (saturating at 255). */
  add(index: number, value = Number.NaN): number {
    this.#entries++;
    const s = this.#sparse.get(index);
    if (s !== undefined) {
      s.count = Math.min(255, s.count + 1);
      return s.count;
    }
    if (index >= this.#counts.length && !this.#grow(index)) {
      this.#sparse.set(index, {count: 1, value});
      this.#distinct++;
      return 1;
    }
    const c = this.#counts[index]!;
    if (c === 0) {
      this.#distinct++;
      if (this.#values) this.#values[index] = value;
    }
    this.#counts[index] = Math.min(255, c + 1);
    return c + 1;
  }

  /** How often `index` was added (0 when never). */
  count(index: number): number {
    return this.#sparse.get(index)?.count ?? this.#counts[index] ?? 0;
  }

  /** The value of `index`'s first occurrence, or NaN. */
  value(index: number): number {
    const s = this.#sparse.get(index);
    if (s !== undefined) return s.value;
    return this.count(index) > 0 ? (this.#values?.[index] ?? Number.NaN) : Number.NaN;
  }

  /** Every distinct index, ascending. */
  *indexes(): Generator<number> {
    const sparse = [...this.#sparse.keys()].sort((a, b) => a - b);
    let k = 0;
    for (let i = 0; i < this.#counts.length; i++) {
      while (k < sparse.length && sparse[k]! < i) yield sparse[k++]!;
      if (this.#counts[i]! > 0) yield i;
    }
    while (k < sparse.length) yield sparse[k++]!;
  }

  /** The first `limit` indexes in [0, end) that were never added and that `skip` does not cover, ascending. */
  firstAbsent(end: number, skip: (index: number) => number, limit: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < end && out.length < limit;) {
      const next = skip(i); // the first index ≥ i not covered (i itself when not covered)
      if (next > i) {
        i = next;
        continue;
      }
      if (this.count(i) === 0) out.push(i);
      i++;
    }
    return out;
  }

  /** Dense storage grows only as far as twice the entries added (plus a floor); beyond that, the map. */
  #grow(index: number): boolean {
    if (!Number.isSafeInteger(index) || index >= 2 * this.#entries + DENSE_FLOOR) return false;
    const size = Math.max(index + 1, Math.min(2 * this.#counts.length, 2 * this.#entries + DENSE_FLOOR), 1024);
    const counts = new Uint8Array(size);
    counts.set(this.#counts);
    this.#counts = counts;
    if (this.#values) {
      const values = new Float64Array(size).fill(Number.NaN);
      values.set(this.#values);
      this.#values = values;
    }
    return true;
  }
}
