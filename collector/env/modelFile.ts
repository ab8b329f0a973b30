import type {ModelFileFacts, ModelProbe} from "../../src/analysis/schema/manifest.ts";
import type {Files} from "../effects.ts";
import {GgufTruncatedError, readGgufHeader} from "./gguf/reader.ts";
import type {GgufFile, GgufValue} from "./gguf/types.ts";
import type {ServerProbe} from "./probe.ts";

/** The header is read from 1 MiB, doubling, up to 256 MiB (a large vocabulary is tens of MiB). */
const FIRST_READ = 1 << 20;
const MAX_HEADER = 256 << 20;
/** A longer string value (a chat template) is recorded by its length only. */
const MAX_STRING = 1024;

/**
 * The model file the server serves, when it says: llama.cpp's /props `model_path`, else a `-m`/`--model`
 * launch argument naming a .gguf file. Null when neither names one.
 */
export function modelFilePath(probe: Pick<ServerProbe, "version">, launchArgs?: readonly string[]): string | null {
  const props = probe.version["/props"] as {model_path?: unknown} | undefined;
  if (typeof props?.model_path === "string" && props.model_path.trim()) return props.model_path;
  const args = launchArgs ?? [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const inline = /^(?:-m|--model)=(.+)$/.exec(a)?.[1];
    const value = inline ?? (a === "-m" || a === "--model" ? args[i + 1] : undefined);
    if (value !== undefined && /\.gguf$/i.test(value)) return value;
  }
  return null;
}

/** A header value as the manifest keeps it: scalars as they are, arrays and long strings summarized. */
function scalarOf(v: GgufValue): string | number | boolean {
  if (v.type === "array") return `<array of ${v.value.length} ${v.itemType}>`;
  if (v.type === "string") return v.value.length > MAX_STRING ? `<string of ${v.value.length} chars>` : v.value;
  if (typeof v.value === "bigint") {
    const n = Number(v.value);
    return Number.isSafeInteger(n) ? n : v.value.toString();
  }
  if (typeof v.value === "number" && !Number.isFinite(v.value)) return String(v.value);
  return v.value;
}

/** The facts of a parsed header: scalar metadata (tokenizer arrays left out), tensors and elements per type. */
export function ggufFacts(path: string, fileBytes: number, header: GgufFile<string>): ModelFileFacts {
  const metadata: Record<string, string | number | boolean> = {};
  for (const [key, v] of header.metadata) {
    if (v.type === "array" && key.startsWith("tokenizer.")) continue;
    metadata[key] = scalarOf(v);
  }
  const tensorTypes: ModelFileFacts["tensorTypes"] = {};
  for (const t of header.tensors) {
    const row = (tensorTypes[t.type] ??= {tensors: 0, elements: 0});
    row.tensors++;
    row.elements += t.dims.reduce((a, b) => a * b, 1);
  }
  const data = fileBytes - header.dataOffset;
  return {
    format: "gguf",
    path,
    fileBytes,
    tensorDataBytes: data >= 0 ? data : null,
    metadata,
    tensorTypes
  };
}

/** Reads as much of the file as its header needs, through the files effect. */
async function readHeader(files: Pick<Files, "readRange">, path: string, fileBytes: number): Promise<GgufFile<string>> {
  for (let size = Math.min(FIRST_READ, fileBytes); ; size = Math.min(size * 2, fileBytes)) {
    const buf = await files.readRange(path, 0, size);
    try {
      return readGgufHeader(buf);
    } catch (e) {
      if (!(e instanceof GgufTruncatedError) || buf.byteLength < size || size >= fileBytes) throw e;
      if (size >= MAX_HEADER) throw new Error(`gguf header larger than ${MAX_HEADER >> 20} MiB`, {cause: e});
    }
  }
}

/**
 * What the model file says about itself, read from its header when the file is on this host (never the
 * weights); otherwise the reason it was not read.
 */
export async function modelProbe(
  files: Pick<Files, "exists" | "size" | "readRange">,
  path: string | null
): Promise<ModelProbe> {
  if (path === null) return {file: null, reason: "the server named no model file (no /props model_path)"};
  try {
    if (!(await files.exists(path))) return {file: null, reason: `model file not on this host: ${path}`};
    const fileBytes = await files.size(path);
    const header = await readHeader(files, path, fileBytes);
    return {file: ggufFacts(path, fileBytes, header), reason: null};
  } catch (e) {
    const message = (e as Error).message;
    if (/^not a gguf file/.test(message)) return {file: null, reason: `${message}: ${path}`};
    return {file: null, reason: `cannot read the model header of ${path}: ${message}`};
  }
}
