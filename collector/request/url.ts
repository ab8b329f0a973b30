import type {RunConfig} from "../../src/analysis/schema/config.ts";

export type Endpoint = RunConfig["target"]["endpoint"];

/**
 * `base` with `path` appended to its path; a query string (e.g. a token some gateways want in the URL)
 * stays at the end: http://h/v1?key=x + /models → http://h/v1/models?key=x.
 */
export function joinUrl(base: string, path: string): string {
  const q = base.indexOf("?");
  const head = (q === -1 ? base : base.slice(0, q)).replace(/\/+$/, "");
  return `${head}${path}${q === -1 ? "" : base.slice(q)}`;
}

/** The server root: base_url without a trailing /v1 (where /metrics, /tokenize, /version live); query kept. */
export function serverRoot(baseUrl: string): string {
  const q = baseUrl.indexOf("?");
  const head = (q === -1 ? baseUrl : baseUrl.slice(0, q)).replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${head}${q === -1 ? "" : baseUrl.slice(q)}`;
}

export function endpointUrl(baseUrl: string, endpoint: Endpoint): string {
  return joinUrl(
    baseUrl,
    endpoint === "chat" ? "/chat/completions" : endpoint === "completions" ? "/completions" : "/embeddings"
  );
}
