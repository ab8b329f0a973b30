import {credentialValues} from "../src/analysis/redact/args.ts";
import {sha256Hex} from "../src/io/hash.ts";

/**
 * The collector's one value redactor: every string it writes passes through a Redactor built here. The
 * rules for credentials inside command lines (launch arguments) are src/analysis/redact/args.ts, shared
 * with the site; this file takes their values (credentialValues) so they are scrubbed everywhere else too.
 *
 * Two name rules on purpose: SECRET_NAME matches a credential word anywhere in a name (env variables,
 * headers, JSON keys of server answers: a false positive only hides a value), while args.ts matches whole
 * words (launch arguments are tuning evidence: `--max-num-batched-tokens` must stay readable).
 */

/** Names that mark a value as secret, wherever they appear (env vars, headers, JSON keys, query params). */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SIGNATURE/i;
/** Exact-value scrubbing only for values at least this long: short values over-match. */
export const MIN_SECRET_LENGTH = 8;

/** A name whose value is secret. `*_env` keys hold the *name* of a variable (e.g. api_key_env) and are kept. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name) && !/_env$/i.test(name);

export const redactionMark = (secret: string): string => `[REDACTED:${sha256Hex(secret).slice(0, 8)}]`;

export interface Redactor {
  /** Replaces every known secret value inside a string. */
  (text: string): string;
  /** Deep copy with secret-named keys replaced and every string scrubbed. */
  value<T>(v: T): T;
  /** A URL with userinfo and every query value redacted. */
  url(u: string): string;
  /** The number of distinct secret values known. */
  readonly size: number;
}

/** Variants under which a secret can appear in captured text: raw, URL-encoded, JSON-escaped. */
function variants(secret: string): string[] {
  const out = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  try {
    out.add(new URLSearchParams({x: secret}).toString().slice(2));
  } catch {
    // ignore
  }
  return [...out].filter((v) => v.length >= MIN_SECRET_LENGTH);
}

/**
 * Builds a redactor from known secret values (API key, header values, URL userinfo and query values,
 * secret-named environment values). Values shorter than MIN_SECRET_LENGTH are ignored for scrubbing.
 */
export function createRedactor(secrets: Iterable<string | undefined | null>): Redactor {
  const map = new Map<string, string>();
  for (const s of secrets) {
    if (typeof s !== "string" || s.length < MIN_SECRET_LENGTH) continue;
    const mark = redactionMark(s);
    for (const v of variants(s)) if (!map.has(v)) map.set(v, mark);
  }
  const keys = [...map.keys()].sort((a, b) => b.length - a.length);
  const scrub = (text: string): string => {
    if (keys.length === 0 || text.length < MIN_SECRET_LENGTH) return text;
    let out = text;
    for (const k of keys) if (out.includes(k)) out = out.split(k).join(map.get(k)!);
    return out;
  };
  const url = (u: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      return scrub(u);
    }
    if (parsed.username) parsed.username = "REDACTED";
    if (parsed.password) parsed.password = "REDACTED";
    for (const [k, v] of [...parsed.searchParams]) parsed.searchParams.set(k, redactionMark(v));
    return scrub(parsed.toString());
  };
  const value = <T>(v: T): T => deep(v, scrub) as T;
  const r = Object.assign(scrub, {value, url, size: new Set(map.values()).size});
  return r as Redactor;
}

function deep(v: unknown, scrub: (s: string) => string): unknown {
  if (typeof v === "string") return scrub(v);
  if (Array.isArray(v)) return v.map((x) => deep(x, scrub));
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] =
        isSecretName(k) && typeof x === "string" && x.length > 0 && !x.startsWith("[REDACTED:")
          ? redactionMark(x)
          : deep(x, scrub);
    }
    return out;
  }
  return v;
}

/**
 * Secret values carried by a header value: the whole value, and the credential after an authentication scheme
 * ("Bearer sk-…", "Token …", "Basic dXNlcjpwYXNz"): a server that echoes the key quotes it without the scheme
 * (OpenAI's "Incorrect API key provided: sk-…"). A Basic credential also yields its decoded "user:password" and
 * password.
 */
export function headerSecrets(value: string): string[] {
  const out = [value];
  const m = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s+(\S.*?)\s*$/.exec(value);
  if (m === null) return out;
  const [, scheme, credential] = m as unknown as [string, string, string];
  out.push(credential);
  if (scheme.toLowerCase() === "basic" && /^[A-Za-z0-9+/]+=*$/.test(credential)) {
    const decoded = Buffer.from(credential, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) out.push(decoded, decoded.slice(colon + 1));
  }
  return out;
}

/** Secret values carried by a URL: userinfo and every query value. */
export function urlSecrets(u: string | undefined): string[] {
  if (!u) return [];
  try {
    const p = new URL(u);
    const out = [decodeURIComponent(p.username), decodeURIComponent(p.password), p.username, p.password];
    for (const [, v] of p.searchParams) out.push(v);
    return out.filter(Boolean);
  } catch {
    return [];
  }
}

/** Values of secret-named environment variables (never captured; used only to scrub). */
export function envSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([k, v]) => v !== undefined && SECRET_NAME.test(k))
    .map(([, v]) => v!);
}

/**
 * The redactor of one run: every secret it knows of — the API key, the configured header values, URL
 * userinfo and query values, secret-named environment values, and credentials in the launch arguments.
 */
export function runRedactor(
  target: {headers: Record<string, string>; base_url: string; metrics_url?: string; launch_args?: string[]},
  env: Readonly<Record<string, string | undefined>>,
  apiKey: string | null
): Redactor {
  return createRedactor([
    apiKey,
    ...Object.values(target.headers).flatMap(headerSecrets),
    ...urlSecrets(target.base_url),
    ...urlSecrets(target.metrics_url),
    ...envSecrets(env),
    ...credentialValues(target.launch_args ?? [])
  ]);
}
