/**
 * A text value the database only ever sets to one of `Values` (a column's check constraint, or the
 * SQL that fills a row type): the generated types say `string`, the database guarantees the union.
 */
export function checkedText<Values extends string>(value: string): Values;
export function checkedText<Values extends string>(value: string | null): Values | null;
export function checkedText<Values extends string>(value: string | null): Values | null {
  // The one assertion: which values a check constraint or a function allows is not in the generated types.
  return value as Values | null;
}
