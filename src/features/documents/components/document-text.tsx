import { paragraphs } from '../lib/document-words';

/** A document's text, paragraph by paragraph (lines starting "- " as a list). */
export function DocumentText({ body }: { body: string }) {
  return (
    <div className="space-y-3 text-sm leading-relaxed text-slate-700">
      {paragraphs(body).map((p, i) => {
        const lines = p.split('\n');
        const items = lines.filter((l) => l.startsWith('- '));
        if (items.length === 0) return <p key={i}>{p}</p>;
        const lead = lines.filter((l) => !l.startsWith('- '));
        return (
          <div key={i}>
            {lead.length > 0 && <p className="font-semibold text-slate-900">{lead.join(' ')}</p>}
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {items.map((item) => (
                <li key={item}>{item.slice(2)}</li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
