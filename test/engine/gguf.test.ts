import {describe, expect, it} from "vitest";

import {
  dequantizeQ4_0,
  dequantizeQ8_0,
  f16BitsToF32,
  f32ToF16Bits,
  quantizeQ4_0,
  quantizeQ8_0
} from "../../scripts/engine/gguf/quantize.ts";
import {readGguf} from "../../scripts/engine/gguf/reader.ts";
import {tensorByteSize, type GgufValue} from "../../scripts/engine/gguf/types.ts";
import {encodeGgufToBuffer, type GgufInput} from "../../scripts/engine/gguf/writer.ts";
import {mulberry32} from "../../scripts/engine/prng.ts";

function sampleInput(): GgufInput {
  const metadata = new Map<string, GgufValue>([
    ["general.architecture", {type: "string", value: "llama"}],
    ["general.alignment", {type: "u32", value: 64}],
    ["t.u8", {type: "u8", value: 255}],
    ["t.i8", {type: "i8", value: -128}],
    ["t.u16", {type: "u16", value: 65535}],
    ["t.i16", {type: "i16", value: -32768}],
    ["t.i32", {type: "i32", value: -5}],
    ["t.f32", {type: "f32", value: 0.5}],
    ["t.f64", {type: "f64", value: Math.PI}],
    ["t.u64", {type: "u64", value: 2n ** 63n}],
    ["t.i64", {type: "i64", value: -(2n ** 40n)}],
    ["t.bool", {type: "bool", value: true}],
    ["t.utf8", {type: "string", value: "héllo ▁世界 🙂"}],
    ["t.strings", {type: "array", itemType: "string", value: ["<s>", "", "▁a", "\uFEFF", "\uFEFFx"]}],
    ["t.ints", {type: "array", itemType: "i32", value: [1, -2, 6]}],
    ["t.empty", {type: "array", itemType: "f32", value: []}]
  ]);
  const x = new Float32Array(64).map((_, i) => (i - 32) / 100);
  return {
    metadata,
    tensors: [
      {name: "a.weight", dims: [3], type: "F32", data: new Uint8Array(new Float32Array([1, 2, 3]).buffer)},
      {
        name: "b.weight",
        dims: [32, 2],
        type: "Q8_0",
        data: () => [quantizeQ8_0(x.subarray(0, 32)), quantizeQ8_0(x.subarray(32))]
      },
      {name: "c.weight", dims: [64], type: "Q4_0", data: quantizeQ4_0(x)}
    ]
  };
}

describe("gguf writer and reader", () => {
  it("round-trips metadata with exact types, tensor infos and aligned data", () => {
    const input = sampleInput();
    const bytes = encodeGgufToBuffer(input);
    const file = readGguf(bytes);
    expect(file.version).toBe(3);
    expect(file.alignment).toBe(64);
    expect([...file.metadata.entries()]).toEqual([...input.metadata.entries()]);
    expect(file.dataOffset % 64).toBe(0);
    expect(file.tensors.map((t) => [t.name, t.dims, t.type, t.offset])).toEqual([
      ["a.weight", [3], "F32", 0],
      ["b.weight", [32, 2], "Q8_0", 64],
      ["c.weight", [64], "Q4_0", 192]
    ]);
    const a = new Float32Array(
      bytes.buffer.slice(bytes.byteOffset + file.dataOffset, bytes.byteOffset + file.dataOffset + 12)
    );
    expect([...a]).toEqual([1, 2, 3]);
    const c = file.tensors[2]!;
    const cBytes = bytes.subarray(
      file.dataOffset + c.offset,
      file.dataOffset + c.offset + tensorByteSize(c.dims, c.type)
    );
    expect(cBytes).toEqual(Buffer.from(quantizeQ4_0(new Float32Array(64).map((_, i) => (i - 32) / 100))));
    expect(bytes.byteLength).toBe(file.dataOffset + 192 + 64);
    expect(encodeGgufToBuffer(sampleInput())).toEqual(bytes);
  });

  it("rejects tensor data of the wrong size, bad magic, and truncated headers", () => {
    const input = sampleInput();
    input.tensors[0] = {name: "a.weight", dims: [4], type: "F32", data: new Uint8Array(12)};
    expect(() => encodeGgufToBuffer(input)).toThrow("tensor a.weight has 12 bytes, expected 16");
    expect(() => readGguf(Buffer.from("GGML\x03\0\0\0"))).toThrow("not a gguf file");
    expect(() => readGguf(encodeGgufToBuffer(sampleInput()).subarray(0, 100))).toThrow("gguf header truncated");
    expect(() => tensorByteSize([33], "Q8_0")).toThrow("row length 33 is not a multiple of 32 for Q8_0");
  });
});

describe("quantisation", () => {
  it("converts f32 to f16 with round-to-nearest-even like Math.f16round", () => {
    const rng = mulberry32(7);
    const samples = [0, -0, 1, -2.5, 65504, 65520, 1e-8, 6e-8, 5.96e-8, 2 ** -24, 2 ** -25, 1e6, Infinity, -Infinity];
    for (let i = 0; i < 2000; i++) samples.push((rng() - 0.5) * 10 ** Math.floor(rng() * 12 - 8));
    for (const v of samples) expect(f16BitsToF32(f32ToF16Bits(v))).toBe(Math.f16round(Math.fround(v)));
    expect(Number.isNaN(f16BitsToF32(f32ToF16Bits(NaN)))).toBe(true);
  });

  it("Q8_0 reconstructs within half a step, Q4_0 within one (its top level is clipped), plus f16 scale rounding", () => {
    const rng = mulberry32(3);
    const x = new Float32Array(32 * 64).map(() => (2 * rng() - 1) * 0.0346);
    const q8 = quantizeQ8_0(x);
    const q4 = quantizeQ4_0(x);
    expect(q8.byteLength).toBe(64 * 34);
    expect(q4.byteLength).toBe(64 * 18);
    const y8 = dequantizeQ8_0(q8);
    const y4 = dequantizeQ4_0(q4);
    for (let b = 0; b < 64; b++) {
      const block = x.subarray(b * 32, b * 32 + 32);
      const amax = Math.max(...block.map(Math.abs));
      for (let j = 0; j < 32; j++) {
        const i = b * 32 + j;
        expect(Math.abs(y8[i]! - x[i]!)).toBeLessThanOrEqual((amax / 127) * 0.6);
        expect(Math.abs(y4[i]! - x[i]!)).toBeLessThanOrEqual((amax / 8) * 1.05);
      }
    }
  });
});
