/** Joins class names, skipping falsy ones (conditional Tailwind classes without a dependency). */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}
