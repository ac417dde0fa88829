import { fixture, ofTenant, request, type TenantComponent } from '../helpers/start-registry';
import { parseMetrics, valueOf } from '../sandbox/parse-metrics';

/** The attacker's parent and its own child (the leased-child code, published under another name as the attacker's). */
export const PROBER = 'hostile-lease-prober';
export const proberChild = (tenant: string, version?: string): TenantComponent => ({ dir: fixture('leased-child'), tenant, name: 'prober-child', version });
export const prober = (tenant: string): TenantComponent => ofTenant(tenant, fixture(PROBER));
/** Another tenant's component, rendered beside the attacker: it must answer as it always does. */
export const BYSTANDER = (tenant: string): TenantComponent => ofTenant(tenant, fixture('leased-child'));

/** The wrapper's id is new at each render: the only part of an answer that may differ. */
export const withoutIds = (html: unknown): string => String(html).replace(/ id="[0-9a-f-]{36}"/g, ' id="…"');

/** How many nested renders went each way so far. */
export const nestedVia = async (url: string, via: 'host' | 'front'): Promise<number> =>
  valueOf(parseMetrics((await request(`${url}metrics`)).text), 'tessera_nested_renders_total', { via });

/** The bystander's answer, which no attack may change. */
export async function bystander(url: string): Promise<{ status: number; html: string }> {
  const answer = await request(`${url}leased-child?who=Bystander`);
  return { status: answer.status, html: withoutIds(answer.body.html) };
}
export const BYSTANDER_HTML = /^<oc-component href="http:\/\/127\.0\.0\.1:\d+\/leased-child\?who=Bystander&amp;loud=false" [^>]+><b>\{"params":\{"who":"Bystander","loud":false\}/;
