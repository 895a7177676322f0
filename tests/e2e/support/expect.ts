/** A plain assertion with a readable message (journeys use Playwright's waits for the rest). */
export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
