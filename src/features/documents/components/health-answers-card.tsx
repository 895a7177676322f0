import { DATE_FORMATS, formatInLondon } from '@/lib/studio-calendar';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { STUDIO } from '@/config/studio';
import { downloadTextFile } from '@/lib/download-file';
import { toast } from '@/lib/toast';
import { useWithdrawHealthAnswers, type HealthAnswers } from '../api/health-answers';
import { DOCUMENT_MESSAGES } from '../lib/document-words';
import { healthAnswersHtml, healthAnswersJson } from '../lib/health-export';

/** The member's own PAR-Q answers: see them, update, download (JSON, a readable page) or withdraw. */
export function HealthAnswersCard({ answers, onUpdate }: { answers: HealthAnswers | null; onUpdate: () => void }) {
  const withdraw = useWithdrawHealthAnswers();

  const onWithdraw = () => {
    if (withdraw.isPending || !window.confirm(DOCUMENT_MESSAGES.confirmWithdraw)) return;
    withdraw.mutate(undefined, {
      onSuccess: () => toast.success(DOCUMENT_MESSAGES.withdrawn),
      onError: () => toast.error(DOCUMENT_MESSAGES.withdrawFailed),
    });
  };

  return (
    <Card>
      <h2 className="text-lg font-semibold">Your health answers</h2>
      {!answers ? (
        <>
          <p className="mt-2 text-sm text-slate-600">{DOCUMENT_MESSAGES.noAnswers}</p>
          <Button className="mt-4" variant="outline" onClick={onUpdate}>
            {DOCUMENT_MESSAGES.updateAnswers}
          </Button>
        </>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-500">
            {answers.title}, version {answers.version}, answered {formatInLondon(answers.answeredAt, DATE_FORMATS.date)}
          </p>
          {answers.items.some((item) => item.answer) && (
            <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{DOCUMENT_MESSAGES.yesFlagNote}</p>
          )}
          <dl className="mt-4 divide-y divide-slate-100 text-sm">
            {answers.items.map((item) => (
              <div key={item.question} className="flex justify-between gap-4 py-2">
                <dt className="text-slate-700">{item.question}</dt>
                <dd className="font-semibold">{item.answer ? 'Yes' : 'No'}</dd>
              </div>
            ))}
          </dl>
          {answers.details && <p className="mt-3 text-sm text-slate-700">Details: {answers.details}</p>}
          <div className="mt-4 flex flex-wrap gap-3">
            <Button variant="outline" onClick={onUpdate}>
              {DOCUMENT_MESSAGES.updateAnswers}
            </Button>
            <Button
              variant="outline"
              onClick={() => downloadTextFile(healthAnswersJson(answers), 'health-answers.json', 'application/json')}
            >
              {DOCUMENT_MESSAGES.downloadJson}
            </Button>
            <Button
              variant="outline"
              onClick={() => downloadTextFile(healthAnswersHtml(answers, STUDIO.name), 'health-answers.html', 'text/html')}
            >
              {DOCUMENT_MESSAGES.downloadReadable}
            </Button>
            <Button variant="danger" onClick={onWithdraw} loading={withdraw.isPending}>
              {DOCUMENT_MESSAGES.withdraw}
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}
