import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";
import {parse} from "yaml";

import {RunConfigSpec} from "../src/analysis/schema/index.ts";

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

describe("README", () => {
  it("gives the main command and the test command", () => {
    expect(readme).toContain("npm ci && npm run demo");
    expect(readme).toContain("npm ci && npm test");
  });

  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  it("carries complete example configs", () => expect(blocks.length).toBeGreaterThanOrEqual(2));
  for (const [i, text] of blocks.entries())
    it(`example config ${i + 1} is a valid run config`, () => {
      const parsed = RunConfigSpec.safeParse(parse(text));
      expect(parsed.error?.issues ?? []).toEqual([]);
    });
});
