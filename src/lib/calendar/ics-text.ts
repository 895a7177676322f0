/**
 * RFC 5545 text rules: escaping of TEXT values (3.3.11), content-line folding at 75 octets
 * (3.1) and the date-time forms (3.3.5). Pure functions, no time zone database needed.
 */

const CRLF = '\r\n';
const MAX_LINE_OCTETS = 75;

/** Escapes a TEXT value: backslash, semicolon, comma, and any newline as `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/**
 * Folds one content line so no physical line exceeds 75 octets (UTF-8), continuing with CRLF and
 * a space. Never splits a multi-byte character.
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= MAX_LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  // The first line holds 75 octets; continuation lines 74 after their leading space.
  let limit = MAX_LINE_OCTETS;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = MAX_LINE_OCTETS - 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** Joins content lines into an iCalendar stream: each folded, CRLF-terminated. */
export function joinLines(lines: readonly string[]): string {
  return lines.map((l) => `${foldLine(l)}${CRLF}`).join('');
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A UTC DATE-TIME, e.g. `20251006T050000Z`. */
export function formatUtcDateTime(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`
  );
}

/** Wall-clock parts of an instant in a time zone (Intl's zone data), as a local DATE-TIME. */
export function formatLocalDateTime(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  return `${parts.year}${parts.month}${parts.day}T${parts.hour}${parts.minute}${parts.second}`;
}
