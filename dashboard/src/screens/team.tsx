// Placeholder until this screen is built.
export function Team(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>Team</h1>;
}
