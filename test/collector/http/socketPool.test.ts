import type {Agent} from "node:http";
import {createServer as createNetServer, type Server, type Socket} from "node:net";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {startFakeServer, type FakeServer} from "../../../collector/fake/index.ts";
import {createAgent, type AgentOptions} from "../../../collector/http/agent.ts";
import {SocketPool} from "../../../collector/http/socketPool.ts";
import {streamRequest, type StreamResult} from "../../../collector/http/stream.ts";
import {openSockets, parkedSockets} from "../../../collector/request/pool.ts";

/**
 * The bare-socket transport reads HTTP/1.1 itself (http-parser-js), so the framings node:http handles for
 * call.ts are checked here over both transports with the same expectations, from byte-exact responses
 * written by a raw TCP server; then what the socket pool adds: a cap with a queue, the server's keep-alive hint,
 * and destroy.
 */
const origin = process.hrtime.bigint();
const TIMEOUTS = {connectMs: 2000, headersMs: 2000, idleMs: 2000};
const body = JSON.stringify({messages: [{role: "user", content: "x"}], stream: true, max_tokens: 4});
const SSE_OK =
  'data: {"choices":[{"delta":{"content":"a"},"finish_reason":null}]}\n\n' +
  'data: {"choices":[{"delta":{"content":"b"},"finish_reason":"stop"}]}\n\n' +
  "data: [DONE]\n\n";

/** A raw TCP server that answers every request (once its head has arrived) with `reply(socket)`. */
async function rawServer(reply: (s: Socket) => void): Promise<{url: string; close: () => Promise<void>}> {
  const open = new Set<Socket>();
  const srv: Server = createNetServer((s) => {
    open.add(s);
    s.on("close", () => open.delete(s));
    s.on("error", () => {});
    let seen = "";
    s.on("data", (b: Buffer) => {
      seen += b.toString("latin1");
      if (seen.includes("\r\n\r\n")) {
        seen = "";
        reply(s);
      }
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as {port: number}).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        srv.close(() => r());
      })
  };
}

const chunked = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
const contents = (r: StreamResult): string[] => r.events.filter((e) => e[2] === "content").map((e) => e[3] as never);

describe.each(["node:http", "socket"] as const)("HTTP/1.1 framings over transport %s", (transport) => {
  const makeAgent = (url: string, o: AgentOptions = {}): Agent | SocketPool =>
    transport === "socket" ? new SocketPool(url, o) : createAgent(url, o);
  const run = async (reply: (s: Socket) => void, o: AgentOptions = {}) => {
    const srv = await rawServer(reply);
    const agent = makeAgent(srv.url, o);
    try {
      const r = await streamRequest({
        url: `${srv.url}/v1/chat/completions`,
        headers: {},
        body,
        timeouts: TIMEOUTS,
        origin,
        agent
      });
      return {r, parked: parkedSockets(agent)};
    } finally {
      agent.destroy();
      await srv.close();
    }
  };

  it("a 100 Continue before the answer is not the answer: both events, status 200", async () => {
    const {r} = await run((s) =>
      s.write(
        "HTTP/1.1 100 Continue\r\n\r\n" +
          "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n" +
          chunked(SSE_OK)
      )
    );
    expect(r.httpStatus).toBe(200);
    expect(r.transportError).toBeNull();
    expect(r.events.map((e) => e[2])).toEqual(["content", "content", "done"]);
    expect(r.finishReason).toBe("stop");
  });

  it("a body read to the connection's close (no length, no chunks) ends at the close; the socket is not kept", async () => {
    const {r, parked} = await run((s) => {
      s.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n");
      s.end(SSE_OK);
    });
    expect(r.httpStatus).toBe(200);
    expect(r.transportError).toBeNull();
    expect(r.events.map((e) => e[2])).toEqual(["content", "content", "done"]);
    expect(parked).toBe(0);
  });

  it("a content-length body ends at its length though the socket stays open, and the socket is kept", async () => {
    const {r, parked} = await run((s) =>
      s.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${Buffer.byteLength(SSE_OK)}\r\n\r\n${SSE_OK}`
      )
    );
    expect(r.transportError).toBeNull();
    expect(r.events).toHaveLength(3);
    expect(parked).toBe(1);
  });

  it("a 204 has no body whatever its headers say: it ends at once, not at the idle timeout", async () => {
    const {r} = await run((s) => s.write("HTTP/1.1 204 No Content\r\ncontent-type: text/event-stream\r\n\r\n"));
    expect(r.httpStatus).toBe(204);
    expect(r.events).toEqual([]);
    expect(r.transportError).toBeNull();
    expect(r.tEndNs! - r.tHdrNs!).toBeLessThan(500e6); // the idle timeout is 2 s
  });

  it("a server that answers Keep-Alive: timeout=1 gets no parked socket (it would close it within a second)", async () => {
    const {r, parked} = await run((s) =>
      s.write(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nkeep-alive: timeout=1\r\ntransfer-encoding: chunked\r\n\r\n" +
          chunked(SSE_OK)
      )
    );
    expect(r.transportError).toBeNull();
    expect(parked).toBe(0);
  });

  it("a response that is not HTTP is a transport error ('other'), not a success", async () => {
    const {r} = await run((s) => s.write("SSH-2.0-OpenSSH_9.6\r\n\r\n"));
    expect(r.httpStatus).toBeNull();
    expect(r.transportError).toBe("other");
  });

  it("a connection closed after the head and half a chunk: truncated (no transport error), one event kept", async () => {
    const first = 'data: {"choices":[{"delta":{"content":"a"}}]}\n\n';
    const {r} = await run((s) => {
      s.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n`);
      s.end(`${Buffer.byteLength(first).toString(16)}\r\n${first}\r\n40\r\ndata: {"cho`);
    });
    expect(r.httpStatus).toBe(200);
    expect(r.transportError).toBeNull();
    expect(contents(r)).toHaveLength(1);
    expect(r.finishReason).toBeNull();
  });
});

describe.each(["node:http", "socket"] as const)(
  "socket counts over transport %s (client-health telemetry)",
  (transport) => {
    let server: FakeServer;
    beforeAll(async () => {
      server = await startFakeServer({host: "127.0.0.1", options: {ttftMs: 300, tokenIntervalMs: 5}});
    });
    afterAll(() => server.close());

    it("three concurrent keep-alive requests: 3 open and 0 parked in flight, 3 open and 3 parked after", async () => {
      const agent = transport === "socket" ? new SocketPool(server.url) : createAgent(server.url);
      try {
        const go = () =>
          streamRequest({url: `${server.url}/chat/completions`, headers: {}, body, timeouts: TIMEOUTS, origin, agent});
        const all = Promise.all([go(), go(), go()]);
        await new Promise((r) => setTimeout(r, 10)); // well inside the server's 300 ms to the first token
        expect([openSockets(agent), parkedSockets(agent)]).toEqual([3, 0]);
        for (const r of await all) expect(r.transportError).toBeNull();
        expect([openSockets(agent), parkedSockets(agent)]).toEqual([3, 3]);
      } finally {
        agent.destroy();
      }
    });
  }
);

describe("SocketPool", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer({host: "127.0.0.1", options: {ttftMs: 5, tokenIntervalMs: 5}});
  });
  afterAll(() => server.close());
  const req = (agent: SocketPool, signal?: AbortSignal) =>
    streamRequest({
      url: `${server.url}/chat/completions`,
      headers: {},
      body,
      timeouts: TIMEOUTS,
      origin,
      agent,
      ...(signal === undefined ? {} : {signal})
    });

  it("at maxSockets 1, three concurrent requests share one connection in turn", async () => {
    const pool = new SocketPool(server.url, {maxSockets: 1});
    try {
      const rs = await Promise.all([req(pool), req(pool), req(pool)]);
      for (const r of rs) expect(r.transportError).toBeNull();
      expect(rs.map((r) => r.socketReused)).toEqual([false, true, true]);
      // each waited for the one before it to finish before it was written
      expect(rs[1]!.tDispNs!).toBeGreaterThanOrEqual(rs[0]!.tEndNs!);
      expect(rs[2]!.tDispNs!).toBeGreaterThanOrEqual(rs[1]!.tEndNs!);
      expect(pool.parked).toBe(1);
    } finally {
      pool.destroy();
    }
  });

  it("a request aborted while it waits for a connection leaves the queue and is never sent", async () => {
    const pool = new SocketPool(server.url, {maxSockets: 1});
    try {
      const ac = new AbortController();
      const first = req(pool);
      const queued = req(pool, ac.signal);
      ac.abort();
      const [a, b] = await Promise.all([first, queued]);
      expect(a.transportError).toBeNull();
      expect(b.transportError).toBe("client_abort");
      expect(b.tDispNs).toBeNull();
      expect(b.requestWritten).toBe(false);
      const after = await req(pool); // the aborted waiter did not take the freed socket
      expect(after.socketReused).toBe(true);
    } finally {
      pool.destroy();
    }
  });

  it("destroy closes the sockets in use and fails the waiting requests; a destroyed pool connects no more", async () => {
    const pool = new SocketPool(server.url, {maxSockets: 1});
    const inFlight = req(pool);
    const waiting = req(pool);
    await new Promise((r) => setTimeout(r, 2));
    pool.destroy();
    const [a, b] = await Promise.all([inFlight, waiting]);
    expect(a.transportError).not.toBeNull();
    expect(b.transportError).not.toBeNull();
    expect(b.tDispNs).toBeNull();
    const later = await req(pool);
    expect(later.transportError).not.toBeNull();
    expect(later.tDispNs).toBeNull();
  });

  it("chunks that arrive together are all stamped before any is parsed, and a response ends when its bytes arrived", async () => {
    // Two connections; the server answers both in one synchronous step once both requests are in, each
    // response complete in one write, so the next poll hands the client both chunks. The clock is a pure
    // counter (1 µs per reading): the two arrival readings must be adjacent (no parse, classification or
    // record in between), and each response's end is its chunk's reading, not a later one.
    const waiting: Socket[] = [];
    const reply = `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${Buffer.byteLength(SSE_OK)}\r\n\r\n${SSE_OK}`;
    const srv = createNetServer((s) => {
      s.on("error", () => {});
      let seen = "";
      s.on("data", (b: Buffer) => {
        seen += b.toString("latin1");
        if (!seen.includes("\r\n\r\n")) return;
        seen = "";
        waiting.push(s);
        if (waiting.length === 2) for (const w of waiting) w.write(reply);
      });
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(srv.address() as {port: number}).port}`;
    const pool = new SocketPool(url);
    let ticks = 0n;
    const clock = (): bigint => (ticks += 1000n);
    try {
      const go = () =>
        streamRequest({
          url: `${url}/v1/chat/completions`,
          headers: {},
          body,
          timeouts: TIMEOUTS,
          origin: 0n,
          clock,
          agent: pool
        });
      const [a, b] = await Promise.all([go(), go()]);
      for (const r of [a, b]) {
        expect(r.transportError).toBeNull();
        expect(r.events.map((e) => e[2])).toEqual(["content", "content", "done"]);
        expect(r.events.every((e) => e[0] === r.tHdrNs)).toBe(true); // one chunk, one reading
        expect(r.tEndNs).toBe(r.tHdrNs);
      }
      expect(Math.abs(a.tHdrNs! - b.tHdrNs!)).toBe(1000);
    } finally {
      pool.destroy();
      for (const w of waiting) w.destroy();
      await new Promise((r) => srv.close(r));
    }
  });

  it("refuses options that cannot work", () => {
    expect(() => new SocketPool(server.url, {maxSockets: 0})).toThrow(/maxSockets/);
    expect(() => new SocketPool(server.url, {idleMs: 0})).toThrow(/idleMs/);
    expect(() => new SocketPool("ftp://127.0.0.1/")).toThrow(/unsupported protocol/);
  });
});
