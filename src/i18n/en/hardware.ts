/** Strings of the hardware page and the report's hardware section (issue 15). */
export const enHardware = {
  hwPlaceholder: "hardware"
};
