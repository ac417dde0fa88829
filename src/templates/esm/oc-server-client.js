// `oc-server/client` as OC's esm components import it: getInitialData() and getSettings() answer
// what the component was last mounted with, and serverClient.<action>(parameters) calls the
// component's action through the browser client (window.oc.getAction).
let initialData = {};
let settings = {};

/** Splits OC's props from the model; called before each render. Answers the model. */
export function setInitialData(props, element) {
  const { _staticPath, _baseUrl, _componentName, _componentVersion, ...model } = props;
  initialData = model;
  settings = { id: element?.getAttribute?.('id') ?? undefined, element, staticPath: _staticPath, baseUrl: _baseUrl, name: _componentName, version: _componentVersion };
  return model;
}

export const getInitialData = () => initialData;
export const getSettings = () => settings;

export const serverClient = new Proxy(
  {},
  {
    get(_target, action) {
      return (parameters) =>
        window.oc.getAction({ action, baseUrl: settings.baseUrl, component: settings.name, version: settings.version, parameters });
    },
  },
);
