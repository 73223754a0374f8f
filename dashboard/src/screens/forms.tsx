// Placeholder until this screen is built.
export function Forms(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>Forms</h1>;
}
export function FormPage(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>FormPage</h1>;
}
