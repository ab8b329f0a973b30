import {writeFileAtomic} from "../../../collector/effects.ts";
import {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VALUE_TYPE,
  GGUF_VERSION,
  GGML_TYPE,
  alignUp,
  tensorByteSize,
  type GgmlTypeName,
  type GgufScalar,
  type GgufScalarType,
  type GgufValue
} from "./types.ts";

export interface GgufTensorInput {
  name: string;
  /** ggml order: dims[0] is the row length. */
  dims: number[];
  type: GgmlTypeName;
  /** The tensor's bytes, whole or as a sequence of chunks (generated lazily, in order). */
  data: Uint8Array | (() => Iterable<Uint8Array>);
}

export interface GgufInput {
  /** Written in insertion order. `general.alignment` (u32), if present, sets the alignment. */
  metadata: Map<string, GgufValue>;
  tensors: GgufTensorInput[];
}

const utf8 = new TextEncoder();

/** A little-endian byte builder for the header. */
class ByteSink {
  private chunks: Uint8Array[] = [];
  length = 0;
  push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.byteLength;
  }
  fixed(size: number, set: (view: DataView) => void): void {
    const b = new Uint8Array(size);
    set(new DataView(b.buffer));
    this.push(b);
  }
  u32(v: number): void {
    this.fixed(4, (d) => d.setUint32(0, v, true));
  }
  u64(v: number | bigint): void {
    this.fixed(8, (d) => d.setBigUint64(0, BigInt(v), true));
  }
  str(s: string): void {
    const b = utf8.encode(s);
    this.u64(b.byteLength);
    this.push(b);
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
}

function writeScalar(sink: ByteSink, type: GgufScalarType, v: GgufScalar): void {
  const fail = (): never => {
    throw new Error(`gguf ${type} value has the wrong js type: ${String(v)}`);
  };
  switch (type) {
    case "string":
      return typeof v === "string" ? sink.str(v) : fail();
    case "bool":
      return typeof v === "boolean" ? sink.fixed(1, (d) => d.setUint8(0, v ? 1 : 0)) : fail();
    case "u64":
      return typeof v === "bigint" ? sink.u64(v) : fail();
    case "i64":
      return typeof v === "bigint" ? sink.fixed(8, (d) => d.setBigInt64(0, v, true)) : fail();
  }
  if (typeof v !== "number") return fail();
  switch (type) {
    case "u8":
      return sink.fixed(1, (d) => d.setUint8(0, v));
    case "i8":
      return sink.fixed(1, (d) => d.setInt8(0, v));
    case "u16":
      return sink.fixed(2, (d) => d.setUint16(0, v, true));
    case "i16":
      return sink.fixed(2, (d) => d.setInt16(0, v, true));
    case "u32":
      return sink.u32(v);
    case "i32":
      return sink.fixed(4, (d) => d.setInt32(0, v, true));
    case "f32":
      return sink.fixed(4, (d) => d.setFloat32(0, v, true));
    case "f64":
      return sink.fixed(8, (d) => d.setFloat64(0, v, true));
  }
}

function alignmentOf(metadata: Map<string, GgufValue>): number {
  const a = metadata.get("general.alignment");
  if (a === undefined) return GGUF_DEFAULT_ALIGNMENT;
  if (a.type !== "u32" || a.value <= 0 || a.value % 8 !== 0) throw new Error(`invalid general.alignment: ${a.value}`);
  return a.value;
}

/** Encodes the header (magic … tensor infos, padded to the alignment) and returns it with each tensor's data size. */
export function encodeGgufHeader(input: GgufInput): {header: Uint8Array; sizes: number[]; alignment: number} {
  const alignment = alignmentOf(input.metadata);
  const sink = new ByteSink();
  sink.push(utf8.encode(GGUF_MAGIC));
  sink.u32(GGUF_VERSION);
  sink.u64(input.tensors.length);
  sink.u64(input.metadata.size);
  for (const [key, kv] of input.metadata) {
    sink.str(key);
    sink.u32(GGUF_VALUE_TYPE[kv.type]);
    if (kv.type === "array") {
      sink.u32(GGUF_VALUE_TYPE[kv.itemType]);
      sink.u64(kv.value.length);
      for (const item of kv.value) writeScalar(sink, kv.itemType, item);
    } else {
      writeScalar(sink, kv.type, kv.value);
    }
  }
  const sizes: number[] = [];
  const names = new Set<string>();
  let offset = 0;
  for (const t of input.tensors) {
    if (names.has(t.name)) throw new Error(`duplicate tensor name: ${t.name}`);
    names.add(t.name);
    const size = tensorByteSize(t.dims, t.type);
    sizes.push(size);
    sink.str(t.name);
    sink.u32(t.dims.length);
    for (const d of t.dims) sink.u64(d);
    sink.u32(GGML_TYPE[t.type]);
    sink.u64(offset);
    offset = alignUp(offset + size, alignment);
  }
  // The data section starts aligned; a file without tensors ends right after its metadata (as gguf-py writes it).
  if (input.tensors.length > 0) sink.push(new Uint8Array(alignUp(sink.length, alignment) - sink.length));
  return {header: sink.concat(), sizes, alignment};
}

/** Yields the whole file: header, then each tensor's data padded to the alignment. Checks every tensor's size. */
export function* encodeGguf(input: GgufInput): Generator<Uint8Array> {
  const {header, sizes, alignment} = encodeGgufHeader(input);
  yield header;
  for (const [i, t] of input.tensors.entries()) {
    const expected = sizes[i] ?? 0;
    let written = 0;
    for (const chunk of t.data instanceof Uint8Array ? [t.data] : t.data()) {
      written += chunk.byteLength;
      if (written > expected) break;
      yield chunk;
    }
    if (written !== expected) throw new Error(`tensor ${t.name} has ${written} bytes, expected ${expected}`);
    const pad = alignUp(expected, alignment) - expected;
    if (pad > 0) yield new Uint8Array(pad);
  }
}

/** Encodes a GGUF file in memory (for tests and small files). */
export function encodeGgufToBuffer(input: GgufInput): Buffer {
  return Buffer.concat([...encodeGguf(input)]);
}

/**
 * Streams a GGUF file to disk atomically (temp file, fsync, rename): a killed run never leaves a partial model.
 * `onChunk` sees every byte written, in order (e.g. to hash the file while writing). Returns the file size.
 */
export function writeGgufFile(path: string, input: GgufInput, onChunk?: (chunk: Uint8Array) => void): number {
  return writeFileAtomic(path, encodeGguf(input), onChunk);
}
