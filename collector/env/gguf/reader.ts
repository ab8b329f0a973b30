import {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  alignUp,
  ggmlTypeLabel,
  ggmlTypeName,
  valueTypeName,
  type GgufFile,
  type GgufScalar,
  type GgufScalarType,
  type GgufTensorInfo,
  type GgufValue
} from "./types.ts";

/** Thrown when the buffer ends before the header does: the caller reads more of the file and tries again. */
export class GgufTruncatedError extends Error {}

/** ignoreBOM keeps a leading U+FEFF: the Phi-3 vocabulary has a token that is exactly a BOM. */
const utf8 = new TextDecoder("utf-8", {fatal: true, ignoreBOM: true});

/**
 * Parses a GGUF v2/v3 header (metadata and tensor infos) from the start of a buffer; tensor data is not read.
 * Tensors of a type this module cannot size are an error (scripts/engine reads back what it wrote).
 */
export function readGguf(bytes: Uint8Array): GgufFile {
  return parseGguf(bytes, ggmlTypeName);
}

/** The same header with any ggml tensor type named as ggml.h names it (describing a model file, not sizing it). */
export function readGgufHeader(bytes: Uint8Array): GgufFile<string> {
  return parseGguf(bytes, ggmlTypeLabel);
}

/**
 * The parser behind both. One function over 80 lines on purpose: it reads the header fields in file order,
 * sharing one cursor.
 */
// eslint-disable-next-line max-lines-per-function -- header fields in file order, one cursor (see above)
function parseGguf<T extends string>(bytes: Uint8Array, typeOf: (id: number) => T): GgufFile<T> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  /** Reserves n bytes and returns their offset. */
  const take = (n: number): number => {
    if (at + n > bytes.byteLength) throw new GgufTruncatedError(`gguf header truncated at byte ${at}`);
    at += n;
    return at - n;
  };
  const u32 = (): number => view.getUint32(take(4), true);
  const u64 = (): number => {
    const v = view.getBigUint64(take(8), true);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`gguf size too large: ${v}`);
    return Number(v);
  };
  const str = (): string => {
    const n = u64();
    const start = take(n);
    return utf8.decode(bytes.subarray(start, start + n));
  };
  const scalar = (type: GgufScalarType): GgufScalar => {
    switch (type) {
      case "u8":
        return view.getUint8(take(1));
      case "i8":
        return view.getInt8(take(1));
      case "u16":
        return view.getUint16(take(2), true);
      case "i16":
        return view.getInt16(take(2), true);
      case "u32":
        return u32();
      case "i32":
        return view.getInt32(take(4), true);
      case "f32":
        return view.getFloat32(take(4), true);
      case "f64":
        return view.getFloat64(take(8), true);
      case "u64":
        return view.getBigUint64(take(8), true);
      case "i64":
        return view.getBigInt64(take(8), true);
      case "bool": {
        const b = view.getUint8(take(1));
        if (b > 1) throw new Error(`invalid gguf bool: ${b}`);
        return b === 1;
      }
      case "string":
        return str();
    }
  };
  const value = (): GgufValue => {
    const type = valueTypeName(u32());
    if (type !== "array") return {type, value: scalar(type)} as GgufValue;
    const itemType = valueTypeName(u32());
    if (itemType === "array") throw new Error("nested gguf arrays are not supported");
    const n = u64();
    const items: GgufScalar[] = new Array(n);
    for (let i = 0; i < n; i++) items[i] = scalar(itemType);
    return {type: "array", itemType, value: items};
  };

  const magic = String.fromCharCode(...bytes.subarray(take(4), 4));
  if (magic !== GGUF_MAGIC) throw new Error(`not a gguf file (magic ${JSON.stringify(magic)})`);
  const version = u32();
  if (version !== 2 && version !== 3) throw new Error(`unsupported gguf version: ${version}`);
  const tensorCount = u64();
  const kvCount = u64();
  const metadata = new Map<string, GgufValue>();
  for (let i = 0; i < kvCount; i++) {
    const key = str();
    if (metadata.has(key)) throw new Error(`duplicate gguf key: ${key}`);
    metadata.set(key, value());
  }
  const tensors: GgufTensorInfo<T>[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = str();
    const nDims = u32();
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(u64());
    const type = typeOf(u32());
    tensors.push({name, dims, type, offset: u64()});
  }
  const alignmentKv = metadata.get("general.alignment");
  const alignment = alignmentKv?.type === "u32" ? alignmentKv.value : GGUF_DEFAULT_ALIGNMENT;
  return {version, metadata, tensors, alignment, dataOffset: alignUp(at, alignment)};
}
