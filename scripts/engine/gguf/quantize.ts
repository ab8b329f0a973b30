/**
 * ggml block quantisation in JS, following ggml's reference kernels (`quantize_row_q8_0_ref`,
 * `quantize_row_q4_0_ref` in ggml-quants.c). Inputs must be a whole number of 32-element blocks.
 */

const QK = 32;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE 754 binary32 → binary16 bits, round to nearest even (as `GGML_FP32_TO_FP16`). */
export function f32ToF16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = mant & ((1 << shift) - 1);
    let h = mant >>> shift;
    if (rest > half || (rest === half && (h & 1) === 1)) h++;
    return sign | h;
  }
  let h = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1) === 1)) {
    h++;
    if (h === 0x400) {
      h = 0;
      e++;
      if (e >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | h;
}

/** binary16 bits → number. */
export function f16BitsToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

function checkBlocks(x: Float32Array): number {
  if (x.length % QK !== 0) throw new Error(`length ${x.length} is not a multiple of ${QK}`);
  return x.length / QK;
}

/** Q8_0: per 32 values, an f16 scale d = max|x|/127 and 32 int8 values round(x/d). 34 bytes per block. */
export function quantizeQ8_0(x: Float32Array): Uint8Array {
  const blocks = checkBlocks(x);
  const out = new Uint8Array(blocks * 34);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const base = b * QK;
    let amax = 0;
    for (let j = 0; j < QK; j++) amax = Math.max(amax, Math.abs(x[base + j] ?? 0));
    const d = Math.fround(amax / 127);
    const id = d ? Math.fround(1 / d) : 0;
    const o = b * 34;
    view.setUint16(o, f32ToF16Bits(d), true);
    for (let j = 0; j < QK; j++) {
      const v = Math.fround((x[base + j] ?? 0) * id);
      view.setInt8(o + 2 + j, Math.sign(v) * Math.round(Math.abs(v)));
    }
  }
  return out;
}

/** Q4_0: per 32 values, an f16 scale d = max/-8 (max = the value of largest magnitude) and 32 4-bit values. 18 bytes per block. */
export function quantizeQ4_0(x: Float32Array): Uint8Array {
  const blocks = checkBlocks(x);
  const out = new Uint8Array(blocks * 18);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const base = b * QK;
    let amax = 0;
    let max = 0;
    for (let j = 0; j < QK; j++) {
      const v = x[base + j] ?? 0;
      if (amax < Math.abs(v)) {
        amax = Math.abs(v);
        max = v;
      }
    }
    const d = Math.fround(max / -8);
    const id = d ? Math.fround(1 / d) : 0;
    const o = b * 18;
    view.setUint16(o, f32ToF16Bits(d), true);
    for (let j = 0; j < QK / 2; j++) {
      const x0 = Math.fround((x[base + j] ?? 0) * id);
      const x1 = Math.fround((x[base + QK / 2 + j] ?? 0) * id);
      const q0 = Math.min(15, Math.trunc(Math.fround(x0 + 8.5)));
      const q1 = Math.min(15, Math.trunc(Math.fround(x1 + 8.5)));
      out[o + 2 + j] = q0 | (q1 << 4);
    }
  }
  return out;
}

export function dequantizeQ8_0(bytes: Uint8Array): Float32Array {
  const blocks = bytes.byteLength / 34;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(blocks * QK);
  for (let b = 0; b < blocks; b++) {
    const d = f16BitsToF32(view.getUint16(b * 34, true));
    for (let j = 0; j < QK; j++) out[b * QK + j] = d * view.getInt8(b * 34 + 2 + j);
  }
  return out;
}

export function dequantizeQ4_0(bytes: Uint8Array): Float32Array {
  const blocks = bytes.byteLength / 18;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(blocks * QK);
  for (let b = 0; b < blocks; b++) {
    const d = f16BitsToF32(view.getUint16(b * 18, true));
    for (let j = 0; j < QK / 2; j++) {
      const q = view.getUint8(b * 18 + 2 + j);
      out[b * QK + j] = d * ((q & 0x0f) - 8);
      out[b * QK + QK / 2 + j] = d * ((q >>> 4) - 8);
    }
  }
  return out;
}

/** F32 tensor bytes (little-endian). */
export function encodeF32(x: Float32Array): Uint8Array {
  const out = new Uint8Array(x.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < x.length; i++) view.setFloat32(i * 4, x[i] ?? 0, true);
  return out;
}

/** F16 tensor bytes (little-endian). */
export function encodeF16(x: Float32Array): Uint8Array {
  const out = new Uint8Array(x.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < x.length; i++) view.setUint16(i * 2, f32ToF16Bits(x[i] ?? 0), true);
  return out;
}
