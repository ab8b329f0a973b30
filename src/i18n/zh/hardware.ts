import type {enHardware} from "../en/hardware.ts";

/** 硬件页与报告硬件部分的中文字符串（issue 15），与 en/hardware.ts 同键。 */
export const zhHardware: Record<keyof typeof enHardware, string> = {
  hwPlaceholder: "硬件"
};
