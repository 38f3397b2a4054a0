// Valid ISBN-13s in bulk, for filling the sandbox with work (tests and benchmarks).

/** The count ISBN-13s 978 + (first .. first+count-1) padded to 9 digits + check digit. */
export function sampleIsbns(count: number, first = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const body = `978${String(first + i).padStart(9, '0')}`;
    const sum = [...body].reduce((s, d, j) => s + Number(d) * (j % 2 ? 3 : 1), 0);
    return body + String((10 - (sum % 10)) % 10);
  });
}
