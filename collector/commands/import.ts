import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync
} from "node:fs";
import {isAbsolute, join, relative} from "node:path";

import {max} from "d3-array";
import type {Command} from "commander";

import {
  analyzeBundle,
  declarationConflicts,
  FILE_NAMES,
  formatPeerError,
  importedConfigYaml,
  importedManifest,
  importPeer,
  isPeerTool,
  PEER_TOOLS,
  type Declared,
  type ImportedRun,
  type PeerTool
} from "../../src/analysis/index.ts";
import {redactText} from "../../src/analysis/redact/value.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {sha256Hex} from "../../src/io/hash.ts";
import {sealBundle} from "../bundle/seal.ts";
import {bundleName} from "../bundle/name.ts";
import {CliError, EXIT} from "../cliError.ts";
import {mkdirpSync} from "../effects.ts";
import {readInputs, type InputFile} from "./importInputs.ts";
import {defaultIo, type Io} from "./io.ts";

export {readInputs, STREAM_ABOVE_BYTES, uniqueNames, type InputFile} from "./importInputs.ts";

/** Writes rows as JSON Lines in bounded chunks (one string of a million records would pass V8's ~512 MB limit). */
function writeJsonl(path: string, rows: readonly unknown[]): void {
  const fd = openSync(path, "w");
  try {
    let buf = "";
    for (const r of rows) {
      buf += `${JSON.stringify(r)}\n`;
      if (buf.length > 1 << 22) {
        writeSync(fd, buf);
        buf = "";
      }
    }
    if (buf !== "") writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
}

function packageVersion(): string {
  try {
    return String(
      (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {version?: unknown}).version
    );
  } catch {
    return "0.0.0";
  }
}

/** Bundle id: `<date>-import-<model>-<tool>-<6 hex of the inputs' digests>` (the same inputs give the same id). */
export function importBundleId(run: ImportedRun, inputs: readonly InputFile[], startedAt: string): string {
  const id = sha256Hex(
    inputs
      .map((f) => f.sha256)
      .sort()
      .join(",")
  ).slice(0, 6);
  return bundleName({
    wallMs: Date.parse(startedAt),
    host: "import",
    model: run.model ?? "unknown-model",
    name: run.tool,
    id
  });
}

/**
 * Writes an imported run as a sealed bundle under `outDir`: into a temporary folder first, renamed at
 * the end, so a failure never leaves a half-written bundle. Returns the bundle folder.
 */
export async function writeImportedBundle(
  run: ImportedRun,
  inputs: readonly InputFile[],
  outDir: string,
  note?: string,
  declared?: Declared
): Promise<string> {
  const fallback = new Date(max(inputs, (f) => f.mtimeMs) ?? 0).toISOString();
  const startedAt = run.startedAt ?? run.finishedAt ?? fallback;
  const bundleId = importBundleId(run, inputs, startedAt);
  const final = join(outDir, bundleId);
  if (existsSync(final))
    throw new CliError(`bundle already exists: ${final} (bundles are immutable; the same inputs give the same id)`, {
      exitCode: EXIT.usage
    });
  const tmp = join(outDir, `.${bundleId}.tmp-${process.pid}`);
  try {
    mkdirpSync(outDir);
    rmSync(tmp, {recursive: true, force: true});
    mkdirSync(tmp);
  } catch (e) {
    throw new CliError(`could not write the bundle under ${outDir}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
  try {
    const config = importedConfigYaml(run);
    writeFileSync(join(tmp, FILE_NAMES.config), config);
    const files: string[] = [FILE_NAMES.config];
    if (run.requests.length) {
      writeJsonl(join(tmp, FILE_NAMES.requests), run.requests);
      files.push(FILE_NAMES.requests);
    }
    writeJsonl(join(tmp, FILE_NAMES.source), run.sources);
    files.push(FILE_NAMES.source);
    const manifest = importedManifest(run, {
      bundleId,
      configSha256: sha256Hex(config),
      collector: {
        name: "inferscope-import",
        version: packageVersion(),
        lockfileSha256: null,
        gitCommit: null,
        node: process.version
      },
      files: inputs.map((f) => ({name: f.name, sha256: f.sha256, bytes: f.bytes})),
      startedAtFallback: fallback,
      ...(declared ? {declared} : {})
    });
    // a pasted clone URL often carries a token: the note is scrubbed as an imported error text is
    if (note && manifest.provenance.kind === "imported")
      manifest.provenance.note = [redactText(note), manifest.provenance.note].filter(Boolean).join("; ");
    await sealBundle(tmp, manifest, files);
    renameSync(tmp, final);
    return final;
  } catch (e) {
    rmSync(tmp, {recursive: true, force: true});
    if (e instanceof CliError) throw e;
    throw new CliError(`could not write the bundle under ${outDir}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
}

export interface ImportOptions {
  out: string;
  /** Where the files came from (repository, commit, path), recorded in the provenance note. */
  note?: string;
  /** `gpu_model=H100-SXM-80GB,gpu_count=8`: the hardware, as the importer declares it. */
  hardware?: string;
  /** `vllm@0.9.1` (or `vllm`): the engine, as the importer declares it. */
  engine?: string;
  /** `key=value`, repeatable: labels the importer declares. */
  label?: string[];
}

const usage = (message: string) => new CliError(message, {exitCode: EXIT.usage});

/** `--hardware`, `--engine` and `--label` as one declaration (usage errors name the option and the value). */
export function parseDeclared(o: Pick<ImportOptions, "hardware" | "engine" | "label">): Declared | undefined {
  const d: Declared = {};
  if (o.hardware !== undefined) {
    const kv = new Map<string, string>();
    for (const part of o.hardware.split(",")) {
      const m = /^\s*([a-z_]+)\s*=\s*(.+?)\s*$/.exec(part);
      if (!m)
        throw usage(
          `--hardware "${o.hardware}": expected key=value pairs separated by commas (gpu_model=H100-SXM-80GB,gpu_count=8)`
        );
      if (m[1] !== "gpu_model" && m[1] !== "gpu_count")
        throw usage(`--hardware: unknown key "${m[1]}": expected gpu_model and gpu_count`);
      kv.set(m[1], m[2]!);
    }
    const model = kv.get("gpu_model");
    const count = Number(kv.get("gpu_count"));
    if (!model || !kv.has("gpu_count"))
      throw usage(`--hardware "${o.hardware}": expected both gpu_model and gpu_count`);
    if (!Number.isInteger(count) || count < 1)
      throw usage(`--hardware gpu_count="${kv.get("gpu_count")}": expected a whole number of GPUs ≥ 1`);
    d.hardware = {gpu_model: model, gpu_count: count};
  }
  if (o.engine !== undefined) {
    const m = /^([^@\s]+)(?:@(\S+))?$/.exec(o.engine.trim());
    if (!m) throw usage(`--engine "${o.engine}": expected name or name@version (vllm@0.9.1)`);
    d.engine = {name: m[1]!, version: m[2] ?? null};
  }
  for (const l of o.label ?? []) {
    const m = /^([A-Za-z0-9_.-]+)=(.*)$/.exec(l);
    if (!m) throw usage(`--label "${l}": expected key=value (letters, digits, _ . - in the key)`);
    d.labels = {...d.labels, [m[1]!]: m[2]!};
  }
  return Object.keys(d).length ? d : undefined;
}

export async function importCommand(tool: string, paths: readonly string[], o: ImportOptions, io: Io): Promise<string> {
  if (tool !== "auto" && !isPeerTool(tool))
    throw new CliError(`unknown tool "${tool}": expected one of ${[...PEER_TOOLS, "auto"].join(", ")}`, {
      exitCode: EXIT.usage
    });
  const written = await importToBundle(tool as PeerTool | "auto", paths, o);
  for (const w of written.warnings) io.err.warn(w);
  // The inputs and the imported records are out of scope here: the analysis reads the bundle back alone.
  const report = await analyzeBundle(fsBundle(written.dir));
  const rows = report.source_comparison ?? [];
  const findings = rows.filter((x) => x.finding).length;
  io.err.info(
    `imported ${written.label}: ${written.requests} requests, ${written.points} load point(s); verdict ${report.verdict}; ${rows.length} compared numbers, ${findings} reported ≠ recomputed`
  );
  io.out(written.dir);
  return written.dir;
}

/** A file as an error names it: relative to the working folder when inside it, else its full path. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** Reads, imports and writes the bundle; returns what the summary line needs (nothing that holds the records). */
async function importToBundle(
  tool: PeerTool | "auto",
  paths: readonly string[],
  o: ImportOptions
): Promise<{dir: string; label: string; requests: number; points: number; warnings: string[]}> {
  const declared = parseDeclared(o);
  const inputs = readInputs(paths);
  const r = importPeer(tool, inputs);
  if (!r.ok) {
    const lines = r.errors.map((e) => {
      const input = inputs.find((f) => f.name === e.file);
      return formatPeerError({...e, file: input ? shownPath(input.path) || input.name : e.file});
    });
    throw new CliError(`cannot import ${tool === "auto" ? "(auto)" : tool}:\n${lines.join("\n")}`, {
      exitCode: EXIT.usage
    });
  }
  for (const f of inputs) {
    // the texts are parsed: let them (and a streamed document) go before the records are written
    f.text = "";
    delete f.parsed;
  }
  const run = r.value;
  const conflicts = declared ? declarationConflicts(run, declared) : [];
  if (conflicts.length)
    throw usage(
      `a declaration contradicts the files (a declaration only fills what they leave unknown):\n${conflicts.join("\n")}`
    );
  const dir = await writeImportedBundle(run, inputs, o.out, o.note, declared);
  return {
    dir,
    label: `${run.tool}${run.toolVersion ? ` ${run.toolVersion}` : ""}`,
    requests: run.requests.length,
    points: run.loadPoints.length,
    warnings: run.warnings ?? []
  };
}

export function register(program: Command): void {
  program
    .command("import")
    .description(
      "import another benchmark tool's results as a sealed InferScope bundle (recomputed under their definitions and ours)"
    )
    .argument("<tool>", `${PEER_TOOLS.join(", ")} or auto (detect by shape)`)
    .argument("<files...>", "result files or folders")
    .requiredOption("--out <dir>", "folder to write the bundle into (e.g. evidence)")
    .option("--note <text>", "where the files came from (repository, commit, path), kept in the provenance note")
    .option("--hardware <pairs>", "declare what the files do not say: gpu_model=H100-SXM-80GB,gpu_count=8")
    .option("--engine <name@version>", "declare the engine: vllm@0.9.1")
    .option(
      "--label <key=value>",
      "declare a label (repeatable)",
      (v: string, acc: string[] = []) => [...acc, v],
      [] as string[]
    )
    .action(async (tool: string, files: string[], o: ImportOptions) => {
      await importCommand(tool, files, o, defaultIo());
    });
}
