import {execFileSync} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {createConnection as netConnect, type NetConnectOpts} from "node:net";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {connect as tlsConnect, type ConnectionOptions} from "node:tls";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {createRedactor} from "../../../collector/redact.ts";
import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import type {Agent} from "node:http";

import {createAgent, idleBound, type AgentOptions, type CreateConnection} from "../../../collector/http/agent.ts";
import {SocketPool} from "../../../collector/http/socketPool.ts";
import {headBytes, streamRequest} from "../../../collector/http/stream.ts";
import {parkedSockets} from "../../../collector/request/pool.ts";
import {redactRecord} from "../../../collector/request/record.ts";
import {resendable, sendStreamed, type RequestTarget} from "../../../collector/request/send.ts";
import {collectorFault, type StreamResult} from "../../../collector/request/types.ts";

/**
 * What the request builder records about connections (issue 10 item 5): connect and TLS time apart from
 * the client's own start, keep-alive reuse with an idle bound, and the one re-send rule.
 */
const origin = process.hrtime.bigint();
const TIMEOUTS = {connectMs: 2000, headersMs: 2000, idleMs: 2000};
const body = JSON.stringify({messages: [{role: "user", content: "x"}], stream: true, max_tokens: 4});
const ms = (ns: number) => ns / 1e6;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** Opens each connection `delayMs` late: an injected network round trip before TCP connect (and TLS). */
function delayedConnect(delayMs: number, tls: boolean): CreateConnection {
  return ((options: NetConnectOpts & ConnectionOptions, callback: (err: Error | null, socket: unknown) => void) => {
    setTimeout(() => callback(null, tls ? tlsConnect(options) : netConnect(options)), delayMs);
    return undefined; // node's agent then waits for the callback
  }) as unknown as CreateConnection;
}

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({options: {ttftMs: 2, tokenIntervalMs: 1}});
});
afterAll(() => server.close());

/** Every connection rule holds over both transports: node:http's agent (call.ts) and the bare-socket pool (socketCall.ts). */
describe.each(["node:http", "socket"] as const)("transport %s", (transport) => {
  const makeAgent = (url: string, o: AgentOptions): Agent | SocketPool =>
    transport === "socket" ? new SocketPool(url, o) : createAgent(url, o);

  describe("connect time is recorded apart from the client's start", () => {
    it("an injected 30 ms connect delay lands between tCall and tConn; the dispatch follows the connect", async () => {
      const agent = makeAgent(server.url, {keepAlive: false, createConnection: delayedConnect(30, false)});
      try {
        const r = await streamRequest({
          url: `${server.url}/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin,
          agent
        });
        expect(r.httpStatus).toBe(200);
        expect(r.socketReused).toBe(false);
        expect(ms(r.tConnNs! - r.tCallNs!)).toBeGreaterThanOrEqual(29);
        expect(r.tDispNs!).toBeGreaterThanOrEqual(r.tConnNs!);
        expect(r.tTlsNs).toBeNull(); // plain http
        // the first token came after the dispatch: TTFT from the client's start holds the connect time
        expect(r.events.find((e) => e[2] === "content")![0]).toBeGreaterThan(r.tDispNs!);
      } finally {
        agent.destroy();
      }
    });

    it("a reused keep-alive connection records no connect and a near-zero setup", async () => {
      const agent = makeAgent(server.url, {idleMs: 2000});
      try {
        const first = await streamRequest({
          url: `${server.url}/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin,
          agent
        });
        const second = await streamRequest({
          url: `${server.url}/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin,
          agent
        });
        expect(first.socketReused).toBe(false);
        expect(first.tConnNs).not.toBeNull();
        expect(second.socketReused).toBe(true);
        expect(second.tConnNs).toBeNull();
      } finally {
        agent.destroy();
      }
    });
  });

  describe("https: a certificate made at test time", () => {
    let dir: string;
    let tlsServer: FakeServer;
    let cert: Buffer;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "inferscope-tls-"));
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=127.0.0.1",
          "-addext",
          "subjectAltName=IP:127.0.0.1",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem")
        ],
        {stdio: "ignore"}
      );
      cert = readFileSync(join(dir, "cert.pem"));
      tlsServer = await startFakeServer({
        options: {ttftMs: 2, tokenIntervalMs: 1},
        tls: {key: readFileSync(join(dir, "key.pem")), cert}
      });
    });
    afterAll(async () => {
      await tlsServer.close();
      rmSync(dir, {recursive: true, force: true});
    });

    it("records TCP connect and the TLS handshake apart, and dispatches after the handshake", async () => {
      expect(tlsServer.url.startsWith("https://")).toBe(true);
      const agent = makeAgent(tlsServer.url, {keepAlive: false, ca: cert, createConnection: delayedConnect(20, true)});
      try {
        const r = await streamRequest({
          url: `${tlsServer.url}/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin,
          agent
        });
        expect(r.httpStatus).toBe(200);
        expect(r.tConnNs).not.toBeNull();
        expect(r.tTlsNs).not.toBeNull();
        expect(ms(r.tConnNs! - r.tCallNs!)).toBeGreaterThanOrEqual(19);
        expect(r.tTlsNs!).toBeGreaterThan(r.tConnNs!);
        expect(r.tDispNs!).toBeGreaterThanOrEqual(r.tTlsNs!);
      } finally {
        agent.destroy();
      }
    });

    it("an untrusted certificate is a connection failure, not a success", async () => {
      const agent = makeAgent(tlsServer.url, {keepAlive: false});
      try {
        const r = await streamRequest({
          url: `${tlsServer.url}/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin,
          agent
        });
        expect(r.httpStatus).toBeNull();
        expect(r.transportError).not.toBeNull();
        expect(r.tDispNs).toBeNull(); // nothing was sent over an unverified connection
      } finally {
        agent.destroy();
      }
    });
  });

  describe("keep-alive sockets are given up before the server gives them up", () => {
    it("the idle bound is ours or the server's Keep-Alive timeout minus 1 s, whichever is shorter", () => {
      expect(idleBound(2000, undefined)).toBe(2000);
      expect(idleBound(2000, "timeout=5")).toBe(2000); // 5 s − 1 s = 4 s > 2 s
      expect(idleBound(2000, "timeout=2, max=100")).toBe(1000); // 2 s − 1 s
      expect(idleBound(2000, "timeout=1")).toBeNull(); // 1 s − 1 s = 0: never park such a socket
    });

    it("a parked socket idle longer than idleMs is closed by the client; the next request connects afresh", async () => {
      const agent = makeAgent(server.url, {idleMs: 100});
      try {
        await streamRequest({
          url: `${server.url}/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin,
          agent
        });
        expect(parkedSockets(agent)).toBe(1);
        await sleep(300);
        expect(parkedSockets(agent)).toBe(0);
        const next = await streamRequest({
          url: `${server.url}/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin,
          agent
        });
        expect(next.socketReused).toBe(false);
      } finally {
        agent.destroy();
      }
    });
  });
});

describe("the one re-send rule", () => {
  const result = (over: Partial<StreamResult>): StreamResult => ({
    ...collectorFault(5, "x"),
    transportError: "conn_reset",
    errorMessage: "socket hang up",
    tCallNs: 1,
    socketReused: true,
    requestWritten: false,
    ...over
  });

  it("resends only a request that failed on a reused socket before reaching the OS, without a response", () => {
    expect(resendable(result({}))).toBe(true);
    expect(resendable(result({requestWritten: true}))).toBe(false); // the server may have received it
    expect(resendable(result({socketReused: false}))).toBe(false); // a fresh connection failing is a real failure
    expect(resendable(result({httpStatus: 502}))).toBe(false);
    expect(resendable(result({tByte1Ns: 3}))).toBe(false);
    expect(resendable(result({transportError: "timeout_headers"}))).toBe(false);
    expect(resendable(result({transportError: "client_abort"}))).toBe(false);
  });

  function target(answers: StreamResult[], fresh: {made: number}): RequestTarget {
    const agent = createAgent(server.url);
    return {
      stream: () => Promise.resolve(answers.shift()!),
      headers: {},
      timeouts: TIMEOUTS,
      origin: 0n,
      clock: () => 10n,
      agent,
      freshAgent: () => {
        fresh.made++;
        return createAgent(server.url, {keepAlive: false});
      },
      redact: createRedactor([]),
      payloadBytes: 0
    };
  }

  it("sends once more on a fresh connection and keeps the failed attempt in the record", async () => {
    const ok = result({transportError: null, errorMessage: null, httpStatus: 200, socketReused: false, tCallNs: 7});
    const fresh = {made: 0};
    const r = await sendStreamed(target([result({tCallNs: 2, tEndNs: 3}), ok], fresh), {
      url: server.url,
      id: "a",
      body: "{}",
      keepText: false
    });
    expect(fresh.made).toBe(1);
    expect(r.httpStatus).toBe(200);
    expect(r.attempts).toEqual([
      {tCallNs: 2, tEndNs: 3, socketReused: true, transportError: "conn_reset", errorMessage: "socket hang up"}
    ]);
  });

  it("never sends a third time, and never re-sends a request the server may have received", async () => {
    const fresh = {made: 0};
    const twice = await sendStreamed(target([result({}), result({socketReused: false})], fresh), {
      url: server.url,
      id: "b",
      body: "{}",
      keepText: false
    });
    expect(fresh.made).toBe(1);
    expect(twice.transportError).toBe("conn_reset");
    expect(twice.attempts).toHaveLength(1);
    const written = await sendStreamed(target([result({requestWritten: true})], fresh), {
      url: server.url,
      id: "c",
      body: "{}",
      keepText: false
    });
    expect(fresh.made).toBe(1);
    expect(written.attempts).toEqual([]);
  });
});

describe("raw event payloads", () => {
  it("keeps the first bytes of each event, cut at a character boundary", () => {
    expect(headBytes("abc", 3, 10)).toBe("abc");
    expect(headBytes("abcdef", 6, 4)).toBe("abcd");
    // "é" is 2 bytes: 4 bytes of "aéé" end inside the second "é", so only "aé" (3 bytes) is kept
    expect(headBytes("aéé", 5, 4)).toBe("aé");
    expect(headBytes("a😀", 5, 3)).toBe("a");
  });

  it("a stream keeps payloads only when asked, and the record's payloads are redacted", async () => {
    const req = {url: `${server.url}/chat/completions`, headers: {}, body, timeouts: TIMEOUTS, origin};
    const none = await streamRequest(req);
    expect(none.events.every((e) => e.length === 4)).toBe(true);
    const kept = await streamRequest({...req, payloadBytes: 64});
    expect(kept.events.every((e) => e.length === 5 && Buffer.byteLength(e[4]!) <= 64)).toBe(true);
    expect(kept.events.at(-1)![4]).toBe("[DONE]");
    const secret = "sk-canary-0123456789";
    const rec = redactRecord(
      {
        errorMessage: null,
        finishReason: null,
        events: [[1, 40, "content", null, `{"choices":[{"delta":{"content":"${secret}"}}]}`]]
      } as unknown as Parameters<typeof redactRecord>[0],
      createRedactor([secret])
    );
    expect(JSON.stringify(rec.events)).not.toContain(secret);
    expect(rec.events[0]![4]).toMatch(/\[REDACTED:[0-9a-f]{8}\]/);
  });
});

describe("a stream held open after its terminal marker", () => {
  it("is closed by the client after close_ms and recorded as close_timeout, with the whole answer", async () => {
    for (const terminate of ["hang_after_finish", "hang_after_done"]) {
      const r = await streamRequest({
        url: `${server.url}/chat/completions`,
        headers: {"x-fake-options": JSON.stringify({terminate})},
        body,
        timeouts: {...TIMEOUTS, closeMs: 150},
        origin
      });
      expect(r.transportError, terminate).toBe("close_timeout");
      expect(r.finishReason).toBe("length");
      const last = r.events.at(-1)![0];
      // closed ~150 ms after the terminal marker (close_timeout, not the 2 s idle timeout's timeout_body)
      expect(ms(r.tEndNs! - last)).toBeGreaterThanOrEqual(140);
    }
  });
});
