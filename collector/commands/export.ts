/**
 * `inferscope export BUNDLE --format llmd-report|csv [--out DIR]`: a bundle's results in formats other
 * tools read. Recomputed from the bundle like every view; every text goes through the redactor of the
 * secrets this process knows (secret-named environment values), as every other artifact does.
 */
import {existsSync, statSync} from "node:fs";
import {join} from "node:path";

import type {Command} from "commander";

import pkg from "../../package.json" with {type: "json"};

import {FILE_NAMES, llmdReports, metricsCsv, readAndAnalyze, requestsCsv} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {CliError, EXIT} from "../cliError.ts";
import {mkdirpSync, writeFileAtomic} from "../effects.ts";
import {createRedactor, envSecrets} from "../redact.ts";
import {defaultIo, type Io} from "./io.ts";

export const EXPORT_FORMATS = ["llmd-report", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportOptions {
  format: string;
  out?: string;
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_");

/** Writes the export; returns the files written (none when printed to stdout). */
export async function exportCommand(dir: string, o: ExportOptions, io: Io, env = process.env): Promise<string[]> {
  if (!(EXPORT_FORMATS as readonly string[]).includes(o.format))
    throw new CliError(`unknown format "${o.format}": expected one of ${EXPORT_FORMATS.join(", ")}`, {
      exitCode: EXIT.usage
    });
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // not there
  }
  if (!isDir) throw new CliError(`not a bundle folder: ${dir}`, {exitCode: EXIT.usage});
  // an export is a hand-off to other tools: empty CSVs from a folder that is no bundle would read as "no requests"
  if (!existsSync(join(dir, FILE_NAMES.manifest)) && !existsSync(join(dir, FILE_NAMES.requests)))
    throw new CliError(`not a bundle folder: ${dir} holds no ${FILE_NAMES.manifest} and no ${FILE_NAMES.requests}`, {
      exitCode: EXIT.usage
    });
  if (o.format === "csv" && !o.out)
    throw new CliError("--format csv writes two files (requests.csv, metrics.csv): give --out <folder>", {
      exitCode: EXIT.usage
    });
  const redact = createRedactor(envSecrets(env));
  const {report, manifest} = await readAndAnalyze(fsBundle(dir), {keepRows: o.format === "csv"});
  const files: [string, string][] = [];
  if (o.format === "csv")
    files.push(["requests.csv", requestsCsv(report, redact)], ["metrics.csv", metricsCsv(report, redact)]);
  else {
    const docs = llmdReports(report, {version: pkg.version, manifest}).map((d) => ({
      ...d,
      doc: redact.value(d.doc)
    }));
    if (!o.out) {
      io.out(JSON.stringify(docs.length === 1 ? docs[0]!.doc : docs.map((d) => d.doc), null, 2));
      return [];
    }
    for (const d of docs)
      files.push([
        `benchmark_report_v0.2.1_${safeName(report.bundle)}_${safeName(d.point)}.json`,
        JSON.stringify(d.doc, null, 2) + "\n"
      ]);
  }
  try {
    mkdirpSync(o.out!);
    for (const [name, text] of files) writeFileAtomic(join(o.out!, name), text);
  } catch (e) {
    throw new CliError(`could not write the export under ${o.out}: ${(e as Error).message}`, {
      exitCode: EXIT.writeFailed,
      cause: e
    });
  }
  const paths = files.map(([name]) => join(o.out!, name));
  for (const p of paths) io.out(p);
  return paths;
}

export function register(program: Command): void {
  program
    .command("export")
    .description("write a bundle's results for other tools: an llm-d Benchmark Report per load point, or CSV")
    .argument("<bundle>", "bundle folder")
    .requiredOption("--format <format>", `${EXPORT_FORMATS.join(" or ")}`)
    .option("--out <dir>", "folder to write into (csv: required; llmd-report: else printed as JSON)")
    .action(async (dir: string, o: ExportOptions) => {
      await exportCommand(dir, o, defaultIo());
    });
}
