import {z} from "zod";

import {MAX_TOKENS} from "../../src/analysis/schema/workload.ts";
import type {ChatMessage} from "../request/body.ts";

/**
 * The prompt files of a dataset workload (issue 16), parsed without I/O: the caller reads the file and
 * passes its text. Every problem is reported as `file:line: what: expected …, got …`; all of a file's
 * problems (up to MAX_SHOWN) come back together in one Error, one per line of its message.
 */

export interface DatasetItem {
  /** 1-based line of the item in the file (jsonl: its line; sharegpt: the line where the item's object starts) */
  line: number;
  /** what is sent: a string (one user message on chat, the prompt on completions) or the chat messages */
  prompt: string | ChatMessage[];
  /** max_tokens the item asks for (jsonl `max_tokens`), else null */
  maxTokens: number | null;
  /** whitespace-separated words of the first reply (sharegpt: the first gpt/assistant turn after the prompt), else null — the "empirical" output length */
  answerWords: number | null;
  /** whitespace-separated words of the prompt (all message contents) */
  promptWords: number;
}

/** Problems listed in one error; the rest are counted. */
const MAX_SHOWN = 20;

/** Words of a text: runs of non-whitespace (Unicode White_Space); a CJK sentence without spaces is one word. */
export function countWords(s: string | null): number {
  if (!s) return 0;
  const re = /\S+/g;
  let n = 0;
  while (re.exec(s) !== null) n++;
  return n;
}

/** A value as an error message shows it: JSON, cut to 40 characters. */
export function shown(v: unknown): string {
  const s = v === undefined ? "undefined" : (JSON.stringify(v) ?? String(v));
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

type ErrorFn = (iss: {code: string; input?: unknown; keys?: string[]}) => string | undefined;

/** `"a", "b" or "c"` (quoted when `quote`). */
function oneOf(xs: readonly string[], quote: boolean): string {
  const q = xs.map((x) => (quote ? `"${x}"` : x));
  return q.length < 2 ? q.join("") : `${q.slice(0, -1).join(", ")} or ${q.at(-1)!}`;
}

/** A zod error that says what was expected and what came instead (or that the field is missing). */
export function expecting(what: string): {error: ErrorFn} {
  return {
    error: (iss) =>
      iss.input === undefined ? `missing (expected ${what})` : `expected ${what}, got ${shown(iss.input)}`
  };
}

/** A strict object's zod error: unknown keys named with the allowed ones; a non-object named as such. */
export function strictKeys(allowed: readonly string[]): {error: ErrorFn} {
  return {
    error: (iss) => {
      if (iss.code !== "unrecognized_keys") return `expected an object, got ${shown(iss.input)}`;
      const keys = (iss.keys ?? []).map((k) => `"${k}"`).join(", ");
      return `unknown key${iss.keys?.length === 1 ? "" : "s"} ${keys} (allowed: ${allowed.join(", ")})`;
    }
  };
}

/** A token count: a positive integer up to MAX_TOKENS. */
export function tokenCount(): z.ZodNumber {
  const e = expecting("a positive integer");
  return z
    .number(e)
    .int(e)
    .positive(e)
    .max(MAX_TOKENS, expecting(`a positive integer up to ${MAX_TOKENS}`));
}

/** `messages[1].role` from a zod path. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("");
}

/** One `file:line: path: message` entry per zod issue (duplicates dropped). */
export function issueLines(file: string, line: number, error: z.ZodError): string[] {
  const lines = error.issues.map(
    (i) => `${file}:${line}: ${i.path.length > 0 ? `${pathText(i.path)}: ` : ""}${i.message}`
  );
  return [...new Set(lines)]; // a value failing two checks of one field (-2.5: int and positive) is said once
}

/** Throws the problems found, if any, as one Error (the first MAX_SHOWN, then a count of the rest). */
export function throwIssues(issues: readonly string[]): void {
  if (issues.length === 0) return;
  const more = issues.length - MAX_SHOWN;
  throw new Error([...issues.slice(0, MAX_SHOWN), ...(more > 0 ? [`… and ${more} more problems`] : [])].join("\n"));
}

/** V8's JSON.parse message without its offset, and the 1-based line and column it names (if it does). */
function jsonFailure(e: unknown, text: string): {message: string; line: number | null; column: number | null} {
  const raw = e instanceof Error ? e.message : String(e);
  const m = /^(.*?) in JSON at position (\d+)(?: \(line (\d+) column (\d+)\))?/s.exec(raw);
  if (m === null) return {message: raw, line: null, column: null};
  if (m[3] !== undefined) return {message: m[1]!, line: Number(m[3]), column: Number(m[4])};
  const before = text.slice(0, Number(m[2]));
  const lineStart = before.lastIndexOf("\n") + 1;
  return {message: m[1]!, line: before.split("\n").length, column: before.length - lineStart + 1};
}

/** The values of a JSONL text with their 1-based lines; blank lines skipped, lines that are not JSON reported. */
export function jsonlValues(text: string, file: string, issues: string[]): {line: number; value: unknown}[] {
  const out: {line: number; value: unknown}[] = [];
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    try {
      out.push({line: i + 1, value: JSON.parse(raw)});
    } catch (e) {
      const f = jsonFailure(e, raw);
      issues.push(`${file}:${i + 1}: not JSON: ${f.message}${f.column === null ? "" : ` at column ${f.column}`}`);
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------- jsonl

const ROLES = ["system", "developer", "user", "assistant"] as const;

const JsonlMessage = z.strictObject(
  {
    role: z.enum(ROLES, expecting(oneOf(ROLES, true))),
    content: z.string(expecting("a string"))
  },
  strictKeys(["role", "content"])
);

const JSONL_KEYS = ["prompt", "messages", "max_tokens", "id"] as const;

/** One line of a jsonl dataset: exactly one of prompt and messages (checked after the schema). */
const JsonlItem = z.strictObject(
  {
    prompt: z.string(expecting("a non-empty string")).min(1, expecting("a non-empty string")).optional(),
    messages: z
      .array(JsonlMessage, expecting("an array of {role, content}"))
      .min(1, expecting("at least one message"))
      .optional(),
    max_tokens: tokenCount().optional(),
    id: z.union([z.string(), z.number()], expecting("a string or a number")).optional()
  },
  strictKeys(JSONL_KEYS)
);

function parseJsonl(text: string, file: string, issues: string[]): DatasetItem[] {
  const items: DatasetItem[] = [];
  for (const {line, value} of jsonlValues(text, file, issues)) {
    const r = JsonlItem.safeParse(value);
    if (!r.success) {
      for (const s of issueLines(file, line, r.error)) issues.push(s);
      continue;
    }
    const {prompt, messages, max_tokens} = r.data;
    if ((prompt === undefined) === (messages === undefined)) {
      const which = prompt === undefined ? "neither prompt nor messages" : "both prompt and messages";
      issues.push(`${file}:${line}: ${which}: give exactly one of the two`);
      continue;
    }
    const words =
      messages === undefined ? countWords(prompt!) : messages.reduce((n, m) => n + countWords(m.content), 0);
    items.push({
      line,
      prompt: prompt ?? messages!.map((m) => ({role: m.role, content: m.content})),
      maxTokens: max_tokens ?? null,
      answerWords: null,
      promptWords: words
    });
  }
  return items;
}

// ---------------------------------------------------------------------------------------------------- sharegpt

const HUMAN = ["human", "user"] as const;
const GPT = ["gpt", "assistant", "chatgpt", "bing", "bard"] as const;
const SPEAKERS = [...HUMAN, ...GPT, "system"] as const;

/** ShareGPT items carry more than conversations (id, model…): loose objects, only what is used is checked. */
const ShareGptTurn = z.looseObject(
  {
    from: z.enum(SPEAKERS, expecting(oneOf(SPEAKERS, false))),
    value: z.string(expecting("a string"))
  },
  expecting("an object {from, value}")
);
const ShareGptItem = z.looseObject(
  {conversations: z.array(ShareGptTurn, expecting("an array of {from, value}")).optional()},
  expecting("an object {conversations: […]}")
);
type ShareGptTurn = z.infer<typeof ShareGptTurn>;

/** The 1-based line where each element of a (valid) top-level JSON array starts. */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let awaiting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (depth === 1 && awaiting && c !== 93) {
      lines.push(line);
      awaiting = false;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) awaiting = ++depth === 1;
    else if (c === 125 || c === 93) depth--;
    else if (c === 44 && depth === 1) awaiting = true;
  }
  return lines;
}

/**
 * One ShareGPT conversation as a prompt, or null when it is skipped. As vLLM's ShareGPTDataset (vllm-project/vllm
 * vllm/benchmarks/datasets/sharegpt.py, `load_data`: "Filter entries with at least two conversation turns", then
 * `sample`: prompt = conversations[0], completion = conversations[1], output length = the completion's length),
 * except that the roles are read rather than assumed: a leading system turn becomes a system message, the prompt is
 * the first human turn after it, the answer the first gpt turn after the prompt (none: answerWords null). Skipped:
 * fewer than 2 turns, no human turn, an empty prompt.
 */
function shareGptItem(turns: readonly ShareGptTurn[], line: number): DatasetItem | null {
  if (turns.length < 2) return null;
  const system = turns[0]!.from === "system" && turns[0]!.value.trim() !== "" ? turns[0]!.value : null;
  const start = turns[0]!.from === "system" ? 1 : 0;
  const at = turns.findIndex((t, i) => i >= start && (HUMAN as readonly string[]).includes(t.from));
  if (at < 0) return null;
  const text = turns[at]!.value;
  if (countWords(text) === 0) return null;
  const answer = turns.slice(at + 1).find((t) => (GPT as readonly string[]).includes(t.from));
  return {
    line,
    prompt:
      system === null
        ? text
        : [
            {role: "system", content: system},
            {role: "user", content: text}
          ],
    maxTokens: null,
    answerWords: answer === undefined ? null : countWords(answer.value),
    promptWords: countWords(system) + countWords(text)
  };
}

function parseShareGpt(text: string, file: string, issues: string[]): {items: DatasetItem[]; skipped: number} {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const f = jsonFailure(e, text);
    const end = text.trimEnd().split("\n").length;
    const line = f.line ?? (/end of JSON input/.test(f.message) ? end : 1);
    issues.push(`${file}:${line}: not JSON: ${f.message}${f.column === null ? "" : ` at column ${f.column}`}`);
    return {items: [], skipped: 0};
  }
  if (!Array.isArray(data)) {
    issues.push(`${file}:1: expected a JSON array of {conversations: […]}, got ${shown(data)}`);
    return {items: [], skipped: 0};
  }
  const lines = arrayElementLines(text);
  const items: DatasetItem[] = [];
  let skipped = 0;
  data.forEach((value: unknown, k) => {
    const line = lines[k] ?? 1;
    const r = ShareGptItem.safeParse(value);
    if (!r.success) {
      for (const s of issueLines(file, line, r.error)) issues.push(s);
      return;
    }
    const item = shareGptItem(r.data.conversations ?? [], line);
    if (item === null) skipped++;
    else items.push(item);
  });
  return {items, skipped};
}

// ---------------------------------------------------------------------------------------------------- entry points

/**
 * The items of a dataset file and how many of its entries were skipped (sharegpt only: fewer than 2 turns, no
 * human turn, an empty prompt; jsonl skips nothing). Throws every problem at once (`file:line: …`); a file
 * without a usable item is an error too.
 */
export function parseDatasetItems(
  text: string,
  format: "sharegpt" | "jsonl",
  file: string
): {items: DatasetItem[]; skipped: number} {
  const issues: string[] = [];
  const out =
    format === "jsonl" ? {items: parseJsonl(text, file, issues), skipped: 0} : parseShareGpt(text, file, issues);
  throwIssues(issues);
  if (out.items.length === 0)
    throw new Error(
      out.skipped === 0
        ? `${file}:1: empty dataset: no items`
        : `${file}:1: empty dataset: every conversation skipped (${out.skipped}: fewer than 2 turns, no human turn or an empty prompt)`
    );
  return out;
}

/** The items of a dataset file (parseDatasetItems without the count of skipped entries). */
export function parseDataset(text: string, format: "sharegpt" | "jsonl", file: string): DatasetItem[] {
  return parseDatasetItems(text, format, file).items;
}

/** The words of a plain-text corpus (whitespace-split, in order), for cutting prompts of a target length; with the 1-based line each word starts on. */
export function corpusWords(text: string, file: string): {words: string[]; lines: Int32Array} {
  const words: string[] = [];
  const starts: number[] = [];
  let line = 1;
  let last = 0;
  for (const m of text.matchAll(/\S+/g)) {
    for (let i = last; i < m.index; i++) if (text.charCodeAt(i) === 10) line++;
    last = m.index;
    words.push(m[0]);
    starts.push(line);
  }
  if (words.length === 0) throw new Error(`${file}:1: empty corpus: no words`);
  return {words, lines: Int32Array.from(starts)};
}
