/** GGUF v3 (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): value types, tensor types and shapes. */

export const GGUF_MAGIC = "GGUF";
export const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** Metadata value type ids, by our short name. */
export const GGUF_VALUE_TYPE = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  string: 8,
  array: 9,
  u64: 10,
  i64: 11,
  f64: 12
} as const;

export type GgufValueTypeName = keyof typeof GGUF_VALUE_TYPE;
export type GgufNumberType = "u8" | "i8" | "u16" | "i16" | "u32" | "i32" | "f32" | "f64";
export type GgufBigIntType = "u64" | "i64";
export type GgufScalarType = GgufNumberType | GgufBigIntType | "bool" | "string";
export type GgufScalar = number | bigint | boolean | string;

/** One metadata value with its exact GGUF type (so a read-then-write round trip is byte-identical). */
export type GgufValue =
  | {type: GgufNumberType; value: number}
  | {type: GgufBigIntType; value: bigint}
  | {type: "bool"; value: boolean}
  | {type: "string"; value: string}
  | {type: "array"; itemType: GgufScalarType; value: GgufScalar[]};

/** ggml tensor types this module can size (and, for F32/F16/Q8_0/Q4_0, produce). */
export const GGML_TYPE = {F32: 0, F16: 1, Q4_0: 2, Q4_1: 3, Q5_0: 6, Q5_1: 7, Q8_0: 8} as const;
export type GgmlTypeName = keyof typeof GGML_TYPE;

/** Elements per block and bytes per block for each ggml type. */
export const GGML_BLOCK: Record<GgmlTypeName, {elements: number; bytes: number}> = {
  F32: {elements: 1, bytes: 4},
  F16: {elements: 1, bytes: 2},
  Q4_0: {elements: 32, bytes: 18},
  Q4_1: {elements: 32, bytes: 20},
  Q5_0: {elements: 32, bytes: 22},
  Q5_1: {elements: 32, bytes: 24},
  Q8_0: {elements: 32, bytes: 34}
};

export interface GgufTensorInfo {
  name: string;
  /** ggml order: dims[0] is the row length (fastest varying). */
  dims: number[];
  type: GgmlTypeName;
  /** Byte offset from the start of the data section. */
  offset: number;
}

export interface GgufFile {
  version: number;
  metadata: Map<string, GgufValue>;
  tensors: GgufTensorInfo[];
  alignment: number;
  /** Absolute byte offset of the data section. */
  dataOffset: number;
}

export function ggmlTypeName(id: number): GgmlTypeName {
  const entry = Object.entries(GGML_TYPE).find(([, v]) => v === id);
  if (!entry) throw new Error(`unsupported ggml tensor type id: ${id}`);
  return entry[0] as GgmlTypeName;
}

export function valueTypeName(id: number): GgufValueTypeName {
  const entry = Object.entries(GGUF_VALUE_TYPE).find(([, v]) => v === id);
  if (!entry) throw new Error(`unknown gguf value type id: ${id}`);
  return entry[0] as GgufValueTypeName;
}

export function elementCount(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

/** Bytes of tensor data for a shape and type; dims[0] must be a whole number of blocks. */
export function tensorByteSize(dims: readonly number[], type: GgmlTypeName): number {
  const block = GGML_BLOCK[type];
  const row = dims[0] ?? 1;
  if (row % block.elements !== 0)
    throw new Error(`row length ${row} is not a multiple of ${block.elements} for ${type}`);
  return (elementCount(dims) / block.elements) * block.bytes;
}

export function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}
