/** A growable column of float64 samples (amortised O(1) push, no per-value boxing). */
export class Column {
  #data: Float64Array;
  #length = 0;

  constructor(capacity = 64) {
    this.#data = new Float64Array(capacity);
  }

  get length(): number {
    return this.#length;
  }

  push(x: number): void {
    if (this.#length === this.#data.length) {
      const next = new Float64Array(this.#data.length * 2);
      next.set(this.#data);
      this.#data = next;
    }
    this.#data[this.#length++] = x;
  }

  pushRepeated(x: number, times: number): void {
    for (let i = 0; i < times; i++) this.push(x);
  }

  /** A copy trimmed to the length (safe to reorder). */
  values(): Float64Array {
    return this.#data.slice(0, this.#length);
  }
}
