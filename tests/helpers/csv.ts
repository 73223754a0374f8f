// The API's CSV exports, read with the dashboard's own parser (one CSV reader in the project).
import { parseCsv as parse } from '../../dashboard/src/csv.ts';

/** Parses RFC 4180 CSV (quoted fields with doubled quotes, CRLF or LF records) into rows of cells. */
export function parseCsv(text: string): string[][] {
  return parse(text, ',').rows;
}
