import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {readInputs} from "../../../collector/commands/import.ts";
import {importPeer, formatPeerError} from "../../../src/analysis/index.ts";
import {parseDoc} from "../../../src/analysis/peers/shared/parse.ts";
import {StreamingDoc} from "../../../src/analysis/peers/shared/streamParse.ts";
import {SYNTH} from "../helpers.ts";

/** Feeds `text` in chunks of the given sizes (cycled) and returns the result. */
function streamed(text: string, sizes: readonly number[], name = "f.json") {
  const d = new StreamingDoc(name);
  let i = 0;
  for (let k = 0; i < text.length; k++) {
    const n = sizes[k % sizes.length]!;
    d.write(text.slice(i, i + n));
    i += n;
  }
  return d.end();
}

const FILES = [
  "vllm/vllm-2025-detailed.json",
  "vllm/vllm-2025-append.jsonl",
  "sglang/sglang-bench-serving.jsonl",
  "aiperf/v0.12/profile_export.jsonl",
  "aiperf/v0.12/profile_export_aiperf.json",
  "guidellm/report-v2/benchmarks.json",
  "genai-perf/profile_export.json"
];

describe("StreamingDoc: the parse of a file too large for one string", () => {
  it("gives the same document as the whole-text parse, whatever the chunk boundaries", () => {
    for (const f of FILES) {
      const text = readFileSync(join(SYNTH, f), "utf8");
      const whole = parseDoc({name: "f.json", text});
      expect(whole.ok, f).toBe(true);
      for (const sizes of [[1], [3, 7, 2], [4096], [text.length]])
        expect(streamed(text, sizes), `${f} ${sizes}`).toEqual(whole);
    }
  });

  it("Python's NaN/Infinity split across chunks read as null; integers beyond 2^53 exact", () => {
    const text = '{"a": NaN, "b": -Infinity, "c": [Infinity, 1], "t": 1785789229401769834, "s": "NaN Infinity"}';
    for (const sizes of [[1], [2], [5, 1]])
      expect(streamed(text, sizes)).toEqual({
        ok: true,
        value: {
          name: "f.json",
          kind: "json",
          value: {a: null, b: null, c: [null, 1], t: 1785789229401769834n, s: "NaN Infinity"}
        }
      });
  });

  it("hostile input: located errors, as the whole-text parse gives", () => {
    const err = (text: string) => {
      const r = streamed(text, [5]);
      return r.ok ? "imported" : r.errors.map(formatPeerError).join("\n");
    };
    expect(err("")).toBe("f.json: $: expected a JSON document, got an empty file");
    expect(err('{"a":\n [1, 2')).toBe(
      "f.json: line 2 column 7: expected valid JSON (the file ends inside an unclosed value: truncated?)"
    );
    expect(err('{"a": "abc')).toMatch(/the file ends inside a string: truncated\?/);
    expect(err("[".repeat(70) + "]".repeat(70))).toBe(
      "f.json: line 1 column 65: expected at most 64 levels of nested arrays and objects; level 65 opens here"
    );
    expect(err('{"a":\n\u0000}')).toBe(
      "f.json: line 2 column 1: expected a text result file (JSON, JSON Lines or YAML), got binary data (a NUL byte)"
    );
    expect(err('{"a": tru}')).toMatch(/^f\.json: \$: expected valid JSON \(/);
  });

  it("readInputs streams files above the threshold, and the import is the same", () => {
    for (const f of ["vllm/vllm-2025-detailed.json", "aiperf/v0.12"]) {
      const paths = [join(SYNTH, f)];
      const plain = importPeer("auto", readInputs(paths));
      const streamedIn = readInputs(paths, 0);
      expect(streamedIn.every((x) => x.text === "" && x.parsed?.ok === true)).toBe(true);
      expect(importPeer("auto", streamedIn)).toEqual(plain);
      // the digest is of the bytes either way
      expect(streamedIn.map((x) => x.sha256)).toEqual(readInputs(paths).map((x) => x.sha256));
    }
  });
});
