import {join} from "node:path";

import {FILE_NAMES, type Manifest} from "../../src/analysis/schema/index.ts";
import {entryPhrase, type Effects} from "../effects.ts";
import {lockOwner, releaseLock} from "./lock.ts";
import {anchorsFromNotes, DRAFT_FILE, finishBundle} from "./finish.ts";
import {BUNDLE_JSONL, OPTIONAL_JSONL} from "../writer/bundleWriter.ts";

export class RecoverError extends Error {
  override readonly name = "RecoverError";
}

/** Sealing failed writing (disk full, I/O): the CLI exits 5, as for any evidence that cannot be written. */
export class SealWriteError extends Error {
  override readonly name = "SealWriteError";
}

/**
 * Seals a bundle whose collector died (no manifest.json): cuts each torn tail back to the last newline
 * (noted as "tail_truncated"), notes the resume, restores the clock anchors from the notes and seals the
 * bundle as `partial`. The run itself is not continued: what was planned but not captured stays missing.
 */
export async function sealCrashedBundle(
  fx: Pick<Effects, "files" | "clock" | "hostname" | "processAlive">,
  dir: string,
  o: {force?: boolean} = {}
): Promise<Manifest> {
  if (await fx.files.exists(join(dir, FILE_NAMES.manifest)))
    throw new RecoverError(`${dir} is already sealed (manifest.json exists): a sealed bundle is never changed`);
  const lock = await lockOwner(fx, dir);
  if (lock !== null && lock.alive === true)
    throw new RecoverError(
      `${dir} is being written by a running collector (pid ${lock.owner.pid} on ${lock.owner.host}, since ${lock.owner.startedAt}): sealing it now would corrupt its evidence; wait for it to finish, or stop it (Ctrl-C seals it as interrupted)`
    );
  if (lock !== null && lock.alive === null && !o.force)
    throw new RecoverError(
      `${dir} is locked by pid ${lock.owner.pid} on ${lock.owner.host} (since ${lock.owner.startedAt}), which cannot be checked from this host: if that collector is gone, seal with --force`
    );
  const draftPath = join(dir, DRAFT_FILE);
  if (!(await fx.files.exists(draftPath)))
    throw new RecoverError(`${dir} has no ${DRAFT_FILE}: not an unsealed inferscope bundle (nothing to seal)`);
  let draft: Omit<Manifest, "files">;
  try {
    draft = JSON.parse((await fx.files.readFile(draftPath)).toString("utf8")) as Omit<Manifest, "files">;
  } catch (e) {
    throw new RecoverError(`${draftPath} is not valid JSON: ${(e as Error).message}`);
  }
  const files = [FILE_NAMES.config, ...[...BUNDLE_JSONL, ...OPTIONAL_JSONL].map((r) => FILE_NAMES[r])];
  // a bundle holds regular files only: never cut, append to or digest a file through a link or a folder
  for (const name of [DRAFT_FILE, ...files]) {
    const kind = await fx.files.entryKind(join(dir, name));
    if (kind !== null && kind !== "file")
      throw new RecoverError(
        `${join(dir, name)} is ${entryPhrase(kind)}, not a regular file: a bundle holds regular files only; refusing to seal (nothing was changed)`
      );
  }
  const origin = BigInt(draft.monotonicOriginNs);
  const clientPath = join(dir, FILE_NAMES.client_metrics);
  const anchors = (await fx.files.exists(clientPath))
    ? anchorsFromNotes((await fx.files.readFile(clientPath)).toString("utf8"))
    : [];
  const sealedAt = new Date(fx.clock.wallMs()).toISOString();
  const result = await finishBundle({
    fx,
    dir,
    draft: {
      ...draft,
      status: "partial",
      statusReason: `the collector stopped without sealing (crash or kill); sealed as partial by \`inferscope seal\` at ${sealedAt}`,
      finishedAt: null,
      clockAnchors: [...draft.clockAnchors, ...anchors.filter((a) => a.tNs > 0)]
    },
    files,
    repairTails: true,
    origin,
    notes: [{event: "resume", detail: {action: "sealed_partial", sealedAt}}]
  });
  if (!result.manifest) throw new SealWriteError(result.error ?? "sealing failed");
  await releaseLock(fx, dir);
  return result.manifest;
}
