import {describe, expect, it} from "vitest";

import {readJsonAnswer} from "../../../collector/http/jsonBody.ts";

/** An OpenAI embeddings response (https://platform.openai.com/docs/api-reference/embeddings/object). */
const answer = (data: unknown, usage: unknown = {prompt_tokens: 8, total_tokens: 8}) =>
  JSON.stringify({object: "list", data, model: "m", usage});
const read = (text: string, inputs = 1, payloadBytes = 0) =>
  readJsonAnswer(text, Buffer.byteLength(text), inputs, payloadBytes);

describe("reading a non-streamed embeddings answer", () => {
  it("one vector of 3 floats: its length, no bad entries, the server's prompt count", () => {
    const text = answer([{object: "embedding", index: 0, embedding: [0.5, -0.25, 0.125]}]);
    const a = read(text);
    expect(a.body).toEqual({bytes: text.length, json: true, inputs: 1, vectors: [3], nonFinite: 0, head: ""});
    expect(a.usage).toEqual({promptTokens: 8, completionTokens: null, reasoningTokens: null, cachedTokens: null});
  });

  it("vectors listed out of order are read in index order", () => {
    const text = answer([
      {index: 1, embedding: [1, 2]},
      {index: 0, embedding: [1, 2, 3, 4]}
    ]);
    expect(read(text, 2).body.vectors).toEqual([4, 2]);
  });

  it("entries that are not finite numbers are counted (null is how JSON writes NaN)", () => {
    expect(read(answer([{index: 0, embedding: [null, "x", 1, true]}])).body).toMatchObject({
      vectors: [4],
      nonFinite: 3
    });
  });

  it("a base64 vector counts its float32s: 3 floats = 12 bytes", () => {
    const b64 = Buffer.from(new Float32Array([1, 2, 3]).buffer).toString("base64");
    expect(read(answer([{index: 0, embedding: b64}])).body).toMatchObject({vectors: [3], nonFinite: 0});
    // 10 bytes cannot be float32s: one bad entry
    expect(read(answer([{index: 0, embedding: Buffer.alloc(10).toString("base64")}])).body).toMatchObject({
      vectors: [2],
      nonFinite: 1
    });
  });

  it.each([
    ["no data", JSON.stringify({object: "list"})],
    ["data is not a list", JSON.stringify({data: {embedding: [1]}})],
    ["an item without an embedding", answer([{index: 0, vector: [1]}])],
    ["an embedding that is neither a list nor a string", answer([{index: 0, embedding: 7}])],
    ["a JSON array", "[1,2,3]"]
  ])("%s → no vectors", (_, text) => {
    const a = read(text);
    expect(a.body.json).toBe(true);
    expect(a.body.vectors).toBeNull();
  });

  it("a body that is not JSON: json false, no usage", () => {
    const a = read('{"object": "list", "data": [{"emb');
    expect(a.body).toMatchObject({json: false, vectors: null});
    expect(a.usage).toBeNull();
  });

  it("usage that is not a count is unknown, not zero", () => {
    expect(read(answer([{index: 0, embedding: [1]}], {prompt_tokens: -1})).usage?.promptTokens).toBeNull();
    expect(read(answer([{index: 0, embedding: [1]}], "8")).usage).toBeNull();
  });

  it("keeps the first payload bytes of the body, cut at a character boundary", () => {
    const text = answer([{index: 0, embedding: [1]}]);
    expect(read(text, 1, 10).body.head).toBe(text.slice(0, 10));
    const cjk = '{"x":"嵌入"}'; // 嵌 is 3 bytes: bytes 6..8
    expect(read(cjk, 1, 8).body.head).toBe('{"x":"');
  });
});
