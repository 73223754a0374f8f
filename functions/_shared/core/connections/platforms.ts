// The platforms a shop connection can be of.
export const PLATFORMS = ['shopify', 'woocommerce', 'stripe', 'webhook'] as const;
export type Platform = typeof PLATFORMS[number];
