/** How an email greets a person, as private.greeting does: "Hi Tom," (the first word of their name), or "Hi there,". */
export function greeting(name: string | null | undefined): string {
  const first = (name ?? '').trim().split(/\s+/)[0];
  return `Hi ${first || 'there'},`;
}
