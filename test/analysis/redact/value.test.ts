import {describe, expect, it} from "vitest";

import {ARG_REDACTION as R} from "../../../src/analysis/redact/args.ts";
import {isCredentialKey, redactText, redactUrl, redactValue} from "../../../src/analysis/redact/value.ts";

/** Credentials inside values read from peer tools' files (Q5): found by where they stand, never by value. */
describe("redactUrl: userinfo, every query value and the fragment", () => {
  it("keeps a URL without credentials as it is", () => {
    expect(redactUrl("http://vllm-service:80")).toBe("http://vllm-service:80");
    expect(redactUrl("http://127.0.0.1:8000/v1")).toBe("http://127.0.0.1:8000/v1");
  });

  it("replaces userinfo and query values, keeping the query's names", () => {
    expect(redactUrl("http://user:pa55@host:8000/v1?api_key=sk-1&api-version=2024&flag")).toBe(
      `http://${R}@host:8000/v1?api_key=${R}&api-version=${R}&${R}`
    );
    expect(redactUrl("https://host/v1#access_token=abc")).toBe(`https://host/v1#${R}`);
  });

  it("reads a URL written without its scheme the same way, and is idempotent", () => {
    expect(redactUrl("host:8000/v1?token=t0k")).toBe(`host:8000/v1?token=${R}`);
    const once = redactUrl("http://u:p@h/x?k=v");
    expect(redactUrl(once)).toBe(once);
  });
});

describe("redactText: URLs, quoted pairs and command lines inside a string", () => {
  it("AIPerf's recorded command line loses the value after --api-key and nothing else", () => {
    const cli =
      'aiperf profile -m "openai/gpt-oss-20b" --url "http://vllm-service:80" --api-key "test_key" --max-tokens 300';
    expect(redactText(cli)).toBe(
      `aiperf profile -m "openai/gpt-oss-20b" --url "http://vllm-service:80" --api-key ${R} --max-tokens 300`
    );
  });

  it("a URL inside an error message, and a dict written as text", () => {
    expect(redactText("Cannot connect to http://h:8000/v1?token=s3cr3t (timeout)")).toBe(
      `Cannot connect to http://h:8000/v1?token=${R} (timeout)`
    );
    expect(redactText(`{"api_key": "sk-1", "max_tokens": "300"}`)).toBe(`{"api_key": "${R}", "max_tokens": "300"}`);
    expect(redactText(`{'Authorization': 'Bearer sk-2'}`)).toBe(`{'Authorization': '${R}'}`);
  });

  it("leaves text without credentials unchanged", () => {
    for (const t of ["openai/gpt-oss-20b", "--max-num-batched-tokens 8192", "max_tokens=300", "time to first token"])
      expect(redactText(t)).toBe(t);
  });
});

describe("redactValue: credential-named keys and every string, recursively", () => {
  it("isCredentialKey: a key that holds a credential, not one that describes it", () => {
    for (const k of ["api_key", "apiKey", "hf_token", "Authorization", "x-api-key", "password", "client_secret"])
      expect(isCredentialKey(k), k).toBe(true);
    for (const k of ["max_tokens", "model", "api_key_env", "token_count_source", "key_file", "output_tokens"])
      expect(isCredentialKey(k), k).toBe(false);
  });

  it("redacts text under credential keys at any depth, keeps numbers under any key", () => {
    const v = {
      endpoint: {url: "http://h:80", api_key: "test_key", headers: {Authorization: "Bearer sk-9", "x-api-key": "k"}},
      keys: [{token: "t1"}, {token: ["t2", "t3"]}],
      output_token_throughput: {avg: 12.5, unit: "tokens/sec"},
      time_to_first_token: 3.25,
      max_tokens: 300,
      big: 12345678901234567890n,
      cli_command: "x --hf-token hf_abc"
    };
    expect(redactValue(v)).toEqual({
      endpoint: {url: "http://h:80", api_key: R, headers: {Authorization: R, "x-api-key": R}},
      keys: [{token: R}, {token: [R, R]}],
      output_token_throughput: {avg: 12.5, unit: "tokens/sec"},
      time_to_first_token: 3.25,
      max_tokens: 300,
      big: 12345678901234567890n,
      cli_command: `x --hf-token ${R}`
    });
  });

  it("returns the same object where nothing changed, and never sets a prototype from a key", () => {
    const clean = {a: [1, 2, {b: "text"}], c: null};
    expect(redactValue(clean)).toBe(clean);
    const hostile = JSON.parse('{"__proto__": {"api_key": "x"}, "token": "y"}') as Record<string, unknown>;
    const out = redactValue(hostile);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"api_key":"${R}"},"token":"${R}"}`);
  });
});
