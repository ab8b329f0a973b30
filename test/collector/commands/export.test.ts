import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {exportCommand} from "../../../collector/commands/export.ts";
import type {Io} from "../../../collector/commands/io.ts";
import {EXIT, type CliError} from "../../../collector/cliError.ts";
import {analyzeBundle, importPeer} from "../../../src/analysis/index.ts";
import {fsBundle} from "../../../src/io/fsBundle.ts";
import {parseCsv} from "../../support/csv.ts";
import {memoryLogger} from "../helpers.ts";

/** A shipped llama.cpp bundle (4 load points — concurrency 1, 2, 4 and Poisson 1 req/s — of 40 requests, VALID). */
const BUNDLE = "evidence/20261202-vm-random-small-llamacpp-small-p4-45c4f1";
const root = mkdtempSync(join(tmpdir(), "inferscope-export-"));
afterAll(() => rmSync(root, {recursive: true, force: true}));

function io(): {io: Io; lines: string[]} {
  const lines: string[] = [];
  return {io: {out: (l) => void lines.push(l), err: memoryLogger()}, lines};
}

describe("inferscope export", () => {
  it("llmd-report: valid v0.2.1 documents whose numbers are ours, and that import back as reported", async () => {
    const {io: o, lines} = io();
    await exportCommand(BUNDLE, {format: "llmd-report"}, o, {});
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed document, read by path below
    const docs = JSON.parse(lines.join("\n")) as any[];
    expect(docs).toHaveLength(4);
    const doc = docs[3]!;
    const ours = await analyzeBundle(fsBundle(BUNDLE));
    const p = ours.load_points[3]!;
    expect(p.id).toBe("poisson-1");
    expect(
      (doc as {scenario: {load: {standardized: Record<string, unknown>}}}).scenario.load.standardized
    ).toMatchObject({
      tool: "inferscope",
      rate_qps: 1,
      stage: 3,
      input_seq_len: {distribution: "fixed", value: 256}
    });
    const ttft = p.metrics.ttft_ms as {mean: number; p50: number; p99: number | null};
    const agg = (
      doc as {
        results: {
          request_performance: {
            aggregate: {latency: {time_to_first_token: Record<string, unknown>}; requests: {total: number}};
          };
        };
      }
    ).results.request_performance.aggregate;
    expect(agg.requests.total).toBe(40);
    expect(agg.latency.time_to_first_token).toMatchObject({units: "ms", mean: ttft.mean, p50: ttft.p50});
    // p99 of 40 values is withheld by our rule (⌈0.99·40⌉ = 40): left out, never 0
    expect(ttft.p99).toBeNull();
    expect("p99" in agg.latency.time_to_first_token).toBe(false);
    // round trip through the llm-d importer: the document is valid and its numbers come back as reported
    const back = importPeer("llmd-report", [{name: "r.json", text: JSON.stringify(doc)}]);
    if (!back.ok) throw new Error(JSON.stringify(back.errors));
    const reported = back.value.sources[0]!.aggregates as typeof doc;
    expect(reported).toEqual(doc);
  });

  it("llmd-report --out: one file per load point", async () => {
    const out = join(root, "llmd");
    const files = await exportCommand(BUNDLE, {format: "llmd-report", out}, io().io, {});
    expect(files.map((f) => f.slice(out.length + 1))).toEqual(
      ["concurrency-1", "concurrency-2", "concurrency-4", "poisson-1"].map(
        (p) => `benchmark_report_v0.2.1_20261202-vm-random-small-llamacpp-small-p4-45c4f1_${p}.json`
      )
    );
    const one = JSON.parse(readFileSync(files[0]!, "utf8")) as {run: {uid: string}};
    expect(one.run.uid).toBe("20261202-vm-random-small-llamacpp-small-p4-45c4f1/concurrency-1");
  });

  it("csv: every request record and every load-point metric, redacted, numbers as numbers", async () => {
    const out = join(root, "csv");
    // a secret-named environment value that occurs in the bundle (its model name) is redacted in the export
    await exportCommand(BUNDLE, {format: "csv", out}, io().io, {SERVER_AUTH_TOKEN: "llamacpp-small"});
    const req = parseCsv(readFileSync(join(out, "requests.csv"), "utf8"));
    expect(req[0]!.slice(0, 6)).toEqual(["bundle", "id", "point", "repeat", "phase", "outcome"]);
    // 4 points × 40 measured requests (and the bundle column redacted: its id holds the "secret")
    const measured = req.slice(1).filter((r) => r[4] === "measure");
    expect(measured).toHaveLength(160);
    expect(req[1]![0]).toMatch(/^20261202-vm-random-small-\[REDACTED:[0-9a-f]{8}\]-p4-45c4f1$/);
    const met = parseCsv(readFileSync(join(out, "metrics.csv"), "utf8"));
    const header = met[0]!;
    const row = met.find((r) => r[header.indexOf("metric")] === "ttft_ms")!;
    const ours = (await analyzeBundle(fsBundle(BUNDLE))).load_points[0]!.metrics.ttft_ms as {mean: number};
    expect(Number(row[header.indexOf("mean")])).toBe(ours.mean);
    expect(row[header.indexOf("p99")]).toBe(""); // withheld: an empty cell and the reason in note
    expect(row[header.indexOf("note")]).toMatch(/^p99: /);
    const all = readFileSync(join(out, "metrics.csv"), "utf8") + readFileSync(join(out, "requests.csv"), "utf8");
    expect(all).not.toContain("llamacpp-small");
  });

  it("usage errors: unknown format, not a bundle, csv without --out", async () => {
    const fail = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e as CliError
      );
    const e1 = await fail(exportCommand(BUNDLE, {format: "xlsx"}, io().io, {}));
    expect(e1?.exitCode).toBe(EXIT.usage);
    expect(e1?.message).toMatch(/unknown format "xlsx": expected one of llmd-report, csv/);
    expect((await fail(exportCommand(join(root, "nope"), {format: "csv", out: root}, io().io, {})))?.message).toMatch(
      /not a bundle folder/
    );
    expect((await fail(exportCommand(BUNDLE, {format: "csv"}, io().io, {})))?.message).toMatch(/give --out/);
    // an empty folder is no bundle: refused, not exported as header-only CSVs with exit 0
    const empty = join(root, "empty");
    mkdirSync(empty, {recursive: true});
    const e2 = await fail(exportCommand(empty, {format: "csv", out: join(root, "x")}, io().io, {}));
    expect(e2?.exitCode).toBe(EXIT.usage);
    expect(e2?.message).toBe(`not a bundle folder: ${empty} holds no manifest.json and no requests.jsonl`);
    expect(existsSync(join(root, "x"))).toBe(false);
  });
});
