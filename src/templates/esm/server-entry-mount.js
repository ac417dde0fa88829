// The server template of OC's esm form (`createComponent({ mount, unmount })`): its code is written
// for the DOM, so the server renders only the element the browser mounts it into.
import { hydrationUnit } from '../hydration-unit.js';

export default function render(props) {
  return hydrationUnit(props, '', 'mount');
}
