import {cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import type {Io} from "../../../collector/commands/io.ts";
import {verifyCommand} from "../../../collector/commands/verify.ts";
import {fixtureDir} from "../../support/fixtures.ts";
import {memoryLogger} from "../helpers.ts";

const root = mkdtempSync(join(tmpdir(), "inferscope-verify-"));
afterAll(() => rmSync(root, {recursive: true, force: true}));

/** A copy of the clean fixture bundle, changed by `edit`; verify's printed lines (its exit is the CLI's). */
async function verifyEdited(name: string, edit: (dir: string) => void): Promise<string[]> {
  const dir = join(root, name);
  cpSync(fixtureDir("clean"), dir, {recursive: true});
  edit(dir);
  const lines: string[] = [];
  const io: Io = {out: (l) => void lines.push(l), err: memoryLogger()};
  await verifyCommand(dir, io).catch(() => undefined);
  return lines;
}

/** The hostile-bundle audit: verify's per-file table contradicted G1 in two cases. */
describe("verify's per-file table says what G1 says", () => {
  it("a listed file replaced by a symbolic link is 'not a regular file', not MISSING", async () => {
    const lines = await verifyEdited("symlink", (d) => {
      unlinkSync(join(d, "requests.jsonl"));
      symlinkSync("/etc/passwd", join(d, "requests.jsonl"));
    });
    expect(lines).toContain("FAIL     requests.jsonl  not a regular file, not read (a symbolic link)");
    expect(lines.join("\n")).not.toMatch(/root:/); // nothing of the link's target is read
  });

  it("with a manifest that cannot be read, its files are unchecked, not 'not in manifest'", async () => {
    const lines = await verifyEdited("bad-manifest", (d) => {
      const path = join(d, "manifest.json");
      const m = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
      writeFileSync(path, JSON.stringify({...m, schemaVersion: 99}, null, 2));
    });
    expect(lines).toContain("FAIL     requests.jsonl  not checked (the manifest could not be read)");
    expect(lines.some((l) => l.includes("not in manifest"))).toBe(false);
  });
});
