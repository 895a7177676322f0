import { describe, expect, it } from 'vitest';
import { healthAnswersHtml, healthAnswersJson } from './health-export';

const answers = {
  title: 'PAR-Q',
  version: 2,
  details: 'Knee <old>',
  consentedAt: '2026-02-01T10:00:00Z',
  answeredAt: '2026-02-01T10:00:00Z',
  signedName: 'Tess Trial',
  items: [
    { question: 'Heart condition?', answer: false },
    { question: 'Chest pain & dizziness?', answer: true },
  ],
};

describe('health answers export', () => {
  it('as JSON: the version, each question with yes or no, the consent and signature', () => {
    expect(JSON.parse(healthAnswersJson(answers))).toEqual({
      questionnaire: 'PAR-Q',
      version: 2,
      answered_at: '2026-02-01T10:00:00Z',
      consented_at: '2026-02-01T10:00:00Z',
      signed_name: 'Tess Trial',
      answers: [
        { question: 'Heart condition?', answer: 'no' },
        { question: 'Chest pain & dizziness?', answer: 'yes' },
      ],
      details: 'Knee <old>',
    });
  });

  it('as a readable page, with the text escaped', () => {
    const html = healthAnswersHtml(answers, 'Finer Fitness');
    expect(html).toContain('<td>Chest pain &#38; dizziness?</td><td><strong>Yes</strong></td>');
    expect(html).toContain('Knee &#60;old&#62;');
    expect(html).toContain('given to Finer Fitness on 1 February 2026 at 10:00');
  });
});
