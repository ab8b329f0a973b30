import http from "node:http";
import https from "node:https";

export interface HttpTextRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Whole-exchange deadline in ms (connect, headers and body). */
  timeoutMs: number;
  /** Stop reading after this many bytes (the rest is dropped, `truncated` set). */
  maxBytes?: number;
}

export interface HttpTextResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  truncated: boolean;
}

/** A network failure with a short class: refused, reset, timeout, dns or other. */
export class HttpTextError extends Error {
  readonly kind: "refused" | "reset" | "timeout" | "dns" | "other";
  constructor(message: string, kind: HttpTextError["kind"]) {
    super(message);
    this.name = "HttpTextError";
    this.kind = kind;
  }
}

function kindOf(code: string | undefined): HttpTextError["kind"] {
  if (code === "ECONNREFUSED") return "refused";
  if (code === "ECONNRESET" || code === "EPIPE") return "reset";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns";
  return "other";
}

/**
 * A small non-streaming HTTP exchange for probes and telemetry (models, version, /metrics, /tokenize).
 * Never used for measured requests: those go through collector/http/stream.ts.
 */
export function httpText(req: HttpTextRequest): Promise<HttpTextResponse> {
  const url = new URL(req.url);
  const mod = url.protocol === "https:" ? https : http;
  const maxBytes = req.maxBytes ?? 8 << 20;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const headers: Record<string, string> = {...req.headers};
    if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
    const r = mod.request(url, {method: req.method ?? "GET", headers, agent: false}, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let truncated = false;
      res.on("data", (b: Buffer) => {
        if (bytes >= maxBytes) {
          truncated = true;
          return;
        }
        chunks.push(b);
        bytes += b.length;
      });
      res.on("end", () =>
        done(() =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            truncated
          })
        )
      );
      res.on("error", (e: NodeJS.ErrnoException) => done(() => reject(new HttpTextError(e.message, kindOf(e.code)))));
    });
    const timer = setTimeout(() => {
      done(() => reject(new HttpTextError(`no complete answer within ${req.timeoutMs} ms`, "timeout")));
      r.destroy();
    }, req.timeoutMs);
    r.on("error", (e: NodeJS.ErrnoException) => done(() => reject(new HttpTextError(e.message, kindOf(e.code)))));
    r.end(req.body);
  });
}
