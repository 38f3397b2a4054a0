// External links in lookup tables (`https://` added when missing; docs/requirements.md, Marketplace pages).
export function externalHref(url: string): string {
  const trimmed = url.trim();
  if (/^https?:\/\//i.test(trimmed)) return trimmed;
  return `https://${trimmed.replace(/^\/\//, '')}`;
}
