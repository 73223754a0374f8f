// GET /favicon.ico: browsers ask for it on every page they show, so the service answers it with
// Plaudit's star (the pages' star colour, 32×32), rather than an error. A PNG in an ICO
// container, which every browser reads; constant, so cached for a week.
import { Hono } from 'hono';
import { base64Decode } from '../../core/bytes.ts';
import type { AppEnv } from '../http/env.ts';

const FAVICON = base64Decode(
  'AAABAAEAICAAAAEAIAA9AQAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAQRJREFUeNrtl9ENhCAMhhmB' +
    'ERjBERjBERjBLXxkBEZwBEdgBEdgBC+X1IQYEGwL5JJ7aGIiwuf/t7WKfRViZIhfB5ghhgE4iCEAcl/FCSFHAJgIwIwA2CKArTdA' +
    'LD/JBg75STZgAXwCwPcCUInDr1A9AOwDgMUCqIysrcJfaqU6W+vDXcmCbzaHBgeHVKXkvJmYLfGw56sklEyWuKcmVdt0Apfk2DKc' +
    'XkKEnORYAIlQQHICGASA4QRw1HqnAmCTkAVAZw444J6G69QazQFgK2o71zMsB8Bxk3UujOnhphIJIP7275WlJWFt1YxQ2myBN1oQ' +
    'c0PVszX+K8LkrEp5IP4/p6MBPlHtJ6sT07YRAAAAAElFTkSuQmCC',
);

export function faviconPage() {
  const app = new Hono<AppEnv>();
  app.get('/favicon.ico', (c) => {
    c.header('Cache-Control', 'public, max-age=604800');
    return c.body(FAVICON as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'image/x-icon' });
  });
  return app;
}
