/** The dashboard welcomes by first name: the name's first word, else the part of the email before the @. */
export function firstName(name: string | null | undefined, email: string | null | undefined): string {
  const first = name?.trim().split(/\s+/)[0];
  if (first) return first;
  return email?.split('@')[0] ?? '';
}
