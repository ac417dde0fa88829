import { Server } from 'oc-server';

export const server = new Server()
  .withParameters({
    city: { type: 'string', mandatory: true, description: 'City to show', example: 'Lisbon' },
    units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric', description: 'Temperature units' },
    days: { type: 'number', default: 1, description: 'Days of forecast' },
    compact: { type: 'boolean', default: false, description: 'One-line badge' },
  })
  .handler(async (params) => {
    const celsius = 21;
    const temperature = params.units === 'imperial' ? `${Math.round((celsius * 9) / 5 + 32)}°F` : `${celsius}°C`;
    return { city: String(params.city), temperature, days: Number(params.days), compact: params.compact === true };
  });
