/**
 * `window.ljs`: loads scripts (and `.css` files) once each, in the page, in order. OC's client
 * exposes a loader under that name and pages use it; `oc.require` goes through `window.ljs.load`
 * at each call so a page may replace it.
 */
export class ScriptLoader {
  readonly loaded = new Set<string>();
  readonly errors = new Set<(url: string) => void>();

  /** Each argument in turn: a URL, an array of URLs loaded together, or a function called when all before it loaded. */
  async load(...steps: unknown[]): Promise<this> {
    for (const step of steps) {
      if (Array.isArray(step)) await Promise.all(step.map((url) => this.#loadOne(url)));
      else if (typeof step === 'function') await step();
      else if (typeof step === 'string') await this.#loadOne(step);
    }
    return this;
  }

  onError(handler: (url: string) => void): this {
    this.errors.add(handler);
    return this;
  }

  async #loadOne(url: unknown): Promise<void> {
    if (typeof url !== 'string' || this.loaded.has(url)) return;
    try {
      await (url.endsWith('.css') ? this.css(url) : this.js(url));
      this.loaded.add(url);
    } catch (error) {
      for (const handler of this.errors) handler(url);
      throw error;
    }
  }

  /** A classic script, or an ES module when the URL starts with `module:`. */
  js(url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      if (url.startsWith('module:')) script.type = 'module';
      script.src = url.replace(/^module:/, '');
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`Could not load ${script.src}`));
      document.head.append(script);
    });
  }

  css(url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = url;
      link.onload = () => resolve();
      link.onerror = () => reject(new Error(`Could not load ${url}`));
      document.head.append(link);
    });
  }
}
