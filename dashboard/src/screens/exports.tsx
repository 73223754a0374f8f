// Placeholder until this screen is built.
export function Exports(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>Exports</h1>;
}
