/**
 * Cached prompt tokens a chat template's shared prefix can explain (BOS, role markers, a default system
 * header are shared by every request and legitimately cached): max(32, 10 % of the prompt).
 */
export const templatePrefixAllowance = (promptTokens: number | null): number => Math.max(32, 0.1 * (promptTokens ?? 0));
