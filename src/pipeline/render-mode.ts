/**
 * How a render answers (decisions §1): its markup (`rendered`), its view model and template for the
 * browser to render (`unrendered`), or what the component is, without running it (`info`).
 */
export type RenderMode = 'rendered' | 'unrendered' | 'info';
