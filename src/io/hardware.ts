/**
 * Reads the shipped hardware data (configs/hardware: GPU catalogue, engine matrix, price table) and a build's
 * own price file, for the site's loaders and the CLI. A file that does not validate throws HardwareDataError
 * naming file:line:column for every problem.
 */
import {readFileSync} from "node:fs";
import {join, relative} from "node:path";
import {fileURLToPath} from "node:url";

import {parseCatalogue, parseEngines, parsePriceOverrides, parsePrices, type HardwareData} from "../analysis/index.ts";

/** The shipped data beside this source file (the CLI; the site's build passes its folder explicitly, bundled code moves). */
export const HARDWARE_DIR = fileURLToPath(new URL("../../configs/hardware/", import.meta.url));

const shown = (path: string): string => relative(process.cwd(), path) || path;

/** The hardware data from `dir` (default: the shipped configs/hardware), with the prices of `pricesFile` on top. */
export function readHardwareData(dir: string = HARDWARE_DIR, pricesFile: string | null = null): HardwareData {
  const read = <T>(name: string, parse: (text: string, file: string) => T): T => {
    const path = join(dir, name);
    return parse(readFileSync(path, "utf8"), shown(path));
  };
  const catalogue = read("gpus.yaml", parseCatalogue);
  return {
    catalogue,
    engines: read("engines.yaml", parseEngines),
    prices: read("prices.yaml", (text, file) => parsePrices(text, file, catalogue)),
    overrides:
      pricesFile === null ? [] : parsePriceOverrides(readFileSync(pricesFile, "utf8"), shown(pricesFile), catalogue)
  };
}
