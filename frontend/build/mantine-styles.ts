// Mantine's stylesheet per component instead of the whole 250 KB styles.css on the first load.
// Every Mantine component's JS imports its class names from `<Name>.module.mjs`, and its CSS ships
// as `styles/<Name>.layer.css`; in a build this plugin adds that CSS import to each such module, so
// a chunk brings exactly the CSS of the components it holds, in their import order (a component's
// dependencies first, as Mantine requires). All of it sits in `@layer mantine`, so the app's own CSS
// wins whatever order chunks load in. The dev server pre-bundles @mantine/core, where no transform
// runs, so there the entry imports the whole sheet instead.
import type { Plugin } from 'vite';

const MODULE = /\/@mantine\/core\/esm\/(?:.+\/)?([A-Za-z]+)\.module\.mjs$/;

export function mantineStylesPerComponent({ entry }: { entry: string }): Plugin {
  let serve = false;
  return {
    name: 'mantine-styles-per-component',
    enforce: 'pre',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    transform(code, id) {
      const path = id.split('?')[0] ?? id;
      if (serve) return path.endsWith(entry) ? `import '@mantine/core/styles.layer.css';\n${code}` : null;
      const name = MODULE.exec(path)?.[1];
      return name ? `import '@mantine/core/styles/${name}.layer.css';\n${code}` : null;
    },
  };
}
