import fc from "fast-check";
import {describe, expect, it} from "vitest";

import {classifyPayload} from "../../collector/http/events.ts";
import {SseReader} from "../../collector/http/sse.ts";
import {EventKind} from "../../src/analysis/schema/records.ts";
import {FUZZ} from "./settings.ts";

/**
 * Property-based fuzzing of the SSE path (issue 11): arbitrary bytes, split anywhere, never crash the
 * reader; the events do not depend on where the network split the bytes; a well-formed stream gives
 * back exactly the data that was framed; anything too large is refused once, with the limit.
 */
interface Seen {
  events: [string, string | undefined, number][];
  tooLarge: string[];
}

function read(chunks: readonly Uint8Array[], max = 1 << 16): Seen {
  const seen: Seen = {events: [], tooLarge: []};
  const r = new SseReader(max, {
    onEvent: (data, type, bytes) => void seen.events.push([data, type, bytes]),
    onTooLarge: (what) => void seen.tooLarge.push(what)
  });
  for (const c of chunks) r.write(Buffer.from(c));
  r.end();
  return seen;
}

/** Splits `bytes` at the given cut points (each taken modulo the length). */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % (bytes.length + 1))))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.subarray(prev, c));
    prev = c;
  }
  return out;
}

/** Text an SSE stream may carry: ASCII, multi-byte UTF-8, colons, CR/LF, the bytes of [DONE]. */
const sseText = fc.string({
  unit: fc.oneof(
    fc.constantFrom("data:", "data: ", "event: ", "id: ", ":", "\n", "\r\n", "\r", "[DONE]", "{", "}", '"'),
    fc.string({unit: "grapheme", maxLength: 3})
  ),
  maxLength: 60
});

describe("SSE reader under fuzzing", () => {
  it("never throws on arbitrary bytes in arbitrary chunks, and the events do not depend on the chunking", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({maxLength: 400}),
          sseText.map((s) => new TextEncoder().encode(s))
        ),
        fc.array(fc.nat(), {maxLength: 12}),
        (bytes, cuts) => {
          const whole = read([bytes]);
          const chunked = read(split(bytes, cuts));
          expect(chunked).toEqual(whole);
        }
      ),
      FUZZ
    );
  });

  it("gives back exactly the data that was framed, whatever the line endings and the split", () => {
    const line = fc.string({unit: "grapheme", maxLength: 20}).filter((s) => !/[\r\n]/.test(s));
    fc.assert(
      fc.property(
        fc.array(fc.array(line, {minLength: 1, maxLength: 3}), {maxLength: 8}),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), {maxLength: 12}),
        (events, eol, cuts) => {
          const text = events.map((lines) => lines.map((l) => `data: ${l}${eol}`).join("") + eol).join("");
          const got = read(split(new TextEncoder().encode(text), cuts));
          // the SSE rule: one leading space after "data:" is dropped, the lines of one event join with "\n"
          const want = events.map((lines) => lines.map((l) => l).join("\n"));
          expect(got.tooLarge).toEqual([]);
          expect(got.events.map(([d]) => d)).toEqual(want);
          expect(got.events.map(([, , b]) => b)).toEqual(want.map((d) => Buffer.byteLength(d)));
        }
      ),
      FUZZ
    );
  });

  it("refuses an event or line beyond the limit once, naming the limit, and reads nothing after it", () => {
    fc.assert(
      fc.property(fc.integer({min: 16, max: 256}), fc.integer({min: 1, max: 4}), (max, times) => {
        const big = `data: ${"x".repeat(max * times + 1)}\n\n`;
        const got = read([new TextEncoder().encode(`data: ok\n\n${big}data: later\n\n`)], max);
        expect(got.events.map(([d]) => d)).toEqual(["ok"]);
        expect(got.tooLarge).toHaveLength(1);
        expect(got.tooLarge[0]).toContain(String(max));
      }),
      FUZZ
    );
  });
});

describe("payload classifier under fuzzing", () => {
  it("classifies any data — JSON of any shape or not JSON — into a known kind without throwing", () => {
    const json = fc.jsonValue({maxDepth: 4}).map((v) => JSON.stringify(v));
    const chunkLike = fc
      .record({
        choices: fc.array(
          fc.record({
            delta: fc.option(
              fc.dictionary(
                fc.constantFrom("content", "role", "reasoning_content", "tool_calls"),
                fc.jsonValue({maxDepth: 2})
              )
            ),
            text: fc.option(fc.jsonValue({maxDepth: 1})),
            finish_reason: fc.option(fc.jsonValue({maxDepth: 1}))
          }),
          {maxLength: 3}
        ),
        usage: fc.option(fc.dictionary(fc.string({maxLength: 20}), fc.jsonValue({maxDepth: 1}))),
        error: fc.option(fc.jsonValue({maxDepth: 1})),
        timings: fc.option(fc.dictionary(fc.string({maxLength: 12}), fc.jsonValue({maxDepth: 1})))
      })
      .map((o) => JSON.stringify(o));
    fc.assert(
      fc.property(
        fc.oneof(json, chunkLike, fc.string({maxLength: 80})),
        fc.option(fc.string({maxLength: 10})),
        (data, type) => {
          const info = classifyPayload(data, type ?? undefined);
          expect(EventKind.options).toContain(info.kind);
          expect(typeof info.content).toBe("string");
          if (info.usage !== null)
            for (const v of Object.values(info.usage)) expect(v === null || (Number.isInteger(v) && v >= 0)).toBe(true);
          // text that is not JSON is a parse error, never silently something else
          let isJson = true;
          try {
            JSON.parse(data);
          } catch {
            isJson = false;
          }
          if (!isJson && data.trim() !== "[DONE]") expect(info.kind).toBe("parse_error");
        }
      ),
      FUZZ
    );
  });
});
