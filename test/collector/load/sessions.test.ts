import {describe, expect, it} from "vitest";

import type {Clock} from "../../../collector/effects.ts";
import {RunControl} from "../../../collector/load/control.ts";
import type {PhaseContext} from "../../../collector/load/dispatch.ts";
import {runSessions} from "../../../collector/load/sessions.ts";

const tick = () => new Promise((r) => setImmediate(r));

/** A phase whose requests each take 10 ns of a hand-moved clock; every send is logged in order. */
function phase(control = new RunControl()) {
  const clock: Clock & {t: bigint} = {t: 0n, nowNs: () => clock.t, wallMs: () => 0};
  const sends: number[] = [];
  const ctx: PhaseContext = {
    control,
    clock,
    origin: 0n,
    send: async (i) => {
      sends.push(i);
      await tick();
      clock.t += 10n;
      return Number(clock.t);
    }
  };
  return {ctx, sends, control};
}

const noThink = {thinkMs: 0, sleep: async () => true};

describe("conversations over shards (issue 17)", () => {
  it("shard 1 of 2 sends the whole conversations 1 and 3 of 0…3 (3 turns), each turn after the one before", async () => {
    const {ctx, sends} = phase();
    const r = await runSessions(ctx, {
      users: 1,
      turns: 3,
      count: 12,
      ...noThink,
      slice: {index: 1, count: 2, group: 3}
    });
    // conversation s is requests 3s, 3s + 1, 3s + 2: shard 1 owns s = 1, 3
    expect(sends).toEqual([3, 4, 5, 9, 10, 11]);
    expect(r).toEqual({sent: 6, unsent: []});
  });

  it("two shards together send every request exactly once, no conversation on both", async () => {
    const all: number[] = [];
    for (const index of [0, 1]) {
      const {ctx, sends} = phase();
      await runSessions(ctx, {users: 2, turns: 2, count: 10, ...noThink, slice: {index, count: 2, group: 2}});
      for (const i of sends) expect(Math.floor(i / 2) % 2, `request ${i} on shard ${index}`).toBe(index);
      all.push(...sends);
    }
    expect(all.sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
  });

  it("a stop after the first conversation leaves the shard's own later requests unsent, as global ranges", async () => {
    const control = new RunControl();
    const {ctx, sends} = phase(control);
    const send = ctx.send;
    ctx.send = async (i, t) => {
      const end = await send(i, t);
      if (i === 5) control.stop("interrupt", "test", 1000);
      return end;
    };
    const r = await runSessions(ctx, {
      users: 1,
      turns: 3,
      count: 18,
      ...noThink,
      slice: {index: 1, count: 2, group: 3}
    });
    expect(sends).toEqual([3, 4, 5]);
    // shard 1's unsent: 9, 10, 11 and 15, 16, 17 — one run of its own ordinals (12…14 are shard 0's)
    expect(r).toEqual({sent: 3, unsent: [[9, 17]]});
  });

  it("refuses a shard dealt single requests: a conversation would be split", async () => {
    const {ctx} = phase();
    await expect(
      runSessions(ctx, {users: 1, turns: 3, count: 6, ...noThink, slice: {index: 0, count: 2}})
    ).rejects.toThrow("a sessions shard is dealt whole conversations: group 1 ≠ turns 3");
  });
});
