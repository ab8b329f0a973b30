import {ARG_REDACTION, isCredentialName, nameWords, redactCommandLine} from "./args.ts";

/**
 * Credentials inside values read from someone else's files (a peer tool's result, its recorded command line,
 * its config): the same rules as args.ts, applied to every string of a JSON-like value. Nothing here knows the
 * secret; it is found by where it stands: the value of a credential-named key (`api_key`, `token`,
 * `Authorization`, `x-api-key`…), a credential flag in a command line (`--api-key "sk-…"`), a `"key": "…"`
 * pair inside a string, and a URL's userinfo, query values and fragment. Counts such as `max_tokens` or
 * `output_token_throughput` are numbers and stay. Pure.
 */

/**
 * Last words of a key that describe a credential instead of holding it: `api_key_env` names the variable,
 * `token_count_source` says where counts came from, `key_file` is a path. Their values stay.
 */
const DESCRIBES = new Set(["env", "source", "count", "type", "len", "length", "file", "path", "url", "id", "name"]);

/** Whether a key of a JSON object holds a credential (`api_key`, `hfToken`, `Authorization`, `x-api-key`). */
export function isCredentialKey(key: string): boolean {
  return isCredentialName(key) && !DESCRIBES.has(nameWords(key).at(-1) ?? "");
}

/** A URL inside free text: a scheme, `://`, and everything up to whitespace, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * A URL with its userinfo, every query value and its fragment replaced by the redaction mark (query names are
 * kept: they say which parameters were sent). `http://u:p@h/v1?key=K&x` → `http://[REDACTED]@h/v1?key=[REDACTED]&[REDACTED]`.
 * A URL written without its scheme (`host:8000/v1?key=K`) is read the same way.
 */
export function redactUrl(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/is.exec(url);
  if (!m) return url;
  const [scheme, authority, path] = [m[1] ?? "", m[2]!, m[3]!];
  const query: string | undefined = m[4];
  const fragment: string | undefined = m[5];
  const at = authority.lastIndexOf("@");
  const host = at < 0 ? authority : `${ARG_REDACTION}@${authority.slice(at + 1)}`;
  const q =
    query === undefined || query === "?"
      ? (query ?? "")
      : `?${query
          .slice(1)
          .split("&")
          .map((p) => {
            if (p === "") return p;
            const eq = p.indexOf("=");
            return eq < 0 ? ARG_REDACTION : `${p.slice(0, eq)}=${ARG_REDACTION}`;
          })
          .join("&")}`;
  const f = fragment === undefined || fragment === "#" ? (fragment ?? "") : `#${ARG_REDACTION}`;
  return `${scheme}${host}${path}${q}${f}`;
}

/** `"api_key": "…"` or `'token': '…'` inside a string (a JSON or Python dict written as text). */
const QUOTED_PAIR = /(["'])([A-Za-z0-9_.-]+)\1(\s*[:=]\s*)(["'])((?:\\.|(?!\4).)*)\4/g;

/**
 * A string with every credential it carries replaced: URLs (userinfo, query, fragment), credential pairs
 * written as quoted key/value text, and credential flags, assignments and Authorization headers as in a
 * command line (`redactCommandLine`). A string without any of them is returned unchanged.
 */
export function redactText(text: string): string {
  let out = text.includes("://") ? text.replace(URL_IN_TEXT, redactUrl) : text;
  out = out.replace(QUOTED_PAIR, (all, q: string, name: string, sep: string, vq: string, value: string) =>
    isCredentialKey(name) && value !== "" && value !== ARG_REDACTION
      ? `${q}${name}${q}${sep}${vq}${ARG_REDACTION}${vq}`
      : all
  );
  return redactCommandLine(out);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a value under a credential-named key is the credential itself: text that is not empty nor already marked. */
const secretText = (v: unknown): v is string => typeof v === "string" && v !== "" && v !== ARG_REDACTION;

/**
 * The value under a credential-named key: its text (or each text of a list, other entries redacted as usual)
 * replaced by the mark; an object under such a key (`auth: {type, token}`) is read key by key like any other.
 */
function redactCredential(v: unknown): unknown {
  if (secretText(v)) return ARG_REDACTION;
  return Array.isArray(v) ? mapArray(v, (x) => (secretText(x) ? ARG_REDACTION : redactAny(x))) : redactAny(v);
}

/** Each entry mapped; the same array where no entry changed. */
function mapArray(v: readonly unknown[], f: (x: unknown) => unknown): readonly unknown[] {
  let changed = false;
  const out = v.map((x) => {
    const r = f(x);
    if (r !== x) changed = true;
    return r;
  });
  return changed ? out : v;
}

/**
 * A JSON-like value (objects, arrays, strings, numbers, bigints, booleans, null) with every credential
 * replaced by ARG_REDACTION: the text (or list of texts) under a credential-named key, and inside every other
 * string what `redactText` finds. Numbers stay whatever their key (`output_token_throughput`, `max_tokens`).
 * Returns the same object where nothing changed (no copy of large verbatim aggregates).
 */
export function redactValue<T>(value: T): T {
  return redactAny(value) as T;
}

function redactAny(v: unknown): unknown {
  if (typeof v === "string") return redactText(v);
  if (Array.isArray(v)) return mapArray(v, redactAny);
  if (isPlainObject(v)) {
    let changed = false;
    const entries = Object.entries(v).map(([k, x]): [string, unknown] => {
      const r = isCredentialKey(k) ? redactCredential(x) : redactAny(x);
      if (r !== x) changed = true;
      return [k, r];
    });
    // fromEntries defines own properties: a "__proto__" key of the source stays a key, never a prototype
    return changed ? Object.fromEntries(entries) : v;
  }
  return v;
}
