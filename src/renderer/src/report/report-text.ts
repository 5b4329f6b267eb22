/** How values read in the report: JSON, indented when long, never more than a screenful. */
const MOST = 4000;

export function valueText(value: unknown): string {
  if (value === undefined) return '(no value)';
  const compact = JSON.stringify(value) ?? String(value);
  const text = compact.length > 80 ? (JSON.stringify(value, null, 2) ?? compact) : compact;
  return text.length > MOST ? `${text.slice(0, MOST - 1)}…` : text;
}
