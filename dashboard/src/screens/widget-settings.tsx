// Placeholder until this screen is built.
export function WidgetSettings(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>WidgetSettings</h1>;
}
