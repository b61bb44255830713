/**
 * The jsonpath that finds `value` at metadata `key` (any key when null), compared as written: the string, and the
 * number or boolean it spells. JSON.stringify quotes both as jsonpath's string literals do. Used with `@?`, which
 * the metadata columns' GIN indexes (jsonb_ops) answer.
 */
export function metadataJsonPath(key: string | null, value: string): string {
  const at = key === null ? "$.*" : `$.${JSON.stringify(key)}`;
  const alternatives = [`@ == ${JSON.stringify(value)}`];
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(value)) alternatives.push(`@ == ${value}`);
  if (value === "true" || value === "false") alternatives.push(`@ == ${value}`);
  return `${at} ? (${alternatives.join(" || ")})`;
}
