// Placeholder until this screen is built.
export function Webhooks(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>Webhooks</h1>;
}
export function WebhookPage(_: { params: Record<string, string> }) {
  return <h1 tabIndex={-1}>WebhookPage</h1>;
}
