// The handlebars runtime for the browser, served once per page by the registry
// (/oc-client/vendor/handlebars.js): template.js of a handlebars component is a precompiled spec.
import Handlebars from 'handlebars/runtime';

globalThis.TesseraHandlebars = Handlebars;
