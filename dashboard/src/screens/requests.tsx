// Placeholder until this screen is built.
export function Requests(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>Requests</h1>;
}
export function RequestPage(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>RequestPage</h1>;
}
