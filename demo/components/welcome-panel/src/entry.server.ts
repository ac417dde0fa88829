import { Server } from 'oc-server';

export const server = new Server()
  .withParameters({
    name: { type: 'string', default: 'World', description: 'Who to greet', example: 'Ada' },
    city: { type: 'string', default: 'Lisbon', description: 'City of the weather badge', example: 'Porto' },
  })
  .handler(async (params, ctx) => {
    // Both children render at once; a failed one is an Error in the array, the other still shows.
    const [greeting, weather] = await ctx.renderComponents([
      { name: 'hello-world', parameters: { name: params.name } },
      { name: 'weather-badge', version: '2.x', parameters: { city: params.city, compact: true } },
    ]);
    return {
      greeting: greeting instanceof Error ? '' : greeting,
      weather: weather instanceof Error ? '' : weather,
    };
  });
