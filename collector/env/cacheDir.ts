import {join} from "node:path";

/**
 * Where the collector keeps what it may reuse (a dataset download, the host's bandwidth probe):
 * INFERSCOPE_CACHE_DIR, else `${XDG_CACHE_HOME:-$HOME/.cache}/inferscope` — the folder the reference
 * engine's build uses too (scripts/engine/paths.ts). Null when neither a cache folder nor HOME is set.
 */
export function cacheDir(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.INFERSCOPE_CACHE_DIR) return env.INFERSCOPE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, ".cache") : null);
  return base === null ? null : join(base, "inferscope");
}
