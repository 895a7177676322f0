/**
 * The studio's member fields a file's columns map to (decision 0065). Dates are sent to the
 * database as yyyy-mm-dd when they read as a real date, else as written, so the database refuses
 * them with the text the admin typed.
 */
export const IMPORT_FIELDS = [
  { key: 'name', label: 'Name' },
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'date_of_birth', label: 'Date of birth' },
  { key: 'emergency_contact_name', label: 'Emergency contact name' },
  { key: 'emergency_contact_phone', label: 'Emergency contact phone' },
  { key: 'plan', label: 'Plan' },
  { key: 'plan_price', label: 'Plan price (monthly)' },
  { key: 'next_payment_date', label: 'Next payment date' },
  { key: 'package_sessions', label: 'Package sessions left' },
  { key: 'package_expiry', label: 'Package expiry' },
  { key: 'guardian_email', label: 'Guardian email (children)' },
] as const;

export type ImportFieldKey = (typeof IMPORT_FIELDS)[number]['key'];

/** Which of our fields each file column fills: column header → field, or absent to ignore it. */
export type ColumnMapping = Partial<Record<string, ImportFieldKey>>;

/** How the file writes dates: UK day first (the default), or US month first. */
export type DateOrder = 'dmy' | 'mdy';

/** One row as the database function takes it (supabase/schemas/25_import.sql). */
export interface ImportRow {
  /** The spreadsheet's row number: the header is row 1. */
  line: number;
  name?: string;
  email?: string;
  phone?: string;
  date_of_birth?: string;
  emergency_contact_name?: string;
  emergency_contact_phone?: string;
  plan?: string;
  plan_price?: string;
  next_payment_date?: string;
  package_sessions?: string;
  package_expiry?: string;
  guardian_email?: string;
}
