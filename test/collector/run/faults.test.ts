import {readFileSync} from "node:fs";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import type {Manifest, RequestRecord} from "../../../src/analysis/schema/index.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {collectAndAnalyze, FAST, gate, tempDir, testConfig} from "../helpers.ts";

/**
 * The fault matrix of validity-and-faults.md §4 against the fake server: for each scenario, the
 * right per-request classification in the analysed report, the right gate and verdict, and nothing
 * lost (one record per planned request, events recorded = events the server sent).
 */
interface Case {
  scenario: string;
  outcome: string;
  verdict: "VALID" | "INVALID" | "INCONCLUSIVE";
  gate?: [string, string];
  timeouts?: {headers_ms?: number; idle_ms?: number};
  workload?: Record<string, unknown>;
  /** Do not assert the verdict (only the classification and the named gate). */
  anyVerdict?: boolean;
}

const CASES: Case[] = [
  {scenario: "split-utf8", outcome: "success", verdict: "VALID"},
  {scenario: "byte-split", outcome: "success", verdict: "VALID"},
  {scenario: "crlf", outcome: "success", verdict: "VALID"},
  {scenario: "cr", outcome: "success", verdict: "VALID"},
  {scenario: "merged", outcome: "success", verdict: "VALID"},
  {scenario: "sse-fields", outcome: "success", verdict: "VALID"},
  {scenario: "malformed-json", outcome: "parse_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "eof-after-finish", outcome: "success", verdict: "VALID"},
  {scenario: "eof-no-done", outcome: "truncated_stream", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "role-then-delay", outcome: "success", verdict: "VALID"},
  // 8 reasoning tokens, then the answer: max_tokens 16 leaves room for it
  {scenario: "reasoning", outcome: "success", verdict: "VALID", gate: ["G9", "info"], workload: {max_tokens: 16}},
  {scenario: "reasoning-field", outcome: "success", verdict: "VALID", gate: ["G9", "info"], workload: {max_tokens: 16}},
  // thinking only, stopped at max_tokens: no answer ever came (G31)
  {scenario: "reasoning-only", outcome: "success", verdict: "INCONCLUSIVE", gate: ["G31", "warn"]},
  {
    scenario: "reasoning-inline-think",
    outcome: "success",
    verdict: "INCONCLUSIVE",
    gate: ["G9", "warn"],
    workload: {save_text: true}
  },
  {scenario: "tool-call", outcome: "success", verdict: "VALID"},
  {scenario: "usage-final", outcome: "success", verdict: "VALID", gate: ["G8", "pass"]},
  {scenario: "usage-every-chunk", outcome: "success", verdict: "VALID", gate: ["G8", "pass"]},
  {scenario: "usage-none", outcome: "success", verdict: "INCONCLUSIVE", gate: ["G8", "warn"]},
  {scenario: "usage-llamacpp", outcome: "success", verdict: "VALID", gate: ["G8", "pass"]},
  {scenario: "usage-inconsistent", outcome: "success", verdict: "INCONCLUSIVE", gate: ["G11", "warn"]},
  {scenario: "multi-token", outcome: "success", verdict: "VALID", gate: ["G10", "info"]},
  {scenario: "spec-decode", outcome: "success", verdict: "VALID", gate: ["G10", "info"]},
  {scenario: "usage-jump", outcome: "success", verdict: "VALID"},
  // 2 MiB events keep the in-process fake server busy: achieved load is not this case's subject (G3 is)
  {scenario: "huge-event", outcome: "success", verdict: "VALID", gate: ["G3", "pass"], anyVerdict: true},
  {scenario: "long-line", outcome: "truncated_stream", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "inband-error", outcome: "inband_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "error-first", outcome: "inband_error", verdict: "INVALID", gate: ["G3", "fail"]},
  // F12: a 200 without an event stream; the analyzer classifies it as a stream without a terminal marker
  {scenario: "json-200", outcome: "parse_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "html-200", outcome: "parse_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "slow-headers", outcome: "success", verdict: "VALID", timeouts: {headers_ms: 2000}},
  {
    scenario: "slow-headers",
    outcome: "timeout_headers",
    verdict: "INVALID",
    gate: ["G3", "fail"],
    timeouts: {headers_ms: 150}
  },
  {scenario: "stall", outcome: "success", verdict: "VALID", timeouts: {idle_ms: 2000}},
  {scenario: "stall", outcome: "timeout_body", verdict: "INVALID", gate: ["G3", "fail"], timeouts: {idle_ms: 150}},
  {scenario: "fin", outcome: "truncated_stream", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "reset", outcome: "conn_reset", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "half-open", outcome: "timeout_body", verdict: "INVALID", gate: ["G3", "fail"], timeouts: {idle_ms: 200}},
  {scenario: "close-before-headers", outcome: "conn_reset", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "http-429", outcome: "http_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "http-429-no-retry-after", outcome: "http_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "http-500", outcome: "http_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "http-502", outcome: "http_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "http-503", outcome: "http_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {scenario: "http-504", outcome: "http_error", verdict: "INVALID", gate: ["G3", "fail"]},
  {
    scenario: "buffered",
    outcome: "success",
    verdict: "INCONCLUSIVE",
    gate: ["G16", "warn"],
    workload: {max_tokens: 16}
  },
  {scenario: "trickle", outcome: "success", verdict: "VALID"},
  {scenario: "prompt-truncate", outcome: "success", verdict: "INCONCLUSIVE", gate: ["G12", "warn"]}
];

const REQUESTS = 6;
let server: FakeServer;
const t = tempDir();
beforeAll(async () => {
  server = await startFakeServer({port: 0});
});
afterAll(async () => {
  await server.close();
  t.cleanup();
});

const records = (dir: string): RequestRecord[] =>
  readFileSync(join(dir, "requests.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RequestRecord);
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;

// the same matrix over both HTTP clients (target.http_client): the classification, the gates and the record
// count must not depend on which transport read the bytes
describe.each(["node_http", "socket"] as const)("fault scenarios (http_client: %s)", (httpClient) => {
  it.each(CASES.map((c) => [`${c.scenario}${c.timeouts ? ` ${JSON.stringify(c.timeouts)}` : ""}`, c] as const))(
    "%s",
    async (_name, c) => {
      server.clearSendLog();
      const config = testConfig(server.url, {
        target: {
          base_url: server.url,
          model: "fake-model",
          http_client: httpClient,
          headers: {"x-fake-scenario": c.scenario, "x-fake-options": FAST},
          timeouts: {connect_ms: 2000, headers_ms: c.timeouts?.headers_ms ?? 3000, idle_ms: c.timeouts?.idle_ms ?? 3000}
        },
        workload: {prompt_tokens: 16, max_tokens: 8, ...c.workload},
        load: {mode: "concurrency", values: [2], requests: REQUESTS, warmup: 0}
      });
      const {outcome, report} = await collectAndAnalyze(config, t.dir);
      expect(outcome.status).toBe("complete");
      expect(manifest(outcome.dir).capture?.httpClient).toBe(httpClient);
      const p = report.load_points[0]!;
      expect(p.outcomes).toEqual({[c.outcome]: REQUESTS});
      if (!c.anyVerdict) expect(report.verdict, report.verdict_reasons.join("\n")).toBe(c.verdict);
      if (c.gate) expect(gate(report, c.gate[0]).status, gate(report, c.gate[0]).reason).toBe(c.gate[1]);
      expect(gate(report, "G1").status).toBe("pass");
      // nothing lost: one record per planned request, every event the server completed is recorded
      const recs = records(outcome.dir);
      expect(recs).toHaveLength(REQUESTS);
      const sent = new Map<string, number>();
      for (const e of server.sendLog()) sent.set(e.requestId, (sent.get(e.requestId) ?? 0) + e.events);
      for (const r of recs) {
        // a TCP RST lets the kernel discard bytes the client had not read yet: there, recorded ≤ sent
        if (c.scenario === "reset") expect(r.events.length, r.id).toBeLessThanOrEqual(sent.get(r.id) ?? 0);
        else expect(r.events.length, r.id).toBe(sent.get(r.id) ?? 0);
      }
      if (c.outcome !== "success") {
        const f = p.failures[0]!;
        expect(f.outcome).toBe(c.outcome);
        if (c.outcome === "http_error") expect(f.httpStatus).toBe(Number(c.scenario.slice(5, 8)));
        if (!["truncated_stream", "parse_error"].includes(c.outcome)) expect(f.message).toBeTruthy();
      }
    }
  );

  it("role chunk first: the first-event view is far below TTFT (F5)", async () => {
    const config = testConfig(server.url, {
      target: {
        base_url: server.url,
        model: "fake-model",
        headers: {"x-fake-scenario": "role-then-delay", "x-fake-options": FAST}
      }
    });
    const {report} = await collectAndAnalyze(config, t.dir);
    const m = report.load_points[0]!.metrics as Record<string, {mean: number}>;
    expect(m.ttft_ms!.mean - m.ttft_first_event_ms!.mean).toBeGreaterThan(150);
  });

  it("buffered output: every token event carries the same arrival time (F20 evidence kept)", async () => {
    const config = testConfig(server.url, {
      target: {
        base_url: server.url,
        model: "fake-model",
        headers: {"x-fake-scenario": "buffered", "x-fake-options": FAST}
      },
      workload: {max_tokens: 16}
    });
    const {outcome, report} = await collectAndAnalyze(config, t.dir);
    for (const r of records(outcome.dir)) {
      const times = new Set(r.events.filter((e) => e[2] === "content").map((e) => e[0]));
      expect(times.size).toBe(1);
    }
    expect(report.gates.find((g) => g.id === "G16")!.status).toBe("warn");
  });
});

describe.each(["node_http", "socket"] as const)("server-wide faults (http_client: %s)", (httpClient) => {
  it("one connection per request: a server that kills reused sockets never sees one (F19)", async () => {
    const s = await startFakeServer({port: 0, scenario: "keepalive-close", options: {ttftMs: 5, tokenIntervalMs: 2}});
    try {
      const config = testConfig(s.url, {
        target: {base_url: s.url, model: "fake-model", connection: "per_request", http_client: httpClient},
        load: {mode: "concurrency", values: [1], requests: 4, warmup: 0}
      });
      const {outcome, report} = await collectAndAnalyze(config, t.dir);
      expect(records(outcome.dir)).toHaveLength(4);
      expect(records(outcome.dir).every((r) => r.socketReused === false && r.tConnNs !== null)).toBe(true);
      expect(report.load_points[0]!.outcomes).toEqual({success: 4});
      expect(s.sendLog().filter((e) => e.what === "destroy")).toHaveLength(0); // no request arrived on a reused socket
    } finally {
      await s.close();
    }
  });

  it("reused connections: a request the server received before killing the socket is never re-sent (F19)", async () => {
    // keepalive-close reads the whole request on a reused socket, then destroys it: the server may have acted
    // on it, so the client records conn_reset once and sends nothing again
    const s = await startFakeServer({port: 0, scenario: "keepalive-close", options: {ttftMs: 5, tokenIntervalMs: 2}});
    try {
      const config = testConfig(s.url, {
        target: {base_url: s.url, model: "fake-model", connection: "reuse", http_client: httpClient},
        load: {mode: "concurrency", values: [1], requests: 4, warmup: 0}
      });
      const {outcome, report} = await collectAndAnalyze(config, t.dir);
      const recs = records(outcome.dir);
      expect(recs).toHaveLength(4);
      const reset = recs.filter((r) => r.transportError === "conn_reset");
      expect(reset.length).toBeGreaterThan(0);
      expect(reset.every((r) => r.socketReused === true && r.attempts === undefined)).toBe(true);
      // every destroyed socket carried exactly one request, and no request id reached the server twice
      const destroyed = s.sendLog().filter((e) => e.what === "destroy");
      expect(destroyed).toHaveLength(reset.length);
      const received = s.sendLog().filter((e) => e.what === "received" || e.what === "destroy");
      expect(new Set(received.map((e) => e.requestId)).size).toBe(received.length);
      expect(report.load_points[0]!.outcomes.conn_reset).toBe(reset.length);
    } finally {
      await s.close();
    }
  });

  it("connection cap (refuse): extra connections fail and the run is INVALID (F22)", async () => {
    const s = await startFakeServer({
      port: 0,
      scenario: "conn-cap",
      options: {connCap: 1, connCapMode: "refuse", ttftMs: 20, tokenIntervalMs: 2}
    });
    try {
      const config = testConfig(s.url, {
        target: {base_url: s.url, model: "fake-model", http_client: httpClient},
        load: {mode: "concurrency", values: [4], requests: 8, warmup: 0}
      });
      const {outcome, report} = await collectAndAnalyze(config, t.dir);
      const p = report.load_points[0]!;
      expect(records(outcome.dir)).toHaveLength(8);
      expect(p.n_success).toBeLessThan(8);
      expect(gate(report, "G3").status).toBe("fail");
    } finally {
      await s.close();
    }
  });
});
