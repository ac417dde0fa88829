import t from 'tap';
import { wrapHtml } from '../../src/pipeline/wrap-html';

const infoOf = (name: string, version: string): string =>
  wrapHtml('<p>hi</p>', { href: 'http://127.0.0.1/x', templateKey: 'k', name, version, container: true, renderInfo: true }).slice('<p>hi</p>'.length);

t.test("the render-info script writes a plain name and version as they are, and escapes any other so that it cannot end the script", async (t) => {
  t.equal(infoOf('acme-card', '1.0.0+build.5'), '<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["acme-card"]="1.0.0+build.5";</script>');
  const hostile = infoOf('a</script><script>alert(1)</script>', '1.0.0"];alert(2);//');
  t.equal(hostile, '<script>window.oc=window.oc||{};oc.renderedComponents=oc.renderedComponents||{};oc.renderedComponents["a\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"]="1.0.0\\"];alert(2);//";</script>');
  t.equal(hostile.match(/<\/script>/g)?.length, 1, 'only the script element itself ends it');
});
