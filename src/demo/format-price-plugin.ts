import type { RegistryPlugin } from '../config/config';

/**
 * The plugin the demo's price-tag component declares: `formatPrice(amount, currency)` → `"€12.50"`.
 * Its arguments come from component code, so they are checked, not trusted.
 */
export const formatPricePlugin: RegistryPlugin = {
  name: 'formatPrice',
  description: 'Formats an amount of money in a currency (ISO 4217 code), British English conventions.',
  func: (amount, currency) => {
    if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new TypeError('formatPrice(amount, currency): amount must be a finite number.');
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new TypeError('formatPrice(amount, currency): currency must be a three-letter code.');
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  },
};
