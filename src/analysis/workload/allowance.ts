/** Tokens a chat template adds around a prompt (BOS, role markers, a default system header). */
export const TEMPLATE_TOKENS = 32;

/**
 * Cached prompt tokens a chat template's shared prefix can explain (it is shared by every request and
 * legitimately cached): max(TEMPLATE_TOKENS, 10 % of the prompt).
 */
export const templatePrefixAllowance = (promptTokens: number | null): number =>
  Math.max(TEMPLATE_TOKENS, 0.1 * (promptTokens ?? 0));
