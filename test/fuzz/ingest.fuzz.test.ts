import fc from "fast-check";
import {describe, expect, it} from "vitest";

import {analyzeBundle, memorySource, type Report} from "../../src/analysis/index.ts";
import {FILE_NAMES} from "../../src/analysis/schema/index.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {bundleFiles, cleanRun, lane} from "../support/bundle.ts";
import {FUZZ} from "./settings.ts";

/**
 * Property-based fuzzing of bundle ingest (issue 11): whatever the files hold, the analyzer returns a
 * report — never an exception — and every error names its file and, for a record, its line; a changed
 * byte is always caught.
 */
const analyze = (files: Record<string, string>): Promise<Report> =>
  analyzeBundle(memorySource("fuzz", files, (t) => ({bytes: Buffer.byteLength(t), sha256: sha256Hex(t)})));

const BASE = bundleFiles(cleanRun(lane("r", 6)));
const RECORDS = BASE[FILE_NAMES.requests]!.trimEnd().split("\n");

/** Re-seals the manifest over edited files (a forger's bundle: digests match, the content is hostile). */
function resealed(files: Record<string, string>): Record<string, string> {
  const m = JSON.parse(BASE[FILE_NAMES.manifest]!) as {files: {path: string; bytes: number; sha256: string}[]};
  m.files = m.files.map((f) =>
    files[f.path] === undefined
      ? f
      : {...f, bytes: Buffer.byteLength(files[f.path]!), sha256: sha256Hex(files[f.path]!)}
  );
  return {...files, [FILE_NAMES.manifest]: JSON.stringify(m)};
}

function expectLocated(r: Report, lineCount: Record<string, number>): void {
  expect(["VALID", "INVALID", "INCONCLUSIVE"]).toContain(r.verdict);
  for (const i of r.issues) {
    expect(i.file.length).toBeGreaterThan(0);
    expect(i.message.length).toBeGreaterThan(0);
    const n = lineCount[i.file];
    if (n !== undefined && i.line !== null) {
      expect(i.line).toBeGreaterThanOrEqual(1);
      expect(i.line).toBeLessThanOrEqual(n + 1);
    }
    if (i.severity === "error" && n !== undefined && ["schema", "json", "seq", "time_order"].includes(i.code))
      expect(i.line).not.toBeNull();
  }
}

/** A record with one field (possibly nested) replaced by any JSON value. */
const mutatedRecord = fc
  .tuple(fc.constantFrom(...RECORDS), fc.nat(), fc.jsonValue({maxDepth: 2}))
  .map(([line, k, value]) => {
    const rec = JSON.parse(line) as Record<string, unknown>;
    const keys = Object.keys(rec);
    const key = keys[k % keys.length]!;
    if (Array.isArray(rec[key]) && (rec[key] as unknown[]).length > 0) {
      const arr = [...(rec[key] as unknown[])];
      arr[k % arr.length] = value;
      rec[key] = arr;
    } else rec[key] = value;
    return JSON.stringify(rec);
  });

const anyLine = fc.oneof(
  {weight: 4, arbitrary: fc.constantFrom(...RECORDS)},
  {weight: 4, arbitrary: mutatedRecord},
  {weight: 1, arbitrary: fc.jsonValue({maxDepth: 3}).map((v) => JSON.stringify(v))},
  {weight: 1, arbitrary: fc.string({maxLength: 60})}
);

describe("bundle ingest under fuzzing", () => {
  it("any request lines, resealed: a report with located issues, never an exception", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyLine, {maxLength: 14}), fc.boolean(), async (lines, newline) => {
        const text = lines.join("\n") + (newline && lines.length > 0 ? "\n" : "");
        const r = await analyze(resealed({...BASE, [FILE_NAMES.requests]: text}));
        expectLocated(r, {[FILE_NAMES.requests]: lines.length});
      }),
      FUZZ
    );
  });

  it("any byte changed in a sealed file without resealing: G1 fails, naming the file", async () => {
    const names = Object.keys(BASE).filter((n) => n !== FILE_NAMES.manifest);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.nat(), fc.integer({min: 32, max: 126}), async (name, at, code) => {
        const text = BASE[name]!;
        const i = at % text.length;
        fc.pre(text.charCodeAt(i) !== code);
        const edited = text.slice(0, i) + String.fromCharCode(code) + text.slice(i + 1);
        const r = await analyze({...BASE, [name]: edited});
        const g1 = r.gates.find((g) => g.id === "G1")!;
        expect(g1.status).toBe("fail");
        expect(g1.reason).toContain(name);
        expect(r.verdict).toBe("INVALID");
      }),
      FUZZ
    );
  });

  it("any manifest or config text: a report that says what is wrong, never an exception", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(FILE_NAMES.manifest, FILE_NAMES.config),
        fc.oneof(
          fc.string({maxLength: 120}),
          fc.jsonValue({maxDepth: 3}).map((v) => JSON.stringify(v)),
          mutatedRecord
        ),
        async (name, text) => {
          const r = await analyze({...BASE, [name]: text});
          expectLocated(r, {});
          if (name === FILE_NAMES.manifest) expect(r.gates.find((g) => g.id === "G1")!.status).toBe("fail");
        }
      ),
      FUZZ
    );
  });
});
