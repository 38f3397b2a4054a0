// Security headers on every answer (@fastify/helmet options).
import type { FastifyHelmetOptions } from '@fastify/helmet';

// The access token lives in localStorage, so the CSP keeps scripts to our own files; styles may be
// inline because Mantine sets them on elements. 'wasm-unsafe-eval' lets the scan page compile the
// barcode reader's WebAssembly (our own file, fetched from 'self'); it allows no JavaScript eval.
export const SECURITY_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Book covers come from Open Library's cover service (book details).
      imgSrc: ["'self'", 'data:', 'https://covers.openlibrary.org'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // Cross-origin isolation headers would only block the external links' favicons; not needed.
  crossOriginEmbedderPolicy: false,
};
