import type {JsonBody} from "../../src/analysis/schema/body.ts";
import type {Usage} from "../../src/analysis/schema/records.ts";
import {headBytes} from "./payload.ts";

/**
 * What the collector reads of a non-streamed JSON answer (an OpenAI `/v1/embeddings` response): the body's
 * structure as sent — whether it is JSON, how long each `data[i].embedding` is, how many entries are not
 * finite numbers — and the server's usage. No verdict: the analyzer decides success (derive/embedding.ts).
 * The vectors themselves are not kept (a 4,096-dimension answer is ~80 kB of JSON); their first bytes are,
 * in `head`.
 */

export interface JsonAnswer {
  body: JsonBody;
  usage: Usage | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Entries of one embedding that are not finite numbers; a base64 string is float32 bytes and is not inspected. */
function vectorFacts(e: unknown): {length: number; nonFinite: number} | null {
  if (typeof e === "string") {
    const bytes = Buffer.byteLength(e, "base64");
    return {length: Math.floor(bytes / 4), nonFinite: bytes % 4 === 0 ? 0 : 1};
  }
  if (!Array.isArray(e)) return null;
  let nonFinite = 0;
  for (const x of e) if (typeof x !== "number" || !Number.isFinite(x)) nonFinite++;
  return {length: e.length, nonFinite};
}

/** `data` in index order (a server may list them in any order); null when it is not an array of embeddings. */
function orderedData(data: unknown): unknown[] | null {
  if (!Array.isArray(data) || !data.every((d) => isObject(d) && "embedding" in d)) return null;
  const items = data as Record<string, unknown>[];
  const indexed = items.every((d) => Number.isInteger(d.index));
  const sorted = indexed ? [...items].sort((a, b) => (a.index as number) - (b.index as number)) : items;
  return sorted.map((d) => d.embedding);
}

function usageOf(v: Record<string, unknown>): Usage | null {
  const u = v.usage;
  if (!isObject(u)) return null;
  const n = (x: unknown): number | null => (Number.isInteger(x) && (x as number) >= 0 ? (x as number) : null);
  return {promptTokens: n(u.prompt_tokens), completionTokens: null, reasoningTokens: null, cachedTokens: null};
}

/** Reads one JSON answer of `bytes` bytes for a request that sent `inputs` texts. */
export function readJsonAnswer(text: string, bytes: number, inputs: number, payloadBytes: number): JsonAnswer {
  const head = payloadBytes > 0 ? headBytes(text, bytes, payloadBytes) : "";
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return {body: {bytes, json: false, inputs, vectors: null, nonFinite: 0, head}, usage: null};
  }
  const data = isObject(v) ? orderedData(v.data) : null;
  let vectors: number[] | null = null;
  let nonFinite = 0;
  if (data !== null) {
    vectors = [];
    for (const e of data) {
      const f = vectorFacts(e);
      if (f === null) {
        vectors = null;
        break;
      }
      vectors.push(f.length);
      nonFinite += f.nonFinite;
    }
  }
  return {
    body: {bytes, json: true, inputs, vectors, nonFinite: vectors === null ? 0 : nonFinite, head},
    usage: isObject(v) ? usageOf(v) : null
  };
}
