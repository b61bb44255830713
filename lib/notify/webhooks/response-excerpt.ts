/** How much of a receiver's response an attempt keeps (the dashboard shows it; it is not evidence). */
export const KEPT_RESPONSE_CHARS = 1024;

// C0 controls but tab, LF and CR, and DEL: NUL cannot be stored in a Postgres text column at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSTORABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Text safe for a Postgres text column and for display: NUL and other control characters become U+FFFD,
 * and a lone surrogate (a string cut inside a pair) is dropped, so any value is valid UTF-8 when sent.
 */
export function storableText(text: string): string {
  return text
    .replace(UNSTORABLE, "\uFFFD")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "");
}

/**
 * The kept excerpt of a response body, whatever its bytes (binary, gzip, invalid UTF-8): decoded leniently
 * (invalid sequences become U+FFFD), made storable, cut to KEPT_RESPONSE_CHARS without splitting a
 * character.
 */
export function responseExcerpt(bytes: Buffer, maxChars = KEPT_RESPONSE_CHARS): string {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  return storableText(Array.from(text).slice(0, maxChars).join(""));
}
