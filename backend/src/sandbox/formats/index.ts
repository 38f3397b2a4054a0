import type { MarketplaceId } from '@app/domain/marketplaces';
import { abeBooksSim } from './abebooks.ts';
import { alibrisSim } from './alibris.ts';
import { biblioSim } from './biblio.ts';
import { palletIqSim } from './palletiq.ts';
import type { SimulatedFormat } from './types.ts';

export const SIMULATED_FORMATS = {
  abe_books: abeBooksSim,
  biblio: biblioSim,
  alibris: alibrisSim,
  pallet_iq: palletIqSim,
} satisfies Record<MarketplaceId, SimulatedFormat>;

export type { SandboxReply, SimulatedFormat } from './types.ts';
