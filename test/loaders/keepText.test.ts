import {describe, expect, it} from "vitest";

import {memorySource} from "../../src/analysis/index.ts";
import {keepText} from "../../src/loaders/keepText.ts";

const digest = (text: string) => ({bytes: text.length, sha256: `h${text.length}`});

describe("keepText", () => {
  it("keeps the text of the named files as they are read, and passes chunks and digests through", async () => {
    const kept = keepText(memorySource("b", {"manifest.json": "{}", "requests.jsonl": "x\n"}, digest), [
      "manifest.json"
    ]);
    expect(kept.text("manifest.json")).toBeUndefined();
    const stream = kept.source.open("manifest.json")!;
    const chunks: string[] = [];
    for await (const c of stream.chunks) chunks.push(c);
    expect(chunks).toEqual(["{}"]);
    expect(stream.digest()).toEqual({bytes: 2, sha256: "h2"});
    expect(kept.text("manifest.json")).toBe("{}");
  });

  it("keeps nothing of other files, and an absent file stays absent", async () => {
    const kept = keepText(memorySource("b", {"requests.jsonl": "x\n"}, digest), ["manifest.json"]);
    expect(kept.source.open("manifest.json")).toBeNull();
    const s = kept.source.open("requests.jsonl")!;
    for await (const _ of s.chunks);
    expect(kept.text("requests.jsonl")).toBeUndefined();
    expect(kept.source.files).toEqual(["requests.jsonl"]);
  });
});
