// The handlebars runtime for the browser, served once per page by the registry
// (/oc-client/vendor/handlebars.js): template.js of a handlebars component is a precompiled spec.
import Handlebars from 'handlebars/runtime';

// Under the name OC's handlebars views and pages expect; a page that has its own keeps it (the client loads this only when `Handlebars` is missing).
globalThis.Handlebars = Handlebars;
