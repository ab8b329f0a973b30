import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {sha256Hex} from "../../src/io/hash.ts";
import {checkSeal} from "../../src/loaders/experiments.ts";

/** An experiment's seal as the site build judges it: a broken seal is shown as broken, never a crash. */
describe("an experiment folder's seal", () => {
  const root = mkdtempSync(join(tmpdir(), "inferscope-seal-"));
  afterAll(() => rmSync(root, {recursive: true, force: true}));
  const folder = (name: string, seal: string) => {
    const dir = join(root, name);
    mkdirSync(join(dir, "logs"), {recursive: true});
    writeFileSync(join(dir, "experiment.json"), "{}");
    writeFileSync(join(dir, "logs", "a.log"), "log\n");
    writeFileSync(join(dir, "experiment.seal.json"), seal);
    return dir;
  };
  const entry = (path: string, text: string) => ({path, bytes: Buffer.byteLength(text), sha256: sha256Hex(text)});

  it("holds when every file it lists is there with its digest", () => {
    const dir = folder("good", JSON.stringify({files: [entry("experiment.json", "{}"), entry("logs/a.log", "log\n")]}));
    expect(checkSeal(dir)).toEqual({seal: "sealed", problems: []});
  });

  it("is broken, with the reason, when it is not JSON or lists a file outside its folder", () => {
    const torn = checkSeal(folder("torn", '{"files": ['));
    expect(torn.seal).toBe("broken");
    expect(torn.problems[0]).toMatch(/experiment\.seal\.json: not JSON/);
    writeFileSync(join(root, "outside.log"), "log\n");
    const climbing = folder(
      "climbing",
      JSON.stringify({files: [entry("experiment.json", "{}"), entry("../outside.log", "log\n")]})
    );
    const c = checkSeal(climbing);
    expect(c.seal).toBe("broken");
    expect(c.problems[0]).toMatch(/not a seal: files\.1\.path: expected a relative path inside the folder/);
  });
});
