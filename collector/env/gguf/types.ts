/**
 * GGUF v3 (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): value types, tensor types and shapes.
 * Pure (no I/O): the collector reads model headers with it, scripts/engine/gguf writes test models with it.
 */

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

/**
 * Every ggml tensor type id by name (ggml/include/ggml.h, `enum ggml_type`; ids 4, 5, 31–33 and 36–38 were
 * removed upstream). A header that uses one of these can be described even when its tensors cannot be sized.
 */
export const GGML_TYPE_IDS: Readonly<Record<string, number>> = {
  F32: 0,
  F16: 1,
  Q4_0: 2,
  Q4_1: 3,
  Q5_0: 6,
  Q5_1: 7,
  Q8_0: 8,
  Q8_1: 9,
  Q2_K: 10,
  Q3_K: 11,
  Q4_K: 12,
  Q5_K: 13,
  Q6_K: 14,
  Q8_K: 15,
  IQ2_XXS: 16,
  IQ2_XS: 17,
  IQ3_XXS: 18,
  IQ1_S: 19,
  IQ4_NL: 20,
  IQ3_S: 21,
  IQ2_S: 22,
  IQ4_XS: 23,
  I8: 24,
  I16: 25,
  I32: 26,
  I64: 27,
  F64: 28,
  IQ1_M: 29,
  BF16: 30,
  TQ1_0: 34,
  TQ2_0: 35,
  MXFP4: 39
};

/** A tensor's name in ggml.h for any id (`type_<id>` for one ggml.h does not name). */
export function ggmlTypeLabel(id: number): string {
  const entry = Object.entries(GGML_TYPE_IDS).find(([, v]) => v === id);
  return entry ? entry[0] : `type_${id}`;
}

/** `T` is the tensor type: a type this module can size (the default), or any ggml.h name (a header read to describe it). */
export interface GgufTensorInfo<T extends string = GgmlTypeName> {
  name: string;
  /** ggml order: dims[0] is the row length (fastest varying). */
  dims: number[];
  type: T;
  /** Byte offset from the start of the data section. */
  offset: number;
}

export interface GgufFile<T extends string = GgmlTypeName> {
  version: number;
  metadata: Map<string, GgufValue>;
  tensors: GgufTensorInfo<T>[];
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
