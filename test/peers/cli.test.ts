import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {analyzeCommand} from "../../collector/commands/analyze.ts";
import {
  importCommand,
  readInputs as readCliInputs,
  uniqueNames,
  writeImportedBundle
} from "../../collector/commands/import.ts";
import type {Io} from "../../collector/commands/io.ts";
import {verifyCommand} from "../../collector/commands/verify.ts";
import {CliError, EXIT} from "../../collector/cliError.ts";
import {importPeer, Manifest} from "../../src/analysis/index.ts";
import {memoryLogger, spawnCli} from "../collector/helpers.ts";
import {SYNTH} from "./helpers.ts";

const root = mkdtempSync(join(tmpdir(), "inferscope-import-"));
afterAll(() => rmSync(root, {recursive: true, force: true}));

function memoryIo(): Io & {lines: string[]; errs: string[]} {
  const lines: string[] = [];
  const err = memoryLogger();
  return {lines, errs: err.lines, out: (l) => void lines.push(l), err};
}

describe("inferscope import", () => {
  it("scrubs a credential from the provenance note (a pasted clone URL with a token)", async () => {
    const out = join(root, "note");
    const file = join(SYNTH, "guidellm/benchmarks.json");
    const note = "https://user:ghp_NOTESECRET0001@github.com/x/y @ 1234abc, path results/b.json";
    const dir = await importCommand("auto", [file], {out, note}, memoryIo());
    const text = readFileSync(join(dir, "manifest.json"), "utf8");
    expect(text).not.toContain("NOTESECRET");
    const manifest = Manifest.parse(JSON.parse(text));
    // the rest of the note stays: where the file came from
    if (manifest.provenance.kind === "imported")
      expect(manifest.provenance.note).toMatch(
        /^https:\/\/\[REDACTED\]@github\.com\/x\/y @ 1234abc, path results\/b\.json/
      );
    expect(manifest.provenance.kind).toBe("imported");
  });

  it("writes a sealed bundle that verifies, with provenance and the source's aggregates verbatim", async () => {
    const out = join(root, "ok");
    const io = memoryIo();
    const file = join(SYNTH, "guidellm/benchmarks.json");
    const dir = await importCommand("auto", [file], {out}, io);
    expect(io.lines.at(-1)).toBe(dir);
    expect(readdirSync(out)).toEqual([dir.split("/").pop()]);
    expect(readdirSync(dir).sort()).toEqual([
      "config.resolved.yaml",
      "manifest.json",
      "requests.jsonl",
      "source.jsonl"
    ]);
    const manifest = Manifest.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
    expect(manifest.provenance.kind).toBe("imported");
    if (manifest.provenance.kind === "imported") {
      expect(manifest.provenance.tool).toBe("guidellm");
      expect(manifest.provenance.files).toEqual([
        {name: "benchmarks.json", sha256: readCliInputs([file])[0]!.sha256, bytes: readFileSync(file).length}
      ]);
    }
    const source = JSON.parse(readFileSync(join(dir, "source.jsonl"), "utf8").trim()) as {
      aggregates: {metrics: unknown};
    };
    const original = JSON.parse(readFileSync(file, "utf8")) as {benchmarks: {metrics: unknown}[]};
    expect(source.aggregates.metrics).toEqual(original.benchmarks[0]!.metrics);
    await verifyCommand(dir, memoryIo());
    const json = memoryIo();
    await analyzeCommand(dir, {json: true}, json);
    const view = JSON.parse(json.lines.join("\n")) as {source_comparison: {metric: string}[]};
    expect(view.source_comparison.length).toBeGreaterThan(50);
    expect(io.errs.join("\n")).toMatch(
      /imported guidellm 0\.5\.0\.synthetic: 5 requests, 1 load point\(s\); verdict \w+; \d+ compared numbers, 0 reported ≠ recomputed/
    );
  });

  it("the same inputs give the same bundle id; a second import is refused (bundles are immutable)", async () => {
    const out = join(root, "again");
    const file = join(SYNTH, "llmperf");
    await importCommand("llmperf", [file], {out}, memoryIo());
    await expect(importCommand("llmperf", [file], {out}, memoryIo())).rejects.toThrow(/bundle already exists/);
  });

  it("malformed input: exit 2 with file, path and expectation, and nothing written", async () => {
    const out = join(root, "bad");
    const bad = join(root, "truncated.json");
    writeFileSync(bad, readFileSync(join(SYNTH, "vllm/vllm-2025-detailed.json"), "utf8").slice(0, 500));
    const err = await importCommand("auto", [bad], {out}, memoryIo()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.usage);
    expect((err as CliError).message).toMatch(
      /truncated\.json: end of file \(line \d+ column \d+\): expected valid JSON/
    );
    expect(() => readdirSync(out)).toThrow();
  });

  it("a failure while writing leaves neither a bundle nor a temporary folder", async () => {
    const out = join(root, "writefail");
    const inputs = readCliInputs([join(SYNTH, "vllm/vllm-2024-detailed.json")]);
    const r = importPeer("vllm", inputs);
    if (!r.ok) throw new Error("fixture should import");
    // an invalid load point id makes the manifest fail validation inside sealing, after the data files were written
    const broken = {...r.value, loadPoints: r.value.loadPoints.map((p) => ({...p, id: "not a slug"}))};
    const err = await writeImportedBundle(broken, inputs, out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.writeFailed);
    expect(readdirSync(out)).toEqual([]);
  });

  it("an --out that cannot be made (under a file, or under /proc) is a write failure naming it, not a crash or a hang", async () => {
    const file = join(root, "plain-file");
    writeFileSync(file, "x");
    const inputs = [join(SYNTH, "vllm/vllm-2024-detailed.json")];
    for (const [out, why] of [
      [file, `ENOTDIR: not a directory, mkdir '${file}'`],
      [join(file, "sub"), `ENOTDIR: not a directory, mkdir '${file}'`],
      // node's recursive mkdir never returns here (it loops); /proc's mkdir answers ENOENT
      ["/proc/inferscope-no-such-folder", "ENOENT"]
    ] as const) {
      const err = await importCommand("vllm", inputs, {out}, memoryIo()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CliError);
      expect((err as CliError).exitCode, out).toBe(EXIT.writeFailed);
      expect((err as CliError).message).toContain(`could not write the bundle under ${out}: ${why}`);
    }
  });

  it("an unknown tool name is a usage error listing the tools", async () => {
    await expect(importCommand("locust", [join(SYNTH, "llmperf")], {out: join(root, "x")}, memoryIo())).rejects.toThrow(
      /unknown tool "locust": expected one of vllm, sglang, genai-perf, aiperf, guidellm, llmperf, inferscope-v1, llmd-report, auto/
    );
  });

  it("an InferScope v1 raw folder brings its processed aggregate along; duplicate base names get their folder", () => {
    const raw = join(SYNTH, "inferscope-v1/results/raw/20250801T100000000000Z-abcdef12-concurrency-2-r0");
    expect(readCliInputs([raw]).map((f) => f.name)).toContain("aggregate.json");
    expect(uniqueNames(["/a/individual/groq.json", "/a/summary/groq.json", "/a/x.json"])).toEqual([
      "individual/groq.json",
      "summary/groq.json",
      "x.json"
    ]);
  });

  it("is registered in the CLI (spawned through collector/cli.ts)", async () => {
    const out = join(root, "spawned");
    const c = spawnCli(["import", "auto", join(SYNTH, "aiperf/later"), "--out", out]);
    const {code} = await c.exit;
    expect(code).toBe(0);
    expect(c.stdout().trim()).toMatch(/\/20251009-import-aiperf-aiperf-[0-9a-f]{6}$/); // the records start at 1.76e18 ns, 2025-10-09T08:53:20Z
  }, 30_000);
});
