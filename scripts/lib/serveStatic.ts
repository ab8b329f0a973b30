import {createReadStream, existsSync, statSync} from "node:fs";
import {createServer, type Server} from "node:http";
import {extname, join, normalize, resolve, sep} from "node:path";

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson",
  ".yaml": "text/yaml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8"
};

/** "/", "/repo/" for "repo", "/repo", "/repo/". */
export const normalizeBase = (base = "/"): string => `/${base.replace(/^\/+|\/+$/g, "")}/`.replace(/^\/\/$/, "/");

/** The file a URL path maps to under `dir` served at `base` (directories → index.html), or null. */
export function resolvePath(dir: string, base: string, urlPath: string): string | null {
  const path = decodeURIComponent(urlPath.split(/[?#]/)[0]!);
  if (!path.startsWith(base) && `${path}/` !== base) return null;
  const file = normalize(join(dir, path.slice(base.length)));
  if (!file.startsWith(dir + sep) && file !== dir) return null;
  if (existsSync(file) && statSync(file).isFile()) return file;
  const index = join(file, "index.html");
  return existsSync(index) ? index : null;
}

/**
 * Serves a static folder on 127.0.0.1 (never another interface) under an optional base path; everything
 * outside it is 404. For the demo, local previews and the browser tests.
 */
export function serveStatic(
  root: string,
  opts: {port?: number; base?: string} = {}
): Promise<{server: Server; url: string}> {
  const dir = resolve(root);
  const base = normalizeBase(opts.base);
  const server = createServer((req, res) => {
    const file = resolvePath(dir, base, req.url ?? "/");
    if (!file) {
      res.writeHead(404, {"content-type": "text/plain"}).end("not found");
      return;
    }
    res.writeHead(200, {"content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream"});
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      ok({server, url: `http://127.0.0.1:${port}${base}`});
    });
  });
}
