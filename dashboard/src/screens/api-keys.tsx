// Placeholder until this screen is built.
export function ApiKeys(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>ApiKeys</h1>;
}
