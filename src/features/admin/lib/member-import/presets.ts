// Relative, not '@/': the CLI (scripts/import.ts) runs this file under tsx without the app's aliases.
import { writeCsv } from '../../../../lib/csv/write-csv';
import { IMPORT_FIELDS, type ColumnMapping, type DateOrder, type ImportFieldKey } from './fields';

/**
 * A known file layout: which of its column headers fill which of our fields. Only headers a
 * platform documents are listed (decision 0065); a column a preset does not name is left for the
 * admin to map by hand.
 */
export interface ImportPreset {
  id: string;
  label: string;
  dateOrder: DateOrder;
  columns: Partial<Record<ImportFieldKey, string>>;
}

/** The template the studio publishes (Admin > Import, "Download the template"). */
export const TEMPLATE_PRESET: ImportPreset = {
  id: 'template',
  label: 'Our template',
  dateOrder: 'dmy',
  columns: {
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    date_of_birth: 'Date of birth',
    emergency_contact_name: 'Emergency contact name',
    emergency_contact_phone: 'Emergency contact phone',
    plan: 'Plan',
    plan_price: 'Plan price',
    next_payment_date: 'Next payment date',
    package_sessions: 'Package sessions left',
    package_expiry: 'Package expiry',
    guardian_email: 'Guardian email',
  },
};

export const IMPORT_PRESETS: readonly ImportPreset[] = [
  TEMPLATE_PRESET,
  // GymPoint's member CSV template (its "CSV Import Step-by-Step Guide"); dates month first.
  {
    id: 'gympoint',
    label: 'GymPoint',
    dateOrder: 'mdy',
    columns: {
      first_name: 'first_name',
      last_name: 'last_name',
      email: 'email',
      phone: 'phone',
      plan: 'membership_plan',
      date_of_birth: 'date_of_birth',
      emergency_contact_name: 'emergency_contact_name',
      emergency_contact_phone: 'emergency_contact_phone',
    },
  },
  // Fitness GM's member CSV (its "Importing & Exporting Member Information"; dates dd-mm-yyyy): a
  // family's other members carry the paying member's email in guardianEmail.
  {
    id: 'fitnessgm',
    label: 'Fitness GM',
    dateOrder: 'dmy',
    columns: { first_name: 'firstName', last_name: 'lastName', plan: 'Membership Title', guardian_email: 'guardianEmail' },
  },
  // Gymflow's user import sheet (its "User Import Guide").
  {
    id: 'gymflow',
    label: 'Gymflow',
    dateOrder: 'dmy',
    columns: { email: 'Email', first_name: 'First Name', last_name: 'Last Name' },
  },
];

export function findPreset(id: string): ImportPreset | undefined {
  return IMPORT_PRESETS.find((p) => p.id === id);
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Common spellings of our fields in hand-made spreadsheets (squashed), for the first guess only. */
const GUESSES: Partial<Record<ImportFieldKey, string[]>> = {
  name: ['fullname', 'membername'],
  email: ['emailaddress'],
  phone: ['mobile', 'mobilephone', 'phonenumber', 'mobilenumber'],
  date_of_birth: ['dob', 'birthdate', 'birthday'],
  guardian_email: ['parentemail'],
  emergency_contact_name: ['emergencycontact', 'emergencyname', 'nextofkin', 'nextofkinname'],
  emergency_contact_phone: ['emergencyphone', 'emergencynumber', 'emergencycontactnumber', 'nextofkinphone'],
};

/**
 * A mapping for a file's headers: the preset's columns where the file has them (case and spacing
 * ignored), then any header that reads as one of our field names ("E-mail" → Email).
 */
export function mappingFor(headers: readonly string[], preset: ImportPreset = TEMPLATE_PRESET): ColumnMapping {
  const mapping: ColumnMapping = {};
  const taken = new Set<ImportFieldKey>();
  const byHeader = new Map(Object.entries(preset.columns).map(([field, header]) => [squash(header), field as ImportFieldKey]));
  for (const header of headers) {
    const field = byHeader.get(squash(header));
    if (field && !taken.has(field)) {
      mapping[header] = field;
      taken.add(field);
    }
  }
  for (const header of headers) {
    if (mapping[header]) continue;
    const h = squash(header);
    const field = IMPORT_FIELDS.find(
      (f) => !taken.has(f.key) && (squash(f.label) === h || squash(f.key) === h || (GUESSES[f.key] ?? []).includes(h)),
    )?.key;
    if (field) {
      mapping[header] = field;
      taken.add(field);
    }
  }
  return mapping;
}

/** The template file: its header row and two example rows (an adult on a plan and their child). */
export function templateCsv(): string {
  const headers = Object.values(TEMPLATE_PRESET.columns);
  const examples = [
    [
      'Sam Example',
      'sam@example.com',
      '07700 900123',
      '14/02/1988',
      'Jo Example',
      '07700 900456',
      'Standard',
      '70.00',
      '01/01/2027',
      '5',
      '31/03/2027',
      '',
    ],
    ['Alex Example', '', '', '03/09/2016', '', '', '', '', '', '', '', 'sam@example.com'],
  ];
  return writeCsv(
    headers.map((header, i) => ({ header, value: (row: string[]) => row[i] })),
    examples,
  );
}

const STORAGE_PREFIX = 'finer-fitness:member-import-mapping:';

/** The mapping the admin last used for a file with these headers, on this browser. */
export function rememberedMapping(headers: readonly string[], storage: Storage = localStorage): ColumnMapping | null {
  try {
    const saved = storage.getItem(STORAGE_PREFIX + headers.join('\u0001'));
    return saved ? (JSON.parse(saved) as ColumnMapping) : null;
  } catch {
    return null;
  }
}

export function rememberMapping(headers: readonly string[], mapping: ColumnMapping, storage: Storage = localStorage): void {
  try {
    storage.setItem(STORAGE_PREFIX + headers.join('\u0001'), JSON.stringify(mapping));
  } catch {
    // Private browsing or a full store: the mapping is a convenience, the import goes on.
  }
}
