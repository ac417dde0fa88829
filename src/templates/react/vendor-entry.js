// React for the browser, served once per page by the registry (/oc-client/vendor/react.js) for
// every oc-template-react component: their bundles read these modules from this global.
import * as react from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as reactDom from 'react-dom';
import * as reactDomClient from 'react-dom/client';

globalThis.TesseraReact = {
  react,
  'react/jsx-runtime': jsxRuntime,
  'react/jsx-dev-runtime': jsxRuntime,
  'react-dom': reactDom,
  'react-dom/client': reactDomClient,
};
