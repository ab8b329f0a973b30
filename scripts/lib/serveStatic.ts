import {createReadStream, existsSync, statSync} from "node:fs";
import {createServer, type Server} from "node:http";
import {extname, join, normalize, resolve} from "node:path";

const TYPES: Record<string, string> = {
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

/**
 * Serves a static folder on 127.0.0.1 (never another interface) under an optional base path,
 * resolving `/dir/` to `/dir/index.html`. For the demo and local previews only.
 */
export function serveStatic(
  root: string,
  opts: {port?: number; base?: string} = {}
): Promise<{server: Server; url: string}> {
  const dir = resolve(root);
  const base = `/${(opts.base ?? "/").replace(/^\/+|\/+$/g, "")}`.replace(/^\/$/, "");
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let path = decodeURIComponent(url.pathname);
    if (base && !path.startsWith(`${base}/`) && path !== base) {
      res.writeHead(404).end("not found");
      return;
    }
    path = path.slice(base.length) || "/";
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end("forbidden");
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404, {"content-type": "text/plain"}).end("not found");
      return;
    }
    res.writeHead(200, {"content-type": TYPES[extname(file)] ?? "application/octet-stream"});
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      ok({server, url: `http://127.0.0.1:${port}${base}/`});
    });
  });
}
