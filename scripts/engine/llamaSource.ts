import {existsSync, mkdirSync, mkdtempSync, renameSync, rmSync} from "node:fs";
import {join} from "node:path";

import {writeFileAtomic} from "../../collector/effects.ts";
import {execBuffer, execOk} from "./exec.ts";
import {LLAMA_CPP_COMMIT, NODE_LLAMA_CPP_VERSION, sourceDir} from "./paths.ts";

/**
 * Returns the path of llama.cpp's git bundle from node-llama-cpp, fetching it with `npm pack` (npm registry only)
 * into the cache on first use. INFERSCOPE_LLAMA_BUNDLE may point at an existing bundle instead.
 */
export async function ensureLlamaBundle(log: (line: string) => void = () => {}): Promise<string> {
  const override = process.env.INFERSCOPE_LLAMA_BUNDLE;
  if (override) {
    if (!existsSync(override)) throw new Error(`INFERSCOPE_LLAMA_BUNDLE does not exist: ${override}`);
    return override;
  }
  const dir = join(sourceDir(), `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}`);
  const bundle = join(dir, "gitRelease.bundle");
  if (existsSync(bundle)) return bundle;
  mkdirSync(dir, {recursive: true});
  const tmp = mkdtempSync(join(dir, ".pack-"));
  try {
    log(`fetching node-llama-cpp@${NODE_LLAMA_CPP_VERSION} from the npm registry (npm pack, ~35 MB)`);
    await execOk("npm", ["pack", `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`, "--pack-destination", tmp, "--silent"]);
    const tgz = join(tmp, `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}.tgz`);
    await execOk("tar", ["xzf", tgz, "-C", tmp, "package/llama/gitRelease.bundle"]);
    const extracted = join(tmp, "package/llama/gitRelease.bundle");
    const heads = await execOk("git", ["bundle", "list-heads", extracted]);
    if (!heads.includes(LLAMA_CPP_COMMIT)) {
      throw new Error(
        `unexpected llama.cpp commit in node-llama-cpp@${NODE_LLAMA_CPP_VERSION} bundle: ${heads.trim()}`
      );
    }
    renameSync(extracted, bundle);
    return bundle;
  } finally {
    rmSync(tmp, {recursive: true, force: true});
  }
}

/** Clones the bundle (a local file; no network) into `dest` and checks out the pinned commit. */
export async function cloneLlamaCpp(dest: string, log: (line: string) => void = () => {}): Promise<void> {
  const bundle = await ensureLlamaBundle(log);
  await execOk("git", ["clone", "--quiet", "--no-checkout", bundle, dest]);
  await execOk("git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", LLAMA_CPP_COMMIT], {cwd: dest});
}

/**
 * Returns the path of a file from the llama.cpp tree at the pinned commit (e.g. `models/ggml-vocab-phi-3.gguf`),
 * extracted once with `git show` from a bare clone of the bundle and cached.
 */
export async function llamaCppFile(repoPath: string, log: (line: string) => void = () => {}): Promise<string> {
  const out = join(sourceDir(), `llama.cpp-${LLAMA_CPP_COMMIT.slice(0, 7)}-files`, repoPath);
  if (existsSync(out)) return out;
  const bare = join(sourceDir(), `llama.cpp-${LLAMA_CPP_COMMIT.slice(0, 7)}.git`);
  if (!existsSync(bare)) {
    const bundle = await ensureLlamaBundle(log);
    mkdirSync(sourceDir(), {recursive: true});
    const tmp = mkdtempSync(join(sourceDir(), ".bare-"));
    try {
      await execOk("git", ["clone", "--quiet", "--bare", bundle, join(tmp, "repo.git")]);
      if (!existsSync(bare)) renameSync(join(tmp, "repo.git"), bare);
    } finally {
      rmSync(tmp, {recursive: true, force: true});
    }
  }
  const bytes = await execBuffer("git", ["--git-dir", bare, "show", `${LLAMA_CPP_COMMIT}:${repoPath}`]);
  mkdirSync(join(out, ".."), {recursive: true});
  writeFileAtomic(out, [bytes]);
  return out;
}
