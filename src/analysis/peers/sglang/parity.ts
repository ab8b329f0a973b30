import {compareVllmLike, recomputeVllmStat} from "../vllm/parity.ts";

/** SGLang's TTFT/ITL/TPOT follow vLLM's formulas (E2E includes [DONE]); one implementation serves both. */
export const recomputeSglang = recomputeVllmStat;
export const compareSglang = compareVllmLike;
