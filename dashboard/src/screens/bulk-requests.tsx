// Placeholder until this screen is built.
export function BulkRequests(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>BulkRequests</h1>;
}
