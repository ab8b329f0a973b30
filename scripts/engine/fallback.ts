/**
 * The no-compile fallback engine (issue 18): node-llama-cpp's prebuilt addon, installed from the npm registry
 * into the engine cache (never into the project), behind scripts/engine/fallbackServer.ts. For a machine
 * that cannot build `llama-server`; every run on it says which engine it was.
 */
import {existsSync, mkdirSync, writeFileSync} from "node:fs";
import {arch} from "node:os";
import {join} from "node:path";
import {fileURLToPath} from "node:url";

import {exec} from "./exec.ts";
import {cacheRoot, NODE_LLAMA_CPP_VERSION} from "./paths.ts";
import {freePort, launch, type LlamaServerHandle} from "./supervisor.ts";

const SERVER = fileURLToPath(new URL("./fallbackServer.ts", import.meta.url));

export const FALLBACK_ENGINE = `node-llama-cpp ${NODE_LLAMA_CPP_VERSION} prebuilt addon (fallback, not llama-server)`;

/** Where the addon is installed: the engine cache, keyed by the pinned version and the CPU architecture. */
export function fallbackDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}-${arch()}`);
}

/** Installs node-llama-cpp and its prebuilt binaries for this platform into the cache (≈ 10 s, 85 MB), once. */
export async function ensureFallbackAddon(
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env
): Promise<string> {
  const dir = fallbackDir(env);
  const entry = join(dir, "node_modules", "node-llama-cpp", "dist", "index.js");
  if (existsSync(entry)) return dir;
  mkdirSync(dir, {recursive: true});
  writeFileSync(join(dir, "package.json"), JSON.stringify({name: "inferscope-fallback-engine", private: true}));
  const platform = `@node-llama-cpp/linux-${arch() === "arm64" ? "arm64" : "x64"}@${NODE_LLAMA_CPP_VERSION}`;
  log(`installing node-llama-cpp@${NODE_LLAMA_CPP_VERSION} and ${platform} into ${dir} (the prebuilt engine)`);
  const r = await exec(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--omit=optional",
      "-E",
      `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`,
      platform
    ],
    {cwd: dir, env}
  );
  if (r.code !== 0 || !existsSync(entry))
    throw new Error(
      `cannot install the prebuilt engine (npm exit ${r.code}): ${(r.stderr || r.stdout).trim().slice(-500)}`
    );
  return dir;
}

/** Starts the fallback server on 127.0.0.1 and waits for /health, like startLlamaServer. */
export async function startFallbackServer(o: {
  addon: string;
  model: string;
  parallel?: number;
  threads?: number;
  ctxPerSlot?: number;
  alias: string;
  niceness?: number;
  readyTimeoutMs?: number;
}): Promise<LlamaServerHandle> {
  const port = await freePort();
  const args = [
    SERVER,
    ...["--addon", o.addon, "--model", o.model, "--port", String(port)],
    ...["--parallel", String(o.parallel ?? 1), "--threads", String(o.threads ?? 1)],
    ...["--ctx-per-slot", String(o.ctxPerSlot ?? 1024), "--alias", o.alias]
  ];
  return launch(
    {
      binary: process.execPath,
      readyTimeoutMs: o.readyTimeoutMs ?? 120_000,
      ...(o.niceness === undefined ? {} : {niceness: o.niceness})
    },
    port,
    args
  );
}
