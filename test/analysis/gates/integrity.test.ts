import {createHash} from "node:crypto";

import {describe, expect, it} from "vitest";

import {
  analyzeFiles,
  analyzeSpec,
  bundleFiles,
  cleanRun,
  gateOf,
  lane,
  request,
  tokenEvents
} from "../../support/bundle.ts";

/** 20 back-to-back requests on one slot: every gate passes (the baseline each test changes in one place). */
const clean = () => cleanRun(lane("r", 20));
const REQUESTS = "requests.jsonl";

describe("G1 evidence integrity", () => {
  it("passes when every file matches its digest and every record is valid and continuous", async () => {
    const r = await analyzeSpec(clean());
    // config.resolved.yaml, requests.jsonl, client_metrics.jsonl (the manifest itself is not counted)
    expect(gateOf(r, "G1").status).toBe("pass");
    expect(gateOf(r, "G1").reason).toBe("3 files match their digests; records valid and continuous");
    expect(r.verdict, r.verdict_reasons.join("\n")).toBe("VALID");
  });

  it("fails, making the run INVALID, when one byte of a sealed file changes", async () => {
    const files = bundleFiles(clean());
    // same length, other content: the byte count still matches, the sha256 does not
    files[REQUESTS] = files[REQUESTS]!.replace('"httpStatus":200', '"httpStatus":201');
    const bytes = Buffer.byteLength(files[REQUESTS]!);
    const r = await analyzeFiles(files);
    const g = gateOf(r, "G1");
    expect(g.status).toBe("fail");
    expect(g.reason).toMatch(
      new RegExp(
        `^digest mismatch: requests\\.jsonl has sha256 [0-9a-f]{12}… \\(${bytes} B\\), manifest says [0-9a-f]{12}… \\(${bytes} B\\)$`
      )
    );
    expect(r.verdict).toBe("INVALID");
  });

  it("fails when only the manifest's byte count of a file is edited (its sha256 left as sealed)", async () => {
    const files = bundleFiles(clean());
    const m = JSON.parse(files["manifest.json"]!) as {files: {path: string; bytes: number}[]};
    const entry = m.files.find((f) => f.path === REQUESTS)!;
    const real = entry.bytes;
    entry.bytes = real + 1;
    files["manifest.json"] = JSON.stringify(m);
    const g = gateOf(await analyzeFiles(files), "G1");
    expect(g.status).toBe("fail");
    expect(g.reason).toMatch(
      new RegExp(
        `^digest mismatch: requests\\.jsonl has sha256 .*\\(${real} B\\), manifest says .*\\(${real + 1} B\\)$`
      )
    );
  });

  it("lists every mismatched file, joined by '; '", async () => {
    const files = bundleFiles(clean());
    files[REQUESTS] = files[REQUESTS]!.replace('"httpStatus":200', '"httpStatus":201');
    delete files["client_metrics.jsonl"];
    const g = gateOf(await analyzeFiles(files), "G1");
    expect(g.reason).toMatch(/^digest mismatch: client_metrics\.jsonl is missing; requests\.jsonl has sha256 /);
  });

  it("does not count a signature beside the manifest as a file the manifest forgot", async () => {
    const files = {...bundleFiles(clean()), "manifest.sig": "{}"};
    const g = gateOf(await analyzeFiles(files), "G1");
    expect(g.status).toBe("pass");
    const stray = gateOf(await analyzeFiles({...bundleFiles(clean()), "notes.txt": "x"}), "G1");
    expect(stray).toMatchObject({status: "warn", reason: "files not in the manifest: notes.txt"});
  });

  it("names a schema error's line and key in a manifest that does not validate", async () => {
    const files = bundleFiles(clean());
    const text = files["manifest.json"]!;
    const line = text.split("\n").findIndex((l) => l.includes('"status": "complete"')) + 1;
    files["manifest.json"] = text.replace('"status": "complete"', '"status": "compleat"');
    const g = gateOf(await analyzeFiles(files), "G1");
    expect(g.reason).toMatch(
      new RegExp(`^manifest\\.json is not valid \\(line ${line}, status: .*\\): digests cannot be verified$`)
    );
  });

  it("fails an error text over 4 KiB of UTF-8 and an HTTP status that is not three digits, naming the line", async () => {
    const spec = clean();
    // 1,366 "€" are 4,098 bytes (3 each) in 1,366 characters: over the bound in bytes though not in characters
    const long = "€".repeat(1366);
    spec.requests[4] = {...spec.requests[4]!, errorMessage: long};
    spec.requests[9] = {...spec.requests[9]!, httpStatus: 99999};
    const r = await analyzeSpec(spec);
    const g = gateOf(r, "G1");
    expect(g.status).toBe("fail");
    // the 5th and the 10th record: lines 5 and 10 of requests.jsonl
    expect(g.reason).toMatch(
      /^2 schema or sequence error\(s\), first: requests\.jsonl:5 errorMessage: longer than 4096 bytes/
    );
    expect(r.issues.filter((i) => i.file === REQUESTS).map((i) => [i.line, i.path])).toEqual([
      [5, "errorMessage"],
      [10, "httpStatus"]
    ]);
    expect(r.verdict).toBe("INVALID");
    // 1,365 of them (4,095 bytes) and a status of 599 are records as the collector writes them
    spec.requests[4] = {...spec.requests[4]!, errorMessage: long.slice(1)};
    spec.requests[9] = {...spec.requests[9]!, httpStatus: 599};
    expect(gateOf(await analyzeSpec(spec), "G1").status).toBe("pass");
  });

  it("fails when the manifest's record count of a file differs from the file's lines, digests intact", async () => {
    // 20 requests, one line each: the manifest edited to say 21 (the digest entries left as sealed)
    const files = bundleFiles(clean());
    const m = JSON.parse(files["manifest.json"]!) as {files: {path: string; records: number | null}[]};
    const entry = m.files.find((f) => f.path === REQUESTS)!;
    expect(entry.records).toBe(20);
    entry.records = 21;
    // written one key per line, as the collector seals it: the error names the line of that entry's count
    const text = JSON.stringify(m, null, 2);
    const line = text.split("\n").findIndex((l) => l.includes('"records": 21')) + 1;
    expect(line).toBeGreaterThan(1);
    files["manifest.json"] = text;
    const r = await analyzeFiles(files);
    const g = gateOf(r, "G1");
    expect(g.status).toBe("fail");
    expect(g.reason).toBe(
      `1 schema or sequence error(s), first: manifest.json:${line} lists 21 records for requests.jsonl, which holds 20 newline-terminated lines`
    );
    expect(r.verdict).toBe("INVALID");
  });

  it("fails when the manifest lists a file twice, or states a configSha256 other than the config's digest", async () => {
    type M = {configSha256: string; files: {path: string; sha256: string}[]};
    const edited = (edit: (m: M) => void) => {
      const files = bundleFiles(clean());
      const m = JSON.parse(files["manifest.json"]!) as M;
      edit(m);
      files["manifest.json"] = JSON.stringify(m, null, 2);
      return analyzeFiles(files);
    };
    // the requests entry listed again (its digest as sealed): two entries for one file
    const twice = await edited((m) => void m.files.push({...m.files.find((f) => f.path === REQUESTS)!}));
    expect(gateOf(twice, "G1").status).toBe("fail");
    // the 4th "path" of the pretty-printed manifest is the repeated entry's (files[3])
    const paths = JSON.stringify(JSON.parse(bundleFiles(clean())["manifest.json"]!), null, 2).split("\n");
    const pathLines = paths.flatMap((l, i) => (/^\s+"path": /.test(l) ? [i + 1] : []));
    expect(twice.issues.find((i) => i.code === "manifest_duplicate_file")).toMatchObject({
      severity: "error",
      file: "manifest.json",
      // files[0..2] as sealed, files[3] appended after them: one "path" line further on than files[2]'s, 7 lines per entry
      line: pathLines[2]! + 7,
      path: "files.3.path",
      message: '"requests.jsonl" is listed twice (also files.1)'
    });
    const zeros = "0".repeat(64);
    const config = await edited((m) => void (m.configSha256 = zeros));
    expect(gateOf(config, "G1").status).toBe("fail");
    expect(config.issues.find((i) => i.code === "manifest_config_digest")?.line).toBe(
      paths.findIndex((l) => l.includes('"configSha256": ')) + 1
    );
    expect(config.issues.find((i) => i.code === "manifest_config_digest")?.message).toMatch(
      new RegExp(`^configSha256 ${zeros} is not the digest listed for config\\.resolved\\.yaml \\([0-9a-f]{64}\\)$`)
    );
    expect(config.verdict).toBe("INVALID");
  });

  it("fails when a load point's value in the (undigested) manifest no longer matches its id", async () => {
    const files = bundleFiles(clean());
    const m = JSON.parse(files["manifest.json"]!) as {loadPoints: {id: string; value: number}[]};
    expect(m.loadPoints[0]!.id).toBe("concurrency-1");
    m.loadPoints[0]!.value = 2; // the run was at 1 in flight; the edit would publish 2
    const text = JSON.stringify(m, null, 2);
    files["manifest.json"] = text;
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(r.issues.find((i) => i.code === "manifest_point_id")).toMatchObject({
      line: text.split("\n").findIndex((l) => l.includes('"id": "concurrency-1"')) + 1,
      path: "loadPoints.0",
      message: 'load point "concurrency-1" says mode concurrency, value 2: its id would be "concurrency-2"'
    });
  });

  it("takes `<mode>-unknown` as an id only from an importer (a load the source file does not state)", async () => {
    const files = bundleFiles(clean());
    const m = JSON.parse(files["manifest.json"]!) as {loadPoints: {id: string}[]; provenance: {kind: string}};
    expect(m.provenance.kind).not.toBe("imported");
    m.loadPoints[0]!.id = "concurrency-unknown"; // a collector always knows the load it drove
    files["manifest.json"] = JSON.stringify(m);
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(r.issues.find((i) => i.code === "manifest_point_id")?.message).toBe(
      'load point "concurrency-unknown" says mode concurrency, value 1: its id would be "concurrency-1"'
    );
  });

  /** Writes the manifest's digest and size of one edited file, as a careful forger would. */
  const reseal = (files: Record<string, string>, path: string): void => {
    const m = JSON.parse(files["manifest.json"]!) as {files: {path: string; sha256: string; bytes: number}[]};
    const entry = m.files.find((f) => f.path === path)!;
    entry.sha256 = createHash("sha256").update(files[path]!).digest("hex");
    entry.bytes = Buffer.byteLength(files[path]!);
    files["manifest.json"] = JSON.stringify(m);
  };

  it("fails when a JSONL file's lines end in CR LF, digests resealed to match", async () => {
    const files = bundleFiles(clean());
    files[REQUESTS] = files[REQUESTS]!.replaceAll("\n", "\r\n");
    reseal(files, REQUESTS);
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("fail");
    const crlf = r.issues.filter((i) => i.code === "crlf");
    expect(crlf).toHaveLength(20); // one per line
    expect(crlf[0]).toMatchObject({file: REQUESTS, line: 1});
  });

  it("fails when a record gives a name twice, digests resealed to match (JSON.parse would keep the last)", async () => {
    const files = bundleFiles(clean());
    const lines = files[REQUESTS]!.split("\n");
    // the third record gains a second httpStatus: a reader keeping the first sees a 500, JSON.parse the 200
    lines[2] = lines[2]!.replace(/^\{/, '{"httpStatus":500,');
    files[REQUESTS] = lines.join("\n");
    reseal(files, REQUESTS);
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(r.verdict).toBe("INVALID");
    const repeated = r.issues.filter((i) => i.code === "duplicate_key");
    expect(repeated).toEqual([expect.objectContaining({file: REQUESTS, line: 3, severity: "error"})]);
    expect(repeated[0]!.message).toContain('"$.httpStatus" is given twice');
  });

  it("fails when a file the manifest declares is missing", async () => {
    const files = bundleFiles(clean());
    delete files["client_metrics.jsonl"];
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(gateOf(r, "G1").reason).toBe("digest mismatch: client_metrics.jsonl is missing");
    expect(r.verdict).toBe("INVALID");
  });

  it("fails without a manifest: the digests cannot be verified", async () => {
    const files = bundleFiles(clean());
    delete files["manifest.json"];
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(gateOf(r, "G1").reason).toBe("no manifest.json: digests cannot be verified");
    expect(r.verdict).toBe("INVALID");
  });

  it("fails on a manifest that does not parse, naming the line at fault", async () => {
    const files = bundleFiles(clean());
    // the manifest as written is pretty-printed; its status line made not JSON (a bare word)
    const text = files["manifest.json"]!;
    const line = text.split("\n").findIndex((l) => l.includes('"status": "complete"')) + 1;
    files["manifest.json"] = text.replace('"status": "complete"', '"status": complete');
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(gateOf(r, "G1").reason).toMatch(
      new RegExp(
        `^manifest\\.json is not valid \\(line ${line}: invalid JSON: expected a value .*found "c" \\(column 13\\)\\): digests cannot be verified$`
      )
    );
    expect(gateOf(r, "G28").reason).toBe("bundle status is partial: the manifest is not valid (see G1)");
  });

  it("fails on a sealed record that breaks the schema, though every digest matches", async () => {
    // line 3 (seq 2) carries its HTTP status as a string: one schema error at requests.jsonl:3
    const r = await analyzeSpec({
      ...clean(),
      beforeSeal: (f) => (f[REQUESTS] = f[REQUESTS]!.replace(/("seq":2,.*?)"httpStatus":200/, '$1"httpStatus":"200"'))
    });
    const g = gateOf(r, "G1");
    expect(g.status).toBe("fail");
    expect(g.reason).toMatch(/^1 schema or sequence error\(s\), first: requests\.jsonl:3 /);
    expect(r.load_points[0]!.n_success).toBe(19);
    expect(r.verdict).toBe("INVALID");
  });

  it("fails on a gap in seq", async () => {
    // seq 0…4, then 6 where 5 was due (line 6)
    const r = await analyzeSpec({
      ...clean(),
      beforeSeal: (f) => (f[REQUESTS] = f[REQUESTS]!.replace('{"seq":5,', '{"seq":6,'))
    });
    const g = gateOf(r, "G1");
    expect(g.status).toBe("fail");
    expect(g.reason).toMatch(/first: requests\.jsonl:6 seq: gap: expected seq 5, got 6$/);
    expect(r.verdict).toBe("INVALID");
  });

  it("fails on an unparseable line that is not the final one (only the final line may be torn)", async () => {
    // line 10 (seq 9) cut short, followed by 10 more lines
    const r = await analyzeSpec({
      ...clean(),
      beforeSeal: (f) => {
        const lines = f[REQUESTS]!.split("\n");
        lines[9] = lines[9]!.slice(0, 40);
        f[REQUESTS] = lines.join("\n");
      }
    });
    const g = gateOf(r, "G1");
    expect(g.status).toBe("fail");
    expect(g.reason).toMatch(/^1 schema or sequence error\(s\), first: requests\.jsonl:10 invalid JSON/);
    expect(r.verdict).toBe("INVALID");
  });

  it("fails on a request whose events run backwards in time (clock regression)", async () => {
    const requests = lane("r", 20);
    // the third token event (at 15 ms) moved before the second (10 ms)
    requests[0] = request(
      "r0",
      0,
      [...tokenEvents(2, 5, 5), [8_000_000, 100, "content", null], ...tokenEvents(7, 20, 5)],
      {
        endMs: 100,
        index: 0
      }
    );
    const r = await analyzeSpec(cleanRun(requests));
    expect(gateOf(r, "G1").status).toBe("fail");
    expect(gateOf(r, "G1").reason).toMatch(/clock regression/);
    expect(r.verdict).toBe("INVALID");
  });

  it("warns when only the final line of a partial bundle is torn, drops it with a note, and keeps the rest", async () => {
    const r = await analyzeSpec({
      ...clean(),
      manifest: {status: "partial", statusReason: "collector killed; sealed by inferscope seal"},
      beforeSeal: (f) => (f[REQUESTS] += '{"seq":20,"id":"r20","point":"concur')
    });
    const g = gateOf(r, "G1");
    expect(g.status).toBe("warn");
    expect(g.reason).toBe("1 torn final line(s) dropped");
    expect(r.load_points[0]!.n_success).toBe(20);
    // a warning of a gate whose failure is INVALID leaves the run INCONCLUSIVE (verdictOf)
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("fails a torn final line in a bundle its manifest calls complete: a crashed run is sealed as partial", async () => {
    const r = await analyzeSpec({
      ...clean(),
      beforeSeal: (f) => (f[REQUESTS] += '{"seq":20,"id":"r20","point":"concur')
    });
    expect(gateOf(r, "G1")).toMatchObject({
      status: "fail",
      reason:
        "1 torn final line(s) in a bundle its manifest calls complete (a crashed run is sealed as partial, its torn tail cut)"
    });
    expect(r.verdict).toBe("INVALID");
  });

  it("warns about a file the manifest does not list", async () => {
    const files = {...bundleFiles(clean()), "notes.txt": "added after sealing\n"};
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G1").status).toBe("warn");
    expect(gateOf(r, "G1").reason).toBe("files not in the manifest: notes.txt");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("the first error's JSON path is in the reason, not only in the per-line issue", async () => {
    // a fractional header time on the third record: the schema wants whole ns
    const r = await analyzeSpec({
      ...clean(),
      beforeSeal: (f) =>
        (f[REQUESTS] = f[REQUESTS]!.split("\n")
          .map((l, i) => (i === 2 ? l.replace(/"tHdrNs":(\d+)/, (_m, t: string) => `"tHdrNs":${t}.5`) : l))
          .join("\n"))
    });
    const g = gateOf(r, "G1");
    expect(g.reason).toMatch(/first: requests\.jsonl:3 tHdrNs: /);
  });

  it("warns on a measure version this analyzer does not know: its timestamps may mean something else", async () => {
    const r = await analyzeSpec({...clean(), manifest: {measureVersion: "99"}});
    expect(gateOf(r, "G1")).toMatchObject({
      status: "warn",
      reason:
        'measure version "99" is not one this analyzer knows (1, 2 or import-<tool>): its timestamps may mean something else'
    });
    expect(r.verdict).toBe("INCONCLUSIVE");
    for (const known of ["1", "2", "import-vllm"]) {
      const k = await analyzeSpec({...clean(), manifest: {measureVersion: known}});
      expect(gateOf(k, "G1").status, known).toBe("pass");
    }
  });

  it("fails when a file the analysis reads is not in the manifest: no digest covers the numbers it gives", async () => {
    // the hostile-bundle audit: requests.jsonl removed from the manifest, then edited, passed as INCONCLUSIVE
    const files = bundleFiles(clean());
    const m = JSON.parse(files["manifest.json"]!) as {files: {path: string}[]};
    m.files = m.files.filter((f) => f.path !== REQUESTS && f.path !== "client_metrics.jsonl");
    const r = await analyzeFiles({...files, "manifest.json": JSON.stringify(m)});
    expect(gateOf(r, "G1")).toMatchObject({
      status: "fail",
      reason:
        "files the analysis reads are not in the manifest, so no digest covers them: client_metrics.jsonl, requests.jsonl"
    });
    expect(r.verdict).toBe("INVALID");
  });
});

describe("G28 run completion", () => {
  it("passes a bundle whose status is complete", async () => {
    const r = await analyzeSpec(clean());
    expect(gateOf(r, "G28").status).toBe("pass");
    expect(gateOf(r, "G28").reason).toBe("run completed");
  });

  it("warns on an interrupted run and states why, making it INCONCLUSIVE", async () => {
    const r = await analyzeSpec({...clean(), manifest: {status: "interrupted", statusReason: "SIGINT after 20 of 40"}});
    expect(gateOf(r, "G28").status).toBe("warn");
    expect(gateOf(r, "G28").reason).toBe("bundle status is interrupted: SIGINT after 20 of 40");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("warns on a partial bundle sealed after a crash", async () => {
    const r = await analyzeSpec({...clean(), manifest: {status: "partial", statusReason: null}});
    expect(gateOf(r, "G28").status).toBe("warn");
    expect(gateOf(r, "G28").reason).toBe("bundle status is partial");
    expect(r.verdict).toBe("INCONCLUSIVE");
  });

  it("treats a bundle without a manifest as partial", async () => {
    const files = bundleFiles(clean());
    delete files["manifest.json"];
    const r = await analyzeFiles(files);
    expect(gateOf(r, "G28").status).toBe("warn");
    expect(gateOf(r, "G28").reason).toBe("bundle status is partial: no manifest");
  });
});
