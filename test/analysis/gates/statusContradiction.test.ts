import {describe, expect, it} from "vitest";

import {integrity, statusContradiction} from "../../../src/analysis/gates/integrity.ts";
import type {GateContext} from "../../../src/analysis/gates/types.ts";

/**
 * G1's check of the manifest's unhashed status against the hashed client log (issue 11 item 2), on hand-made
 * contexts: a collected bundle said to be complete needs its run_end note and no interrupt, crash-seal or
 * write-error note; one said to be interrupted must not have been sealed after a crash.
 */
type Note = {event: string; detail: Record<string, unknown>};
const note = (event: string, detail: Record<string, unknown> = {}): Note => ({event, detail});

const ctx = (status: string, notes: Note[], o: {samples?: number; kind?: string; manifest?: boolean} = {}) =>
  ({
    manifest: o.manifest === false ? null : {status, provenance: {kind: o.kind ?? "collected"}},
    client: {samples: o.samples ?? 10, notes}
  }) as unknown as GateContext;

const PREFIX = "the manifest says complete, but the hashed client log has ";

describe("statusContradiction", () => {
  it("accepts a complete run whose log ends with run_end", () => {
    expect(statusContradiction(ctx("complete", [note("run_start"), note("run_end")]))).toBeNull();
  });

  it("judges only collected bundles with a manifest", () => {
    expect(statusContradiction(ctx("complete", [], {kind: "imported", samples: 0}))).toBeNull();
    expect(statusContradiction(ctx("complete", [], {manifest: false, samples: 0}))).toBeNull();
  });

  it("names a missing client log, and a log without run_end", () => {
    expect(statusContradiction(ctx("complete", [], {samples: 0}))).toBe(`${PREFIX}no client log at all`);
    expect(statusContradiction(ctx("complete", [], {samples: 3}))).toBe(`${PREFIX}no run_end note`);
    expect(statusContradiction(ctx("complete", [note("run_start")], {samples: 0}))).toBe(`${PREFIX}no run_end note`);
  });

  it("names each note that contradicts complete, in order, even with run_end present", () => {
    const end = note("run_end");
    expect(statusContradiction(ctx("complete", [end, note("resume", {action: "sealed_partial"})]))).toBe(
      `${PREFIX}a sealed_partial note (sealed after a crash)`
    );
    expect(statusContradiction(ctx("complete", [end, note("interrupt")]))).toBe(`${PREFIX}an interrupt note`);
    expect(statusContradiction(ctx("complete", [end, note("write_error")]))).toBe(
      `${PREFIX}a write or collector error note`
    );
    expect(statusContradiction(ctx("complete", [end, note("collector_error")]))).toBe(
      `${PREFIX}a write or collector error note`
    );
    expect(statusContradiction(ctx("complete", [note("interrupt"), note("resume", {action: "sealed_partial"})]))).toBe(
      `${PREFIX}no run_end note, a sealed_partial note (sealed after a crash), an interrupt note`
    );
  });

  it("a resume note of another action is no crash seal", () => {
    expect(statusContradiction(ctx("complete", [note("run_end"), note("resume", {action: "continued"})]))).toBeNull();
  });

  it("an interrupted run sealed after a crash is contradicted; partial and plain interrupted are not", () => {
    const crash = note("resume", {action: "sealed_partial"});
    expect(statusContradiction(ctx("interrupted", [crash]))).toBe(
      "the manifest says interrupted, but the hashed client log shows the bundle was sealed after a crash (partial)"
    );
    expect(statusContradiction(ctx("interrupted", [note("interrupt")]))).toBeNull();
    expect(statusContradiction(ctx("partial", [crash]))).toBeNull();
  });

  it("only a resume note marks a crash seal, whatever another note's detail says", () => {
    expect(statusContradiction(ctx("complete", [note("run_end", {action: "sealed_partial"})]))).toBeNull();
  });

  it("fails G1 with the contradiction as its reason when every digest holds", () => {
    const c = {...ctx("complete", [note("run_start")]), issues: [], files: []} as unknown as GateContext;
    const r = integrity.evaluate(c);
    expect(r.status).toBe("fail");
    expect(r.reason).toBe(`${PREFIX}no run_end note`);
  });
});
