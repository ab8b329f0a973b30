import {fileURLToPath} from "node:url";

import {sha256Hex} from "../../src/io/hash.ts";
import type {Effects} from "../effects.ts";

export interface CollectorInfo {
  name: string;
  version: string;
  lockfileSha256: string | null;
  gitCommit: string | null;
  node: string | null;
}

const ROOT = new URL("../../", import.meta.url);

async function readOr(fx: Pick<Effects, "files">, path: URL): Promise<Buffer | null> {
  try {
    return await fx.files.readFile(fileURLToPath(path));
  } catch {
    return null;
  }
}

/** Who collected: package version, lockfile digest, git commit (when run from a checkout), Node version. */
export async function collectorInfo(fx: Pick<Effects, "exec" | "files">): Promise<CollectorInfo> {
  const pkg = await readOr(fx, new URL("package.json", ROOT));
  // a checkout has package-lock.json; the installed package its copy, npm-shrinkwrap.json (scripts/buildPackage.ts)
  const lock =
    (await readOr(fx, new URL("package-lock.json", ROOT))) ?? (await readOr(fx, new URL("npm-shrinkwrap.json", ROOT)));
  let version = "0.0.0";
  try {
    version = String((JSON.parse(pkg?.toString("utf8") ?? "{}") as {version?: unknown}).version ?? version);
  } catch {
    // keep the default
  }
  let gitCommit: string | null = null;
  // only a checkout's own commit: an installed package under someone else's repository has none
  const checkout = await fx.files.exists(new URL(".git", ROOT).pathname);
  const git = checkout
    ? await fx.exec("git", ["-C", ROOT.pathname, "rev-parse", "HEAD"], {timeoutMs: 5000})
    : ({ok: false, notFound: false, error: "not a checkout"} as const);
  if (git.ok && git.code === 0 && /^[0-9a-f]{40}$/.test(git.stdout.trim())) {
    gitCommit = git.stdout.trim();
    const dirty = await fx.exec("git", ["-C", ROOT.pathname, "status", "--porcelain", "--untracked-files=no"], {
      timeoutMs: 5000
    });
    if (dirty.ok && dirty.code === 0 && dirty.stdout.trim() !== "") gitCommit += "-dirty";
  }
  return {
    name: "inferscope",
    version,
    lockfileSha256: lock ? sha256Hex(lock) : null,
    gitCommit,
    node: process.version
  };
}

export const isoOf = (wallMs: number): string => new Date(wallMs).toISOString();
