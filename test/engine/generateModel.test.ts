import {createHash} from "node:crypto";
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {
  PRESETS,
  VOCAB_FILE,
  defaultModelName,
  generateModel,
  parameterCount,
  type GeneratedModel
} from "../../scripts/engine/generateModel.ts";
import {readGgufFile} from "../../scripts/engine/gguf/reader.ts";
import type {GgufFile} from "../../scripts/engine/gguf/types.ts";
import {encodeGgufToBuffer} from "../../scripts/engine/gguf/writer.ts";
import {llamaCppFile} from "../../scripts/engine/llamaSource.ts";

/** sha256 of `tiny`, seed 1, generator v1. If this changes on purpose, bump GENERATOR_VERSION. */
const TINY_SEED1_SHA256 = "3e9f5d82a6c4a5e5d5d92c2529bca5594de367182c79d349b70386340c4ec4f6";

const BYTE = 6;
const NORMAL = 1;

let dir: string;
let vocabPath: string;
let vocab: GgufFile;
let seed1: GeneratedModel;

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function tokenTypes(file: GgufFile): number[] {
  const v = file.metadata.get("tokenizer.ggml.token_type");
  if (v?.type !== "array") throw new Error("no token_type");
  return v.value as number[];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "inferscope-gguf-"));
  // First use fetches node-llama-cpp with `npm pack` (≈ 35 MB) into the cache.
  vocabPath = await llamaCppFile(VOCAB_FILE);
  vocab = readGgufFile(vocabPath);
  seed1 = await generateModel({preset: "tiny", seed: 1, out: join(dir, "seed1.gguf"), vocabPath});
}, 120_000);

afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe("generateModel", () => {
  it("is deterministic: same seed ⇒ same bytes, different seed ⇒ different bytes", async () => {
    const again = await generateModel({preset: "tiny", seed: 1, out: join(dir, "seed1b.gguf"), vocabPath});
    const other = await generateModel({preset: "tiny", seed: 2, out: join(dir, "seed2.gguf"), vocabPath});
    expect(sha256(seed1.path)).toBe(seed1.sha256);
    expect(again.sha256).toBe(seed1.sha256);
    expect(sha256(again.path)).toBe(seed1.sha256);
    expect(other.sha256).not.toBe(seed1.sha256);
    expect(seed1.sha256).toBe(TINY_SEED1_SHA256);
    expect(seed1.prng).toBe("mulberry32");
  });

  it("reuses an existing file unless forced", async () => {
    const reused = await generateModel({preset: "tiny", seed: 1, out: seed1.path, vocabPath});
    expect(reused).toMatchObject({reused: true, sha256: seed1.sha256, seconds: 0});
  });

  it("writes the tiny Llama shape with tied embeddings and GQA", () => {
    const file = readGgufFile(seed1.path);
    const u32 = (key: string): unknown => file.metadata.get(key)?.value;
    expect(u32("general.architecture")).toBe("llama");
    expect(u32("llama.embedding_length")).toBe(256);
    expect(u32("llama.block_count")).toBe(4);
    expect(u32("llama.attention.head_count")).toBe(4);
    expect(u32("llama.attention.head_count_kv")).toBe(2);
    expect(u32("llama.feed_forward_length")).toBe(768);
    expect(u32("inferscope.seed")).toBe(1);
    const names = file.tensors.map((t) => t.name);
    expect(names).not.toContain("output.weight");
    expect(names).toHaveLength(1 + 4 * 9 + 1);
    expect(file.tensors.find((t) => t.name === "blk.0.attn_k.weight")).toMatchObject({dims: [256, 128], type: "Q8_0"});
    expect(file.tensors.find((t) => t.name === "token_embd.weight")).toMatchObject({dims: [256, 32064], type: "Q8_0"});
    expect(seed1.params).toBe(parameterCount(PRESETS.tiny, 32064));
    expect(seed1.params / 1e6).toBeCloseTo(11.4, 1);
    expect(parameterCount(PRESETS.tinyllama, 32064) / 1e9).toBeCloseTo(1.03, 2);
  });

  it("copies every tokenizer.* key from the Phi-3 vocabulary, re-typing only the 256 byte tokens", () => {
    const file = readGgufFile(seed1.path);
    const keys = [...vocab.metadata.keys()].filter((k) => k.startsWith("tokenizer."));
    expect(keys).toContain("tokenizer.chat_template");
    expect(keys).toContain("tokenizer.ggml.bos_token_id");
    for (const key of keys) {
      if (key === "tokenizer.ggml.token_type") continue;
      expect(file.metadata.get(key), key).toEqual(vocab.metadata.get(key));
    }
    const before = tokenTypes(vocab);
    const after = tokenTypes(file);
    expect(before.filter((t) => t === BYTE)).toHaveLength(256);
    expect(after.filter((t) => t === BYTE)).toHaveLength(0);
    const changed = before.flatMap((t, i) => (t === after[i] ? [] : [i]));
    expect(changed).toHaveLength(256);
    for (const i of changed) expect([before[i], after[i]]).toEqual([BYTE, NORMAL]);
    expect(file.metadata.get("inferscope.byte_tokens")?.value).toBe("retyped-normal");
  });

  it("keeps byte tokens typed BYTE with keepByteTokens", async () => {
    const kept = await generateModel({
      preset: "tiny",
      seed: 1,
      keepByteTokens: true,
      out: join(dir, "bytes.gguf"),
      vocabPath
    });
    const file = readGgufFile(kept.path);
    expect(tokenTypes(file)).toEqual(tokenTypes(vocab));
    expect(file.metadata.get("inferscope.byte_tokens")?.value).toBe("kept");
    expect(kept.sha256).not.toBe(seed1.sha256);
    expect(defaultModelName("tiny", 1, true)).toBe("inferscope-tiny-q8_0-seed1-bytetokens-g1.gguf");
  });

  it("re-encodes the vocabulary file byte for byte (writer/reader fidelity on real data)", () => {
    const again = encodeGgufToBuffer({metadata: vocab.metadata, tensors: []});
    expect(again.equals(readFileSync(vocabPath))).toBe(true);
  });
});
