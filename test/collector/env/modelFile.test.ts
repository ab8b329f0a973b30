import {writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {ModelProbe} from "../../../src/analysis/schema/manifest.ts";
import {realFiles, type Files} from "../../../collector/effects.ts";
import type {GgufValue} from "../../../collector/env/gguf/types.ts";
import {modelFilePath, modelProbe} from "../../../collector/env/modelFile.ts";
import {encodeGgufToBuffer} from "../../../scripts/engine/gguf/writer.ts";
import {tempDir} from "../helpers.ts";

const t = tempDir();
afterAll(() => t.cleanup());

/**
 * A tiny GGUF (default alignment 32). Header, by hand: 24 bytes (magic, version, two counts); the key/values
 * 45 + 36 + 36 + 27 + 29 + 72 + 54 + 1543 + 44 = 1886; the tensor infos 48 + 40 + 48 = 136; 2046 in all, padded to
 * 2048 = the data offset. Data: a.weight 8 F32 = 32 bytes; b.weight 32 Q8_0 = one 34-byte block, padded to 64;
 * c.weight 64 elements = two blocks, 68 bytes padded to 96: 192 bytes, so the file is 2240 bytes. c.weight's
 * type id (the u32 at byte 2034) is then patched to 12, Q4_K: a type the collector names but cannot size.
 */
function tinyGguf(): Buffer {
  const metadata = new Map<string, GgufValue>([
    ["general.architecture", {type: "string", value: "llama"}],
    ["general.name", {type: "string", value: "tiny"}],
    ["llama.context_length", {type: "u32", value: 128}],
    ["big.u64", {type: "u64", value: 2n ** 63n}],
    ["small.u64", {type: "u64", value: 42n}],
    ["tokenizer.ggml.tokens", {type: "array", itemType: "string", value: ["a", "b", "c"]}],
    ["general.tags", {type: "array", itemType: "string", value: ["x", "y"]}],
    ["tokenizer.chat_template", {type: "string", value: "x".repeat(1500)}],
    ["tokenizer.ggml.model", {type: "string", value: "gpt2"}]
  ]);
  const buf = encodeGgufToBuffer({
    metadata,
    tensors: [
      {name: "a.weight", dims: [4, 2], type: "F32", data: new Uint8Array(32)},
      {name: "b.weight", dims: [32], type: "Q8_0", data: new Uint8Array(34)},
      {name: "c.weight", dims: [32, 2], type: "Q8_0", data: new Uint8Array(68)}
    ]
  });
  expect(buf.readUInt32LE(2034)).toBe(8); // Q8_0, where the arithmetic above says
  buf.writeUInt32LE(12, 2034);
  return buf;
}

/** The real files effect, counting reads. */
function countingFiles(): Files & {reads: number[]} {
  const reads: number[] = [];
  return {...realFiles, reads, readRange: (p, at, n) => (reads.push(n), realFiles.readRange(p, at, n))};
}

describe("model file header (GGUF)", () => {
  it("records scalar metadata, tensors and elements per type and the tensor data bytes", async () => {
    const path = join(t.dir, "tiny.gguf");
    writeFileSync(path, tinyGguf());
    const files = countingFiles();
    const probe = await modelProbe(files, path);
    expect(ModelProbe.safeParse(probe).success).toBe(true);
    expect(probe).toEqual({
      file: {
        format: "gguf",
        path,
        fileBytes: 2240,
        tensorDataBytes: 192,
        metadata: {
          "general.architecture": "llama",
          "general.name": "tiny",
          "llama.context_length": 128,
          "big.u64": "9223372036854775808",
          "small.u64": 42,
          "general.tags": "<array of 2 string>",
          "tokenizer.chat_template": "<string of 1500 chars>",
          "tokenizer.ggml.model": "gpt2"
        },
        tensorTypes: {
          F32: {tensors: 1, elements: 8},
          Q8_0: {tensors: 1, elements: 32},
          Q4_K: {tensors: 1, elements: 64}
        }
      },
      reason: null
    });
    expect(files.reads).toEqual([2240]);
  });

  it("a header past the first 1 MiB read: reads again, twice as much", async () => {
    const path = join(t.dir, "long.gguf");
    const metadata = new Map<string, GgufValue>([
      ["tokenizer.chat_template", {type: "string", value: "y".repeat(1.5 * 2 ** 20)}]
    ]);
    const bytes = encodeGgufToBuffer({
      metadata,
      tensors: [{name: "w", dims: [1], type: "F32", data: new Uint8Array(4)}]
    });
    writeFileSync(path, bytes);
    const files = countingFiles();
    const probe = await modelProbe(files, path);
    expect(probe.file?.metadata).toEqual({"tokenizer.chat_template": "<string of 1572864 chars>"});
    expect(files.reads).toEqual([2 ** 20, bytes.length]);
  });

  it("no path, a path not on this host, a file that is not GGUF: no facts, the reason", async () => {
    expect(await modelProbe(realFiles, null)).toEqual({
      file: null,
      reason: "the server named no model file (no /props model_path)"
    });
    const missing = join(t.dir, "absent.gguf");
    expect(await modelProbe(realFiles, missing)).toEqual({
      file: null,
      reason: `model file not on this host: ${missing}`
    });
    const text = join(t.dir, "model.safetensors");
    writeFileSync(text, '{"not": "gguf"}');
    const r = await modelProbe(realFiles, text);
    expect(r.file).toBeNull();
    expect(r.reason).toMatch(/^not a gguf file \(magic .*\): .*model\.safetensors$/);
    expect(ModelProbe.safeParse(r).success).toBe(true);
  });

  it("modelFilePath: /props model_path first, else a .gguf -m/--model launch argument", () => {
    const props = {version: {"/props": {model_path: "/models/a.gguf"}}};
    expect(modelFilePath(props, ["-m", "/models/b.gguf"])).toBe("/models/a.gguf");
    expect(modelFilePath({version: {}}, ["--port", "8080", "-m", "/models/b.gguf"])).toBe("/models/b.gguf");
    expect(modelFilePath({version: {}}, ["--model=/m/c.GGUF"])).toBe("/m/c.GGUF");
    expect(modelFilePath({version: {}}, ["--model", "meta-llama/Llama-3.1-8B"])).toBeNull();
    expect(modelFilePath({version: {}})).toBeNull();
  });
});
