import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

import {afterAll, beforeAll, describe, expect, it} from "vitest";

import {body} from "../../scripts/lib/benchClient/common.ts";
import {startServer, type ServerChild} from "../../scripts/lib/benchClient/serverChild.ts";
import {CANDIDATES, floorCandidate} from "../../scripts/lib/benchClient/transports/candidates.ts";

// Each bench:client (i) candidate must capture what the server sent, exactly: the server's own send log is the
// oracle for the event count, and the request (max_tokens 5, ignore_eos, include_usage) fixes the content.
let dir: string;
let server: ServerChild;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "bench-transports-"));
  writeFileSync(join(dir, "send.jsonl"), "");
  server = await startServer(join(dir, "send.jsonl"));
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, {recursive: true, force: true});
});

const headers = (id: string): Record<string, string> => ({
  "x-request-id": id,
  "x-fake-options": JSON.stringify({ttftMs: 0, tokenIntervalMs: 1})
});

describe("bench:client HTTP client candidates (issue 17)", () => {
  for (const cand of CANDIDATES.filter((c) => c !== floorCandidate)) {
    it(`${cand.name}: full capture of a 5-token stream, twice on one keep-alive connection`, async () => {
      const t = cand.open(server.url, 1);
      try {
        const ids = [`${cand.name}-a`, `${cand.name}-b`];
        const results = [];
        for (const id of ids) results.push(await t.send("/chat/completions", headers(id), body(5)));
        const sent = await server.events(ids);
        results.forEach((r, i) => {
          expect(r.httpStatus).toBe(200);
          expect(r.transportError).toBeNull();
          expect(r.events.length).toBe(sent.get(ids[i]!)!.length);
          expect(r.events.filter((e) => e[2] === "content").length).toBe(5);
          expect(r.events.at(-1)![2]).toBe("done");
          expect(r.usage?.completionTokens).toBe(5);
          expect(r.finishReason).toBe("length");
          // the request builder's time points, in order, and every event stamped inside them
          const points = [r.tCallNs, r.tDispNs, r.tHdrNs, r.tByte1Ns, r.tEndNs] as number[];
          expect(points.every((x) => typeof x === "number")).toBe(true);
          expect([...points].sort((a, b) => a - b)).toEqual(points);
          for (const e of r.events) expect(e[0] >= r.tByte1Ns! && e[0] <= r.tEndNs!).toBe(true);
          // no event reached the client before the server sent it
          r.events.forEach((e, k) => expect(e[0]).toBeGreaterThanOrEqual(sent.get(ids[i]!)![k]!));
        });
        expect(results[0]!.responseText).toBe(results[1]!.responseText);
      } finally {
        await t.close();
      }
    }, 20_000);
  }

  it("the floor stamps one event per blank line, as many as the server sent", async () => {
    const t = floorCandidate.open(server.url, 1);
    try {
      const r = await t.send("/chat/completions", headers("floor-a"), body(7));
      const sent = await server.events(["floor-a"]);
      // 7 content events, the usage chunk and [DONE] at least: the server's log says exactly how many
      expect(r.events.length).toBe(sent.get("floor-a")!.length);
      expect(r.events.length).toBeGreaterThanOrEqual(9);
    } finally {
      await t.close();
    }
  }, 20_000);
});
