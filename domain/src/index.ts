export * from './fields.ts';
export * from './marketplaces.ts';
export * from './status.ts';
export * from './jobs.ts';
export * from './isbn.ts';
export * from './must.ts';
