import type {ScenarioOptions} from "./options.ts";
import {ASCII_VOCAB, UNICODE_VOCAB, splitAnswer} from "./tokens.ts";

/** What the server understood from one completion request. */
export interface FakeRequest {
  endpoint: "chat" | "completions";
  stream: boolean;
  maxTokens: number | null;
  ignoreEos: boolean;
  includeUsage: boolean;
  continuousUsage: boolean;
  promptTokens: number;
  /** The request's text (messages or prompt), for scripted answers. */
  text: string;
  requestId: string;
  model: string;
}

export type Channel = "content" | "reasoning" | "tool_name" | "tool_args";
export interface Token {
  text: string;
  ch: Channel;
  /** Tool call index (tool channels). */
  call?: number;
}

export interface Output {
  tokens: Token[];
  finish: string;
}

export function reasoningCount(out: Output): number | null {
  let n = 0;
  for (const t of out.tokens) if (t.ch === "reasoning") n++;
  return n > 0 ? n : null;
}

/** The token sequence: scripted answer or vocabulary words, split into channels. */
export function generate(req: FakeRequest, o: ScenarioOptions): Output {
  const max = req.maxTokens ?? o.defaultMaxTokens;
  let words: string[];
  let finish: string;
  const toolKey = Object.keys(o.toolAnswers).find((k) => req.text.includes(k));
  if (toolKey !== undefined) {
    const tokens: Token[] = [];
    o.toolAnswers[toolKey]!.forEach((c, call) => {
      tokens.push({text: c.name, ch: "tool_name", call});
      for (let i = 0; i < c.arguments.length; i += 8)
        tokens.push({text: c.arguments.slice(i, i + 8), ch: "tool_args", call});
    });
    return tokens.length > max ? {tokens: tokens.slice(0, max), finish: "length"} : {tokens, finish: "tool_calls"};
  }
  const key = Object.keys(o.answers).find((k) => req.text.includes(k));
  if (key !== undefined) {
    const all = splitAnswer(o.answers[key]!);
    words = all.slice(0, max);
    finish = all.length > max ? "length" : "stop";
  } else {
    const n = req.ignoreEos ? max : Math.min(max, o.eosAfter);
    const vocab = o.text === "unicode" ? UNICODE_VOCAB : ASCII_VOCAB;
    words = Array.from({length: n}, (_, i) => vocab[i % vocab.length]!);
    finish = n < max ? "stop" : "length";
  }
  if (o.toolCall) {
    if (words.length === 0) return {tokens: [], finish};
    const tokens: Token[] = [{text: "get_weather", ch: "tool_name"}];
    const args = words
      .slice(1)
      .map((w, i) => ({text: (i === 0 ? '{"q":"' : "") + w.trim() + " ", ch: "tool_args" as const}));
    if (args.length > 0) args[args.length - 1]!.text += '"}';
    return {tokens: tokens.concat(args), finish: "tool_calls"};
  }
  if (o.reasoning === "none") return {tokens: words.map((text) => ({text, ch: "content"})), finish};
  const r = o.reasoningOnly ? words.length : Math.min(o.reasoningTokens, words.length);
  if (o.reasoning === "inline_think") {
    const tokens: Token[] = words.map((text) => ({text, ch: "content"}));
    if (r > 0) {
      tokens[0] = {text: "<think>", ch: "content"};
      if (r < tokens.length) tokens[r] = {text: "</think>", ch: "content"};
    }
    return {tokens, finish};
  }
  return {tokens: words.map((text, i) => ({text, ch: i < r ? "reasoning" : "content"})), finish};
}
