// CSV cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR) get a leading apostrophe,
// so an exported file cannot execute anything when a user opens it (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

export function safeCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
