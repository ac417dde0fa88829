const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/;
const SPECIAL_ALL = /[&<>"']/g;

/**
 * Text made safe for HTML content and quoted attributes: the registry's one HTML escaper. Most values
 * (names, versions, plain hrefs) need no escaping; testing first spares the replacement.
 */
export const escapeHtml = (text: string): string => (SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ENTITIES[c]!) : text);
