import {describe, expect, it} from "vitest";

import {
  createRedactor,
  envSecrets,
  headerSecrets,
  isSecretName,
  redactionMark,
  runRedactor,
  urlSecrets
} from "../../collector/redact.ts";
import {PAYLOAD_WITHHELD, redactRecord} from "../../collector/request/record.ts";
import {ev, request} from "../support/bundle.ts";

describe("redaction", () => {
  const key = "sk-live-0123456789abcdef";
  const r = createRedactor([key, "short", null, undefined]);

  it("replaces every occurrence of a secret ≥ 8 chars with a stable hash mark", () => {
    const mark = redactionMark(key);
    expect(mark).toMatch(/^\[REDACTED:[0-9a-f]{8}\]$/);
    expect(r(`Authorization: Bearer ${key} and again ${key}`)).toBe(`Authorization: Bearer ${mark} and again ${mark}`);
  });

  it("ignores values shorter than 8 characters (they over-match)", () => {
    expect(r("a short story")).toBe("a short story");
    expect(r.size).toBe(1);
  });

  it("also catches URL-encoded and JSON-escaped forms", () => {
    const odd = createRedactor(['p@ss "word"/+']);
    expect(odd(`?q=${encodeURIComponent('p@ss "word"/+')}`)).not.toContain("word");
    expect(odd(JSON.stringify({v: 'p@ss "word"/+'}))).not.toContain("word");
  });

  it("redacts secret-named keys in objects, keeps *_env names and numbers", () => {
    const v = r.value({
      api_key: "abc",
      api_key_env: "OPENAI_API_KEY",
      max_tokens: 5,
      nested: [{token: "t0k3n-value"}],
      note: `x ${key}`
    });
    expect(v).toEqual({
      api_key: redactionMark("abc"),
      api_key_env: "OPENAI_API_KEY",
      max_tokens: 5,
      nested: [{token: redactionMark("t0k3n-value")}],
      note: `x ${redactionMark(key)}`
    });
    expect(r.value(v)).toEqual(v); // marks are not re-marked
  });

  it("strips userinfo and query values from URLs", () => {
    const u = r.url("http://bob:hunter22@host:8000/v1?token=abc&x=1");
    expect(u).not.toMatch(/hunter22|bob|abc/);
    expect(u).toContain("host:8000/v1");
    expect(urlSecrets("http://bob:hunter22@host/v1?token=abcdefgh")).toEqual(
      expect.arrayContaining(["hunter22", "abcdefgh"])
    );
  });

  it("knows secret names and collects secret env values", () => {
    expect(
      ["OPENAI_API_KEY", "HF_TOKEN", "DB_PASSWORD", "AWS_SECRET_ACCESS_KEY", "authorization"].every(isSecretName)
    ).toBe(true);
    expect(isSecretName("CUDA_VISIBLE_DEVICES")).toBe(false);
    expect(envSecrets({HF_TOKEN: "x1", PATH: "/bin", MY_CREDENTIAL: "y2"})).toEqual(["x1", "y2"]);
  });
});

describe("a header's credential and a secret split across events (audit)", () => {
  const token = "sk-HDRSECRET-0123456789abcdef";
  const target = {headers: {Authorization: `Bearer ${token}`}, base_url: "http://127.0.0.1:1/v1"};

  it("scrubs the credential after an authentication scheme, as a server echoes it without the scheme", () => {
    const r = runRedactor(target, {}, null);
    // OpenAI's 401 wording quotes the key alone
    const said = `Incorrect API key provided: ${token}. You can find your API key at …`;
    expect(r(said)).toBe(`Incorrect API key provided: ${redactionMark(token)}. You can find your API key at …`);
    expect(headerSecrets(`Bearer ${token}`)).toEqual([`Bearer ${token}`, token]);
    // Basic: base64("alice:pa55word-long") also yields the decoded pair and the password
    const basic = Buffer.from("alice:pa55word-long").toString("base64");
    expect(headerSecrets(`Basic ${basic}`)).toEqual([`Basic ${basic}`, basic, "alice:pa55word-long", "pa55word-long"]);
    expect(headerSecrets("plainvalue-123456")).toEqual(["plainvalue-123456"]);
  });

  it("withholds the raw payloads of a stream whose text holds a secret split over two events", () => {
    const key = "sk-ENVSECRET-0123456789abcdef";
    const r = createRedactor([key]);
    const payload = (text: string) => JSON.stringify({choices: [{index: 0, delta: {content: text}}]});
    const rec = {
      ...request("a", 0, [ev(10, "content"), ev(20, "content")]),
      responseText: undefined
    };
    rec.events = [
      [10_000_000, 60, "content", 1, payload("sk-ENVSECRET-0")],
      [20_000_000, 60, "content", 1, payload("123456789abcdef")]
    ];
    const out = redactRecord(rec, r);
    // neither payload holds the key whole, so a per-payload scrub would keep both halves
    expect(rec.events.map((e) => r(e[4]!))).toEqual(rec.events.map((e) => e[4]));
    expect(out.events.map((e) => e[4])).toEqual([PAYLOAD_WITHHELD, PAYLOAD_WITHHELD]);
    expect(out.events.map((e) => e.slice(0, 4))).toEqual(rec.events.map((e) => e.slice(0, 4))); // times and kinds kept
    // a stream without the secret keeps its payloads, scrubbed one by one
    const clean = {...rec, events: rec.events.map((e) => [e[0], e[1], e[2], e[3], payload("hello there")] as typeof e)};
    expect(redactRecord(clean, r).events.map((e) => e[4])).toEqual([payload("hello there"), payload("hello there")]);
  });
});

describe("error text kept to 4 KiB", () => {
  it("bounds a record's error text after the scrub, whose marks may be longer than the secrets they replace", () => {
    const key = "sk-LONGBODY-0123456789";
    const r = createRedactor([key]);
    // a 5,000-byte body excerpt with the key at its start: scrubbed, then cut to 4,048 bytes and a note
    const said = `http 500: ${key}${"z".repeat(5000 - 10 - key.length)}`;
    const rec = {
      ...request("a", 0, []),
      errorMessage: said,
      attempts: [{tCallNs: 0, tEndNs: 1, socketReused: true, transportError: "conn_reset" as const, errorMessage: said}]
    };
    const out = redactRecord(rec, r);
    const scrubbed = r(said);
    expect(scrubbed.startsWith(`http 500: ${redactionMark(key)}`)).toBe(true);
    const total = Buffer.byteLength(scrubbed);
    const expected = `${scrubbed.slice(0, 4048)} … (${total - 4048} of ${total} bytes cut)`;
    expect(out.errorMessage).toBe(expected);
    expect(out.attempts![0]!.errorMessage).toBe(expected);
    expect(Buffer.byteLength(out.errorMessage!)).toBeLessThanOrEqual(4096);
    expect(out.errorMessage).not.toContain(key);
  });
});
