// Placeholder until this screen is built.
export function RequestStats(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>RequestStats</h1>;
}
