import {appendFileSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";

import {afterEach, describe, expect, it} from "vitest";

import {realFiles} from "../../../collector/effects.ts";
import {JsonlWriter} from "../../../collector/writer/jsonlWriter.ts";
import {repairTail} from "../../../collector/writer/tail.ts";
import {fullDiskFiles, tempDir} from "../helpers.ts";

type Rec = {seq: number; v: number};
const lines = (path: string) => readFileSync(path, "utf8").split("\n");

describe("JsonlWriter", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("writes seq from 0, one JSON object per line, only after flush", async () => {
    const path = join(t.dir, "a.jsonl");
    const {writer} = await JsonlWriter.open<Rec>(realFiles, path);
    expect(writer.append({v: 1})).toBe(0);
    expect(writer.append({v: 2})).toBe(1);
    expect(readFileSync(path, "utf8")).toBe("");
    await writer.flush();
    expect(lines(path)).toEqual(['{"seq":0,"v":1}', '{"seq":1,"v":2}', ""]);
    await writer.close();
  });

  it("reopening an intact file continues seq", async () => {
    const path = join(t.dir, "a.jsonl");
    writeFileSync(path, '{"seq":0,"v":1}\n{"seq":1,"v":2}\n');
    const {writer, repair} = await JsonlWriter.open<Rec>(realFiles, path);
    expect(repair).toEqual({truncatedBytes: 0, lastSeq: 1, excerpt: null});
    writer.append({v: 3});
    await writer.close();
    expect(lines(path)[2]).toBe('{"seq":2,"v":3}');
  });

  it("never appends to a torn line: the tail is cut back to the last newline first", async () => {
    const path = join(t.dir, "a.jsonl");
    writeFileSync(path, '{"seq":0,"v":1}\n{"seq":1,"v":2}\n{"seq":2,"v"');
    const {writer, repair} = await JsonlWriter.open<Rec>(realFiles, path);
    expect(repair).toEqual({truncatedBytes: 12, lastSeq: 1, excerpt: '{"seq":2,"v"'});
    writer.append({v: 9});
    await writer.close();
    expect(lines(path)).toEqual(['{"seq":0,"v":1}', '{"seq":1,"v":2}', '{"seq":2,"v":9}', ""]);
  });

  it("a complete but unparseable last line is cut too; earlier lines are never touched", async () => {
    const path = join(t.dir, "a.jsonl");
    writeFileSync(path, '{"seq":0}\n{"se\n');
    expect(await repairTail(realFiles, path)).toMatchObject({truncatedBytes: 5, lastSeq: 0});
    expect(readFileSync(path, "utf8")).toBe('{"seq":0}\n');
    writeFileSync(path, "");
    expect(await repairTail(realFiles, path)).toEqual({truncatedBytes: 0, lastSeq: null, excerpt: null});
    writeFileSync(path, "torn");
    expect(await repairTail(realFiles, path)).toMatchObject({truncatedBytes: 4, lastSeq: null});
    expect(readFileSync(path, "utf8")).toBe("");
  });

  it("finds the last newline across read chunks (long lines)", async () => {
    const path = join(t.dir, "a.jsonl");
    const big = `{"seq":0,"x":"${"y".repeat(200_000)}"}\n`;
    writeFileSync(path, big);
    appendFileSync(path, `{"seq":1,"x":"${"z".repeat(150_000)}`);
    expect(await repairTail(realFiles, path)).toMatchObject({truncatedBytes: 150_000 + 14, lastSeq: 0});
    expect(readFileSync(path, "utf8")).toBe(big);
  });

  it("a full disk stops the writer: one error callback, nothing appended after it", async () => {
    const path = join(t.dir, "a.jsonl");
    const errors: string[] = [];
    const {writer} = await JsonlWriter.open<Rec>(fullDiskFiles("a.jsonl", 20), path, {
      onError: (e) => errors.push(e.message)
    });
    writer.append({v: 1});
    await writer.flush();
    writer.append({v: 2});
    writer.append({v: 3});
    await writer.flush();
    writer.append({v: 4});
    await writer.close();
    expect(errors).toEqual(["ENOSPC: no space left on device, write"]);
    expect(writer.error?.message).toMatch(/ENOSPC/);
    expect(writer.append({v: 5})).toBeNull();
    // the partial write left a torn tail (4 bytes) that repair removes
    expect(await repairTail(realFiles, path)).toMatchObject({truncatedBytes: 4, lastSeq: 0});
    expect(readFileSync(path, "utf8")).toBe('{"seq":0,"v":1}\n');
  });
});
