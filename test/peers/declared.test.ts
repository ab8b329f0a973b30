import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join, resolve} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {importCommand, parseDeclared} from "../../collector/commands/import.ts";
import type {Io} from "../../collector/commands/io.ts";
import {CliError, EXIT} from "../../collector/cliError.ts";
import {analyzeBundle, candidatesOf, paretoOf, type Manifest} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {memoryLogger} from "../collector/helpers.ts";
import {SYNTH} from "./helpers.ts";

/**
 * What the files do not say, the importer declares (issue 13): --hardware, --engine, --label. Declared
 * values are kept apart in the manifest (provenance.declared) and shown as declared, never as measured;
 * they let an imported run join the per-GPU views instead of standing apart as "unknown hardware".
 */
const root = mkdtempSync(join(tmpdir(), "inferscope-declared-"));
afterAll(() => rmSync(root, {recursive: true, force: true}));
const io = (): Io => ({out: () => undefined, err: memoryLogger()});

describe("declared values", () => {
  it("parseDeclared reads the three options; every malformed value is a usage error naming it", () => {
    expect(
      parseDeclared({
        hardware: "gpu_model=H100-SXM-80GB,gpu_count=8",
        engine: "vllm@0.9.1",
        label: ["team=infra", "a.b=c=d"]
      })
    ).toEqual({
      hardware: {gpu_model: "H100-SXM-80GB", gpu_count: 8},
      engine: {name: "vllm", version: "0.9.1"},
      labels: {team: "infra", "a.b": "c=d"}
    });
    expect(parseDeclared({engine: "sglang"})).toEqual({engine: {name: "sglang", version: null}});
    expect(parseDeclared({})).toBeUndefined();
    const bad = (o: Parameters<typeof parseDeclared>[0]): string => {
      try {
        parseDeclared(o);
      } catch (e) {
        expect(e).toBeInstanceOf(CliError);
        expect((e as CliError).exitCode).toBe(EXIT.usage);
        return (e as Error).message;
      }
      throw new Error("expected a usage error");
    };
    expect(bad({hardware: "gpu=H100"})).toMatch(/unknown key "gpu": expected gpu_model and gpu_count/);
    expect(bad({hardware: "gpu_model=H100"})).toMatch(/expected both gpu_model and gpu_count/);
    expect(bad({hardware: "gpu_model=H100,gpu_count=1.5"})).toMatch(
      /gpu_count="1.5": expected a whole number of GPUs ≥ 1/
    );
    expect(bad({hardware: "H100x8"})).toMatch(/expected key=value pairs/);
    expect(bad({engine: "vllm 0.9"})).toMatch(/expected name or name@version/);
    expect(bad({label: ["novalue"]})).toMatch(/--label "novalue": expected key=value/);
  });

  it("an import with declared hardware joins the per-GPU views, shown as declared", async () => {
    const dir = await importCommand(
      "vllm",
      [join(SYNTH, "vllm/vllm-2025-detailed.json")],
      {
        out: join(root, "a"),
        hardware: "gpu_model=H100-SXM-80GB,gpu_count=8",
        engine: "vllm@0.9.1",
        label: ["team=infra"]
      },
      io()
    );
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
    expect(manifest.provenance).toMatchObject({
      kind: "imported",
      declared: {
        hardware: {gpu_model: "H100-SXM-80GB", gpu_count: 8},
        engine: {name: "vllm", version: "0.9.1"},
        labels: {team: "infra"}
      }
    });
    // never as measured: the environment records no device
    expect(manifest.environment.gpu.devices).toEqual([]);
    const report = await analyzeBundle(fsBundle(dir));
    expect(report.meta).toMatchObject({
      hardware: "8× H100-SXM-80GB (declared)",
      gpus: 8,
      engine: "vllm",
      labels: {team: "infra", imported_from: "vllm"},
      declared: ["hardware", "gpus", "engine", "labels.team"]
    });
    const [c] = candidatesOf(report);
    const out = report.load_points[0]!.metrics.output_throughput_tok_s as {value: number};
    expect(c!.divisorKind).toBe("gpu");
    expect(c!.throughputPerGpu).toBeCloseTo(out.value / 8, 12);
    // the Pareto view takes an imported run although its client health is not in the files
    const valid = {...report, load_points: report.load_points.map((p) => ({...p, verdict: "VALID" as const}))};
    const pareto = paretoOf([valid]);
    expect(pareto.excluded).toEqual([]);
    expect(pareto.classes[0]!.points[0]!.group).toBe("8× H100-SXM-80GB (declared) · vllm · imported from vllm");
  });

  it("a declaration that contradicts what the files state is refused; without one the hardware stays unknown", async () => {
    const llmd = resolve("test/fixtures/peers/llmd-report/br_v0_2_example.yaml");
    const err = await importCommand(
      "auto",
      [llmd],
      {out: join(root, "b"), hardware: "gpu_model=A100,gpu_count=8"},
      io()
    ).catch((e: unknown) => e as CliError);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.usage);
    expect((err as CliError).message).toContain("--hardware: the files already state 16× NVIDIA-H100-80GB-HBM3");
    const plain = await importCommand(
      "vllm",
      [join(SYNTH, "vllm/vllm-2024-detailed.json")],
      {out: join(root, "c")},
      io()
    );
    const report = await analyzeBundle(fsBundle(plain));
    expect(report.meta.hardware).toBe("unknown hardware");
    expect(report.meta.declared ?? []).toEqual([]);
    expect(candidatesOf(report)[0]!.throughputPerGpu).toBeNull();
  });
});
