import {statSync} from "node:fs";

import type {Command} from "commander";

import {analyzeBundle, jsonView, type Report} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {CliError, EXIT} from "../cliError.ts";
import {defaultIo, type Io} from "./io.ts";
import {summaryLines} from "./summaryView.ts";

/** Analyses a bundle folder (a usage error when it is not one). */
export async function analyzeDir(dir: string): Promise<Report> {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new CliError(`not a bundle folder: ${dir}`, {exitCode: EXIT.usage});
  return analyzeBundle(fsBundle(dir));
}

export async function analyzeCommand(dir: string, o: {json?: boolean}, io: Io): Promise<void> {
  const report = await analyzeDir(dir);
  if (o.json) io.out(JSON.stringify(jsonView(report), null, 2));
  else for (const line of summaryLines(report)) io.out(line);
}

export function register(program: Command): void {
  program
    .command("analyze")
    .description("recompute every metric and gate of a bundle from its raw files")
    .argument("<bundle>", "bundle folder")
    .option("--json", "print the stable JSON view instead of the summary")
    .action(async (dir: string, o: {json?: boolean}) => analyzeCommand(dir, o, defaultIo()));
}
