const CHUNK = 1 << 16;

/** Numeric sample storage the statistics functions accept. */
export type Samples = Float64Array | Float32Array;

/**
 * A growable column of samples, stored in fixed-size chunks so growth never copies or over-allocates
 * more than one chunk. `f32` halves memory for pooled per-chunk and per-token samples (tens of
 * millions in a large run): float32 keeps a relative precision of 6e-8, far below timer resolution.
 */
export class Column {
  #chunks: Samples[] = [];
  #current: Samples;
  #fill = 0;
  #length = 0;
  #f32: boolean;

  constructor(opts: {precision?: "f64" | "f32"; firstChunk?: number} = {}) {
    this.#f32 = opts.precision === "f32";
    this.#current = this.#alloc(opts.firstChunk ?? 256);
  }

  get length(): number {
    return this.#length;
  }

  push(x: number): void {
    if (this.#fill === this.#current.length) {
      this.#chunks.push(this.#current);
      this.#current = this.#alloc(CHUNK);
      this.#fill = 0;
    }
    this.#current[this.#fill++] = x;
    this.#length++;
  }

  /**
   * All values in one exact-size array (safe to reorder). Chunks are released while copying, so the
   * peak is the data plus one chunk; the column is empty afterwards.
   */
  values(): Samples {
    const out = this.#alloc(this.#length);
    let at = 0;
    for (let c = this.#chunks.shift(); c !== undefined; c = this.#chunks.shift()) {
      out.set(c, at);
      at += c.length;
    }
    out.set(this.#current.subarray(0, this.#fill), at);
    this.#current = this.#alloc(0);
    this.#fill = 0;
    this.#length = 0;
    return out;
  }

  #alloc(n: number): Samples {
    return this.#f32 ? new Float32Array(n) : new Float64Array(n);
  }
}
