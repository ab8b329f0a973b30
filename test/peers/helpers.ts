import {existsSync, readdirSync, readFileSync, statSync} from "node:fs";
import {basename, join, resolve} from "node:path";

import {
  analyzeBundle,
  importedConfigYaml,
  importedManifest,
  importPeer,
  memorySource,
  type ImportedRun,
  type PeerTool,
  type Report
} from "../../src/analysis/index.ts";
import {sha256Hex} from "../../src/io/hash.ts";

export const PEERS = resolve("../shared/fixtures/peers");
export const SYNTH = resolve("test/fixtures/peers-synthetic");
export const havePeers = existsSync(PEERS);

const digest = (text: string) => ({bytes: Buffer.byteLength(text), sha256: sha256Hex(text)});

/** Reads input files (folders expanded one level deep) as the CLI does; names are base names. */
export function readInputs(paths: readonly string[]): {name: string; text: string}[] {
  const out: {name: string; text: string}[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      for (const e of readdirSync(p).sort())
        if (statSync(join(p, e)).isFile()) out.push({name: e, text: readFileSync(join(p, e), "utf8")});
    } else out.push({name: basename(p), text: readFileSync(p, "utf8")});
  }
  return out;
}

/** The bundle files an import writes, built in memory (the CLI writes the same texts). */
export function bundleTexts(run: ImportedRun, inputs: readonly {name: string; text: string}[]): Record<string, string> {
  const files: Record<string, string> = {};
  const config = importedConfigYaml(run);
  files["config.resolved.yaml"] = config;
  if (run.requests.length) files["requests.jsonl"] = run.requests.map((r) => JSON.stringify(r)).join("\n") + "\n";
  files["source.jsonl"] = run.sources.map((s) => JSON.stringify(s)).join("\n") + "\n";
  const draft = importedManifest(run, {
    bundleId: `test-${run.tool}`,
    configSha256: sha256Hex(config),
    collector: {name: "inferscope-import", version: "test", lockfileSha256: null, gitCommit: null, node: null},
    files: inputs.map((f) => ({name: f.name, ...digest(f.text)})),
    startedAtFallback: "2026-01-01T00:00:00.000Z"
  });
  const entries = Object.entries(files)
    .map(([path, text]) => ({
      path,
      role: path === "config.resolved.yaml" ? "config" : path === "requests.jsonl" ? "requests" : "source",
      ...digest(text),
      records: path.endsWith(".jsonl") ? text.split("\n").length - 1 : null
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
  files["manifest.json"] = JSON.stringify({...draft, files: entries}, null, 2) + "\n";
  return files;
}

/** Imports files and analyses the resulting bundle entirely in memory. */
export async function importAndAnalyze(
  tool: PeerTool | "auto",
  paths: readonly string[]
): Promise<{run: ImportedRun; report: Report; files: Record<string, string>}> {
  return importAndAnalyzeTexts(tool, readInputs(paths));
}

/** The same for files given as text (a fixture built inside the test). */
export async function importAndAnalyzeTexts(
  tool: PeerTool | "auto",
  inputs: readonly {name: string; text: string}[]
): Promise<{run: ImportedRun; report: Report; files: Record<string, string>}> {
  const r = importPeer(tool, inputs);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.file}: ${e.path}: ${e.expected}`).join("\n"));
  const files = bundleTexts(r.value, inputs);
  const report = await analyzeBundle(memorySource(`test-${r.value.tool}`, files, digest), {keepRows: true});
  return {run: r.value, report, files};
}
