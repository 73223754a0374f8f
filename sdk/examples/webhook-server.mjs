// Receives Plaudit webhooks with Node's http server and verifies each one before acting on it.
//
//   PLAUDIT_WEBHOOK_SECRET=whsec_… PORT=3000 node webhook-server.mjs
//
// Register http://<this host>:3000/webhooks as an endpoint (plaudit.webhooks.create) and keep the
// secret it answers. While you rotate the secret, give both, separated by a comma.
import http from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '@plaudit/sdk';

const secrets = (process.env.PLAUDIT_WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
if (!secrets.length) throw new Error('Set PLAUDIT_WEBHOOK_SECRET to the whsec_… secret of the endpoint');

// Deliveries are at least once: the same webhook-id may come again (a retry, a redelivery).
// A real receiver keeps these ids in its database; a Set is enough for an example.
const seen = new Set();

async function handle(event) {
  switch (event.event) {
    case 'review.created':
      console.log(`new ${event.data.rating}-star review from ${event.data.reviewer_name}: ${event.data.content}`);
      break;
    case 'review.moderated':
      console.log(`review ${event.data.id} ${event.data.is_hidden ? 'hidden' : 'shown again'}`);
      break;
    case 'export.completed':
      console.log(`export ${event.data.id} ready: ${event.data.row_count} rows at ${event.data.download_url}`);
      break;
    default:
      console.log(`${event.event} received`);
  }
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/webhooks') return res.writeHead(404).end();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    // Verify the raw bytes as received: parsing and re-serializing the JSON would change them.
    const body = Buffer.concat(chunks);
    let event;
    try {
      event = await verifyWebhook(new Uint8Array(body), req.headers, secrets);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      console.log(`refused a delivery: ${err.message}`);
      return res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid signature');
    }
    const id = req.headers['webhook-id'];
    if (!seen.has(id)) {
      seen.add(id);
      await handle(event);
    }
    // Answer quickly with 2xx; anything else makes Plaudit try again later.
    res.writeHead(204).end();
  });
});

server.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/webhooks`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
