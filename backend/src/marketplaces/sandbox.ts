// The sandbox speaking every registered marketplace's wire format. The sandbox itself is a generic
// simulator; the formats live in each marketplace's folder and are plugged in here, so the
// dependency runs one way (marketplaces → sandbox).
import { byMarketplace } from '@app/domain/marketplaces';
import type { SandboxOptions } from '../sandbox/options.ts';
import { startSandbox, type Sandbox, type SimulatedFormats } from '../sandbox/server.ts';
import { marketplaceRegistry } from './registry.ts';
import { OPEN_LIBRARY_SANDBOX_SEGMENT } from '../book-details/options.ts';
import { openLibrarySim } from '../book-details/sandbox-format.ts';
import { KEEPA_SANDBOX_SEGMENT } from '../keepa/options.ts';
import { createKeepaSim } from '../keepa/sandbox-format.ts';

export const SIMULATED_FORMATS: SimulatedFormats = byMarketplace((m) => marketplaceRegistry[m.id].simulator);

/** Services besides the marketplaces, under their path segment (book-details/options.ts points at it). */
export const SIMULATED_SERVICES = { [OPEN_LIBRARY_SANDBOX_SEGMENT]: openLibrarySim, [KEEPA_SANDBOX_SEGMENT]: createKeepaSim() };

export function startMarketplaceSandbox(overrides: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  return startSandbox(SIMULATED_FORMATS, overrides, SIMULATED_SERVICES);
}
