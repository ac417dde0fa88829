import { Server } from 'oc-server';

export const server = new Server()
  .withParameters({
    amount: { type: 'number', mandatory: true, description: 'Unit price', example: '12.5' },
    currency: { type: 'string', enum: ['EUR', 'GBP', 'USD'], default: 'EUR', description: 'Currency code' },
    quantity: { type: 'number', default: 1, description: 'Units quoted by the `quote` action' },
  })
  .handler(async (params, ctx) => ({ label: ctx.plugins.formatPrice(params.amount, params.currency) }))
  // POST /~actions/quote/price-tag with {"amount": 12.5, "quantity": 3}
  .action('quote', async (params, ctx) => {
    const total = Math.round(Number(params.amount) * Number(params.quantity) * 100) / 100;
    return { total, label: ctx.plugins.formatPrice(total, params.currency) };
  });
