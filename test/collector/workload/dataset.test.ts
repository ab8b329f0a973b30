import {readFileSync} from "node:fs";
import {join} from "node:path";

import {describe, expect, it} from "vitest";

import {arrayElementLines, corpusWords, parseDataset, parseDatasetItems} from "../../../collector/workload/dataset.ts";

const jsonl = (text: string) => parseDataset(text, "jsonl", "d.jsonl");
const sharegpt = (text: string) => parseDatasetItems(text, "sharegpt", "s.json");
const jsonlError = (text: string) => () => jsonl(text);

describe("parseDataset: jsonl", () => {
  it("reads a prompt and a system + user conversation, skipping blank lines", () => {
    const text = [
      `{"prompt": "tell me a joke"}`,
      ``,
      `{"messages": [{"role": "system", "content": "be terse"}, {"role": "user", "content": "why is the sea salty?"}], "max_tokens": 64, "id": "q2"}`,
      `{"id": 7, "prompt": "  spaced   out  "}`,
      ``
    ].join("\n");
    expect(jsonl(text)).toEqual([
      {line: 1, prompt: "tell me a joke", maxTokens: null, answerWords: null, promptWords: 4},
      {
        line: 3,
        prompt: [
          {role: "system", content: "be terse"},
          {role: "user", content: "why is the sea salty?"}
        ],
        maxTokens: 64,
        answerWords: null,
        promptWords: 7
      },
      {line: 4, prompt: "  spaced   out  ", maxTokens: null, answerWords: null, promptWords: 2}
    ]);
  });

  it("reads CRLF files with the same line numbers", () => {
    expect(jsonl(`{"prompt": "a b"}\r\n\r\n{"prompt": "c"}\r\n`).map((i) => [i.line, i.promptWords])).toEqual([
      [1, 2],
      [3, 1]
    ]);
  });

  it("a line that is not JSON names its line and column", () => {
    expect(jsonlError(`{"prompt": "a"}\n{"prompt": "b"}\n{"prompt": "c",}\n`)).toThrow(
      new Error("d.jsonl:3: not JSON: Expected double-quoted property name at column 16")
    );
  });

  it("exactly one of prompt and messages", () => {
    expect(jsonlError(`{"prompt": "a", "messages": [{"role": "user", "content": "a"}]}`)).toThrow(
      new Error("d.jsonl:1: both prompt and messages: give exactly one of the two")
    );
    expect(jsonlError(`{"max_tokens": 5}`)).toThrow(
      new Error("d.jsonl:1: neither prompt nor messages: give exactly one of the two")
    );
  });

  it("an unknown key is an error, not ignored", () => {
    expect(jsonlError(`{"prompt": "a", "temperature": 0.5}`)).toThrow(
      new Error(`d.jsonl:1: unknown key "temperature" (allowed: prompt, messages, max_tokens, id)`)
    );
    expect(jsonlError(`{"prompt": "a", "n": 2, "seed": 1}`)).toThrow(
      new Error(`d.jsonl:1: unknown keys "n", "seed" (allowed: prompt, messages, max_tokens, id)`)
    );
  });

  it("max_tokens is a positive integer", () => {
    expect(jsonlError(`{"prompt": "a", "max_tokens": -4}`)).toThrow(
      new Error("d.jsonl:1: max_tokens: expected a positive integer, got -4")
    );
    expect(jsonlError(`{"prompt": "a", "max_tokens": 2.5}`)).toThrow(
      new Error("d.jsonl:1: max_tokens: expected a positive integer, got 2.5")
    );
    expect(jsonlError(`{"prompt": "a", "max_tokens": -2.5}`)).toThrow(
      new Error("d.jsonl:1: max_tokens: expected a positive integer, got -2.5")
    );
    expect(jsonlError(`{"prompt": "a", "max_tokens": "8"}`)).toThrow(
      new Error(`d.jsonl:1: max_tokens: expected a positive integer, got "8"`)
    );
  });

  it("messages, prompt and id are checked field by field", () => {
    expect(jsonlError(`{"messages": [{"role": "bot", "content": null}]}`)).toThrow(
      new Error(
        [
          `d.jsonl:1: messages[0].role: expected "system", "developer", "user" or "assistant", got "bot"`,
          `d.jsonl:1: messages[0].content: expected a string, got null`
        ].join("\n")
      )
    );
    expect(jsonlError(`{"messages": []}`)).toThrow(
      new Error("d.jsonl:1: messages: expected at least one message, got []")
    );
    expect(jsonlError(`{"prompt": ""}`)).toThrow(new Error(`d.jsonl:1: prompt: expected a non-empty string, got ""`));
    expect(jsonlError(`{"prompt": "a", "id": true}`)).toThrow(
      new Error("d.jsonl:1: id: expected a string or a number, got true")
    );
    expect(jsonlError(`["a"]`)).toThrow(new Error(`d.jsonl:1: expected an object, got ["a"]`));
  });

  it("reports every bad line at once, in line order, the first 20 in full", () => {
    expect(jsonlError(`{"prompt": 1}\n{"prompt": "ok"}\n{"max_tokens": 0, "prompt": "x"}\n`)).toThrow(
      new Error(
        [
          "d.jsonl:1: prompt: expected a non-empty string, got 1",
          "d.jsonl:3: max_tokens: expected a positive integer, got 0"
        ].join("\n")
      )
    );
    const bad = Array.from({length: 25}, () => "{}").join("\n");
    const message = (() => {
      try {
        jsonl(bad);
      } catch (e) {
        return (e as Error).message.split("\n");
      }
      return [];
    })();
    expect(message).toHaveLength(21);
    expect(message[19]).toBe("d.jsonl:20: neither prompt nor messages: give exactly one of the two");
    expect(message[20]).toBe("… and 5 more problems");
  });

  it("an empty file is an error", () => {
    expect(jsonlError("")).toThrow(new Error("d.jsonl:1: empty dataset: no items"));
    expect(jsonlError("\n  \n\n")).toThrow(new Error("d.jsonl:1: empty dataset: no items"));
  });
});

describe("parseDataset: sharegpt", () => {
  const pretty = `[
  {
    "id": "a1",
    "conversations": [
      {"from": "system", "value": "You answer in French."},
      {"from": "human", "value": "How are you today?"},
      {"from": "gpt", "value": "Très bien, merci beaucoup !"}
    ]
  },
  {"id": "a2", "conversations": [{"from": "human", "value": "only one turn"}]},
  {
    "id": "a3",
    "conversations": [
      {"from": "human", "value": "name a prime"},
      {"from": "gpt", "value": "seven"},
      {"from": "human", "value": "another"},
      {"from": "gpt", "value": "eleven is one"}
    ]
  }
]`;

  it("the first human turn is the prompt, the next gpt turn the answer; a leading system turn a system message", () => {
    expect(sharegpt(pretty)).toEqual({
      items: [
        {
          line: 2,
          prompt: [
            {role: "system", content: "You answer in French."},
            {role: "user", content: "How are you today?"}
          ],
          maxTokens: null,
          answerWords: 5,
          promptWords: 8
        },
        {line: 11, prompt: "name a prime", maxTokens: null, answerWords: 1, promptWords: 3}
      ],
      skipped: 1
    });
  });

  it("parseDataset gives the items alone", () => {
    expect(parseDataset(pretty, "sharegpt", "s.json").map((i) => i.line)).toEqual([2, 11]);
  });

  it("a one-line file puts every item on line 1", () => {
    const one = JSON.stringify(JSON.parse(pretty));
    expect(sharegpt(one).items.map((i) => i.line)).toEqual([1, 1]);
  });

  it("skips entries without conversations, without a human turn or with an empty prompt", () => {
    const text = `[
{"id": "x"},
{"conversations": [{"from": "gpt", "value": "hello"}, {"from": "human", "value": "hi there"}]},
{"conversations": [{"from": "gpt", "value": "a"}, {"from": "bard", "value": "b"}]},
{"conversations": [{"from": "human", "value": "  "}, {"from": "gpt", "value": "b"}]},
{"conversations": [{"from": "system", "value": " "}, {"from": "user", "value": "q"}, {"from": "user", "value": "r"}]}
]`;
    expect(sharegpt(text)).toEqual({
      items: [
        {line: 3, prompt: "hi there", maxTokens: null, answerWords: null, promptWords: 2},
        {line: 6, prompt: "q", maxTokens: null, answerWords: null, promptWords: 1}
      ],
      skipped: 3
    });
  });

  it("invalid JSON names the line and column where parsing stopped", () => {
    expect(() => sharegpt(`[\n  {"conversations": []},\n  {"conversations" []}\n]`)).toThrow(
      new Error("s.json:3: not JSON: Expected ':' after property name at column 20")
    );
    expect(() => sharegpt(`[\n  {"conversations": []},\n`)).toThrow(
      new Error("s.json:2: not JSON: Unexpected end of JSON input")
    );
  });

  it("a file that is not an array, a non-object entry or an unknown speaker is an error", () => {
    expect(() => sharegpt(`{"conversations": []}`)).toThrow(
      new Error(`s.json:1: expected a JSON array of {conversations: […]}, got {"conversations":[]}`)
    );
    expect(() =>
      sharegpt(
        `[\n  "hello",\n  {"conversations": [{"from": "human", "value": "a"}, {"from": "robot", "value": 2}]}\n]`
      )
    ).toThrow(
      new Error(
        [
          `s.json:2: expected an object {conversations: […]}, got "hello"`,
          `s.json:3: conversations[1].from: expected human, user, gpt, assistant, chatgpt, bing, bard or system, got "robot"`,
          `s.json:3: conversations[1].value: expected a string, got 2`
        ].join("\n")
      )
    );
  });

  it("a file with no usable conversation is an error", () => {
    expect(() => sharegpt(`[]`)).toThrow(new Error("s.json:1: empty dataset: no items"));
    expect(() => sharegpt(`[{"conversations": [{"from": "human", "value": "a"}]}, {"id": 2}]`)).toThrow(
      new Error(
        "s.json:1: empty dataset: every conversation skipped (2: fewer than 2 turns, no human turn or an empty prompt)"
      )
    );
  });

  it("arrayElementLines finds where each element starts, strings with brackets and escapes included", () => {
    expect(arrayElementLines(`[\n 1,\n "a,]\\"[",\n\n [2,\n 3], {"k": "}"}\n]`)).toEqual([2, 3, 5, 6]);
    expect(arrayElementLines(`[ ]`)).toEqual([]);
  });
});

describe("corpusWords", () => {
  it("splits on whitespace and keeps the line each word starts on", () => {
    const c = corpusWords("the quick\n\n  brown\tfox\r\njumps", "c.txt");
    expect(c.words).toEqual(["the", "quick", "brown", "fox", "jumps"]);
    expect([...c.lines]).toEqual([1, 1, 3, 3, 4]);
  });

  it("a corpus without words is an error", () => {
    expect(() => corpusWords(" \n\t\n", "c.txt")).toThrow(new Error("c.txt:1: empty corpus: no words"));
  });
});

describe("configs/datasets/inferscope-mini.jsonl", () => {
  const text = readFileSync(join(import.meta.dirname, "../../../configs/datasets/inferscope-mini.jsonl"), "utf8");
  const items = parseDataset(text, "jsonl", "inferscope-mini.jsonl");

  it("parses: 48 items, one per line, 12 conversations, 26 with their own max_tokens", () => {
    expect(items).toHaveLength(48);
    expect(items.map((i) => i.line)).toEqual(Array.from({length: 48}, (_, k) => k + 1));
    expect(items.filter((i) => typeof i.prompt !== "string")).toHaveLength(12);
    expect(items.filter((i) => i.maxTokens !== null)).toHaveLength(26);
    expect(items[0]).toEqual({
      line: 1,
      prompt: "Name three colours.",
      maxTokens: null,
      answerWords: null,
      promptWords: 3
    });
  });

  it("every conversation is a system message then a user message; some prompts are Chinese; lengths vary", () => {
    for (const i of items)
      if (typeof i.prompt !== "string") expect(i.prompt.map((m) => m.role)).toEqual(["system", "user"]);
    const texts = items.map((i) =>
      typeof i.prompt === "string" ? i.prompt : i.prompt.map((m) => m.content).join(" ")
    );
    expect(texts.filter((t) => /[\u4e00-\u9fff]/.test(t))).toHaveLength(9);
    expect(items.some((i) => i.promptWords > 300)).toBe(true);
    expect(items.filter((i) => i.promptWords < 10).length).toBeGreaterThan(5);
  });
});
