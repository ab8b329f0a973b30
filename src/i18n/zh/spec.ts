import type {enSpec} from "../en/spec.ts";

/** 投机解码对比（src/analysis/compare/spec.ts）的中文字符串，与 en/spec.ts 同键。 */
export const zhSpec: Record<keyof typeof enSpec, string> = {
  specNotComparable: "不可比较（{checks}）：不对投机解码下结论。",
  specNoSharedPoint: "投机开与投机关两次运行没有共同的负载点。",
  specTotalThroughputNotUsed:
    "含 TTFT 的输出 tok/s（旧口径“总吞吐”）从不用于评判投机解码：它会掩盖 TTFT 的代价。收益只看纯解码速度和 ITL。",
  specTtftExpected: "开启投机后 TTFT 变化 {pct}%：属预期，草稿与验证发生在首 token 之前。",
  specUnfitShortOutput: "不适合评判：输出仅 {tokens} 个 token（< {min}）。输出短时首 token 占主导，收益未被摊薄。",
  specUnfitOutputUnknown: "不适合评判：输出长度未知（请设 max_tokens ≥ {min}）。",
  specUnfitLongPrompt: "不适合评判收益：提示 {tokens} 个 token 不算短（> {max}）；请用短提示加长输出评判。",
  specDecodeFaster: "纯解码速度 {on} 对 {off} tok/s（{pct}%，超出 ±{threshold}% 噪声带）：更快。",
  specDecodeSlower: "纯解码速度 {on} 对 {off} tok/s（{pct}%，超出 ±{threshold}% 噪声带）：更慢。",
  specDecodeNoClearDifference: "纯解码速度 {on} 对 {off} tok/s（{pct}%，在 ±{threshold}% 内）：无明显差异。",
  specDecodeNotEvaluated: "纯解码速度未评估：缺少中位数（{on} 对 {off} tok/s）。",
  specSlowerDraftCost: "投机可能更慢：草稿的代价接近目标模型（例如模型自己做草稿）时，开销超过接受带来的节省。",
  specItlChange: "ITL {on} 对 {off} ms/token（{pct}%）。",
  specAcceptance: "接受率 {rate}%（{source}）；平均接受长度每步 {length} 个 token。",
  specAcceptanceNotExported: "接受率未知：{reason}。",
  specCollapse:
    "长上下文塌缩：提示 {prompt} 个 token 时投机开的解码速度 {on} tok/s，低于投机关 {off} tok/s 的 {threshold} 倍（比值 {ratio}）。长上下文请关闭投机。",
  specCollapseShortContext:
    "解码塌缩：提示 {prompt} 个 token（并非长上下文）时投机开的解码速度 {on} tok/s，低于投机关 {off} tok/s 的 {threshold} 倍（比值 {ratio}）：即使是短提示，此栈上投机的开销也超过其收益。",
  specNoiseUnknown: "没有第二次投机关运行：答案噪声按零计（贪心解码的投机关运行应重复出相同答案）。",
  specQualityWithinNoise:
    "答案：{matched} 个匹配答案中 {differOn}% 在投机开与关之间不同，投机关与关之间为 {differOff}%：在噪声内（容差 {margin} 个百分点）。",
  specQualityBeyondNoise:
    "答案：{matched} 个匹配答案中 {differOn}% 在投机开与关之间不同，投机关与关之间为 {differOff}%：超出噪声（容差 {margin} 个百分点）。",
  specQualityNotEvaluated: "未比较答案：跨运行匹配的用例答案少于 {min} 个（{matched} 个）。",
  specQualityPassRateDrop: "质量：评分器通过率投机开 {on}%，投机关 {off}%。",
  specGainWithChangedAnswers: "警示：解码收益伴随超出噪声的答案变化。开启投机前请先检查输出质量。"
};
