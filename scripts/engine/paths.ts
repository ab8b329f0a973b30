import {homedir} from "node:os";
import {join} from "node:path";

/** Pinned source of llama.cpp: node-llama-cpp ships it as a git bundle. Changing it is a deliberate upgrade. */
export const NODE_LLAMA_CPP_VERSION = "3.21.1";
/** The llama.cpp commit inside node-llama-cpp@3.21.1's `llama/gitRelease.bundle`. */
export const LLAMA_CPP_COMMIT = "80fb11ac73e66d89eae2c6a91d8a77428fa733ed";

/** Root of everything the engine caches: `${XDG_CACHE_HOME:-~/.cache}/inferscope`, or INFERSCOPE_CACHE_DIR. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.INFERSCOPE_CACHE_DIR) return env.INFERSCOPE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "inferscope");
}

export function modelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), "models");
}

export function serverCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), "llama-server");
}

export function sourceDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), "src");
}
