/** A name no other journey, width or retry uses, so journeys sharing the run's stack never share rows. */
export const unique = (label: string): string => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** `text` as a literal inside a RegExp (accessible names built from a class's name). */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
