import {describe, expect, it} from "vitest";

import {createRedactor, envSecrets, isSecretName, redactionMark, urlSecrets} from "../../collector/redact.ts";

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
