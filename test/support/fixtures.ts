import {readdirSync} from "node:fs";
import {join} from "node:path";

export const FIXTURE_ROOT = join(import.meta.dirname, "..", "fixtures", "bundles");

export function fixtureNames(): string[] {
  return readdirSync(FIXTURE_ROOT, {withFileTypes: true})
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export const fixtureDir = (name: string): string => join(FIXTURE_ROOT, name);
