// The dashboard reads and writes CSV with the one reader and writer the API and the worker use
// (catalog and request uploads here, review imports there): pure, no DOM.
export * from '../../functions/_shared/core/csv.ts';
