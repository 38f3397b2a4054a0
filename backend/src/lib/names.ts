// 'pallet_iq' → 'palletIq': marketplace ids as parts of operationIds.
export const camel = (id: string) => id.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
