import {describe, expect, it} from "vitest";

import {
  ARG_REDACTION as R,
  credentialValues,
  isCredentialName,
  nameWords,
  redactArgs,
  redactCommandLine
} from "../../../src/analysis/redact/args.ts";
import {redactText, redactUrl, redactValue} from "../../../src/analysis/redact/value.ts";

/**
 * The edges of the redaction rules, each expected output worked out by hand from the rule the source comments
 * state (a credential-named flag's value, an Authorization header with or without its scheme, a URL's userinfo,
 * query values and fragment). Written after a mutation run of src/analysis/redact (stop 46) found them untested.
 */
describe("credential names", () => {
  it("are split into lowercase words without empty ones", () => {
    expect(nameWords("--api-key")).toEqual(["api", "key"]);
    expect(nameWords("OPENAI__API_KEY_")).toEqual(["openai", "api", "key"]);
    expect(nameWords("hfToken")).toEqual(["hf", "token"]);
    expect(nameWords("APIKey")).toEqual(["apikey"]);
  });

  it("apikey written as one word is a credential; words merely containing one are not", () => {
    expect(isCredentialName("APIKey")).toBe(true);
    expect(isCredentialName("--apikey")).toBe(true);
    expect(isCredentialName("--keys")).toBe(false);
    expect(isCredentialName("--tokens")).toBe(false);
  });
});

describe("command-line arguments", () => {
  it("a single-dash credential flag takes the next argument as its value", () => {
    expect(redactArgs(["-token", "abc"])).toEqual(["-token", R]);
  });

  it("the next argument is not a value when it is itself a flag, or when there is none", () => {
    expect(redactArgs(["--api-key", "--port", "8000"])).toEqual(["--api-key", "--port", "8000"]);
    expect(redactArgs(["--api-key", "-p", "8"])).toEqual(["--api-key", "-p", "8"]);
    expect(redactArgs(["serve", "--api-key"])).toEqual(["serve", "--api-key"]);
  });

  it("a value that contains dashes is still a value", () => {
    expect(redactArgs(["--api-key", "sk--abc"])).toEqual(["--api-key", R]);
  });

  it("a credential word that is not a flag does not hide the next word", () => {
    expect(redactArgs(["echo", "token", "value"])).toEqual(["echo", "token", "value"]);
    expect(redactArgs(["x--token", "v"])).toEqual(["x--token", "v"]);
  });

  it("an empty assignment or an empty header has nothing to hide", () => {
    expect(redactArgs(["--api-key=", "x"])).toEqual(["--api-key=", "x"]);
    expect(redactArgs(["Authorization:"])).toEqual(["Authorization:"]);
    expect(redactArgs(["Authorization:  "])).toEqual(["Authorization:  "]);
  });

  it("a header value ending in a dash is redacted like any other", () => {
    expect(redactArgs(["X-Api-Key: sk-abc-"])).toEqual([`X-Api-Key: ${R}`]);
  });
});

describe("a command line as one string", () => {
  it("an Authorization header with extra spaces, a space before the colon, or no scheme word", () => {
    expect(redactCommandLine("Authorization:  Bearer sk-1")).toBe(`Authorization:  ${R}`);
    expect(redactCommandLine("Authorization: Bearer  sk-2")).toBe(`Authorization: ${R}`);
    expect(redactCommandLine("Authorization : Bearer sk-3")).toBe(`Authorization : ${R}`);
    expect(redactCommandLine("Authorization: sk-4")).toBe(`Authorization: ${R}`);
  });

  it("a credential flag's value after two spaces; a quoted flag and value", () => {
    expect(redactCommandLine("--api-key  SECRET")).toBe(`--api-key  ${R}`);
    expect(redactCommandLine(`x "--api-key" "SECRET"`)).toBe(`x "--api-key" ${R}`);
  });

  it("a flag after a credential flag is not its value; a trailing credential flag keeps the line", () => {
    expect(redactCommandLine("s --api-key --port 8000")).toBe("s --api-key --port 8000");
    expect(redactCommandLine("s --api-key -p 8")).toBe("s --api-key -p 8");
    expect(redactCommandLine("serve --api-key ")).toBe("serve --api-key ");
  });

  it("a single-dash credential flag", () => {
    expect(redactCommandLine("x -token abc")).toBe(`x -token ${R}`);
  });
});

describe("the values removed from launch arguments, for the exact-value scrubber", () => {
  it("are each secret once, with and without its scheme word, and never an empty string", () => {
    const args = [
      "--api-key",
      "S1",
      "--hf-token=S2",
      "HF_TOKEN=S3",
      "-H",
      "Authorization: Bearer S4",
      "--port",
      "8000",
      "X-Api-Key: S5",
      "X-Auth-Token: ",
      "--token=",
      "--api-key=a:b"
    ];
    expect(credentialValues(args)).toEqual(["S1", "S2", "S3", "Bearer S4", "S4", "S5", "a:b"]);
  });

  it("are none where nothing is secret, colons and equals signs of other arguments included", () => {
    expect(credentialValues(["--port", "8000", "-m", "model.gguf"])).toEqual([]);
    expect(credentialValues(["--url", "http://h:8000", "--tp=2"])).toEqual([]);
  });

  it("a scheme word is split off only at the start of the value, across any spaces", () => {
    expect(credentialValues(["Authorization: Bearer  S6"])).toEqual(["Bearer  S6", "S6"]);
    expect(credentialValues(["X-Api-Key: k Bearer S7"])).toEqual(["k Bearer S7"]);
  });
});

describe("URLs", () => {
  it("an empty userinfo is still marked", () => {
    expect(redactUrl("http://@h/x")).toBe(`http://${R}@h/x`);
  });

  it("an empty query or fragment stays empty; an empty query part stays empty", () => {
    expect(redactUrl("http://h/x?")).toBe("http://h/x?");
    expect(redactUrl("http://h/x#")).toBe("http://h/x#");
    expect(redactUrl("http://h/x?a=1&&b=2")).toBe(`http://h/x?a=${R}&&b=${R}`);
  });

  it("a query part with an empty name keeps its equals sign", () => {
    expect(redactUrl("http://h/?=abc")).toBe(`http://h/?=${R}`);
  });
});

describe("values under credential-named keys", () => {
  it("an empty text has nothing to hide, in a JSON object or in text", () => {
    const v = {api_key: ""};
    expect(redactValue(v)).toBe(v);
    expect(redactText(`{"api_key": ""}`)).toBe(`{"api_key": ""}`);
  });

  it("a list: each text is marked, already-marked ones and non-texts stay", () => {
    expect(redactValue({token: [R, "abc"]})).toEqual({token: [R, R]});
    expect(redactValue({token: ["abc", 3]})).toEqual({token: [R, 3]});
    const marked = {token: [R, R]};
    expect(redactValue(marked)).toBe(marked);
  });

  it("an object under a credential key is read key by key", () => {
    expect(redactValue({auth: {type: "bearer", token: "t0k"}})).toEqual({auth: {type: "bearer", token: R}});
  });
});
