/**
 * The site's door to the evidence (with groups.ts and copyEvidence.ts, the only I/O of the site): finds
 * every bundle of the evidence folder (or the exact folders of the build options), analyses it through
 * the pure core, and fails the build with the complete list of problems (file:line) when a bundle is
 * invalid.
 */
import {closeSync, existsSync, fstatSync, openSync, readdirSync, readSync} from "node:fs";
import {join} from "node:path";

import {formatIssue, readAndAnalyze, type Manifest, type Report, type RunConfig} from "../analysis/index.ts";
import {fsBundle} from "../io/fsBundle.ts";
import {readHardwareData} from "../io/hardware.ts";
import {bundleSignature, type SignatureStatus} from "../io/signature.ts";
import {buildOptions} from "../site/buildOptions.ts";
import {withheldFiles, type WithheldReason} from "./withheld.ts";

export const EVIDENCE_DIR = buildOptions().evidenceDir;

/** The GPU catalogue, engine matrix and prices (configs/hardware, and the build's INFERSCOPE_PRICES), read once. */
export const HARDWARE = readHardwareData(buildOptions().hardwareDir, buildOptions().pricesFile);

export interface LoadedBundle {
  dir: string;
  report: Report;
  /** The parsed manifest and resolved config (null when absent or unparsable; the report says why). */
  manifest: Manifest | null;
  config: RunConfig | null;
  /** The Ed25519 signature over the manifest, checked against evidence/allowed_signers. */
  signature: SignatureStatus & {signersFile: string | null};
  /** Raw files not published with the site, and why (see withheld.ts). */
  withheld: Map<string, WithheldReason>;
  /** The last lines of the launched server's log (`server.log`, an experiment's attachment), or null. */
  serverLog: string | null;
}

/** Bytes of server.log read for the audit page (its tail; the whole file is published beside it). */
const SERVER_LOG_TAIL_BYTES = 64 * 1024;

function serverLogTail(dir: string): string | null {
  const path = join(dir, "server.log");
  if (!existsSync(path)) return null;
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, SERVER_LOG_TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    const text = buf.toString("utf8");
    return size > length ? text.slice(text.indexOf("\n") + 1) : text;
  } finally {
    closeSync(fd);
  }
}

/** Bundle folders: every direct subfolder of the evidence folder holding a manifest.json (schema/ and others are skipped). */
export function bundleDirs(root = EVIDENCE_DIR): string[] {
  const explicit = buildOptions().bundles;
  if (explicit) return explicit;
  if (!existsSync(root)) return [];
  return readdirSync(root, {withFileTypes: true})
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, "manifest.json")))
    .map((d) => join(root, d.name))
    .sort();
}

/**
 * Analyses one bundle folder with per-request rows and telemetry series kept (for charts and comparisons).
 * The manifest and config shown on the pages are the ones the analyzer parsed from the text it read and digested.
 */
export async function loadBundleDir(dir: string): Promise<LoadedBundle> {
  const {report, manifest, config} = await readAndAnalyze(fsBundle(dir), {
    keepRows: true,
    keepSeries: true,
    hardware: HARDWARE
  });
  return {
    dir,
    report,
    manifest,
    config,
    signature: bundleSignature(dir),
    withheld: withheldFiles(dir),
    serverLog: serverLogTail(dir)
  };
}

/** Why a loaded bundle may not be published (empty when it may): a broken signature, a G1 failure, ingest errors. */
export function publishProblems(loaded: LoadedBundle): string[] {
  const {report, dir} = loaded;
  const problems: string[] = [];
  const errors = report.issues.filter((i) => i.severity === "error");
  const g1 = report.gates.find((g) => g.id === "G1");
  if (loaded.signature.state === "invalid")
    problems.push(`${dir}:\n  signature: ${loaded.signature.reason} (a signed bundle that changed is never published)`);
  if (errors.length > 0 || g1?.status === "fail")
    problems.push(
      `${dir}:\n${[...(g1?.status === "fail" ? [`  G1: ${g1.reason}`] : []), ...errors.map((i) => `  ${formatIssue(i)}`)].join("\n")}`
    );
  return problems;
}

let cache: Promise<LoadedBundle[]> | null = null;

export function loadEvidence(): Promise<LoadedBundle[]> {
  cache ??= (async () => {
    const out: LoadedBundle[] = [];
    const problems: string[] = [];
    for (const dir of bundleDirs()) {
      const loaded = await loadBundleDir(dir);
      problems.push(...publishProblems(loaded));
      out.push(loaded);
    }
    if (problems.length > 0) throw new Error(`invalid evidence bundles; fix or remove them:\n${problems.join("\n")}`);
    const ids = new Map<string, string>();
    for (const b of out) {
      const prev = ids.get(b.report.bundle);
      if (prev) throw new Error(`two bundles share the id ${b.report.bundle}: ${prev} and ${b.dir}`);
      ids.set(b.report.bundle, b.dir);
    }
    return out.sort(
      (a, b) =>
        (b.report.meta.startedAt ?? "").localeCompare(a.report.meta.startedAt ?? "") ||
        a.report.bundle.localeCompare(b.report.bundle)
    );
  })();
  return cache;
}

export async function loadBundle(id: string): Promise<LoadedBundle> {
  const found = (await loadEvidence()).find((b) => b.report.bundle === id);
  if (!found) throw new Error(`no bundle with id ${id}`);
  return found;
}
