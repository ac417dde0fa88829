/**
 * The template types this registry renders. The runtime (catalog, pipeline, publish) reads the names
 * from here; the compilers stay with the packager.
 */
export const SUPPORTED_TEMPLATE_TYPES = ['oc-template-es6'] as const;

export const isSupportedTemplateType = (type: string): boolean => (SUPPORTED_TEMPLATE_TYPES as readonly string[]).includes(type);
