import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {parseTrace} from "../../../collector/workload/trace.ts";

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const ok = {timestamp: 0, input_length: 700, output_length: 20, hash_ids: [3, 4]};
const traceError =
  (...lines: string[]) =>
  () =>
    parseTrace(lines.join("\n"), "t.jsonl");

describe("parseTrace", () => {
  it("reads Mooncake lines: ms timestamps (equal ones allowed), token lengths, block ids (possibly none)", () => {
    const text = [
      `{"timestamp": 0, "input_length": 1100, "output_length": 40, "hash_ids": [0, 1, 2]}`,
      `{"timestamp": 0, "input_length": 600, "output_length": 7, "hash_ids": [0, 3]}`,
      ``,
      `{"timestamp": 2500.5, "input_length": 12, "output_length": 1, "hash_ids": []}`,
      ``
    ].join("\n");
    expect(parseTrace(text, "t.jsonl")).toEqual([
      {line: 1, timestampMs: 0, inputLength: 1100, outputLength: 40, hashIds: [0, 1, 2]},
      {line: 2, timestampMs: 0, inputLength: 600, outputLength: 7, hashIds: [0, 3]},
      {line: 4, timestampMs: 2500.5, inputLength: 12, outputLength: 1, hashIds: []}
    ]);
  });

  it("an earlier timestamp than the line before is an error naming both lines", () => {
    expect(
      traceError(line(ok), line({...ok, timestamp: 1000}), line({...ok, timestamp: 900}), line({...ok, timestamp: 950}))
    ).toThrow(new Error("t.jsonl:3: timestamp 900 is earlier than 1000 on line 2 (timestamps must not decrease)"));
  });

  it("every field is required and checked", () => {
    const {hash_ids: _, ...noIds} = ok;
    expect(traceError(line(noIds))).toThrow(new Error("t.jsonl:1: hash_ids: missing (expected an array of block ids)"));
    expect(traceError(line({...ok, input_length: -5}))).toThrow(
      new Error("t.jsonl:1: input_length: expected a positive integer, got -5")
    );
    expect(traceError(line({...ok, output_length: 0}))).toThrow(
      new Error("t.jsonl:1: output_length: expected a positive integer, got 0")
    );
    expect(traceError(line({...ok, timestamp: -1}))).toThrow(
      new Error("t.jsonl:1: timestamp: expected a non-negative number (ms), got -1")
    );
    expect(traceError(line({...ok, hash_ids: [1, -1, 2.5]}))).toThrow(
      new Error(
        [
          "t.jsonl:1: hash_ids[1]: expected a non-negative integer, got -1",
          "t.jsonl:1: hash_ids[2]: expected a non-negative integer, got 2.5"
        ].join("\n")
      )
    );
    expect(traceError(line({...ok, hash_ids: "0,1"}))).toThrow(
      new Error(`t.jsonl:1: hash_ids: expected an array of block ids, got "0,1"`)
    );
  });

  it("keys beyond the four of the Mooncake format are an error", () => {
    expect(traceError(line({...ok, session_id: "c1"}))).toThrow(
      new Error(`t.jsonl:1: unknown key "session_id" (allowed: timestamp, input_length, output_length, hash_ids)`)
    );
  });

  it("reports every bad line at once; a line that is not JSON names its column", () => {
    expect(traceError(line(ok), `{"timestamp": 5,`, line({...ok, output_length: 2.5}))).toThrow(
      new Error(
        [
          "t.jsonl:2: not JSON: Expected double-quoted property name at column 17",
          "t.jsonl:3: output_length: expected a positive integer, got 2.5"
        ].join("\n")
      )
    );
  });

  it("an empty trace is an error", () => {
    expect(traceError("")).toThrow(new Error("t.jsonl:1: empty trace: no lines"));
    expect(traceError("", "  ", "")).toThrow(new Error("t.jsonl:1: empty trace: no lines"));
  });
});

describe("configs/traces/inferscope-mini-trace.jsonl", () => {
  const text = readFileSync(join(import.meta.dirname, "../../../configs/traces/inferscope-mini-trace.jsonl"), "utf8");
  const lines = parseTrace(text, "inferscope-mini-trace.jsonl");

  it("parses: 80 lines over about 30 s from 0, outputs 16–400", () => {
    expect(lines).toHaveLength(80);
    expect(lines[0]!.timestampMs).toBe(0);
    expect(lines.at(-1)!.timestampMs).toBeGreaterThan(20_000);
    expect(lines.at(-1)!.timestampMs).toBeLessThanOrEqual(30_000);
    for (const l of lines) {
      expect(l.outputLength).toBeGreaterThanOrEqual(16);
      expect(l.outputLength).toBeLessThanOrEqual(400);
    }
  });

  it("every line has one hash_id per 512-token block: ceil(input_length / 512) == hash_ids.length", () => {
    for (const l of lines) expect([l.line, Math.ceil(l.inputLength / 512)]).toEqual([l.line, l.hashIds.length]);
  });

  it("requests share leading hash_ids (system-prompt families) and some extend an earlier request whole", () => {
    const firsts = new Map<number, number>();
    for (const l of lines) if (l.hashIds.length > 0) firsts.set(l.hashIds[0]!, (firsts.get(l.hashIds[0]!) ?? 0) + 1);
    expect([...firsts.values()].filter((n) => n >= 2).length).toBeGreaterThanOrEqual(2);
    const extends_ = lines.some((l, i) =>
      lines
        .slice(0, i)
        .some((e) => e.hashIds.length < l.hashIds.length && e.hashIds.every((h, k) => l.hashIds[k] === h))
    );
    expect(extends_).toBe(true);
  });
});
