// Connecting a shop: the platform, then the fields it needs (its address and the secret that signs
// its events; for Shopify, optionally the token that writes ratings back), with the setup steps
// beside them. A `webhook` connection needs no field: Plaudit makes its secret.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId } from '../../session.ts';
import { ErrorNotice } from '../../ui/components.tsx';
import { ChoiceGroup, TextField } from '../../ui/fields.tsx';
import { useAction } from '../../ui/hooks.ts';
import { SetupSteps } from './setup-steps.tsx';
import { type Platform, PLATFORMS } from './words.ts';

type NewConnection = Schemas['NewConnection'];

export function ConnectForm({ onCreated, onCancel }: {
  onCreated: (c: NewConnection) => void;
  onCancel: () => void;
}) {
  const orgId = useOrgId();
  const [platform, setPlatform] = useState<Platform>('shopify');
  const [name, setName] = useState('');
  const [domain, setDomain] = useState('');
  const [storeUrl, setStoreUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [token, setToken] = useState('');
  const save = useAction(async () => {
    const named = name.trim() || undefined;
    const body: Schemas['ConnectionInput'] = platform === 'shopify'
      ? {
        platform,
        name: named,
        shop_domain: domain.trim(),
        webhook_secret: secret.trim(),
        access_token: token.trim() || undefined,
      }
      : platform === 'woocommerce'
      ? { platform, name: named, store_url: storeUrl.trim(), webhook_secret: secret.trim() }
      : platform === 'stripe'
      ? { platform, name: named, webhook_secret: secret.trim() }
      : { platform, name: named };
    onCreated(await api.post('/organizations/{orgId}/connections', { params: { orgId }, body }));
  });
  const err = save.error;
  const shown = ['name', 'shop_domain', 'store_url', 'webhook_secret', 'access_token'];
  return (
    <form
      class='card connect-form'
      aria-labelledby='connect-title'
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h2 id='connect-title'>Connect a shop</h2>
      {err && !shown.some((f) => err.field(f)) && <ErrorNotice error={err} />}
      <ChoiceGroup
        legend='Where do your orders happen?'
        name='platform'
        value={platform}
        choices={PLATFORMS}
        onValue={setPlatform}
      />
      <TextField
        label='Name (optional)'
        name='name'
        error={err}
        hint='What this page calls the connection, for example your store’s name.'
        maxLength={200}
        value={name}
        onValue={setName}
      />
      {platform === 'shopify' && (
        <TextField
          label='Shop domain'
          name='shop_domain'
          error={err}
          hint='Your store’s myshopify.com address, as Settings → Domains shows it.'
          required
          placeholder='your-store.myshopify.com'
          value={domain}
          onValue={setDomain}
        />
      )}
      {platform === 'woocommerce' && (
        <TextField
          label='Store URL'
          name='store_url'
          error={err}
          type='url'
          required
          placeholder='https://shop.example.com'
          value={storeUrl}
          onValue={setStoreUrl}
        />
      )}
      {platform !== 'webhook' && (
        <TextField
          label={platform === 'stripe' ? 'Signing secret' : 'Webhook signing secret'}
          name='webhook_secret'
          error={err}
          hint={platform === 'stripe'
            ? 'The endpoint’s whsec_… secret.'
            : platform === 'shopify'
            ? 'The key under “Your webhooks will be signed with”.'
            : 'The Secret you set on each WooCommerce webhook.'}
          required
          autoComplete='off'
          value={secret}
          onValue={setSecret}
        />
      )}
      {platform === 'shopify' && (
        <TextField
          label='Admin API access token (optional)'
          name='access_token'
          error={err}
          hint='With the write_products scope: Plaudit then keeps each product’s rating metafields up to date.'
          autoComplete='off'
          value={token}
          onValue={setToken}
        />
      )}
      <details class='setup-details' open>
        <summary>How to set it up on {PLATFORMS.find(([p]) => p === platform)![1]}</summary>
        <SetupSteps platform={platform} />
      </details>
      <div class='actions'>
        <button type='submit' class='button primary' disabled={save.pending}>
          {save.pending ? 'Connecting…' : 'Connect'}
        </button>
        <button type='button' class='button' onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
