import {existsSync, mkdirSync, readFileSync, statSync, writeFileSync} from "node:fs";
import {dirname, join, resolve} from "node:path";

import {sha256Hasher} from "../../src/io/hash.ts";
import {quantizeQ4_0, quantizeQ8_0, encodeF32} from "./gguf/quantize.ts";
import {readGgufFile} from "./gguf/reader.ts";
import type {GgmlTypeName, GgufValue} from "./gguf/types.ts";
import {writeGgufFile, type GgufTensorInput} from "./gguf/writer.ts";
import {llamaCppFile} from "./llamaSource.ts";
import {LLAMA_CPP_COMMIT, modelsDir} from "./paths.ts";
import {PRNG_NAME, fnv1a32, mulberry32} from "./prng.ts";

export interface ModelShape {
  embd: number;
  layers: number;
  heads: number;
  kvHeads: number;
  ff: number;
  quant: Extract<GgmlTypeName, "Q8_0" | "Q4_0" | "F16" | "F32">;
  contextLength: number;
}

/** Llama-architecture shapes. `tinyllama` has TinyLlama-1.1B's shape, so its CPU speed is that of a real 1B model. */
export const PRESETS = {
  tiny: {embd: 256, layers: 4, heads: 4, kvHeads: 2, ff: 768, quant: "Q8_0", contextLength: 4096},
  small: {embd: 512, layers: 8, heads: 8, kvHeads: 4, ff: 1536, quant: "Q8_0", contextLength: 4096},
  base: {embd: 1024, layers: 12, heads: 16, kvHeads: 4, ff: 2816, quant: "Q8_0", contextLength: 4096},
  tinyllama: {embd: 2048, layers: 22, heads: 32, kvHeads: 4, ff: 5632, quant: "Q4_0", contextLength: 4096}
} as const satisfies Record<string, ModelShape>;

export type PresetName = keyof typeof PRESETS;

/** Bump when the generator's output changes for the same preset and seed (it is part of the file name). */
export const GENERATOR_VERSION = 1;
/** Weights are uniform on [-a, a] with standard deviation 0.02; norm weights are 1. */
export const WEIGHT_STD = 0.02;
export const VOCAB_FILE = "models/ggml-vocab-phi-3.gguf";
const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_BYTE = 6;
/** ggml's llama_ftype ids for general.file_type. */
const FILE_TYPE: Record<ModelShape["quant"], number> = {F32: 0, F16: 1, Q4_0: 2, Q8_0: 7};

export interface GenerateModelOptions {
  preset: PresetName;
  /** Integer seed in [0, 2^32). */
  seed: number;
  /** Keep the 256 `<0xNN>` byte-fallback tokens typed BYTE (the real server then drops some streams: fault tests). */
  keepByteTokens?: boolean;
  /** Output file; default `<modelsDir>/<defaultModelName(...)>`. */
  out?: string;
  /** Regenerate even when the output file exists. */
  force?: boolean;
  /** Tokenizer source; default the Phi-3 vocabulary from the llama.cpp bundle. */
  vocabPath?: string;
}

export interface GeneratedModel {
  path: string;
  sha256: string;
  bytes: number;
  preset: PresetName;
  shape: ModelShape;
  seed: number;
  prng: string;
  keepByteTokens: boolean;
  params: number;
  generatorVersion: number;
  /** Vocabulary file and the llama.cpp commit it came from. */
  vocab: string;
  /** Seconds spent generating; 0 when an existing file was reused. */
  seconds: number;
  reused: boolean;
}

export function defaultModelName(preset: PresetName, seed: number, keepByteTokens = false): string {
  const quant = PRESETS[preset].quant.toLowerCase();
  return `inferscope-${preset}-${quant}-seed${seed}${keepByteTokens ? "-bytetokens" : ""}-g${GENERATOR_VERSION}.gguf`;
}

/** Parameter count: embeddings (tied with the output) + per layer attention, FFN and norms + the final norm. */
export function parameterCount(s: ModelShape, vocabSize: number): number {
  const headDim = s.embd / s.heads;
  const kv = s.kvHeads * headDim;
  const perLayer = 2 * s.embd * s.embd + 2 * s.embd * kv + 3 * s.embd * s.ff + 2 * s.embd;
  return vocabSize * s.embd + s.layers * perLayer + s.embd;
}

/** Generates (or reuses) a random-weight Llama GGUF with a real tokenizer. Same preset + seed ⇒ byte-identical file. */
export async function generateModel(options: GenerateModelOptions): Promise<GeneratedModel> {
  const {preset, seed} = options;
  const shape: ModelShape = PRESETS[preset];
  if (!shape) throw new Error(`unknown preset: ${preset} (known: ${Object.keys(PRESETS).join(", ")})`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`invalid seed: ${seed}`);
  const keepByteTokens = options.keepByteTokens ?? false;
  const path = resolve(options.out ?? join(modelsDir(), defaultModelName(preset, seed, keepByteTokens)));
  const sidecar = `${path}.json`;
  if (!options.force && existsSync(path) && existsSync(sidecar)) {
    const info = JSON.parse(readFileSync(sidecar, "utf8")) as GeneratedModel;
    if (info.bytes === statSync(path).size && info.generatorVersion === GENERATOR_VERSION) {
      return {...info, path, seconds: 0, reused: true};
    }
  }
  const started = performance.now();
  const vocabPath = options.vocabPath ?? (await llamaCppFile(VOCAB_FILE));
  const vocab = readGgufFile(vocabPath);
  const tokenizer = tokenizerMetadata(vocab.metadata, keepByteTokens);
  const tokens = tokenizer.get("tokenizer.ggml.tokens");
  const vocabSize = tokens?.type === "array" ? tokens.value.length : 0;
  if (vocabSize === 0) throw new Error(`no tokenizer.ggml.tokens in vocabulary file: ${vocabPath}`);

  const metadata = new Map<string, GgufValue>([
    ["general.architecture", {type: "string", value: "llama"}],
    ["general.type", {type: "string", value: "model"}],
    ["general.name", {type: "string", value: `inferscope-random-${preset}`}],
    ["general.description", {type: "string", value: "random weights (no training): text output is gibberish"}],
    ["general.file_type", {type: "u32", value: FILE_TYPE[shape.quant]}],
    ["general.quantization_version", {type: "u32", value: 2}],
    ["llama.vocab_size", {type: "u32", value: vocabSize}],
    ["llama.context_length", {type: "u32", value: shape.contextLength}],
    ["llama.embedding_length", {type: "u32", value: shape.embd}],
    ["llama.block_count", {type: "u32", value: shape.layers}],
    ["llama.feed_forward_length", {type: "u32", value: shape.ff}],
    ["llama.rope.dimension_count", {type: "u32", value: shape.embd / shape.heads}],
    ["llama.attention.head_count", {type: "u32", value: shape.heads}],
    ["llama.attention.head_count_kv", {type: "u32", value: shape.kvHeads}],
    ["llama.attention.layer_norm_rms_epsilon", {type: "f32", value: 1e-5}],
    ["llama.rope.freq_base", {type: "f32", value: 10000}],
    ["inferscope.generator_version", {type: "u32", value: GENERATOR_VERSION}],
    ["inferscope.preset", {type: "string", value: preset}],
    ["inferscope.seed", {type: "u32", value: seed}],
    ["inferscope.prng", {type: "string", value: PRNG_NAME}],
    ["inferscope.byte_tokens", {type: "string", value: keepByteTokens ? "kept" : "retyped-normal"}],
    ["inferscope.vocab_source", {type: "string", value: `llama.cpp@${LLAMA_CPP_COMMIT.slice(0, 7)}:${VOCAB_FILE}`}],
    ...tokenizer
  ]);
  const tensors = modelTensors(shape, vocabSize, seed);
  mkdirSync(dirname(path), {recursive: true});
  const hash = sha256Hasher();
  const bytes = writeGgufFile(path, {metadata, tensors}, (chunk) => hash.update(chunk));
  const result: GeneratedModel = {
    path,
    sha256: hash.digest("hex"),
    bytes,
    preset,
    shape,
    seed,
    prng: PRNG_NAME,
    keepByteTokens,
    params: parameterCount(shape, vocabSize),
    generatorVersion: GENERATOR_VERSION,
    vocab: `llama.cpp@${LLAMA_CPP_COMMIT.slice(0, 7)}:${VOCAB_FILE}`,
    seconds: (performance.now() - started) / 1000,
    reused: false
  };
  writeFileSync(sidecar, JSON.stringify({...result, seconds: Number(result.seconds.toFixed(2))}, null, 2) + "\n");
  return result;
}

/** Every `tokenizer.*` key of the vocabulary, with byte tokens re-typed BYTE → NORMAL unless kept. */
export function tokenizerMetadata(source: Map<string, GgufValue>, keepByteTokens: boolean): Map<string, GgufValue> {
  const out = new Map<string, GgufValue>();
  for (const [key, value] of source) {
    if (!key.startsWith("tokenizer.")) continue;
    if (key === "tokenizer.ggml.token_type" && value.type === "array" && !keepByteTokens) {
      out.set(key, {...value, value: value.value.map((t) => (t === TOKEN_TYPE_BYTE ? TOKEN_TYPE_NORMAL : t))});
    } else {
      out.set(key, value);
    }
  }
  return out;
}

/** Tensor list in llama.cpp's order; tied embeddings (no output.weight). Each tensor has its own seeded stream. */
function modelTensors(s: ModelShape, vocabSize: number, seed: number): GgufTensorInput[] {
  const kv = s.kvHeads * (s.embd / s.heads);
  const weight = (name: string, dims: number[]): GgufTensorInput => ({
    name,
    dims,
    type: s.quant,
    data: () => randomTensorChunks(name, dims, s.quant, seed)
  });
  const norm = (name: string): GgufTensorInput => ({name, dims: [s.embd], type: "F32", data: onesF32(s.embd)});
  const tensors = [weight("token_embd.weight", [s.embd, vocabSize])];
  for (let i = 0; i < s.layers; i++) {
    tensors.push(
      norm(`blk.${i}.attn_norm.weight`),
      weight(`blk.${i}.attn_q.weight`, [s.embd, s.embd]),
      weight(`blk.${i}.attn_k.weight`, [s.embd, kv]),
      weight(`blk.${i}.attn_v.weight`, [s.embd, kv]),
      weight(`blk.${i}.attn_output.weight`, [s.embd, s.embd]),
      norm(`blk.${i}.ffn_norm.weight`),
      weight(`blk.${i}.ffn_gate.weight`, [s.embd, s.ff]),
      weight(`blk.${i}.ffn_up.weight`, [s.embd, s.ff]),
      weight(`blk.${i}.ffn_down.weight`, [s.ff, s.embd])
    );
  }
  tensors.push(norm("output_norm.weight"));
  return tensors;
}

function onesF32(n: number): Uint8Array {
  return encodeF32(new Float32Array(n).fill(1));
}

/** Uniform weights (std WEIGHT_STD) from mulberry32 seeded with fnv1a32(`<seed>:<tensor name>`), quantised in ~1M-value chunks. */
function* randomTensorChunks(
  name: string,
  dims: number[],
  quant: ModelShape["quant"],
  seed: number
): Generator<Uint8Array> {
  const rng = mulberry32(fnv1a32(`${seed}:${name}`));
  const amplitude = WEIGHT_STD * Math.sqrt(3);
  const row = dims[0] ?? 1;
  const total = dims.reduce((a, b) => a * b, 1);
  const chunk = Math.max(1, Math.floor((1 << 20) / row)) * row;
  const buf = new Float32Array(Math.min(chunk, total));
  for (let done = 0; done < total; done += chunk) {
    const n = Math.min(chunk, total - done);
    const x = n === buf.length ? buf : buf.subarray(0, n);
    for (let i = 0; i < n; i++) x[i] = (2 * rng() - 1) * amplitude;
    yield encode(x, quant);
  }
}

function encode(x: Float32Array, quant: ModelShape["quant"]): Uint8Array {
  switch (quant) {
    case "Q8_0":
      return quantizeQ8_0(x);
    case "Q4_0":
      return quantizeQ4_0(x);
    case "F32":
      return encodeF32(x);
    case "F16":
      throw new Error("f16 weights are not wired into the presets");
  }
}

function parseArgs(argv: string[]): GenerateModelOptions {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const preset = (get("--preset") ?? "tiny") as PresetName;
  if (!(preset in PRESETS)) throw new Error(`unknown preset: ${preset} (known: ${Object.keys(PRESETS).join(", ")})`);
  const seedText = get("--seed") ?? "1";
  const seed = Number(seedText);
  if (!/^\d+$/.test(seedText)) throw new Error(`invalid seed: ${seedText}`);
  return {
    preset,
    seed,
    out: get("--out"),
    force: argv.includes("--force"),
    keepByteTokens: argv.includes("--keep-byte-tokens") || process.env.KEEP_BYTE_TOKENS === "1"
  };
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  if (argv.includes("--help")) {
    console.log(
      `usage: npx node scripts/engine/generateModel.ts [--preset ${Object.keys(PRESETS).join("|")}] [--seed N] [--out FILE] [--keep-byte-tokens] [--force] [--json]`
    );
    process.exit(0);
  }
  try {
    const model = await generateModel(parseArgs(argv));
    if (argv.includes("--json")) console.log(JSON.stringify(model, null, 2));
    else {
      console.error(
        `${model.reused ? "reused" : `generated in ${model.seconds.toFixed(1)}s`}: ${model.preset}, ${(model.params / 1e6).toFixed(1)}M params, ${(model.bytes / 1e6).toFixed(1)} MB, sha256 ${model.sha256}`
      );
      console.log(model.path);
    }
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
