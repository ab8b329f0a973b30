import {existsSync, readdirSync} from "node:fs";
import {join} from "node:path";

import {afterAll, describe, expect, it} from "vitest";

import {CliError} from "../../../collector/cliError.ts";
import {BARRIER_TIMEOUT_S, parseStartAt, shardOption} from "../../../collector/commands/collect.ts";
import {runCli, tempDir, writeConfig} from "../helpers.ts";

const NOW = Date.parse("2026-12-03T12:00:00Z");
const H = 3_600_000;

/** The CliError `parseStartAt` throws for `text`, or a failure when it throws none. */
function refusal(text: string): CliError {
  try {
    parseStartAt(text, NOW);
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    expect((e as CliError).exitCode).toBe(2);
    return e as CliError;
  }
  throw new Error(`parseStartAt accepted ${JSON.stringify(text)}`);
}

describe("--start-at (issue 17)", () => {
  it("reads an ISO 8601 time or Unix ms within 24 h of now", () => {
    expect(parseStartAt("2026-12-03T12:00:10Z", NOW)).toBe(NOW + 10_000);
    expect(parseStartAt("2026-12-03T20:00:00+08:00", NOW)).toBe(NOW); // 20:00 in UTC+8 is 12:00 UTC
    expect(parseStartAt(String(NOW - 23 * H), NOW)).toBe(NOW - 23 * H);
    expect(parseStartAt("2026-12-04T12:00:00Z", NOW)).toBe(NOW + 24 * H); // the bound itself
  });

  it("refuses a time more than 24 h away, saying how far and which way", () => {
    expect(refusal("2026-12-04T13:00:00Z").message).toBe(
      "--start-at: 2026-12-04T13:00:00.000Z is 25.0 h ahead; a shard's start time must lie within 24 h of now (2026-12-03T12:00:00.000Z)"
    );
    expect(refusal("1999-01-01T00:00:00Z").message).toMatch(/^--start-at: 1999-01-01T00:00:00\.000Z is \d+\.\d h ago;/);
  });

  it("refuses what is not a time, including Unix ms no date can hold", () => {
    for (const text of ["yesterday", "99999999999999999999", "2026-13-45T00:00:00Z", "1733200000"])
      expect(refusal(text).message, text).toMatch(/^--start-at: expected an ISO 8601 time .* got "/);
  });
});

describe("--barrier-dir / --barrier-timeout-s (issue 17)", () => {
  const base = {shard: "1/2", startAt: String(NOW + 10_000)};
  const refused = (o: Record<string, string>): string => {
    try {
      shardOption(o, {}, NOW);
    } catch (e) {
      expect(e).toBeInstanceOf(CliError);
      expect((e as CliError).exitCode).toBe(2);
      return (e as Error).message;
    }
    throw new Error(`shardOption accepted ${JSON.stringify(o)}`);
  };

  it("a shard with a barrier folder waits there up to the timeout (default 600 s); without one, no barrier", () => {
    expect(shardOption({...base, barrierDir: "/shared/b"}, {}, NOW)!.barrier).toEqual({
      dir: "/shared/b",
      timeoutMs: BARRIER_TIMEOUT_S * 1000
    });
    expect(BARRIER_TIMEOUT_S).toBe(600);
    expect(shardOption({...base, barrierDir: "b", barrierTimeoutS: "2.5"}, {}, NOW)!.barrier).toEqual({
      dir: "b",
      timeoutMs: 2500
    });
    expect(shardOption(base, {}, NOW)!.barrier).toBeNull();
  });

  it("refuses a barrier without a shard, a timeout without a folder, and timeouts that cannot work", () => {
    expect(refused({barrierDir: "b"})).toMatch(/need --shard or --shards/);
    expect(refused({...base, barrierTimeoutS: "5"})).toMatch(/--barrier-timeout-s needs --barrier-dir/);
    expect(refused({...base, barrierDir: " "})).toMatch(/--barrier-dir: expected a folder/);
    for (const bad of ["0", "-1", "abc", "1e3", "86401", ""])
      expect(refused({...base, barrierDir: "b", barrierTimeoutS: bad})).toContain(`got "${bad}"`);
  });
});

describe("collect --shard with a start time out of range (issue 17)", () => {
  const t = tempDir();
  afterAll(() => t.cleanup());

  it("exits 2 with the reason before it contacts the server or writes a bundle", async () => {
    // port 9 (discard) on loopback: never contacted, since the refusal comes first
    const cfg = writeConfig(t.dir, "run.yaml", {
      name: "late",
      target: {base_url: "http://127.0.0.1:9/v1", model: "m"},
      workload: {prompt_tokens: 8, max_tokens: 4},
      load: {mode: "concurrency", values: [2], requests: 4}
    });
    const out = join(t.dir, "out");
    for (const at of ["1999-01-01T00:00:00Z", "99999999999999999999", new Date(Date.now() + 48 * H).toISOString()]) {
      const r = await runCli(["collect", "--config", cfg, "--out", out, "--shard", "0/2", "--start-at", at]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^inferscope: --start-at: /m);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(r.stderr).not.toContain("probing");
    }
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  }, 60_000);
});
