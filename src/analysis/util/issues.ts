/** A problem found in a bundle, located as precisely as possible: file, line (1-based) and field path. */
export interface Issue {
  severity: "error" | "warning" | "info";
  code: string;
  file: string;
  line: number | null;
  path: string | null;
  message: string;
}

export function formatIssue(i: Issue): string {
  const where = i.line === null ? i.file : `${i.file}:${i.line}`;
  return `${where}${i.path ? ` ${i.path}` : ""}: ${i.message}`;
}

export function issue(
  severity: Issue["severity"],
  code: string,
  file: string,
  message: string,
  line: number | null = null,
  path: string | null = null
): Issue {
  return {severity, code, file, line, path, message};
}
