import {statSync} from "node:fs";

import type {Command} from "commander";

import {analyzeBundle, HardwareDataError, jsonView, type HardwareData, type Report} from "../../src/analysis/index.ts";
import {fsBundle} from "../../src/io/fsBundle.ts";
import {readHardwareData} from "../../src/io/hardware.ts";
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
  return analyzeBundle(fsBundle(dir), {hardware: hardwareData()});
}

/** The shipped hardware data with INFERSCOPE_PRICES on top; a file that does not validate is a usage error at its line. */
export function hardwareData(pricesFile: string | null = process.env.INFERSCOPE_PRICES ?? null): HardwareData {
  try {
    return readHardwareData(undefined, pricesFile);
  } catch (e) {
    if (e instanceof HardwareDataError) throw new CliError(e.message, {exitCode: EXIT.usage, cause: e});
    if ((e as NodeJS.ErrnoException).code === "ENOENT")
      throw new CliError(`cannot read ${(e as NodeJS.ErrnoException).path ?? pricesFile}`, {
        exitCode: EXIT.usage,
        cause: e
      });
    throw e;
  }
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
