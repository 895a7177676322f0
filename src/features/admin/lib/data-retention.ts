/**
 * Each kind of personal data the studio holds, why, on what lawful basis and for how long: the
 * table of docs/data-contract.md ("Personal data"), which Admin > Settings shows and a test holds
 * to the letter (decision 0097). `setting` names the period the studio sets for that row.
 */
export type RetentionSetting = 'guest_signature_days' | 'contact_message_days';

export type RetentionRow = { data: string; purpose: string; basis: string; kept: string; setting?: RetentionSetting };

export const RETENTION_ROWS: readonly RetentionRow[] = [
  {
    data: 'Profile (name, email, phone, date of birth, photo)',
    purpose: 'The account, bookings, contacting the member',
    basis: 'Contract',
    kept: 'Until the account is closed (deleted at closing)',
  },
  {
    data: 'Emergency contact',
    purpose: 'Safety in class',
    basis: 'Legitimate interests (vital interests in an emergency)',
    kept: 'Until the account is closed',
  },
  {
    data: 'Bookings, waitlists, attendance',
    purpose: 'Running classes, plan allowances',
    basis: 'Contract',
    kept: 'Until the account is closed',
  },
  { data: 'Credits and memberships', purpose: 'What the member paid for', basis: 'Contract', kept: 'Until the account is closed' },
  {
    data: 'Payments and refunds',
    purpose: 'Accounts',
    basis: 'Legal obligation (HMRC)',
    kept: '6 years; kept after closing without the account link',
  },
  {
    data: 'Signed documents (terms, waiver)',
    purpose: 'Proof of agreement',
    basis: 'Contract / legal claims',
    kept: 'Until the account is closed',
  },
  {
    data: "Health answers (PAR-Q), children's medical notes",
    purpose: 'Safe exercise',
    basis: 'Explicit consent (special category)',
    kept: 'Until withdrawn or the account is closed (deleted at closing)',
  },
  {
    data: 'Email, push and marketing preferences, consents',
    purpose: 'Sending what the member asked for',
    basis: 'Consent (marketing), contract (service emails)',
    kept: 'Until the account is closed',
  },
  {
    data: 'Children (name, date of birth, collected by)',
    purpose: 'Family bookings',
    basis: "Contract (the parent's)",
    kept: "Until removed or the parent's account is closed",
  },
  {
    data: 'Guest places and guest waiver signatures',
    purpose: "A guest's class and their waiver",
    basis: 'Contract / legal claims',
    kept: "Signatures: the studio's guest signature period (default 1095 days, the personal-injury limitation period)",
    setting: 'guest_signature_days',
  },
  {
    data: 'Contact Us messages',
    purpose: 'Answering enquiries',
    basis: 'Legitimate interests',
    kept: "The studio's contact message period (default 365 days)",
    setting: 'contact_message_days',
  },
  { data: 'Audit trail', purpose: 'Who changed what, for disputes', basis: 'Legitimate interests', kept: '6 years' },
  { data: 'Job runs', purpose: 'System health', basis: 'Legitimate interests', kept: '30 days' },
];

/** The bounds admin_set_data_retention holds each period to (27_data_rights.sql). */
export const RETENTION_DAYS = { min: 30, max: 3650 } as const;

/** The rows of the "Personal data" table of docs/data-contract.md, cell by cell. */
export function parseRetentionTable(markdown: string): Omit<RetentionRow, 'setting'>[] {
  const start = markdown.indexOf('## Personal data');
  if (start < 0) return [];
  const section = markdown.slice(start).split('\n## ')[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Data |') && !line.startsWith('| ---'))
    .map((line) => {
      const [data = '', purpose = '', basis = '', kept = ''] = line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim());
      return { data, purpose, basis, kept };
    });
}
