import type {ServerResponse} from "node:http";

import type {Env} from "./active.ts";
import type {ScenarioOptions} from "./options.ts";
import {countWords} from "./tokens.ts";

/**
 * POST /v1/embeddings of the fake server, shaped as OpenAI's (and llama-server's with `--embeddings`): one JSON
 * answer `{object: "list", data: [{object, index, embedding}], model, usage: {prompt_tokens, total_tokens}}`,
 * sent `ttftMs` after the body was read (the time to embed). Each vector has `embeddingDims` entries,
 * seeded from its text, unit length. `embeddingFault` breaks the answer the ways a server or proxy can.
 */

/** Seeded vector of `dims` entries, of unit length, from a text (FNV-1a seed, xorshift32 stream). */
export function fakeVector(text: string, dims: number): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  let x = h || 1;
  const v: number[] = [];
  for (let i = 0; i < dims; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    v.push(x / 0xffffffff - 0.5);
  }
  const norm = Math.sqrt(v.reduce((s, a) => s + a * a, 0)) || 1;
  return v.map((a) => Math.round((a / norm) * 1e6) / 1e6);
}

/** The texts of an embeddings request: `input` as one string or a list of strings; null when it is neither. */
export function embeddingInputs(body: Record<string, unknown>): string[] | null {
  const input = body.input;
  if (typeof input === "string") return [input];
  if (Array.isArray(input) && input.length > 0 && input.every((s) => typeof s === "string")) return input as string[];
  return null;
}

/** The answer's JSON text, as the fault option shapes it, and the prompt tokens it reports. */
export function embeddingAnswer(
  texts: readonly string[],
  model: string,
  o: ScenarioOptions
): {text: string; promptTokens: number} {
  const data = texts.map((t, index) => {
    const embedding: unknown[] = fakeVector(t, o.embeddingDims);
    if (o.embeddingFault === "nan" && index === 0 && embedding.length > 0) embedding[0] = null; // NaN as JSON sends it
    return {object: "embedding", index, embedding};
  });
  if (o.embeddingFault === "missing_vector") data.pop();
  const promptTokens = texts.reduce((s, t) => s + countWords(t), 0);
  const text = JSON.stringify({
    object: "list",
    data,
    model,
    usage: {prompt_tokens: promptTokens, total_tokens: promptTokens}
  });
  return {
    text: o.embeddingFault === "truncated_json" ? text.slice(0, Math.floor(text.length / 2)) : text,
    promptTokens
  };
}

/** Answers one embeddings request (body already parsed) after the embedding time. */
export function serveEmbeddings(
  res: ServerResponse,
  body: Record<string, unknown>,
  o: ScenarioOptions,
  env: Env,
  sendError: (status: number, message: string) => void
): void {
  const texts = embeddingInputs(body);
  if (texts === null) return sendError(400, "input must be a string or a non-empty list of strings");
  if (o.httpStatus !== null) return sendError(o.httpStatus, `scripted HTTP ${o.httpStatus}`);
  const model = typeof body.model === "string" ? body.model : o.model;
  const {text, promptTokens} = embeddingAnswer(texts, model, o);
  env.metrics.promptTokens += promptTokens;
  const timer = setTimeout(() => {
    res.writeHead(200, {"content-type": "application/json", "content-length": Buffer.byteLength(text)});
    res.end(text);
    env.metrics.requestsFinished++;
  }, o.ttftMs);
  res.on("close", () => clearTimeout(timer));
}
