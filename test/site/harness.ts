/**
 * Helpers for the site tests: a temporary evidence folder, an Astro build into a temp dir, a small static
 * server on 127.0.0.1, and Chromium through playwright-core with a fresh profile.
 */
import {spawn} from "node:child_process";
import {cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import type {Server} from "node:http";
import {tmpdir} from "node:os";
import {join, resolve, sep} from "node:path";

import {parse as parseYaml, stringify as toYaml} from "yaml";

import {resolvePath, serveStatic} from "../../scripts/lib/serveStatic.ts";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync"
];

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** Copies every bundle folder of evidence/ (and groups.yaml, and the experiment records) into `to`. */
export function copyRepoEvidence(to: string): string[] {
  const from = join(ROOT, "evidence");
  mkdirSync(to, {recursive: true});
  const ids: string[] = [];
  for (const d of readdirSync(from, {withFileTypes: true}))
    if (d.isDirectory() && existsSync(join(from, d.name, "manifest.json"))) {
      cpSync(join(from, d.name), join(to, d.name), {recursive: true});
      ids.push(d.name);
    }
  if (existsSync(join(from, "groups.yaml"))) cpSync(join(from, "groups.yaml"), join(to, "groups.yaml"));
  if (existsSync(join(from, "experiments")))
    cpSync(join(from, "experiments"), join(to, "experiments"), {recursive: true});
  return ids;
}

/** Appends groups to the evidence folder's groups.yaml. */
export function addGroups(evidence: string, groups: {id: string; title: string; bundles: string[]}[]): void {
  const path = join(evidence, "groups.yaml");
  const doc = (existsSync(path) ? parseYaml(readFileSync(path, "utf8")) : null) ?? {};
  const list = [...((doc as {groups?: unknown[]}).groups ?? []), ...groups];
  writeFileSync(path, toYaml({groups: list}));
}

/** process.env without what vitest injects (BASE_URL, MODE, DEV, PROD, SSR, VITEST*): Astro would read it. */
export function cleanEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {...process.env};
  for (const k of Object.keys(env))
    if (["BASE_URL", "MODE", "DEV", "PROD", "SSR", "NODE_ENV", "TEST"].includes(k) || k.startsWith("VITEST"))
      delete env[k];
  return env;
}

/** Runs `astro build` for `evidence` into `outDir`; resolves with the wall time in ms, rejects with the output. */
export function buildSite(
  evidence: string,
  outDir: string,
  opts: {base?: string; env?: Record<string, string>} = {}
): Promise<{ms: number; output: string}> {
  const started = performance.now();
  // vitest copies import.meta.env (BASE_URL, MODE, DEV, PROD, SSR) and VITEST* into process.env; Astro reads them.
  const env: Record<string, string | undefined> = {...process.env};
  for (const k of Object.keys(env))
    if (["BASE_URL", "MODE", "DEV", "PROD", "SSR", "NODE_ENV", "TEST"].includes(k) || k.startsWith("VITEST"))
      delete env[k];
  return new Promise((ok, fail) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "node_modules", "astro", "bin", "astro.mjs"), "build", "--outDir", outDir],
      {
        cwd: ROOT,
        env: {
          ...env,
          ASTRO_TELEMETRY_DISABLED: "1",
          TZ: "UTC",
          BASE_PATH: opts.base ?? "/inferscope/",
          INFERSCOPE_EVIDENCE: evidence,
          ...opts.env
        },
        stdio: ["ignore", "pipe", "pipe"]
      }
    );
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) =>
      code === 0
        ? ok({ms: performance.now() - started, output})
        : fail(new Error(`astro build exited ${code}:\n${output.slice(-4000)}`))
    );
  });
}

export {resolvePath};

/** Serves `dir` at `base` on 127.0.0.1 (an ephemeral port); everything else is 404. */
export async function serve(dir: string, base: string): Promise<{origin: string; server: Server}> {
  const {server, url} = await serveStatic(dir, {base});
  return {origin: new URL(url).origin, server};
}

/** Every .html file under `dir`, as URL paths under `base`. */
export function htmlPages(dir: string, base: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, {withFileTypes: true})) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name === "index.html") {
        const rel = full.slice(dir.length + 1).replace(/index\.html$/, "");
        out.push(`${base}${rel.split(sep).join("/")}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}
