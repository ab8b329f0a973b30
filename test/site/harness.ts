/**
 * Helpers for the site tests: a temporary evidence folder, an Astro build into a temp dir, a small static
 * server on 127.0.0.1, and Chromium through playwright-core with a fresh profile.
 */
import {spawn} from "node:child_process";
import {cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync} from "node:fs";
import {createServer, type Server} from "node:http";
import {tmpdir} from "node:os";
import {extname, join, normalize, resolve, sep} from "node:path";

import {parse as parseYaml, stringify as toYaml} from "yaml";

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

/** Copies every bundle folder of evidence/ (and groups.yaml) into `to`. */
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

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".js": "text/javascript",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jsonl": "application/x-ndjson",
  ".yaml": "text/yaml"
};

/** The file a URL path maps to under `dir` (directories → index.html), or null. */
export function resolvePath(dir: string, base: string, urlPath: string): string | null {
  const path = decodeURIComponent(urlPath.split(/[?#]/)[0]!);
  if (!path.startsWith(base) && `${path}/` !== base) return null;
  const rel = path.slice(base.length);
  const file = normalize(join(dir, rel));
  if (!file.startsWith(dir + sep) && file !== dir) return null;
  if (existsSync(file) && statSync(file).isFile()) return file;
  const index = join(file, "index.html");
  return existsSync(index) ? index : null;
}

/** Serves `dir` at `base` on 127.0.0.1 (an ephemeral port); everything else is 404. */
export async function serve(dir: string, base: string): Promise<{origin: string; server: Server}> {
  const server = createServer((req, res) => {
    const file = resolvePath(dir, base, req.url ?? "/");
    if (!file) {
      res.writeHead(404, {"content-type": "text/plain"}).end("not found");
      return;
    }
    res.writeHead(200, {"content-type": TYPES[extname(file)] ?? "application/octet-stream"});
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const addr = server.address();
  if (!addr || typeof addr === "string") throw new Error("server has no port");
  return {origin: `http://127.0.0.1:${addr.port}`, server};
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
