import {describe, expect, it} from "vitest";

import {SseReader} from "../../../collector/http/sse.ts";
import {mulberry32} from "../../../src/analysis/stats/prng.ts";

interface Got {
  events: [string, string | undefined, number][];
  tooLarge: string[];
}

function reader(max = 1 << 20): {r: SseReader; got: Got} {
  const got: Got = {events: [], tooLarge: []};
  const r = new SseReader(max, {
    onEvent: (data, type, bytes) => void got.events.push([data, type, bytes]),
    onTooLarge: (what) => void got.tooLarge.push(what)
  });
  return {r, got};
}

function feed(buf: Buffer, cuts: number[], max?: number): Got {
  const {r, got} = reader(max);
  let at = 0;
  for (const c of [...cuts, buf.length]) {
    r.write(buf.subarray(at, c));
    at = c;
  }
  r.end();
  return got;
}

// A stream exercising every framing rule: BOM, LF / CRLF / lone CR, comments, event/id/retry fields,
// multi-line data, an event with only an id (no dispatch), a field without a colon, and multi-byte text.
const STREAM = Buffer.from(
  "\uFEFF" +
    ": comment line\n" +
    "retry: 1000\n\n" +
    'data: {"choices":[{"delta":{"content":" café 你好 🙂 👩‍💻"}}]}\n\n' +
    'event: message\r\nid: 7\r\ndata: {"a":\r\ndata: 1}\r\n\r\n' +
    "data: lone-cr\r\r" +
    "id: 9\n\n" +
    "data\n\n" +
    "data:no-space\n: trailing comment\n\n" +
    "data: [DONE]\n\n",
  "utf8"
);
const EXPECTED: [string, string | undefined][] = [
  ['{"choices":[{"delta":{"content":" café 你好 🙂 👩‍💻"}}]}', undefined],
  ['{"a":\n1}', "message"],
  ["lone-cr", undefined],
  ["", undefined],
  ["no-space", undefined],
  ["[DONE]", undefined]
];

describe("SseReader", () => {
  it("parses every framing rule of the spec and reports UTF-8 byte lengths", () => {
    const got = feed(STREAM, []);
    expect(got.events.map(([d, t]) => [d, t])).toEqual(EXPECTED);
    expect(got.events.map(([, , b]) => b)).toEqual(EXPECTED.map(([d]) => Buffer.byteLength(d)));
    expect(got.tooLarge).toEqual([]);
  });

  it("gives identical events when the bytes are split at every single offset (inside UTF-8 and CRLF too)", () => {
    const whole = feed(STREAM, []).events;
    for (let i = 1; i < STREAM.length; i++) expect(feed(STREAM, [i]).events, `split at ${i}`).toEqual(whole);
  });

  it("gives identical events fed one byte at a time and under 500 seeded random cuttings", () => {
    const whole = feed(STREAM, []).events;
    expect(
      feed(
        STREAM,
        Array.from({length: STREAM.length - 1}, (_, i) => i + 1)
      ).events
    ).toEqual(whole);
    const rng = mulberry32(7);
    for (let k = 0; k < 500; k++) {
      const cuts = Array.from({length: 1 + Math.floor(rng() * 12)}, () => 1 + Math.floor(rng() * (STREAM.length - 1)));
      cuts.sort((a, b) => a - b);
      expect(feed(STREAM, cuts).events, `cuts ${cuts.join(",")}`).toEqual(whole);
    }
  });

  it("discards an event that lacks its terminating blank line at the end of the stream", () => {
    expect(feed(Buffer.from("data: a\n\ndata: b\n"), []).events.map((e) => e[0])).toEqual(["a"]);
    expect(feed(Buffer.from("data: a\n\ndata: b"), []).events.map((e) => e[0])).toEqual(["a"]);
  });

  it("turns invalid UTF-8 into U+FFFD instead of failing", () => {
    const bad = Buffer.concat([Buffer.from("data: x"), Buffer.from([0xff, 0xc3]), Buffer.from("\n\n")]);
    const got = feed(bad, [8]);
    expect(got.events).toHaveLength(1);
    expect(got.events[0]![0]).toBe("x\uFFFD\uFFFD");
  });

  it("stops once with onTooLarge when an event's data exceeds the byte limit", () => {
    const big = Buffer.from(`data: ${"é".repeat(600)}\n\ndata: after\n\n`);
    const got = feed(big, [100, 700], 1000);
    expect(got.events).toEqual([]);
    expect(got.tooLarge).toHaveLength(1);
    expect(got.tooLarge[0]).toMatch(/1200 bytes exceeds 1000/);
  });

  it("bounds memory on a very long line without newline", () => {
    const {r, got} = reader(1000);
    r.write(Buffer.from("data: ok\n\ndata: "));
    for (let i = 0; i < 50; i++) r.write(Buffer.alloc(100, 120));
    r.end();
    expect(got.events.map((e) => e[0])).toEqual(["ok"]);
    expect(got.tooLarge).toHaveLength(1);
  });
});
