import type {SuiteOptions} from "../../src/analysis/schema/config.ts";
import {mulberry32} from "../../src/analysis/stats/prng.ts";
import {GET_TIME, GET_WEATHER, toolParams} from "./tools.ts";
import type {CaseItem, Turn} from "./types.ts";

/**
 * Items of the performance cases without long contexts (01, 02, 03, 04, 06, 07, 08). Where a task has a
 * checkable answer the case asserts it (tool calls, numbers, recall); pure latency and stress items are
 * "not evaluated", never failed.
 */

const FINAL = 'Give the final answer on its own last line in the form "#### <number>".';
const notScored = (reason: string) => ({scorer: "none", expected: null, params: {reason}});

const one = (itemId: string, tier: string | null, turn: Omit<Turn, "tier">, concurrency = 1): CaseItem => ({
  itemId,
  tier,
  concurrency,
  turns: [{...turn, tier}]
});

export const GENERATION_PROMPT =
  "Write a short story about a lighthouse keeper who finds an old map in the cellar. Use plain prose.";

export function case01(): CaseItem[] {
  return [
    one("story", null, {
      user: GENERATION_PROMPT,
      maxTokens: 256,
      ignoreEos: true,
      score: notScored("latency baseline: the generated text is not scored")
    })
  ];
}

export const TOOL_CALL_PROMPT =
  "What is the weather like in Paris right now? Use the get_weather tool with the temperature in celsius.";

export function case02(): CaseItem[] {
  return [
    one("weather", null, {
      user: TOOL_CALL_PROMPT,
      tools: [GET_WEATHER],
      maxTokens: 128,
      ignoreEos: false,
      score: {scorer: "tool_schema", expected: null, params: toolParams([GET_WEATHER], ["get_weather"], 1, 1)}
    })
  ];
}

/** A small inventory file: the questions' answers are computed from it, not written by hand. */
export const INVENTORY: readonly {sku: string; location: string; quantity: number; unitPrice: number}[] = [
  {sku: "A-100", location: "Warehouse A", quantity: 120, unitPrice: 2.5},
  {sku: "A-101", location: "Warehouse B", quantity: 75, unitPrice: 4},
  {sku: "A-102", location: "Warehouse A", quantity: 30, unitPrice: 12},
  {sku: "B-200", location: "Warehouse C", quantity: 210, unitPrice: 0.75},
  {sku: "B-201", location: "Warehouse B", quantity: 48, unitPrice: 9.5},
  {sku: "B-202", location: "Warehouse B", quantity: 15, unitPrice: 40},
  {sku: "C-300", location: "Warehouse A", quantity: 64, unitPrice: 3.25},
  {sku: "C-301", location: "Warehouse C", quantity: 9, unitPrice: 120},
  {sku: "C-302", location: "Warehouse B", quantity: 102, unitPrice: 1.2},
  {sku: "D-400", location: "Warehouse C", quantity: 57, unitPrice: 6}
];

export function inventoryCsv(): string {
  return [
    "sku,location,quantity,unit_price",
    ...INVENTORY.map((r) => `${r.sku},${r.location},${r.quantity},${r.unitPrice}`)
  ].join("\n");
}

export function case03(): CaseItem[] {
  const file = `File inventory.csv:\n\`\`\`\n${inventoryCsv()}\n\`\`\`\n\n`;
  const inB = INVENTORY.filter((r) => r.location === "Warehouse B").reduce((a, r) => a + r.quantity, 0);
  const priciest = INVENTORY.reduce((a, r) => (r.unitPrice > a.unitPrice ? r : a));
  return [
    one("units-b", null, {
      user: `${file}Using the file above, how many units in total are stored in Warehouse B? ${FINAL}`,
      maxTokens: 256,
      ignoreEos: false,
      score: {scorer: "numeric", expected: inB}
    }),
    one("value-priciest", null, {
      user: `${file}Using the file above, what is the total stock value (quantity times unit price) of the item with the highest unit price? ${FINAL}`,
      maxTokens: 256,
      ignoreEos: false,
      score: {scorer: "numeric", expected: priciest.quantity * priciest.unitPrice}
    })
  ];
}

export const PARALLEL_TOOLS_PROMPT =
  "I need two things at once: the current weather in Tokyo in celsius, and the local time in the time zone Europe/Berlin. Call both tools in the same turn.";

export function case04(): CaseItem[] {
  return [
    one("weather-and-time", null, {
      user: PARALLEL_TOOLS_PROMPT,
      tools: [GET_WEATHER, GET_TIME],
      parallelToolCalls: true,
      maxTokens: 192,
      ignoreEos: false,
      score: {
        scorer: "tool_schema",
        expected: null,
        params: toolParams([GET_WEATHER, GET_TIME], ["get_weather", "get_time"], 2, 4)
      }
    })
  ];
}

/** Reasoning problems by difficulty, each with one numeric answer (worked out in the comments). */
export const REASONING: Readonly<Record<"easy" | "medium" | "hard", {id: string; q: string; a: number}[]>> = {
  easy: [
    // 27 / 3 = 9
    {id: "pencils", q: "A shop sells pencils at 3 for 1 dollar. How many dollars do 27 pencils cost?", a: 9},
    // 14 - 5 + 8 = 17
    {
      id: "marbles",
      q: "Tom has 14 marbles, gives 5 to his sister and then buys 8 more. How many marbles does he have now?",
      a: 17
    }
  ],
  medium: [
    // 09:40 → 13:15 = 3 h 35 min = 215 min
    {
      id: "train",
      q: "A train leaves at 09:40 and arrives at 13:15 on the same day. How many minutes does the journey take?",
      a: 215
    },
    // x + (x+2) + (x+4) = 78 → x = 24 → largest 28
    {id: "even", q: "The sum of three consecutive even numbers is 78. What is the largest of the three?", a: 28}
  ],
  hard: [
    // multiples of 3 below 100: 33; of 5: 19; of 15: 6 → 3 or 5: 46; not both: 46 - 6 = 40
    {
      id: "divisible",
      q: "How many positive integers less than 100 are divisible by 3 or by 5, but not by both?",
      a: 40
    },
    // 1/6 + 1/4 - 1/12 = 1/3 tank per hour → 3 hours
    {
      id: "tank",
      q: "Pipe A fills a tank in 6 hours and pipe B fills it in 4 hours, while a drain empties the full tank in 12 hours. If the tank is empty and both pipes and the drain are open, how many hours does it take to fill it?",
      a: 3
    }
  ]
};
const REASONING_TOKENS = {easy: 256, medium: 512, hard: 1024} as const;

export function case06(o: SuiteOptions): CaseItem[] {
  return o.reasoning_tiers.flatMap((tier) =>
    REASONING[tier].map((p) =>
      one(`${tier}-${p.id}`, tier, {
        user: `${p.q}\nReason step by step. ${FINAL}`,
        maxTokens: REASONING_TOKENS[tier],
        ignoreEos: false,
        score: {scorer: "numeric", expected: p.a}
      })
    )
  );
}

const FOLLOW_UPS = [
  "How often should I water them in summer?",
  "What can I do about slugs without using chemicals?",
  "Suggest a simple layout for a bed of 2 by 3 metres.",
  "Which of them tolerate partial shade?",
  "When should I sow each of them in a temperate climate?",
  "How do I know when each one is ready to harvest?",
  "What should I plant after them next year?",
  "How can I keep the soil healthy over winter?"
];
const CODE_WORDS = ["tangerine", "juniper", "marigold", "saffron", "cobalt", "heather", "walnut", "lantern"];

/** The conversation of case_07: a code word in round 1, follow-ups, and a recall question in the last round. */
export function conversation(rounds: number, seed: number): {codeWord: string; users: string[]} {
  const codeWord = CODE_WORDS[Math.floor(mulberry32(seed)() * CODE_WORDS.length)]!;
  const users = [
    `Let's plan a small vegetable garden together. First, remember this code word for later: ${codeWord}. Which three vegetables are easiest for beginners?`
  ];
  for (let i = 1; i < rounds - 1; i++) users.push(FOLLOW_UPS[(i - 1) % FOLLOW_UPS.length]!);
  users.push(
    "Before we finish: what was the code word I asked you to remember at the start? Reply with the code word only."
  );
  return {codeWord, users};
}

export function case07(o: SuiteOptions, seed: number): CaseItem[] {
  const {codeWord, users} = conversation(o.rounds, seed);
  return [
    {
      itemId: "garden",
      tier: null,
      concurrency: 1,
      turns: users.map((user, i) => ({
        user,
        tier: String(i + 1),
        maxTokens: 128,
        ignoreEos: false,
        score:
          i === users.length - 1
            ? {scorer: "contains", expected: codeWord}
            : notScored("conversation round: the reply is not scored (only the last round's recall is)")
      }))
    }
  ];
}

export const CONCURRENCY_PROMPT = "Explain in a few sentences how a bicycle gear system works.";

/** case_08: at concurrency c, c items so that c requests stay in flight; each is sent `repeats` times. */
export function case08(o: SuiteOptions): CaseItem[] {
  return o.concurrency_tiers.flatMap((c) =>
    Array.from({length: c}, (_, k) =>
      one(
        `c${c}-${k}`,
        String(c),
        {
          user: CONCURRENCY_PROMPT,
          maxTokens: 64,
          ignoreEos: true,
          score: notScored("stress tier: read its SLO pass rate in the case table")
        },
        c
      )
    )
  );
}
