export interface AcceptedLanguage {
  code: string;
  region?: string;
  quality: number;
}

/** Parses `Accept-Language` (`en-GB,en;q=0.8`) into entries sorted by quality, highest first. */
export function parseAcceptLanguage(header: string | undefined): AcceptedLanguage[] {
  if (!header) return [];
  const entries: AcceptedLanguage[] = [];
  for (const part of header.split(',')) {
    const [tag, ...attributes] = part.trim().split(';');
    const match = /^([A-Za-z]{1,8}|\*)(?:-([A-Za-z0-9]{1,8}))?/.exec(tag?.trim() ?? '');
    if (!match) continue;
    const q = attributes.map((a) => /^\s*q=([0-9.]+)\s*$/.exec(a)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (!Number.isFinite(quality)) continue;
    entries.push(match[2] ? { code: match[1]!, region: match[2], quality } : { code: match[1]!, quality });
  }
  // Array.prototype.sort is stable: equal qualities keep the header's order.
  return entries.sort((a, b) => b.quality - a.quality);
}
