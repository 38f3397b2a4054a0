// Vite's build manifest (frontend/dist/.vite/manifest.json) read the way the browser loads it: a
// chunk brings its static imports and their CSS at once, its dynamic imports only when called.
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  /** Files the chunk's code fetches by URL (Vite's `?url` imports, such as a .wasm): not loaded with it. */
  assets?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** The files (JS and CSS) fetched when these manifest keys load, static imports followed to the end. */
export function staticFiles(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const stack = [...keys];
  for (let key = stack.pop(); key !== undefined; key = stack.pop()) {
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest names ${key} but has no entry for it`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    stack.push(...(chunk.imports ?? []));
  }
  return files;
}

/** What the first page load fetches: every entry and its static imports. */
export function initialFiles(manifest: Manifest): Set<string> {
  return staticFiles(
    manifest,
    Object.keys(manifest).filter((k) => manifest[k]?.isEntry),
  );
}

/**
 * What opening a route adds to what is already loaded: the chunks split from its file (TanStack
 * Router's `?tsr-split=…` pieces) and their static imports, less the files in `loaded`.
 */
export function routeFiles(manifest: Manifest, routeFile: string, loaded: ReadonlySet<string>): Set<string> {
  const keys = Object.keys(manifest).filter((k) => (manifest[k]?.src ?? k).split('?')[0] === routeFile);
  if (keys.length === 0) throw new Error(`no chunk of ${routeFile} in the manifest`);
  return new Set([...staticFiles(manifest, keys)].filter((f) => !loaded.has(f)));
}

/**
 * What calling import() on a module fetches beyond `loaded`: its chunk, its static imports and their
 * CSS, and the files its code then asks for by URL (the scan page's barcode reader and its .wasm).
 */
export function onDemandFiles(manifest: Manifest, moduleFile: string, loaded: ReadonlySet<string>): Set<string> {
  const files = routeFiles(manifest, moduleFile, loaded);
  for (const chunk of Object.values(manifest)) {
    if (!files.has(chunk.file)) continue;
    for (const asset of chunk.assets ?? []) if (!loaded.has(asset)) files.add(asset);
  }
  return files;
}
