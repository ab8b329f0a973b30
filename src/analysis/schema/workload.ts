import {z} from "zod";

import {NonNegInt} from "./primitives.ts";

/**
 * Where the prompts of the load points come from (issue 16): the synthetic salted filler of one length (the
 * default), a dataset file, shared-prefix groups, multi-turn sessions, or a Mooncake-style trace. Lengths
 * are drawn from seeded distributions; what each request asked for and what its prompt is made of (the
 * hashes of its prefix blocks) is recorded per request, so the analyzer can compute what a prefix cache
 * could have served (docs/workloads.md).
 */

/** Longest prompt or output a config may ask for. */
export const MAX_TOKENS = 10_000_000;

const positiveInt = z
  .number()
  .int()
  .positive()
  .max(10_000_000, "above 10,000,000 tokens: no served context is that long");

/** A length distribution in tokens, seeded by the load block's seed; draws are rounded and kept ≥ 1 (and in [min, max]). */
export const LengthDist = z.union([
  positiveInt.describe("a fixed length"),
  z.strictObject({
    dist: z.literal("fixed").describe("fixed, uniform, normal or empirical (the dataset's own lengths)"),
    value: positiveInt.describe("the length, tokens")
  }),
  z
    .strictObject({dist: z.literal("uniform"), min: positiveInt, max: positiveInt})
    .refine((d) => d.min <= d.max, {message: "uniform: min must not exceed max"}),
  z
    .strictObject({
      dist: z.literal("normal"),
      mean: z.number().positive(),
      std: z.number().nonnegative(),
      min: positiveInt.default(1).describe("draws below are raised to this"),
      max: positiveInt.optional().describe("draws above are lowered to this")
    })
    .refine((d) => d.max === undefined || d.min <= d.max, {message: "normal: min must not exceed max"}),
  z
    .strictObject({dist: z.literal("empirical")})
    .describe("the lengths of the dataset's own items (prompt lengths, or answer lengths for outputs)")
]);
export type LengthDist = z.output<typeof LengthDist>;

export const DatasetSource = z
  .strictObject({
    kind: z.literal("dataset"),
    path: z.string().min(1).describe("the file, relative to the working directory (its sha256 is kept in the bundle)"),
    format: z
      .enum(["sharegpt", "jsonl", "text"])
      .describe(
        "sharegpt = a JSON array of {conversations: [{from, value}…]} (the first human turn is the prompt, the next gpt turn's length the empirical output); jsonl = one {prompt | messages, max_tokens?} per line; text = a plain corpus cut into prompts of input_tokens words"
      ),
    sample: z
      .enum(["shuffle", "in_order"])
      .default("shuffle")
      .describe("shuffle = a seeded permutation (repeated when the run needs more prompts than the file has)"),
    input_tokens: LengthDist.optional().describe("text format only: the length each prompt is cut to"),
    output_tokens: LengthDist.optional().describe(
      "max_tokens of each request; default: the item's own max_tokens (jsonl) or answer length (sharegpt), else workload.max_tokens"
    )
  })
  .refine((s) => s.format === "text" || s.input_tokens === undefined, {
    message: "input_tokens applies to the text format only (sharegpt and jsonl prompts are sent as they are)",
    path: ["input_tokens"]
  });

export const SharedPrefixSource = z.strictObject({
  kind: z.literal("shared_prefix"),
  groups: z.number().int().positive().max(100_000).describe("G groups, each with its own system prompt"),
  prefix_tokens: positiveInt.describe("P: the length of each group's shared system prompt"),
  suffix_tokens: LengthDist.default(32).describe("the unique user message after the prefix"),
  output_tokens: LengthDist.optional().describe("max_tokens of each request (default workload.max_tokens)"),
  assign: z
    .enum(["round_robin", "random"])
    .default("random")
    .describe("how requests pick their group: in turn, or seeded at random")
});

export const SessionsSource = z.strictObject({
  kind: z.literal("sessions"),
  turns: z.number().int().min(2).max(1000).describe("K turns per conversation; each turn sends the whole history"),
  think_time_s: z.number().nonnegative().max(3600).default(0).describe("pause between a reply and the next turn"),
  first_tokens: LengthDist.default(256).describe("the first user message (the conversation's opening context)"),
  turn_tokens: LengthDist.default(32).describe("each later user message"),
  output_tokens: LengthDist.optional().describe("max_tokens of each turn (default workload.max_tokens)")
});

export const TraceSource = z.strictObject({
  kind: z.literal("trace"),
  path: z
    .string()
    .min(1)
    .describe("Mooncake-style JSONL: {timestamp (ms), input_length, output_length, hash_ids} per line"),
  block_tokens: positiveInt.default(512).describe("tokens per hash_id block in the trace (Mooncake: 512)"),
  length_scale: z
    .number()
    .positive()
    .max(1000)
    .default(1)
    .describe("multiplies input_length, output_length and block_tokens (e.g. 1/64 for a CPU engine's short context)"),
  offset: NonNegInt.default(0).describe("trace lines skipped before the first warmup request")
});

export const WorkloadSource = z
  .discriminatedUnion("kind", [
    z.strictObject({kind: z.literal("synthetic")}),
    DatasetSource,
    SharedPrefixSource,
    SessionsSource,
    TraceSource
  ])
  .describe("where prompts come from (default synthetic: salted filler of prompt_tokens)");
export type WorkloadSource = z.output<typeof WorkloadSource>;

/**
 * The prompt structure the collector built, per request: its segments in order (a group's system prompt, a
 * trace's hash_id block, a conversation's message, a unique remainder), each as [chain hash, tokens], where
 * hash k covers segments 0…k — so two requests share exactly the leading segments whose hashes agree.
 * Tokens are the collector's construction units (filler words, ~1 token each) unless `exact` says the
 * segments were sized by the server's tokenizer.
 */
export const PromptSegments = z.strictObject({
  segments: z
    .array(z.tuple([z.string().regex(/^[0-9a-f]{16}$/), NonNegInt]))
    .describe("[chain hash (16 hex digits), tokens] of each segment, in prompt order"),
  tokens: NonNegInt.describe("prompt tokens the segments cover"),
  exact: z
    .boolean()
    .describe(
      "true: the server's tokenizer counts one token per filler word (checked on 64 words), so segment lengths are token counts — except the one-word salts and group markers, counted as one token each; false: ≈ 1 token per filler word"
    ),
  answer: z
    .tuple([z.string().regex(/^[0-9a-f]{16}$/), NonNegInt])
    .optional()
    .describe(
      "sessions: [chain hash, tokens] of this request's answer as the next turn sends it (a server caches what it generated too)"
    )
});
export type PromptSegments = z.infer<typeof PromptSegments>;

/** Who a request is within its workload (absent for the synthetic default and for bundles before issue 16). */
export const WorkloadTag = z.strictObject({
  kind: z.enum(["synthetic", "dataset", "shared_prefix", "sessions", "trace"]),
  item: NonNegInt.nullable().optional().describe("dataset item or trace line (0-based) the request came from"),
  group: NonNegInt.optional().describe("shared-prefix group"),
  session: NonNegInt.optional().describe("conversation number within the point's phase"),
  turn: z.number().int().positive().optional().describe("turn within the conversation (1-based)"),
  outputRequested: NonNegInt.nullable().optional().describe("the output length the trace or dataset asked for")
});
export type WorkloadTag = z.infer<typeof WorkloadTag>;

/** What the bundle keeps of its workload (manifest): the file and its digest, the lengths asked for. */
export const WorkloadFacts = z.strictObject({
  kind: WorkloadTag.shape.kind,
  file: z
    .strictObject({
      name: z.string().describe("the file's name (the path as configured)"),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      bytes: NonNegInt,
      items: NonNegInt.describe("prompts or trace lines read")
    })
    .nullable(),
  exact: z
    .boolean()
    .describe("the server's tokenizer counts one token per filler word (checked on 64 words); else ≈ 1 token per word"),
  note: z.string().nullable().describe("what the collector could not honour exactly, or null")
});
export type WorkloadFacts = z.infer<typeof WorkloadFacts>;

/** The workload block of a run config (prompt lengths, sampling, salting, where prompts come from). */
export const WorkloadSpec = z.strictObject({
  prompt_tokens: z
    .number()
    .int()
    .positive()
    .max(MAX_TOKENS, `prompt_tokens above ${MAX_TOKENS.toLocaleString("en")}: no served context is that long`)
    .default(512)
    .describe("intended prompt length in tokens"),
  max_tokens: z
    .number()
    .int()
    .positive()
    .max(MAX_TOKENS, `max_tokens above ${MAX_TOKENS.toLocaleString("en")}: no served context is that long`)
    .default(128)
    .describe("max_tokens sent with each request"),
  ignore_eos: z.boolean().default(true).describe("ask the server to ignore EOS so every request yields max_tokens"),
  salt: z.boolean().default(true).describe("prefix each prompt with a per-request salt so prefix caches cannot help"),
  temperature: z.number().min(0).default(0),
  continuous_usage: z
    .enum(["auto", "on", "off"])
    .default("auto")
    .describe("request stream_options.continuous_usage_stats so per-event token deltas are known"),
  save_text: z
    .boolean()
    .default(false)
    .describe("keep prompt and response text in the bundle (digests are always kept)"),
  prompt_text: z.string().optional().describe("fixed prompt body instead of generated filler (salt still applies)"),
  input_tokens: LengthDist.optional().describe(
    "synthetic prompts: a distribution of prompt lengths instead of the one prompt_tokens (seeded, realised lengths reported)"
  ),
  output_tokens: LengthDist.optional().describe(
    "synthetic prompts: a distribution of max_tokens instead of the one max_tokens (seeded)"
  ),
  source: WorkloadSource.optional().describe(
    "where prompts come from: dataset, shared_prefix, sessions or trace (default: synthetic filler); docs/workloads.md"
  ),
  prefix_cache: z
    .strictObject({
      block_tokens: z
        .number()
        .int()
        .positive()
        .optional()
        .describe("the server's cache block size in tokens (vLLM 16, SGLang 1); default: token granularity"),
      capacity_tokens: z
        .number()
        .int()
        .positive()
        .optional()
        .describe("tokens the server's prefix cache holds, when known (judges whether the run gave it room)")
    })
    .optional()
    .describe("what the prefix-cache bound assumes of the server (docs/workloads.md#prefix-cache-truth)")
});
