// The wire format the sandbox speaks for each marketplace, from the marketplace registry.
import { byMarketplace } from '@app/domain/marketplaces';
import { marketplaceRegistry } from '../../marketplaces/registry.ts';

export const SIMULATED_FORMATS = byMarketplace((m) => marketplaceRegistry[m.id].simulator);

export type { SandboxReply, SimulatedFormat } from './types.ts';
