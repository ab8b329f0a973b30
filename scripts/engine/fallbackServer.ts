#!/usr/bin/env node
/**
 * The no-compile fallback engine (issue 18; ../shared/reference/reference-engine.md §7): node-llama-cpp's
 * prebuilt llama.cpp addon behind a small OpenAI-compatible server of our own, for a machine that cannot
 * build `llama-server`. NOT llama-server: its numbers are labelled as this engine's wherever they are shown.
 *
 *   node scripts/engine/fallbackServer.ts --addon DIR --model FILE.gguf [--port P] [--parallel N] [--threads T] [--alias NAME]
 *
 * Serves GET /health, GET /v1/models, GET /metrics (a few counters), POST /v1/chat/completions and
 * /v1/completions, streamed (SSE, `stream_options.include_usage`) or not. Each request takes one of
 * `--parallel` context sequences (queued when all are busy) and generates token by token with the addon's
 * low-level evaluate, so `max_tokens` and `ignore_eos` hold exactly. The prompt is the messages joined as
 * "role: content" lines — not the GGUF chat template (said in the run's provenance). 127.0.0.1 only.
 */
import {createServer, type IncomingMessage, type ServerResponse} from "node:http";
import {join} from "node:path";
import {parseArgs} from "node:util";
import {pathToFileURL} from "node:url";

const {values: args} = parseArgs({
  options: {
    addon: {type: "string"},
    model: {type: "string"},
    port: {type: "string", default: "0"},
    parallel: {type: "string", default: "1"},
    threads: {type: "string", default: "1"},
    alias: {type: "string", default: "model"},
    "ctx-per-slot": {type: "string", default: "1024"}
  }
});
if (!args.addon || !args.model) {
  process.stderr.write("usage: fallbackServer.ts --addon DIR --model FILE.gguf [--port P] [--parallel N]\n");
  process.exit(2);
}

const nlc = await import(pathToFileURL(join(args.addon, "node_modules", "node-llama-cpp", "dist", "index.js")).href);
const parallel = Math.max(1, Number(args.parallel));
const llama = await nlc.getLlama({gpu: false, build: "never", logLevel: "error"});
const model = await llama.loadModel({modelPath: args.model});
const context = await model.createContext({
  sequences: parallel,
  contextSize: parallel * Number(args["ctx-per-slot"]),
  threads: Number(args.threads)
});
const free = Array.from({length: parallel}, () => context.getSequence());
const waiting: ((s: unknown) => void)[] = [];
const counters = {requests: 0, promptTokens: 0, generatedTokens: 0, running: 0};

type Seq = {evaluate: (t: unknown, o: object) => AsyncIterable<unknown>; clearHistory: () => Promise<void>};
const acquire = (): Promise<Seq> =>
  free.length > 0 ? Promise.resolve(free.pop() as Seq) : new Promise((r) => waiting.push(r as (s: unknown) => void));
const release = (s: Seq): void => {
  const next = waiting.shift();
  if (next) next(s);
  else free.push(s);
};

function promptOf(body: Record<string, unknown>): string {
  if (typeof body.prompt === "string") return body.prompt;
  const messages = Array.isArray(body.messages) ? (body.messages as {role?: string; content?: unknown}[]) : [];
  return `${messages.map((m) => `${m.role ?? "user"}: ${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`).join("\n")}\nassistant:`;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text || "{}") as Record<string, unknown>;
}

/** One completion, token by token: `onPiece` gets each token's text; resolves with the counts and why it stopped. */
async function generate(body: Record<string, unknown>, onPiece: (text: string) => void) {
  const maxTokens = Number(body.max_tokens ?? body.max_completion_tokens ?? 16);
  const ignoreEos = body.ignore_eos === true;
  const tokens = model.tokenize(promptOf(body));
  const seq = await acquire();
  counters.running++;
  let n = 0;
  let finish = "length";
  try {
    await seq.clearHistory();
    for await (const token of seq.evaluate(tokens, {temperature: Number(body.temperature ?? 0.8)})) {
      if (!ignoreEos && model.isEogToken(token)) {
        finish = "stop";
        break;
      }
      onPiece(model.detokenize([token]));
      if (++n >= maxTokens) break;
    }
  } finally {
    counters.running--;
    release(seq);
  }
  counters.requests++;
  counters.promptTokens += tokens.length;
  counters.generatedTokens += n;
  return {prompt: tokens.length, completion: n, finish};
}

async function completion(req: IncomingMessage, res: ServerResponse, chat: boolean): Promise<void> {
  const body = await readBody(req);
  const id = `fallback-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`;
  const created = Math.floor(Date.now() / 1000);
  const object = chat ? "chat.completion.chunk" : "text_completion";
  const choice = (text: string | null, finish: string | null) =>
    chat
      ? {index: 0, delta: text === null ? {} : {content: text}, finish_reason: finish}
      : {index: 0, text: text ?? "", finish_reason: finish};
  if (body.stream !== true) {
    let text = "";
    const r = await generate(body, (p) => (text += p));
    res.writeHead(200, {"content-type": "application/json"});
    res.end(
      JSON.stringify({
        id,
        object: chat ? "chat.completion" : "text_completion",
        created,
        model: args.alias,
        choices: [
          chat
            ? {index: 0, message: {role: "assistant", content: text}, finish_reason: r.finish}
            : {index: 0, text, finish_reason: r.finish}
        ],
        usage: {prompt_tokens: r.prompt, completion_tokens: r.completion, total_tokens: r.prompt + r.completion}
      })
    );
    return;
  }
  res.writeHead(200, {"content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive"});
  const send = (o: object) => res.write(`data: ${JSON.stringify({id, object, created, model: args.alias, ...o})}\n\n`);
  if (chat) send({choices: [{index: 0, delta: {role: "assistant", content: null}, finish_reason: null}]});
  const r = await generate(body, (p) => send({choices: [choice(p, null)]}));
  send({choices: [choice(null, r.finish)]});
  if ((body.stream_options as {include_usage?: boolean} | undefined)?.include_usage)
    send({
      choices: [],
      usage: {prompt_tokens: r.prompt, completion_tokens: r.completion, total_tokens: r.prompt + r.completion}
    });
  res.end("data: [DONE]\n\n");
}

const server = createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0];
  const json = (status: number, o: object) => {
    res.writeHead(status, {"content-type": "application/json"});
    res.end(JSON.stringify(o));
  };
  void (async () => {
    if (req.method === "GET" && path === "/health") return json(200, {status: "ok"});
    if (req.method === "GET" && path === "/v1/models")
      return json(200, {object: "list", data: [{id: args.alias, object: "model", owned_by: "node-llama-cpp"}]});
    if (req.method === "GET" && path === "/metrics") {
      res.writeHead(200, {"content-type": "text/plain; version=0.0.4"});
      res.end(
        [
          `fallback_requests_total ${counters.requests}`,
          `fallback_prompt_tokens_total ${counters.promptTokens}`,
          `fallback_tokens_predicted_total ${counters.generatedTokens}`,
          `fallback_requests_processing ${counters.running}`,
          `fallback_requests_deferred ${waiting.length}`,
          ""
        ].join("\n")
      );
      return;
    }
    if (req.method === "POST" && path === "/v1/chat/completions") return completion(req, res, true);
    if (req.method === "POST" && path === "/v1/completions") return completion(req, res, false);
    json(404, {error: {message: `not found: ${req.method} ${path}`}});
  })().catch((e: Error) => {
    if (!res.headersSent) json(400, {error: {message: e.message}});
    else res.end();
  });
});

const stop = async () => {
  server.close();
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
server.listen(Number(args.port), "127.0.0.1", () => {
  const port = (server.address() as {port: number}).port;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
