// Placeholder until this screen is built.
export function Settings(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>Settings</h1>;
}
