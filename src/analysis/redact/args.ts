/**
 * Credentials inside command lines and environment assignments (server launch arguments, logs, diffs):
 * a value is secret when the name it belongs to is a credential word — matched as a whole word of the
 * name, so `--api-key`, `--hf-token`, `HF_TOKEN=`, `OPENAI_API_KEY=`, `--password` and `Authorization:`
 * are secret while `--max-num-batched-tokens`, `--max-tokens`, `--keyfile-path` and `CUDA_VISIBLE_DEVICES`
 * are tuning evidence and stay. Pure: used by the collector before anything is written and by the site
 * before anything is shown.
 */

/** Whole words of a flag or variable name that mark its value as a credential. */
const CREDENTIAL_WORDS = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "credential",
  "credentials",
  "auth",
  "authorization",
  "bearer",
  "cookie",
  "signature",
  "session"
]);

/** What replaces a credential (the same mark for every value: a flag's presence is evidence, its value is not). */
export const ARG_REDACTION = "[REDACTED]";

/** Splits a flag or variable name into lowercase words: `--hf-token` → hf, token; `OPENAI_API_KEY` → openai, api, key. */
export function nameWords(name: string): string[] {
  return name
    .replace(/^-+/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a flag or variable name (with or without leading dashes) names a credential. */
export function isCredentialName(name: string): boolean {
  // `apikey` is a word of its own in the set; camelCase (`apiKey`) and separators (`api-key`) split into words
  return nameWords(name).some((x) => CREDENTIAL_WORDS.has(x));
}

const FLAG_EQ = /^(--?[A-Za-z0-9][A-Za-z0-9_.-]*)=(.*)$/s;
const ENV_EQ = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
const HEADER = /^(\s*(?:proxy-)?authorization\s*:\s*)(.*)$/is;
const HEADER_NAMED = /^(\s*([A-Za-z0-9-]+)\s*:\s*)(.+)$/s;

/** One argument or environment assignment with its credential value replaced (null when nothing is secret). */
function redactOne(arg: string): string | null {
  const h = HEADER.exec(arg);
  if (h) return h[2]!.trim() === "" ? null : `${h[1]}${ARG_REDACTION}`;
  const f = FLAG_EQ.exec(arg) ?? ENV_EQ.exec(arg);
  if (f && isCredentialName(f[1]!) && f[2] !== "") return `${f[1]}=${ARG_REDACTION}`;
  const n = HEADER_NAMED.exec(arg);
  if (n && !arg.startsWith("-") && isCredentialName(n[2]!)) return `${n[1]}${ARG_REDACTION}`;
  return null;
}

/**
 * Launch arguments with every credential value replaced: `--api-key SECRET` (the value after a credential
 * flag), `--hf-token=SECRET`, `HF_TOKEN=SECRET`, `Authorization: Bearer SECRET` (also as one argument of
 * `-H`/`--header`). Everything else is kept verbatim.
 */
export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const one = redactOne(a);
    if (one !== null) {
      out.push(one);
      continue;
    }
    out.push(a);
    // a credential flag followed by its value as the next argument
    if (/^--?[A-Za-z]/.test(a) && !a.includes("=") && isCredentialName(a)) {
      const next = args[i + 1];
      if (next !== undefined && !/^--?[A-Za-z]/.test(next)) {
        out.push(ARG_REDACTION);
        i++;
      }
    }
  }
  return out;
}

/**
 * A command line (or a log line) as one string with the same rules applied to its whitespace-separated
 * words, keeping the spacing: for server logs and rendered diffs of launch arguments.
 */
export function redactCommandLine(line: string): string {
  // "Authorization: Bearer X" / "Authorization: X": the scheme word goes with the credential
  let text = line.replace(
    /((?:proxy-)?authorization\s*:\s*)((?:bearer|basic|token|digest)\s+)?([^\s"']+)/gi,
    (_m, k: string) => `${k}${ARG_REDACTION}`
  );
  const parts = text.split(/(\s+)/);
  let redactNext = false;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p === "" || /^\s+$/.test(p)) continue;
    const bare = p.replace(/^["']|["']$/g, "");
    if (redactNext) {
      redactNext = false;
      if (!/^--?[A-Za-z]/.test(bare)) {
        parts[i] = ARG_REDACTION;
        continue;
      }
    }
    const one = redactOne(bare);
    if (one !== null && one.includes(ARG_REDACTION)) parts[i] = one;
    else if (/^--?[A-Za-z]/.test(bare) && !bare.includes("=") && isCredentialName(bare)) redactNext = true;
  }
  text = parts.join("");
  return text;
}

/**
 * The credential values `redactArgs` removes from `args`, so the exact-value redactor can also scrub them
 * wherever else they appear (a server that echoes its own launch line, an error message).
 */
export function credentialValues(args: readonly string[]): string[] {
  const out: string[] = [];
  const redacted = redactArgs(args);
  // align by walking both lists: a redacted pair keeps its flag, so indexes stay equal
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const r = redacted[i];
    if (r === undefined || r === a) continue;
    if (r === ARG_REDACTION) out.push(a);
    else {
      const eq = a.indexOf("=");
      const colon = a.indexOf(":");
      const cut = r.endsWith(`=${ARG_REDACTION}`) ? eq : colon;
      if (cut >= 0) {
        const value = a.slice(cut + 1).trim();
        out.push(value);
        const scheme = /^(bearer|basic|token|digest)\s+(.+)$/i.exec(value);
        if (scheme) out.push(scheme[2]!);
      }
    }
  }
  return out.filter((v) => v.length > 0);
}
