// The sandbox speaking every registered marketplace's wire format. The sandbox itself is a generic
// simulator; the formats live in each marketplace's folder and are plugged in here, so the
// dependency runs one way (marketplaces → sandbox).
import { byMarketplace } from '@app/domain/marketplaces';
import type { SandboxOptions } from '../sandbox/options.ts';
import { startSandbox, type Sandbox, type SimulatedFormats } from '../sandbox/server.ts';
import { marketplaceRegistry } from './registry.ts';

export const SIMULATED_FORMATS: SimulatedFormats = byMarketplace((m) => marketplaceRegistry[m.id].simulator);

export function startMarketplaceSandbox(overrides: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  return startSandbox(SIMULATED_FORMATS, overrides);
}
