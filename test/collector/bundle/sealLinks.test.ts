import {mkdirSync, readFileSync, symlinkSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {RecoverError, sealCrashedBundle} from "../../../collector/bundle/recover.ts";
import {DRAFT_FILE} from "../../../collector/bundle/finish.ts";
import {defaultEffects} from "../../../collector/effects.ts";
import {tempDir} from "../helpers.ts";

/** `seal` on an unsealed bundle one of whose files is a symbolic link (hostile-input audit). */
const t = tempDir("inferscope-seal-links-");
afterAll(() => t.cleanup());

describe("seal refuses a bundle file that is not a regular file", () => {
  it("a symbolic link to a file outside the bundle: exit-2 error naming it, and the outside file untouched", async () => {
    const dir = join(t.dir, "unsealed");
    mkdirSync(dir);
    writeFileSync(join(dir, DRAFT_FILE), JSON.stringify({monotonicOriginNs: "0", clockAnchors: []}));
    const victim = join(t.dir, "victim.txt");
    const text = 'line1\nline2\n{"seq":99,"torn';
    writeFileSync(victim, text);
    symlinkSync(victim, join(dir, "requests.jsonl"));
    const e = await sealCrashedBundle(defaultEffects(), dir).then(
      () => null,
      (err: unknown) => err
    );
    expect(e).toBeInstanceOf(RecoverError);
    expect((e as Error).message).toBe(
      `${join(dir, "requests.jsonl")} is a symbolic link, not a regular file: a bundle holds regular files only; refusing to seal (nothing was changed)`
    );
    expect(readFileSync(victim, "utf8")).toBe(text); // not cut to its last whole line
  });
});
