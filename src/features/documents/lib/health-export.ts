import type { HealthAnswers } from '../api/health-answers';

/** The member's health answers as a JSON file (their right of access and portability). */
export function healthAnswersJson(answers: HealthAnswers): string {
  return JSON.stringify(
    {
      questionnaire: answers.title,
      version: answers.version,
      answered_at: answers.answeredAt,
      consented_at: answers.consentedAt,
      signed_name: answers.signedName,
      answers: answers.items.map((item) => ({ question: item.question, answer: item.answer ? 'yes' : 'no' })),
      details: answers.details,
    },
    null,
    2,
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const londonDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/London' });

/** The same answers as a readable page (an HTML file that opens and prints anywhere). */
export function healthAnswersHtml(answers: HealthAnswers, studioName: string): string {
  const rows = answers.items
    .map((item) => `<tr><td>${escapeHtml(item.question)}</td><td><strong>${item.answer ? 'Yes' : 'No'}</strong></td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(answers.title)}: your answers</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#0f172a}table{border-collapse:collapse;width:100%}td{border-top:1px solid #cbd5e1;padding:.5rem;vertical-align:top}</style>
</head><body>
<h1>${escapeHtml(answers.title)}</h1>
<p>Your answers to version ${answers.version}, given to ${escapeHtml(studioName)} on ${londonDateTime(answers.answeredAt)} and signed "${escapeHtml(answers.signedName)}". You consented to us keeping them on ${londonDateTime(answers.consentedAt)}.</p>
<table><tbody>
${rows}
</tbody></table>
${answers.details ? `<h2>Anything your coach should know</h2><p>${escapeHtml(answers.details)}</p>` : ''}
</body></html>
`;
}
