import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {dirname, join} from "node:path";

import {expect} from "vitest";

const OUTPUT = join(import.meta.dirname, "..", "output");

/**
 * Compares `actual` with the committed golden file test/output/<name>.
 * - Missing golden: written locally (the test passes) but never under CI=true (the test fails).
 * - Mismatch: writes <name>-changed.<ext> next to it and fails; goldens are never overwritten.
 */
export function expectGolden(name: string, actual: string): void {
  const path = join(OUTPUT, name);
  const changed = path.replace(/(\.[a-z]+)$/, "-changed$1");
  if (!existsSync(path)) {
    if (process.env.CI === "true")
      throw new Error(`golden file missing: test/output/${name} (goldens are never created in CI)`);
    mkdirSync(dirname(path), {recursive: true});
    writeFileSync(path, actual);
    return;
  }
  const expected = readFileSync(path, "utf8");
  if (expected === actual) {
    rmSync(changed, {force: true});
    return;
  }
  writeFileSync(changed, actual);
  expect(actual, `output differs from test/output/${name}; see ${changed}`).toBe(expected);
}

/** Stable JSON: sorted object keys, 2-space indent, trailing newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, (_, v) => (v && typeof v === "object" && !Array.isArray(v) ? sortKeys(v) : v), 2)}\n`;
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]])
  );
}
