import { describe, expect, it } from 'vitest';
import { embedSnippet, embedUrl, NO_EMBED_FILTERS, readEmbedFilters } from './embed-filters';

describe('the embeddable timetable’s filters', () => {
  it('are read from the URL, ignoring what is not understood', () => {
    expect(readEmbedFilters('?coach=Coach%20Alex&type=premium&days=wed,Mon,funday&class=yoga')).toEqual({
      coach: 'Coach Alex',
      type: 'premium',
      days: ['mon', 'wed'],
      search: 'yoga',
    });
    expect(readEmbedFilters('?type=gold&days=')).toEqual(NO_EMBED_FILTERS);
    expect(readEmbedFilters('')).toEqual(NO_EMBED_FILTERS);
  });

  it('round-trip through the address the snippet uses', () => {
    const filters = { coach: 'Coach Alex & Jess', type: 'standard' as const, days: ['sat' as const, 'sun' as const], search: '' };
    const url = embedUrl('https://finerfitness.example/', filters);
    expect(url).toBe('https://finerfitness.example/embed/schedule?coach=Coach+Alex+%26+Jess&type=standard&days=sat,sun');
    expect(readEmbedFilters(new URL(url).search)).toEqual(filters);
    expect(embedUrl('https://finerfitness.example', NO_EMBED_FILTERS)).toBe('https://finerfitness.example/embed/schedule');
  });

  it('make a snippet with the address and a title, its quotes escaped', () => {
    const snippet = embedSnippet('https://finerfitness.example', { ...NO_EMBED_FILTERS, coach: 'Alex "AJ"' }, 'Finer Fitness');
    expect(snippet).toBe(
      '<iframe src="https://finerfitness.example/embed/schedule?coach=Alex+%22AJ%22" title="Finer Fitness timetable" width="100%" height="600" style="border:0" loading="lazy"></iframe>',
    );
  });
});
